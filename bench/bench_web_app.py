"""crit serve's app against the bare Starlette app of ``bench_web.py``, each called in this process
through ASGI with a fake ``receive`` and ``send``: CPU time per stateless resolve, without a server.

``bench_web.py`` measures what a user gets (a real server, real sockets) and, beside it, the
server's CPU time per request; on a machine shared with other work both move by a third from run
to run. This leaves out the server (uvicorn's parser and event loop, the same for both apps) and
the sockets: what is left is each app's own work, and it moves by a few per cent. It is the
figure to compare two versions of crit serve by (run each, alternately); ``bench_web.py`` says
whether the budget is met. Profile the same loop with ``--profile`` (cProfile, by own time).
``--instructions`` counts crit serve's instructions a request instead (valgrind's callgrind over
the loop of 200 requests and of 200 + ``--requests``, the difference divided): they do not move
with the machine's load, so two versions are told apart by a per cent (about 1 M a request).

    python bench/bench_web_app.py [--requests 3000] [--rounds 5] [--profile | --instructions]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_web import FIGHTER, STATELESS  # noqa: E402  (the same request as the server bench)


def _scope(body: bytes) -> dict[str, Any]:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
            "path": "/api/resolve", "raw_path": b"/api/resolve", "query_string": b"", "root_path": "",
            "headers": [(b"host", b"127.0.0.1"), (b"content-length", str(len(body)).encode()),
                        (b"content-type", b"application/json")],
            "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000)}


def apps(folder: str) -> tuple[Any, Any]:
    """crit serve's app as ``crit serve`` runs it (behind its body limit, engines built and frozen
    out of the collector's sight at start), and the bare app answering a copy of its answer."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from critcore.campaign.campaign import Campaign
    from critcore.cli.serve import _settle
    from critcore.web.app import create_app, with_limits

    path = os.path.join(folder, "web.db")
    with Campaign.new(path) as camp:
        camp.add("gurps", "fighter", FIGHTER)
    app = create_app(path)
    _settle(app.state.service)
    crit = with_limits(app)
    answer = json.loads(asyncio.run(_one(crit, 0)))

    async def resolve(request: Request) -> JSONResponse:
        await request.json()
        return JSONResponse(answer)

    return crit, Starlette(routes=[Route("/api/resolve", resolve, methods=["POST"])])


async def _one(app: Any, seed: int) -> bytes:
    body = json.dumps({**STATELESS, "seed": seed}).encode()
    sent: list[bytes] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            sent.append(message["body"])

    await app(_scope(body), receive, send)
    return b"".join(sent)


async def _many(app: Any, start: int, count: int) -> None:
    for seed in range(start, start + count):
        await _one(app, seed)


def per_request(app: Any, requests: int, rounds: int) -> float:
    """The app's CPU time per request in µs, best of ``rounds`` runs of ``requests``."""
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(_many(app, 0, 300))  # warm: every path taken once
        best = float("inf")
        for r in range(rounds):
            t0 = time.process_time()
            loop.run_until_complete(_many(app, r * requests, requests))
            best = min(best, (time.process_time() - t0) / requests * 1e6)
        return best
    finally:
        loop.close()


def _loop(requests: int) -> None:
    """crit serve's app on ``requests`` seeded requests after 300 to warm it (what ``--instructions`` counts)."""
    with tempfile.TemporaryDirectory() as folder:
        crit, _ = apps(folder)
        loop = asyncio.new_event_loop()
        loop.run_until_complete(_many(crit, 0, 300))
        loop.run_until_complete(_many(crit, 300, requests))


def instructions(requests: int) -> float:
    """crit serve's instructions a request, in-process: callgrind over :func:`_loop` of 200 and of
    200 + ``requests`` requests (start-up, tables and warming cancel out)."""
    counts = []
    for n in (200, 200 + requests):
        with tempfile.TemporaryDirectory() as folder:
            out = os.path.join(folder, "callgrind.out")
            done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
                                   os.path.abspath(__file__), "--loop", str(n)], capture_output=True, text=True)
            found = re.search(r"Collected : (\d+)", done.stderr)
            if found is None:
                raise RuntimeError(f"valgrind did not count: {done.stderr[-500:]}")
            counts.append(int(found.group(1)))
    return (counts[1] - counts[0]) / requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="cProfile crit serve's app, by own time")
    parser.add_argument("--instructions", action="store_true",
                        help="crit serve's instructions a request (valgrind), --requests of them")
    parser.add_argument("--loop", type=int, help=argparse.SUPPRESS)  # what --instructions runs under valgrind
    args = parser.parse_args()
    if args.loop is not None:
        _loop(args.loop)
        return
    if args.instructions:
        count = instructions(args.requests)
        print(f"a stateless resolve through ASGI, in-process: crit serve's app {count:,.0f} instructions a request "
              f"(callgrind, {args.requests} requests)")
        return
    with tempfile.TemporaryDirectory() as folder:
        crit, bare = apps(folder)
        if args.profile:
            import cProfile
            import pstats

            loop = asyncio.new_event_loop()
            loop.run_until_complete(_many(crit, 0, 300))
            profile = cProfile.Profile()
            profile.runcall(loop.run_until_complete, _many(crit, 300, args.requests))
            pstats.Stats(profile).sort_stats("tottime").print_stats(40)
            return
        ours, floor = per_request(crit, args.requests, args.rounds), per_request(bare, args.requests, args.rounds)
        print(f"a stateless resolve through ASGI, in-process (CPU time, best of {args.rounds} x {args.requests}; "
              f"load average {os.getloadavg()[0]:.1f}):")
        print(f"  crit serve's app {ours:7.1f} us a request")
        print(f"  the bare app     {floor:7.1f} us a request (answering a copy of crit serve's answer)")


if __name__ == "__main__":
    main()
