"""Campaign figures for bench/bench.py: a campaign to time `crit resolve ... --target @NAME` on,
and campaign resolutions per second through the Python API (each one a committed transaction:
the state read, the stages run, the new state and its log entry written and synced to disk).
"""

from __future__ import annotations

import os
import tempfile
import time
from typing import Any

FIGHTER = {"name": "Bench fighter", "hp": 10000, "ht": 12}  # many HP: thousands of hits still leave him standing


def make_campaign(folder: str) -> str:
    """A campaign file holding a GURPS fighter, for the start-up figure."""
    from critcore.campaign.campaign import Campaign

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
                    if n % 50 == 0:  # a fresh fighter now and then: his list of injuries stays short
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


def main(argv: Any = None) -> None:
    from critcore.stages.loader import Registry

    report(sorted(Registry.installed().systems))


if __name__ == "__main__":
    main()
