"""Whatever a unit file says, the importer returns a unit or raises StateError naming the file
and a line: never another exception (a traceback is a bug)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from critcore.plugin import StateError
from critcore_battletech.units import unit_from_mtf
from bt_shared import kept_catalog

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies

FIXTURES = Path(__file__).resolve().parent / "fixtures"
LINES = [line for p in sorted(FIXTURES.glob("*.mtf")) for line in p.read_text(encoding="utf-8", errors="surrogateescape").splitlines()]
ERROR = re.compile(r"^fuzz\.mtf, line \d+: \S")
# the README's pytest draws fewer edited files (it must finish in 90 s); .ci/run's long run
# (CRITCORE_LONG=1, step 7) many more of the same strategies
LONG = bool(os.environ.get("CRITCORE_LONG"))


def _check(body: str) -> None:
    try:
        unit = unit_from_mtf(body, "fuzz.mtf", kept_catalog())
    except StateError as exc:
        assert ERROR.match(str(exc)), str(exc)
        assert "\n" not in str(exc)
    else:
        assert unit["kind"] == "battletech-mech"


@hypothesis.settings(max_examples=1500 if LONG else 100, deadline=None)
@hypothesis.given(
    base=st.sampled_from(sorted(FIXTURES.glob("*.mtf"))),
    edits=st.lists(st.tuples(st.integers(0, 400), st.sampled_from(["drop", "copy", "swap", "noise"]),
                             st.one_of(st.sampled_from(LINES), st.text(max_size=30))), max_size=6),
)
def test_an_edited_fixture_imports_or_fails_with_file_and_line(base: Path, edits: list[tuple[int, str, str]]) -> None:
    lines = base.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    for at, how, other in edits:
        if not lines:
            break
        i = at % len(lines)
        if how == "drop":
            del lines[i]
        elif how == "copy":
            lines.insert(i, lines[i])
        elif how == "swap":
            lines[i] = other
        else:
            lines.insert(i, other)
    _check("\n".join(lines))


@hypothesis.settings(max_examples=1000 if LONG else 200, deadline=None)
@hypothesis.given(st.text(max_size=200))
def test_any_text_imports_or_fails_with_file_and_line(body: str) -> None:
    _check(body)
