"""Exact odds of every location of every unit in MegaMek's unit files (issue 25: at most 2 s each).

    python bench/bench_corpus_odds.py [--units DIR] [--only LT,RT] [--every N] [--out FILE] [--commands N]

Runs ``crit odds battletech critical --location X`` in-process for every location of every
``.mtf`` under ``../shared/mtf-corpus/units`` (skipped when the folder is not there), each on a
fresh engine with the sub-enumerations forgotten, and prints the slowest ten with their CPU time
(``time.process_time``: the machine is shared, so wall time says more about the load than about
critcore), the number of outcomes, and the budget as a ratio. ``--every N`` takes every N-th unit
(a quick look); ``--out`` writes one line per location (unit, location, seconds, outcomes).

Then the slowest ``--commands`` locations (3 by default; 0 for none) are asked as a user asks
them: ``crit odds battletech critical --unit FILE --location X``, as a command of its own
(``python -m critcore``, the same as ``crit``), once for the report in words and once with
``--json``, each timed from start to exit (wall) and by its CPU: start-up, the unit read, the
odds, the report or the JSON written. That is what the 2 s is felt as. Each is asked with one
process (``CRITCORE_ODDS_PROCESSES=1``) and with two (the default: a long question shares its last
stage with a second process, ``critcore._speed.twocores``), one after the other.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "shared", "mtf-corpus", "units")
FIXTURE = os.path.join(HERE, "..", "plugins", "critcore-battletech", "tests", "fixtures", "superheavy-fs5x.mtf")
BUDGET = 2.0  # seconds of exact odds for any location of any corpus unit (issue 25)


def units(folder: str, every: int) -> list[str]:
    found = sorted(os.path.join(root, name) for root, _, names in os.walk(folder)
                   for name in names if name.lower().endswith(".mtf"))
    return found[::every] + ([FIXTURE] if os.path.exists(FIXTURE) else [])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", default=CORPUS)
    ap.add_argument("--only", default="", help="locations to run (comma-separated codes); all by default")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--out", default="")
    ap.add_argument("--commands", type=int, default=3, help="the slowest N locations asked as crit commands too")
    args = ap.parse_args(argv)
    if not os.path.isdir(args.units):
        print(f"corpus odds: skipped ({args.units} not found)")
        return 0
    from critcore.chance.exact import exact_odds
    from critcore.engine.runner import Engine
    from critcore.errors import CritcoreError
    from critcore_battletech.data.catalog import catalog
    from critcore_battletech.units import unit_from_mtf

    only = {c for c in args.only.split(",") if c}
    rows: list[tuple[float, str, str, int, bool, str]] = []
    failed: list[str] = []
    out = open(args.out, "w", encoding="utf-8") if args.out else None
    cat = catalog()  # one importer catalog for every unit
    files = units(args.units, args.every)
    start = time.process_time()
    for n, path in enumerate(files, 1):
        name = os.path.relpath(path, args.units) if path != FIXTURE else "fixture: superheavy-fs5x.mtf"
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                unit = unit_from_mtf(fh.read(), path, cat)
        except CritcoreError:
            continue  # a file the importer refuses (its tests say which): no odds to time
        for code in unit["locations"]:
            if only and code not in only:
                continue
            engine = Engine("battletech")  # and exact_odds forgets what the location before remembered
            t = time.process_time()
            try:
                odds = exact_odds(engine, "critical", {"location": code}, target=unit)
            except CritcoreError as e:
                failed.append(f"{name} {code}: {e}")
                continue
            took = time.process_time() - t
            rows.append((took, name, code, len(odds.branches), odds.exact, path))
            if out is not None:
                out.write(f"{name}\t{code}\t{took:.4f}\t{len(odds.branches)}\t{odds.exact}\n")
                out.flush()
        if n % 100 == 0:
            print(f"  {n:,}/{len(files):,} units, {time.process_time() - start:,.0f} s CPU", file=sys.stderr)
    rows.sort(reverse=True)
    total = time.process_time() - start
    print(f"exact odds of every location of {len(files):,} units ({len(rows):,} locations), "
          f"{total:,.0f} s CPU, load {os.getloadavg()[0]:.1f}")
    print("slowest ten (CPU seconds; budget 2 s each):")
    for took, name, code, outcomes, exact, _ in rows[:10]:
        print(f"  {took:6.2f} s  {took / BUDGET:5.2f}x budget  {code:3}  {outcomes:5,} outcomes"
              f"{'' if exact else ' (not exact)'}  {name}")
    over = [r for r in rows if r[0] > BUDGET]
    print(f"over budget: {len(over)}; refused: {len(failed)}")
    for line in failed[:10]:
        print("  " + line)
    if args.commands > 0 and rows:
        print(f"the slowest {min(args.commands, len(rows))} as crit commands (wall and CPU seconds, start to exit; "
              "budget 2 s):")
        for took, name, code, _, _, path in rows[: args.commands]:
            for extra, what in (([], "report"), (["--json"], "--json")):
                # one process and two (the default), side by side: wall time is what two save
                one = command(path, code, extra, "1")
                two = command(path, code, extra, "2")
                print(f"  {code:3}  {what:6}  1 process {one[0]:5.2f} s wall {one[1]:5.2f} s CPU   2 processes "
                      f"{two[0]:5.2f} s wall {two[1]:5.2f} s CPU  ({two[0] / one[0]:.2f}x wall)  {name}")
    return 0


def command(path: str, code: str, extra: list[str], processes: str = "2") -> tuple[float, float]:
    """``crit odds battletech critical --unit PATH --location CODE`` as a command: wall and CPU
    seconds (of both processes, when it shared the question with a second) from start to exit,
    its output read and dropped; ``processes``: ``CRITCORE_ODDS_PROCESSES``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "critcore", "odds", "battletech", "critical", "--unit", path,
                           "--location", code, *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, "CRITCORE_ODDS_PROCESSES": processes})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"crit odds failed on {path} {code}: {done.stderr.strip()[-300:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


if __name__ == "__main__":
    raise SystemExit(main())
