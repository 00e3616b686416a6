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
    from critcore.stages.loader import Registry

    return sorted(Registry.installed().systems)


def time_cmd(cmd: list[str]) -> tuple[float, float]:
    """The command's wall time and its CPU time (user + system, of the child process)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"benchmark command failed: {' '.join(cmd)}\n{done.stderr.decode()[-500:]}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def startup(runs: int, systems: list[str], extra: dict[str, list[str]] | None = None
            ) -> list[tuple[str, float, float, float]]:
    """Each command's median wall time (ms), and its wall and CPU time as ratios to the floor's."""
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
    wall: dict[str, list[float]] = {k: [] for k in commands}
    cpu: dict[str, list[float]] = {k: [] for k in commands}
    for cmd in commands.values():  # warm the file cache once
        time_cmd(cmd)
    for _ in range(runs):
        for name, cmd in commands.items():
            w, c = time_cmd(cmd)
            wall[name].append(w)
            cpu[name].append(c)
    floor = "floor: python -c 'import click'"
    wall_floor, cpu_floor = statistics.median(wall[floor]), statistics.median(cpu[floor])
    return [(name, statistics.median(wall[name]) * 1000, statistics.median(wall[name]) / wall_floor,
             statistics.median(cpu[name]) / cpu_floor) for name in commands]


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
    from critcore.dice.rollers import RandomRoller
    from critcore.engine.runner import Engine

    out = []
    for s in systems:
        if s not in RESOLVE:
            continue
        proc, params = RESOLVE[s]
        for keep in (True, False):  # kept outcomes (the default), then the stages called on every run
            engine = Engine(s)
            engine.keep_outcomes = keep
            roller = RandomRoller(1)
            name = f"{s} {proc}" if keep else "  the same, the stages run every time"
            out.append((name, rate(lambda: engine.run(proc, params, roller=roller), seconds)))
    return out


# house rules that leave the benchmarked procedure's stages alone: a TOML rule rewording a row
# of a table the procedure never reads (plus an option it never reads), and a rule plugin of
# critcore-example-house-rules for the system (it wraps or replaces one of the stages)
UNTOUCHED_TABLE = {
    "gurps": ("spell-failure", {}),
    "shadowrun2": ("natural-healing", {}),
    "battletech": ("determining-critical-hits", {"explosion_damage": "total-warfare"}),
}
RULE_PLUGIN = {"gurps": "no-dud-criticals", "shadowrun2": "toughness", "battletech": "floating-criticals"}


def _toml_value(value: Any) -> str:
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(value) if isinstance(value, str) else repr(value)


def untouched_rule_file(system: str, folder: str) -> str:
    """A house-rule file for ``system`` that changes a row of a table the benchmarked procedure
    never reads (the row reworded, its numbers kept), and an option it never reads."""
    from critcore.engine.runner import Engine

    table_id, options = UNTOUCHED_TABLE[system]
    row = Engine(system).tables[table_id].rows[0]
    lines = [f'system = "{system}"', 'summary = "a change the benchmarked procedure never meets"', ""]
    if options:
        lines += ["[options]", *(f"{k} = {_toml_value(v)}" for k, v in options.items()), ""]
    lines += [f"[[tables.{table_id}.row]]", f'roll = "{row.low}-{row.high}"', f'id = "{row.id}"',
              f'effect = "{row.code}"', f"text = {_toml_value(row.text + ' (our table)')}",
              *(f"{k} = {_toml_value(v)}" for k, v in row.data.items())]
    path = os.path.join(folder, f"bench-{system}.toml")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return path


def house_rule_costs(systems: list[str], seconds: float) -> list[tuple[str, float, float, float | None]]:
    """Per system: microseconds per resolution without rules, and the ratios with the TOML rule
    and with the rule plugin (None when critcore-example-house-rules is not installed).

    The three engines run interleaved in rounds, the best round of each kept, so a noisy machine
    slows all three alike."""
    import tempfile

    from critcore.dice.rollers import RandomRoller
    from critcore.engine.runner import Engine
    from critcore.stages.loader import Registry

    rules_installed = Registry.installed().rules
    out = []
    with tempfile.TemporaryDirectory() as folder:
        for s in systems:
            if s not in RESOLVE or s not in UNTOUCHED_TABLE:
                continue
            proc, params = RESOLVE[s]
            engines = {"none": Engine(s), "toml": Engine(s, [untouched_rule_file(s, folder)])}
            if RULE_PLUGIN[s] in rules_installed:
                engines["plugin"] = Engine(s, [RULE_PLUGIN[s]])
            for engine in engines.values():  # what a rule costs the stages: they run every time
                engine.keep_outcomes = False
            best = {k: float("inf") for k in engines}
            for _ in range(5):
                for name, engine in engines.items():
                    roller = RandomRoller(1)
                    per_s = rate(lambda: engine.run(proc, params, roller=roller), seconds / 5)
                    best[name] = min(best[name], 1 / per_s)
            plugin = best["plugin"] / best["none"] if "plugin" in best else None
            out.append((f"{s} {proc}", best["none"] * 1e6, best["toml"] / best["none"], plugin))
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
    print(f"start-up (median of {runs} interleaved runs; wall time, and CPU time: user + system)")
    import runpy
    import tempfile

    here = os.path.dirname(os.path.abspath(__file__))
    campaign = runpy.run_path(os.path.join(here, "bench_campaign.py"), run_name="bench_campaign")
    with tempfile.TemporaryDirectory() as folder:
        extra = {}
        if "gurps" in systems:  # one resolution on a campaign target: applied, logged, synced
            command = campaign["startup_command"](campaign["make_campaign"](folder))
            extra["crit resolve gurps ... --target @fighter"] = command
            # the same with nothing written: the difference in wall time is the commit's disk syncs
            extra["  the same, --preview (nothing written)"] = command + ["--preview"]
            # a GURPS character read from a GCS sheet (a small one the tests ship)
            wren = os.path.join(os.path.dirname(here), "plugins", "critcore-gurps", "tests", "wren.gcs")
            if os.path.exists(wren):
                extra["crit resolve gurps ... --target wren.gcs"] = [
                    "resolve", "gurps", "critical-hit", "--damage", "1d cut", "--seed", "1", "--target", wren]
        print(f"  {'':<42} {'wall':>9}   {'wall':>5}   {'CPU':>5}")
        for name, ms, ratio, cpu_ratio in startup(runs, systems, extra):
            print(f"  {name:<42} {ms:7.1f} ms   {ratio:5.2f} x   {cpu_ratio:5.2f} x floor")
    print()
    print("in-process resolutions per second (Python API, Engine.run, seeded random dice; kept outcomes, then without)")
    for name, per_s in throughput(systems, seconds):
        print(f"  {name:<42} {per_s:12,.0f} /s")
    print()
    print("house rules that leave the procedure's stages alone (same engine.run, stages run every time, best of 5 interleaved rounds)")
    print(f"  {'':<30} {'no rule':>10}   {'TOML rule':>10}   {'rule plugin':>12}")
    for name, us, toml, plugin in house_rule_costs(systems, seconds):
        shown = f"{plugin:10.2f} x" if plugin is not None else "not installed"
        print(f"  {name:<30} {us:7.2f} us   {toml:8.2f} x   {shown:>12}")
    campaign["report"](systems, quick=args.quick)
    campaign["history"](systems, quick=args.quick)  # a campaign of 100,000 log entries; a knight after 2,000 hits
    web = os.path.join(here, "bench_web.py")  # crit serve against a bare Starlette app
    if os.path.exists(web):
        runpy.run_path(web, run_name="bench_web")["report"](systems, quick=args.quick)
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
