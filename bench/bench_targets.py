"""Target checks (issue 11): what checking a target against its system's declared schema costs.

Run by ``bench/bench.py`` (``report``); alone: ``python bench/bench_targets.py [--quick]``.

For each system with a target, side by side in one run:

- ``passed back``: a resolution on the outcome's own frozen target (a bot or a simulation
  carrying the state along): the engine produced it, so it is not walked again;
- ``new dict``: a resolution on a plain dict each time (a caller re-reading its state): the
  target is checked and frozen in one walk;
- ``freeze only`` / ``check``: the walk alone, per second: what a new dict cost before target
  checks (freezing) and what it costs now (checking and freezing in the same walk).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def rate(fn: Callable[[], Any], seconds: float) -> float:
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            fn()
        n += 50
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def cases(systems: list[str]) -> list[tuple[str, str, str, dict[str, Any], Any]]:
    """(label, system, procedure, params, target as plain data) for each installed system."""
    out = []
    if "gurps" in systems:
        out.append(("gurps critical-hit, a character", "gurps", "critical-hit", {"damage": "2d cr"},
                    {"name": "Sir Bertram", "hp": 12, "ht": 11, "iq": 10, "dx": 12, "dr": {"torso": 2, "all": 1},
                     "statuses": [{"id": "stunned", "check": {"roll": "ht", "every": 1, "next": 1, "modifier": 0}}],
                     "injuries": [], "owed_rolls": []}))
    if "shadowrun2" in systems:
        out.append(("shadowrun2 wound, a character", "shadowrun2", "wound", {"severity": "serious"},
                    {"name": "Ghost", "body": 4, "physical": 2, "stun": 0, "clock": 0, "criticals": []}))
    unit = ROOT / "plugins" / "critcore-battletech" / "tests" / "units" / "testmech-tm1.json"
    if "battletech" in systems and unit.exists():
        out.append(("battletech critical, a full unit", "battletech", "critical", {"location": "CT"},
                    json.loads(unit.read_text(encoding="utf-8"))))
    return out


def report(systems: list[str], quick: bool = False) -> None:
    from critcore.dice.rollers import RandomRoller
    from critcore.engine.runner import Engine
    from critcore.model import freeze, thaw

    seconds = 0.3 if quick else 1.0
    print()
    print("target checks (per second; the schema walk is the whole difference between the last two)")
    for label, system, proc, params, state in cases(systems):
        engine = Engine(system)
        roller = RandomRoller(1)
        frozen = engine.check_target(state, "bench")
        plain = thaw(frozen)
        passed_back = rate(lambda: engine.run(proc, params, roller=roller, target=frozen), seconds)
        new_dict = rate(lambda: engine.run(proc, params, roller=roller, target=dict(plain)), seconds)
        freeze_only = rate(lambda: freeze(plain), seconds)
        schema_check = rate(lambda: engine.check_target(dict(plain), "bench"), seconds)
        print(f"  {label:<36} passed back {passed_back:10,.0f}   new dict {new_dict:10,.0f}   "
              f"freeze only {freeze_only:10,.0f}   check {schema_check:10,.0f}")


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    from bench import installed_systems

    report(installed_systems(), quick="--quick" in sys.argv)
    os._exit(0)
