"""Campaign figures for bench/bench.py: a campaign to time `crit resolve ... --target @NAME` on,
and campaign resolutions per second through the Python API (each one a committed transaction:
the state read, the stages run, the new state and its log entry written and synced to disk).

A campaign's history (issue 25), each figure a ratio measured side by side in one run:

- every campaign command on a campaign of 100,000 log entries against the same command on a
  fresh campaign holding the same targets (the long one is built by copying rows in SQL, as a
  real one takes months to play; its last changes are real ones): ``list``, ``show``, ``log -n
  20``, ``undo``, ``redo``, a resolve with ``--target``, and the web index (``GET /`` of a
  ``crit serve`` of each);
- a GURPS character's ``Campaign.resolve`` after 2,000 hits against his first ones, and how many
  bytes each change adds to the campaign file along the way.

Run alone: ``python bench/bench_campaign.py [--quick] [--entries N]``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from typing import Any

FIGHTER = {"name": "Bench fighter", "hp": 10000, "ht": 12}  # many HP: thousands of hits still leave him standing


def make_campaign(folder: str) -> str:
    """A campaign file holding a GURPS fighter, for the start-up figure."""
    try:
        from critcore.campaign.campaign import Campaign
    except ImportError:  # an install from before issue 24's layout (bench/icount.py measures it too)
        from critcore.campaign import Campaign  # type: ignore[attr-defined,no-redef]

    path = os.path.join(folder, "bench.db")
    with Campaign.new(path) as camp:
        camp.add("gurps", "fighter", FIGHTER)
    return path


def startup_command(path: str) -> list[str]:
    return ["resolve", "gurps", "critical-hit", "--target", "@fighter", "--campaign", path,
            "--damage", "1d cut", "--seed", "1"]


def report(systems: list[str], quick: bool = False) -> None:
    if "gurps" not in systems:
        print("\ncampaign: skipped (needs the GURPS system)")
        return
    from critcore.campaign.campaign import Campaign

    seconds = 0.5 if quick else 2.0
    print()
    print("campaign resolutions per second (Python API, Campaign.resolve, GURPS critical-hit)")
    with tempfile.TemporaryDirectory() as folder:
        path = make_campaign(folder)
        with Campaign(path) as camp:
            for label, preview in (("applied and logged (one synced transaction each)", False),
                                   ("preview (read, resolve, nothing written)", True)):
                n, spent = 0, 0.0
                while spent < seconds:
                    if n % 50 == 0:  # a fresh fighter every 50 (his state no longer grows with hits: issue 25)
                        camp.add("gurps", f"fighter-{label[:5]}-{n}", FIGHTER)
                        tick = time.perf_counter()
                    camp.resolve(f"fighter-{label[:5]}-{n - n % 50}", "critical-hit", damage="1d cut", seed=n,
                                 preview=preview)
                    n += 1
                    if n % 50 == 0:
                        spent += time.perf_counter() - tick
                per_s = n / spent
                print(f"  {label:<52} {per_s:10,.0f} /s")
            entries = len(camp.log())
        print(f"  (log entries written: {entries:,})")


KNIGHT = {"name": "Bench knight", "hp": 12, "ht": 12, "dr": 2}  # a character of the table's size


def _crit() -> str:
    return os.path.join(os.path.dirname(sys.executable), "crit")


def build_pair(folder: str, entries: int) -> tuple[str, str]:
    """A fresh campaign and one of ``entries`` log entries, with the same targets; the long one's
    history is real changes copied in SQL, then a few real changes on top (what undo takes back)."""
    import sqlite3

    from critcore.campaign.campaign import Campaign
    from critcore.errors import StateError

    paths = []
    for label in ("fresh", "long"):
        path = os.path.join(folder, f"{label}.db")
        with Campaign.new(path, who="bench") as camp:
            camp.add("gurps", "fighter", FIGHTER)
            camp.add("gurps", "knight", KNIGHT)
            if "shadowrun2" in camp.registry.systems:
                camp.add("shadowrun2", "runner", {"body": 4})
            if label == "long":
                for n in range(40):
                    camp.resolve("fighter", "critical-hit", damage="1d cut", seed=n)
                    try:
                        camp.resolve("knight", "attack", skill=14, damage="1d cut", seed=n)
                    except StateError:  # he died of an earlier blow: a dead character is refused (issue 28)
                        pass
        if label == "long":
            db = sqlite3.connect(path, isolation_level=None)
            columns = ("at, who, kind, target, name, system, procedure, summary, outcome, before_state, "
                       "after_state, ref, undone")
            db.execute("BEGIN")
            while True:
                have = db.execute("SELECT count(*) FROM log").fetchone()[0]
                if have >= entries - 20:
                    break
                db.execute(f"INSERT INTO log ({columns}) SELECT {columns} FROM log WHERE kind = 'resolve' "
                           "ORDER BY id LIMIT ?", (entries - 20 - have,))
                db.execute("INSERT INTO states (target, system, plugin_version, state) SELECT target, system, "
                           "plugin_version, state FROM states ORDER BY id LIMIT ?", (entries - 20 - have,))
            db.execute("UPDATE targets SET entries = (SELECT count(*) FROM log WHERE log.target = targets.id), "
                       "updated = (SELECT at FROM log WHERE log.target = targets.id ORDER BY id DESC LIMIT 1)")
            db.execute("COMMIT")
            db.close()
            with Campaign(path, who="bench") as camp:  # the latest changes are real ones
                for n in range(20):
                    camp.resolve("fighter", "critical-hit", damage="1d cut", seed=n)
        paths.append(path)
    return paths[0], paths[1]


def _median_ms(times: list[float]) -> float:
    import statistics

    return statistics.median(times) * 1000


def history_commands(fresh: str, long: str, runs: int) -> list[tuple[str, float, float]]:
    """Each command's median wall time on the fresh campaign and on the long one (interleaved)."""
    import subprocess

    env = {**os.environ, "NO_COLOR": "1", "CRITCORE_USER": "bench"}
    commands = {
        "crit campaign list": ["campaign", "list"],
        "crit campaign show fighter": ["campaign", "show", "fighter"],
        "crit campaign log -n 20": ["campaign", "log", "-n", "20"],
        "crit campaign undo fighter": ["campaign", "undo", "fighter"],
        "crit campaign redo fighter": ["campaign", "redo", "fighter"],
        "crit resolve gurps critical-hit --target @fighter": ["resolve", "gurps", "critical-hit", "--target",
                                                             "@fighter", "--damage", "1d cut", "--seed", "1"],
    }
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(runs):
        for name, args in commands.items():
            for label, path in (("fresh", fresh), ("long", long)):
                if label == "fresh" and name.endswith(("undo fighter", "redo fighter")) and \
                        not times.get(("prepared", path)):
                    subprocess.run([_crit(), "resolve", "gurps", "critical-hit", "--target", "@fighter",
                                    "--campaign", path, "--damage", "1d cut", "--seed", "2"], env=env,
                                   stdout=subprocess.DEVNULL, check=True)
                    times[("prepared", path)] = [0.0]  # the fresh campaign gets a change to undo, once
                start = time.perf_counter()
                done = subprocess.run([_crit(), *args[:1], "--campaign", path, *args[1:]] if args[0] == "campaign"
                                      else [_crit(), *args, "--campaign", path], env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                elapsed = time.perf_counter() - start
                if done.returncode != 0:
                    raise SystemExit(f"{name} on {path} failed: {done.stderr.decode()[-400:]}")
                times.setdefault((name, label), []).append(elapsed)
    return [(name, _median_ms(times[(name, "fresh")]), _median_ms(times[(name, "long")])) for name in commands]


def web_index(fresh: str, long: str, runs: int) -> tuple[float, float] | None:
    """``GET /`` of a ``crit serve`` on each campaign: median ms (interleaved)."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return None
    import re
    import subprocess

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_web import Client

    env = {**os.environ, "NO_COLOR": "1", "CRITCORE_USER": "bench"}
    servers, clients = [], []
    try:
        for path in (fresh, long):
            proc = subprocess.Popen([_crit(), "serve", "--campaign", path, "--port", "0"], stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, env=env)
            servers.append(proc)
            assert proc.stdout is not None
            line = proc.stdout.readline()
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if found is None:
                raise SystemExit(f"crit serve did not start: {line}")
            clients.append(Client(int(found.group(1))))
        times: list[list[float]] = [[], []]
        for i in range(runs + 2):
            for which, client in enumerate(clients):
                start = time.perf_counter()
                status, _ = client.request("GET", "/")
                if status != 200:
                    raise SystemExit(f"GET / answered {status}")
                if i >= 2:  # the first requests build the engines
                    times[which].append(time.perf_counter() - start)
        return _median_ms(times[0]), _median_ms(times[1])
    finally:
        for c in clients:
            c.close()
        for proc in servers:
            proc.terminate()
            proc.wait(10)


def knight_hits(folder: str, hits: int) -> tuple[float, float, list[tuple[int, float]]]:
    """A GURPS knight hit ``hits`` times through one open Campaign: the median time of his first 20
    resolutions and of his last 20 (ms), and the campaign file's size at each fifth of the way
    (bytes per change since the last mark)."""
    from critcore.campaign.campaign import Campaign

    path = os.path.join(folder, "knight.db")
    first: list[float] = []
    last: list[float] = []
    sizes = []
    with Campaign.new(path, who="bench") as camp:
        camp.add("gurps", "knight", {**KNIGHT, "hp": 10000})
        mark = os.path.getsize(path)
        for n in range(1, hits + 1):
            start = time.perf_counter()
            camp.resolve("knight", "critical-hit", damage="1d cut", seed=n)
            elapsed = time.perf_counter() - start
            if n <= 20:
                first.append(elapsed)
            if n > hits - 20:
                last.append(elapsed)
            if n % (hits // 5) == 0:
                import sqlite3

                with sqlite3.connect(path) as db:  # the size with the write-ahead log folded in
                    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                size = os.path.getsize(path)
                sizes.append((n, (size - mark) / (hits // 5)))
                mark = size
    return _median_ms(first), _median_ms(last), sizes


def history(systems: list[str], quick: bool = False, entries: int | None = None) -> None:
    if "gurps" not in systems:
        print("\ncampaign history: skipped (needs the GURPS system)")
        return
    import tempfile

    entries = entries or (5_000 if quick else 100_000)
    runs = 2 if quick else 7
    print()
    print(f"a campaign of {entries:,} log entries against a fresh one with the same targets "
          f"(median of {runs} interleaved runs; load average {os.getloadavg()[0]:.1f}; budget 2.0 x)")
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        fresh, long = build_pair(folder, entries)
        print(f"  (built in {time.perf_counter() - start:.1f} s: {os.path.getsize(long) / 1e6:.0f} MB)")
        for name, a, b in history_commands(fresh, long, runs):
            print(f"  {name:<52} {a:8.1f} ms {b:8.1f} ms  {b / a:5.2f} x")
        web = web_index(fresh, long, runs * 3)
        if web is not None:
            print(f"  {'the web index (GET / of crit serve)':<52} {web[0]:8.1f} ms {web[1]:8.1f} ms  "
                  f"{web[1] / web[0]:5.2f} x")
        hits = 500 if quick else 2000
        print()
        print(f"a GURPS knight hit {hits:,} times (Campaign.resolve, critical-hit, one synced transaction each; "
              "budget 2.0 x)")
        a, b, sizes = knight_hits(folder, hits)
        print(f"  his first 20 resolutions {a:.2f} ms, his last 20 {b:.2f} ms: {b / a:.2f} x")
        print("  campaign file growth, bytes per change: " + ", ".join(f"{per:,.0f} (to hit {n:,})"
                                                                      for n, per in sizes))


def main(argv: Any = None) -> None:
    import argparse

    from critcore.stages.loader import Registry

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--entries", type=int, default=None, help="log entries of the long campaign (100,000)")
    parser.add_argument("--history-only", action="store_true", help="only the history figures")
    args = parser.parse_args(argv)
    systems = sorted(Registry.installed().systems)
    if not args.history_only:
        report(systems, quick=args.quick)
    history(systems, quick=args.quick, entries=args.entries)


if __name__ == "__main__":
    main()
