"""Exact-odds and simulation figures, run by bench.py after the start-up and throughput ones."""

from __future__ import annotations

import os
import time
from typing import Any

ODDS_CASES: list[tuple[str, str, dict[str, Any], str]] = [
    ("gurps", "attack", {"skill": 15}, "budget 5 ms"),
    ("gurps", "attack", {"skill": 15, "damage": "2d+1 cut", "dr": 2}, "with injury"),
    ("shadowrun2", "wound", {"body": 4, "severity": "serious"}, "budget 10 ms"),
]
SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "mtf-samples")


def best_of(fn: Any, repeat: int) -> float:
    """The fastest of ``repeat`` runs of ``fn``, in seconds (each exact-odds question works its
    sub-enumerations out afresh: ``exact_odds`` forgets them as it begins)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def battletech_cases() -> list[tuple[str, str, dict[str, Any], str, Any]]:
    path = os.path.join(SAMPLES, "Atlas AS7-D.mtf")
    if not os.path.exists(path):
        return []
    from critcore_battletech.units import unit_from_mtf

    with open(path, encoding="utf-8") as fh:
        unit = unit_from_mtf(fh.read(), path)
    return [("battletech", "critical", {"location": loc}, "Atlas AS7-D, budget 2 s", unit)
            for loc in ("HD", "LA", "CT", "RT", "LT")]


def report(systems: list[str], quick: bool = False) -> None:
    from critcore.engine.runner import Engine
    from critcore.chance.exact import exact_odds
    from critcore.chance.montecarlo import simulate

    repeat = 2 if quick else 5
    print()
    print("exact odds (crit odds, in-process, best of %d)" % repeat)
    cases = [c + (None,) for c in ODDS_CASES if c[0] in systems]
    if "battletech" in systems:
        bt = battletech_cases()
        if bt:
            cases.extend(bt)
        else:
            print("  battletech critical: skipped (../shared/mtf-samples not found)")
    for system, proc, params, note, target in cases:
        engine = Engine(system)
        warm_proc, warm_params = ("hit-location", {}) if system == "battletech" else (proc, params)
        exact_odds(engine, warm_proc, warm_params, target=target)  # load the tables once
        slow = system == "battletech" and params.get("location") in ("LT", "RT")
        seconds = best_of(lambda: exact_odds(engine, proc, params, target=target), 1 if slow else repeat)
        odds = exact_odds(engine, proc, params, target=target)
        shown = ", ".join(f"{k}={v}" for k, v in params.items())
        print(f"  {system} {proc} ({shown}): {seconds * 1000:9.2f} ms   "
              f"{len(odds.branches)} outcomes, {'exact' if odds.exact else 'remainder ' + str(float(odds.remainder))}"
              f"   [{note}]")
    here = os.path.dirname(os.path.abspath(__file__))
    import runpy

    runpy.run_path(os.path.join(here, "bench_icepool.py"), run_name="bench_icepool")["report"](systems, best_of, quick)
    if "gurps" in systems:
        n = 100_000 if quick else 500_000
        engine = Engine("gurps")
        simulate(engine, "attack", {"skill": 14}, 1000, 1)
        seconds = best_of(lambda: simulate(engine, "attack", {"skill": 14}, n, 1), 1 if quick else 3)
        print()
        print("simulation (crit simulate, in-process, one core)")
        print(f"  gurps attack (skill=14): {n / seconds:12,.0f} resolutions/s   [budget 500,000/s]")
