"""A digest of BattleTech exact odds, location by location, to show a speed change changed no outcome.

    python bench/bench_odds_digest.py OUT.json [--samples DIR] [--extra FILE.mtf:LOC ...] [--against OLD.json]

For every location of every ``.mtf`` in ``../shared/mtf-samples`` and the superheavy fixture (and
each ``--extra`` unit and location), works out ``exact_odds(..., "critical", location=X)`` on a
fresh engine and writes, per location, the SHA-256 of every outcome's JSON with its exact
fraction (sorted), the number of outcomes, the remainder and the CPU seconds taken. Run it
before and after a change (``PYTHONHASHSEED=0``, as the outcomes' JSON lists sets), then
``--against`` the first file: it prints the locations whose digest, count or remainder differ,
and the times side by side. Not a test: it needs the shared sample units and takes a minute
or two.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "..", "shared", "mtf-samples")
FIXTURE = os.path.join(HERE, "..", "plugins", "critcore-battletech", "tests", "fixtures", "superheavy-fs5x.mtf")


def digests(jobs: list[tuple[str, str | None]]) -> dict[str, list[object]]:
    from critcore.chance.exact import exact_odds
    from critcore.engine.runner import Engine
    from critcore_battletech.data.catalog import catalog
    from critcore_battletech.units import unit_from_mtf

    cat = catalog()
    out: dict[str, list[object]] = {}
    for path, only in jobs:
        with open(path, encoding="utf-8", errors="replace") as fh:
            unit = unit_from_mtf(fh.read(), path, cat)
        for code in unit["locations"]:
            if only and code != only:
                continue
            engine = Engine("battletech")
            start = time.process_time()
            odds = exact_odds(engine, "critical", {"location": code}, target=unit)
            took = time.process_time() - start
            rows = sorted(json.dumps(b.to_json(), sort_keys=True, default=str) for b in odds.branches)
            digest = hashlib.sha256("\n".join(rows).encode()).hexdigest()[:16]
            key = f"{os.path.basename(path)}:{code}"
            out[key] = [digest, len(odds.branches), str(odds.remainder), round(took, 2)]
            print(f"  {key}: {len(odds.branches):,} outcomes, {took:.2f} s", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--samples", default=SAMPLES)
    ap.add_argument("--extra", nargs="*", default=[], help="FILE.mtf:LOC, one location of another unit")
    ap.add_argument("--against", default="", help="a file written before: compare")
    args = ap.parse_args(argv)
    files = sorted(glob.glob(os.path.join(args.samples, "*.mtf"))) + [FIXTURE]
    jobs: list[tuple[str, str | None]] = [(f, None) for f in files]
    jobs += [(path, loc) for path, _, loc in (e.rpartition(":") for e in args.extra)]
    found = digests(jobs)
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(found, fh, indent=0)
    if args.against:
        with open(args.against, encoding="utf-8") as fh:
            old = json.load(fh)
        differ = [k for k in found if k in old and found[k][:3] != old[k][:3]]
        print(f"{len(found)} locations, {len(differ)} differ from {args.against}")
        for k in differ:
            print(f"  DIFFERENT {k}: {old[k][:3]} -> {found[k][:3]}")
        for k in sorted(found, key=lambda k: -float(str(old.get(k, found[k])[3])))[:10]:
            print(f"  {k}: {old.get(k, ['', '', '', '-'])[3]} s -> {found[k][3]} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
