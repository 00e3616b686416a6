"""critcore's benchmark: start-up and throughput, measured side by side in one run.

    python bench/bench.py [--runs N] [--quick]

Start-up figures are ratios to the floor `python -c "import click"`, measured interleaved with
it (each round runs every command once) so machine noise hits all of them alike; medians are
reported. Throughput is measured in-process through the Python API. Budgets are in
docs/performance.md; nothing here asserts them, it prints them.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from typing import Any, Callable

# what a typical resolution of each system looks like (used when the system is installed)
RESOLVE = {
    "gurps": ("attack", {"skill": 14}),
    "shadowrun2": ("wound", {"body": 4, "severity": "serious"}),
    "battletech": ("hit-location", {}),
}
STARTUP_EXTRA = {
    "gurps": ["resolve", "gurps", "attack", "--skill", "14", "--seed", "1"],
    "shadowrun2": ["resolve", "shadowrun2", "wound", "--body", "4", "--severity", "serious", "--seed", "1"],
    "battletech": ["resolve", "battletech", "hit-location", "--seed", "1"],
}


def installed_systems() -> list[str]:
    from critcore.plugins import Registry

    return sorted(Registry.installed().systems)


def time_cmd(cmd: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"benchmark command failed: {' '.join(cmd)}\n{done.stderr.decode()[-500:]}")
    return elapsed


def startup(runs: int, systems: list[str], extra: dict[str, list[str]] | None = None) -> list[tuple[str, float, float]]:
    # the crit of this Python's environment (not whichever crit comes first on PATH)
    beside = os.path.join(os.path.dirname(sys.executable), "crit")
    crit = beside if os.path.exists(beside) else (shutil.which("crit") or "")
    base = [crit] if crit else [sys.executable, "-m", "critcore"]
    commands: dict[str, list[str]] = {
        "floor: python -c 'import click'": [sys.executable, "-c", "import click"],
        "crit --version": base + ["--version"],
        "crit --help": base + ["--help"],
    }
    for s in systems:
        if s in STARTUP_EXTRA:
            commands["crit " + " ".join(STARTUP_EXTRA[s][:3])] = base + STARTUP_EXTRA[s]
    for name, args in (extra or {}).items():
        commands[name] = base + args
    times: dict[str, list[float]] = {k: [] for k in commands}
    for cmd in commands.values():  # warm the file cache once
        time_cmd(cmd)
    for _ in range(runs):
        for name, cmd in commands.items():
            times[name].append(time_cmd(cmd))
    floor = statistics.median(times["floor: python -c 'import click'"])
    return [(name, statistics.median(t) * 1000, statistics.median(t) / floor) for name, t in times.items()]


def rate(fn: Callable[[], Any], seconds: float = 1.0) -> float:
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(200):
            fn()
        n += 200
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def throughput(systems: list[str], seconds: float) -> list[tuple[str, float]]:
    from critcore.dice import RandomRoller
    from critcore.engine import Engine

    out = []
    for s in systems:
        if s not in RESOLVE:
            continue
        proc, params = RESOLVE[s]
        engine = Engine(s)
        roller = RandomRoller(1)
        out.append((f"{s} {proc}", rate(lambda: engine.run(proc, params, roller=roller), seconds)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="rounds of start-up timing (default 15)")
    parser.add_argument("--quick", action="store_true", help="fewer rounds, shorter throughput runs")
    args = parser.parse_args()
    runs = 3 if args.quick else args.runs
    seconds = 0.3 if args.quick else 1.0
    systems = installed_systems()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{platform.system()} {platform.release()}")
    print(f"systems installed: {', '.join(systems) or 'none'}")
    print()
    print(f"start-up (median of {runs} interleaved runs)")
    import runpy
    import tempfile

    here = os.path.dirname(os.path.abspath(__file__))
    campaign = runpy.run_path(os.path.join(here, "bench_campaign.py"), run_name="bench_campaign")
    with tempfile.TemporaryDirectory() as folder:
        extra = {}
        if "gurps" in systems:  # one resolution on a campaign target: applied, logged, synced
            extra["crit resolve gurps ... --target @fighter"] = campaign["startup_command"](
                campaign["make_campaign"](folder))
        for name, ms, ratio in startup(runs, systems, extra):
            print(f"  {name:<42} {ms:7.1f} ms   {ratio:5.2f} x floor")
    print()
    print("in-process resolutions per second (Python API, Engine.run, seeded random dice)")
    for name, per_s in throughput(systems, seconds):
        print(f"  {name:<42} {per_s:12,.0f} /s")
    campaign["report"](systems, quick=args.quick)
    targets = os.path.join(here, "bench_targets.py")  # what checking targets against their schemas costs
    if os.path.exists(targets):
        runpy.run_path(targets, run_name="bench_targets")["report"](systems, quick=args.quick)
    odds = os.path.join(here, "bench_odds.py")
    if os.path.exists(odds):
        runpy.run_path(odds, run_name="bench_odds")["report"](systems, quick=args.quick)
    battletech = os.path.join(here, "bench_battletech.py")
    if os.path.exists(battletech):
        runpy.run_path(battletech, run_name="bench_battletech")["report"](systems, quick=args.quick)


if __name__ == "__main__":
    main()
