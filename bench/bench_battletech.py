"""BattleTech on real units: start-up of one resolution on an .mtf unit, in-process criticals on an
Atlas, and importing the MTF corpus against a naive key:value split of the same files.

    python bench/bench_battletech.py [--quick]

Start-up is a ratio to the floor `python -c "import click"`, measured interleaved with it (median
of several rounds), for a unit file a command has imported before and for one it has not. Every figure is CPU time, so a busy machine changes it less than wall time. The corpus figures need ../shared/mtf-corpus/units and are skipped without it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared"
ATLAS = SHARED / "mtf-samples" / "Atlas AS7-D.mtf"
FIXTURE = HERE.parent / "plugins" / "critcore-battletech" / "tests" / "fixtures" / "legacy-biped-fb1l.mtf"
CORPUS = SHARED / "mtf-corpus" / "units"


def unit_file() -> Path:
    return ATLAS if ATLAS.is_file() else FIXTURE


def _time(cmd: list[str]) -> float:
    """The CPU time (user + system) the command's process took: on a busy machine the wall clock
    says more about the other processes than about this one."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"benchmark command failed: {' '.join(cmd)}\n{done.stderr.decode()[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def startup(runs: int) -> list[tuple[str, float, float]]:
    """One `crit resolve battletech critical --unit X.mtf` against the floor, interleaved: the
    unit as a later command finds it (its import kept in critcore's cache folder), and a unit
    file no command has imported yet (a copy whose text changes before each run)."""
    import tempfile

    beside = os.path.join(os.path.dirname(sys.executable), "crit")
    crit = [beside] if os.path.exists(beside) else [sys.executable, "-m", "critcore"]
    resolve = crit + ["resolve", "battletech", "critical", "--location", "RT", "--seed", "1", "--unit"]
    text = unit_file().read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / unit_file().name
        fresh.write_text(text, encoding="utf-8")
        cold = "  the same, a unit file not imported before"
        commands = {
            "floor: python -c 'import click'": [sys.executable, "-c", "import click"],
            f"crit resolve battletech critical --unit {unit_file().name}": resolve + [str(unit_file())],
            cold: resolve + [str(fresh)],
        }
        times: dict[str, list[float]] = {k: [] for k in commands}
        for cmd in commands.values():  # warm the file cache once
            _time(cmd)
        for n in range(runs):
            for name, cmd in commands.items():
                if name == cold:  # new text: the cache has no entry for it
                    fresh.write_text(text + f"# run {n}\n", encoding="utf-8")
                times[name].append(_time(cmd))
    floor = statistics.median(times["floor: python -c 'import click'"])
    return [(name, statistics.median(t) * 1000, statistics.median(t) / floor) for name, t in times.items()]


def rate(fn: Callable[[], Any], seconds: float) -> float:
    """Calls per second of CPU time (this process's)."""
    n = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(100):
            fn()
        n += 100
        now = time.process_time()
        if now >= deadline:
            return n / (now - start)


def criticals(seconds: float) -> list[tuple[str, float]]:
    """In-process `critical` resolutions on the Atlas (imported once), every location, seeded dice."""
    from critcore.dice.rollers import RandomRoller
    from critcore.engine.runner import Engine

    from critcore_battletech.units import unit_from_mtf

    engine = Engine("battletech")
    # checked and frozen once, as a caller keeps the state an outcome hands back
    unit = engine.check_target(unit_from_mtf(unit_file().read_bytes(), str(unit_file())))
    roller = RandomRoller(1)
    codes = list(unit["locations"])
    i = 0

    def one() -> None:
        nonlocal i
        engine.run("critical", {"location": codes[i % len(codes)]}, roller=roller, target=unit)
        i += 1

    def hand() -> None:  # the reference: the same 2d6 row look-up and slot roll written out by hand
        nonlocal i
        import random

        total = random.randint(1, 6) + random.randint(1, 6)
        if total >= 8:
            slots = unit["locations"][codes[i % len(codes)]]["slots"]
            slots[random.randrange(len(slots))]["kind"]
        i += 1

    found = [(f"critical on {unit['chassis']} {unit['model']}", rate(one, seconds))]
    # a process that has met an equal copy of the unit first (exact odds on the same file, as
    # bench.py runs before this): per-unit look-ups must not compare the two in depth each time
    import critcore

    copy = unit_from_mtf(unit_file().read_bytes(), str(unit_file()))
    for code in ("HD", "LA", "CT", "RT"):
        critcore.odds("battletech", "critical", target=copy, location=code)
    found.append(("  the same, after exact odds on a copy of the unit", rate(one, seconds)))
    found.append(("hand-written reference (2d6 and a slot)", rate(hand, seconds)))
    return found


def corpus_import(limit: int | None = None) -> list[tuple[str, float]] | None:
    """Import every corpus file in-process, against a naive key:value split of the same bytes."""
    if not CORPUS.is_dir():
        return None
    from critcore_battletech.units import unit_from_mtf

    files = [(str(p), p.read_bytes()) for p in sorted(CORPUS.rglob("*.mtf"))][:limit]

    def naive() -> None:
        for _, data in files:
            out = {}
            for line in data.decode("utf-8", "replace").splitlines():
                key, _, value = line.partition(":")
                out[key.strip().lower()] = value.strip()

    from critcore_battletech.data.catalog import catalog

    cat = catalog()  # one catalog for the whole corpus, as one engine reading every file keeps

    def full() -> None:
        for source, data in files:
            unit_from_mtf(data, source, cat)

    full()  # the first pass reads the data files
    results = []
    for name, fn in (("naive key:value split", naive), ("unit_from_mtf", full)):
        runs = []
        for _ in range(3):
            start = time.process_time()
            fn()
            runs.append(time.process_time() - start)
        results.append((name, min(runs)))
    return [(f"{len(files)} files: {name}", t) for name, t in results]


def report(systems: list[str], quick: bool = False) -> None:
    """The figures below, for bench/bench.py (only when BattleTech is installed)."""
    if "battletech" in systems:
        print()
        run(quick)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds, shorter runs")
    run(parser.parse_args().quick)


def run(quick: bool) -> None:
    runs, seconds = (3, 0.3) if quick else (15, 1.0)
    print(f"BattleTech start-up (CPU time, median of {runs} interleaved runs)")
    for name, ms, ratio in startup(runs):
        print(f"  {name:<60} {ms:7.1f} ms   {ratio:5.2f} x floor")
    print("BattleTech in-process criticals per second of CPU time")
    found = criticals(seconds)
    for name, per_s in found:
        print(f"  {name:<60} {per_s:10,.0f}/s")
    print(f"  {'the reference is this many times faster':<60} {found[-1][1] / found[0][1]:10.0f}x")
    found = corpus_import(200 if quick else None)
    if found is None:
        print("corpus import: ../shared/mtf-corpus/units is not here (skipped)")
        return
    print("BattleTech corpus import (CPU time, best of 3)")
    base = found[0][1]
    for name, t in found:
        print(f"  {name:<60} {t * 1000:8.1f} ms   {t / base:5.1f} x naive")


if __name__ == "__main__":
    main()
