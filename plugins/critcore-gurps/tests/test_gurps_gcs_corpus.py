"""Every GCS character of ../shared/gcs-corpus (real files, not copied into the project; skipped
when the folder is absent): it imports, its numbers equal GCS's own calc, a seeded critical hit
runs through every stage, and a save-and-reread keeps the file otherwise identical."""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

import pytest
from critcore.testing import Engine

from critcore_gurps import bodies, gcs

import os

# ../shared beside the checkout (the main checkout's, or a worktree's parent's), or $CRITCORE_GCS_CORPUS
CORPUS = Path(os.environ.get("CRITCORE_GCS_CORPUS") or next(
    (p / "shared" / "gcs-corpus" / "characters" for p in Path(__file__).resolve().parents[3:6]
     if (p / "shared" / "gcs-corpus" / "characters").is_dir()), Path("/nonexistent")))
FILES = sorted(CORPUS.rglob("*.gcs")) if CORPUS.is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason="../shared/gcs-corpus is not here")


def _calc(doc: dict[str, Any], attr: str, field: str = "value") -> Any:
    return next(a["calc"].get(field) for a in doc["attributes"] if a["attr_id"] == attr)


PARTS = 4  # the corpus in four parts, so that both cores share it


@pytest.mark.parametrize("part", range(PARTS))
def test_every_corpus_character(part: int) -> None:
    engine = Engine("gurps")
    procedure = engine.procedure("critical-hit")
    checked = 0
    share = FILES[part::PARTS]
    for path in share:
        text = path.read_text(encoding="utf-8")
        doc = json.loads(text)
        state = engine.read_target(str(path), text)
        assert state is not None, path
        target = engine.check_target(state, str(path))
        assert state["hp"] == _calc(doc, "hp") and state["ht"] == _calc(doc, "ht"), path
        assert state.get("current_hp", state["hp"]) == (_calc(doc, "hp", "current") or _calc(doc, "hp")), path
        body_type = doc["settings"]["body_type"]
        by_key = {p["gcs_id"]: p for p in state["body"]["locations"]} if "body" in state else {}
        ours = bodies._slots_ranges(list(body_type["locations"]), 3)
        for (gid, theirs), mine in zip(bodies.gcs_ranges(body_type), ours):
            assert [r for r in mine if r[0] <= 18] == [r for r in theirs if r[0] <= 18] or mine == theirs, (path, gid)
        for loc in body_type["locations"]:
            part = next(p for p in state["body"]["locations"] if p["gcs_id"] == loc["id"]
                        and p["name"] in (loc["table_name"], p["name"]))
            assert part["dr"] == loc["calc"]["dr"].get("all", 0), (path, loc["id"])
        assert by_key or not body_type["locations"]
        outcome = engine.run(procedure.name, {"location": "random", "damage": "2d cut"}, seed=7, target=target)
        assert outcome.location is not None and outcome.effects and outcome.applied is not None, path
        saved = engine.write_target(str(path), dict(outcome.applied.target))
        again = engine.read_target(str(path), saved)
        assert again is not None and again.get("current_hp", again["hp"]) == outcome.applied.target.get(
            "current_hp", outcome.applied.target["hp"]), path
        removed = [l for l in difflib.ndiff(text.splitlines(), saved.splitlines()) if l.startswith("- ")]
        assert all('"current":' in l or '"damage":' in l for l in removed), (path, removed[:3])
        assert engine.write_target(str(path), state) == text, path
        checked += 1
    assert checked == len(share) and sum(len(FILES[k::PARTS]) for k in range(PARTS)) == len(FILES)
