"""The seeded cases whose outcomes must not change when the core is re-laid (issue 24).

``python tests/golden/cases.py OUT.json`` runs every case through the installed ``crit`` and
writes each one's ``--json`` answer; ``tests/golden/outcomes-65d83fa.json`` was written this way
by an install of commit 65d83fa (the commit before the core's re-layout), and
``test_core_golden.py`` compares today's answers with it field by field. A case names the
command's arguments; ``{examples}`` is the folder ``crit examples`` wrote into and ``{samples}``
the shared sample units (cases on them are skipped where that folder is absent).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[3] / "shared" / "mtf-samples"
SEEDS = (1, 2, 7, 284)
BT_LOCATIONS = ("HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL")


def cases() -> list[list[str]]:
    out: list[list[str]] = []
    for seed in SEEDS:
        s = ["--seed", str(seed)]
        out += [
            ["resolve", "gurps", "attack", "--skill", "14", "--damage", "2d+1 cut", *s],
            ["resolve", "gurps", "attack", "--skill", "16", "--damage", "1d+2 imp", "--location", "vitals", *s],
            ["resolve", "gurps", "attack", "--skill", "9", "--unarmed", *s],
            ["resolve", "gurps", "attack", "--skill", "12", "--damage", "3d cr", "--target", "bertram.json", *s],
            ["resolve", "gurps", "defense", "--skill", "10", "--defense", "parry", *s],
            ["resolve", "gurps", "spell", "--skill", "13", "--harmful", *s],
            ["resolve", "gurps", "critical-hit", "--damage", "2d+1 cut", "--location", "torso", *s],
            ["resolve", "gurps", "head-blow", "--damage", "1d+1 cr", *s],
            ["resolve", "gurps", "critical-miss", "--damage", "2d cut", *s],
            ["resolve", "gurps", "unarmed-miss", *s],
            ["resolve", "gurps", "spell-failure", "--iq", "12", *s],
            ["resolve", "gurps", "hit-location", *s],
            ["resolve", "shadowrun2", "wound", "--severity", "serious", "--target", "runner.toml", *s],
            ["resolve", "shadowrun2", "wound", "--severity", "deadly", "--body", "4", *s],
            ["resolve", "shadowrun2", "wound", "--severity", "moderate", "--body", "6", "--combat-pool", "2", *s],
            ["resolve", "battletech", "hit-location", *s],
            ["resolve", "battletech", "hit-location", "--side", "left", *s],
        ]
        for loc in BT_LOCATIONS:
            out.append(["resolve", "battletech", "critical", "--location", loc, "--target", "quillback.mtf", *s])
            out.append(["resolve", "battletech", "damage", "--location", loc, "--amount", "25",
                        "--target", "quillback.mtf", *s])
        if SAMPLES.is_dir():
            for unit in sorted(SAMPLES.glob("*.mtf")):
                for loc in ("CT", "LT", "RA"):
                    out.append(["resolve", "battletech", "critical", "--location", loc,
                                "--target", "{samples}/" + unit.name, *s])
    return out


def run(argv: list[str], folder: Path) -> object:
    args = [a.replace("{samples}", str(SAMPLES)) for a in argv]
    done = subprocess.run([shutil.which("crit") or "crit", *args, "--json"], cwd=folder,
                          capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    if done.returncode not in (0, 1):
        return {"exit": done.returncode, "stderr": done.stderr.strip()}
    return json.loads(done.stdout)


BIG = 2000  # a field whose JSON is longer than this is kept as its digest


def slim(answer: object) -> object:
    """Each top-level field of an answer as it is, or its SHA-256 when it is long; the sample
    units' folder is written ``{samples}`` (a unit's state names the file it came from, and CI's
    copy of the folder is somewhere else)."""
    if not isinstance(answer, dict):
        return answer
    out = {}
    for key, value in answer.items():
        text = json.dumps(value, sort_keys=True).replace(json.dumps(str(SAMPLES))[1:-1], "{samples}")
        out[key] = json.loads(text) if len(text) <= BIG else "sha256:" + hashlib.sha256(text.encode()).hexdigest()
    return out


def main() -> None:
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        subprocess.run([shutil.which("crit") or "crit", "examples"], cwd=folder, check=True, capture_output=True)
        for argv in cases():
            results[" ".join(argv)] = slim(run(argv, folder))
    Path(sys.argv[1]).write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
