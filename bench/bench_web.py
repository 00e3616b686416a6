"""Web figures for bench/bench.py (issue 25): ``crit serve`` against a bare Starlette app on the
same server (uvicorn), side by side in one run.

Both servers run as their own processes, started the way a user starts them: ``crit serve
--port 0`` (its own listening socket) and ``uvicorn.run`` of a Starlette app with the same routes
and the same settings (the floor: what the framework and the server cost). The bare app reads
the request's JSON body and answers with Starlette's ``JSONResponse`` a copy of crit serve's own
answer to the same route, taken at start: the same keys and size (a resolve's is about 4 KB),
encoded at each request as a plain Starlette app does. The clients are
threads of this process speaking plain HTTP/1.1 over kept-alive sockets (a few microseconds a
request, so the client does not hide the server's cost). Rounds alternate between the two servers;
each figure is the median of its rounds.

Requests: a stateless resolve (GURPS ``attack``, seeded), a campaign read (``GET
/api/targets/NAME``), a campaign write (GURPS ``critical-hit`` on a campaign target, applied,
logged and synced). One client, then 8.

Then long work: a ``simulate`` of many BattleTech runs (``--long-runs``) while one client keeps
resolving: how the resolve's latency moves, and what more long requests than the pool holds get.

Run alone: ``python bench/bench_web.py [--quick] [--only stateless] [--rounds N] [--floor]``;
``--floor`` adds uvicorn alone (a raw ASGI app of a few lines sending the same bytes): what the
server itself costs a stateless resolve, below both apps.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

BARE = r'''
import json, sys, uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

with open(sys.argv[2], encoding="utf-8") as fh:
    ANSWERS = json.load(fh)  # a copy of crit serve's own answer to each route: the same keys, the same size

async def resolve(request: Request) -> JSONResponse:
    await request.json()
    return JSONResponse(ANSWERS["resolve"])

async def target(request: Request) -> JSONResponse:
    return JSONResponse(ANSWERS["target"])

app = Starlette(routes=[Route("/api/resolve", resolve, methods=["POST"]),
                        Route("/api/targets/{name}", target)])
print("ready", flush=True)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", lifespan="off",
            server_header=False, limit_concurrency=200, access_log=False)
'''

RAW = r'''
import json, sys, uvicorn

with open(sys.argv[2], encoding="utf-8") as fh:
    ANSWER = json.dumps(json.load(fh)["resolve"], ensure_ascii=False, separators=(",", ":")).encode()
HEADERS = [(b"content-length", str(len(ANSWER)).encode()), (b"content-type", b"application/json")]

async def app(scope, receive, send):  # the server alone: the body read, the same bytes sent
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    await send({"type": "http.response.body", "body": ANSWER})

print("ready", flush=True)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", lifespan="off",
            server_header=False, limit_concurrency=200, access_log=False)
'''

FIGHTER = {"name": "Bench fighter", "hp": 10000, "ht": 12}
STATELESS = {"system": "gurps", "procedure": "attack", "params": {"skill": 14, "damage": "2d+1 cut"}}
WRITE = {"target": "fighter", "procedure": "critical-hit", "params": {"damage": "1d cut"}}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Client:
    """One kept-alive HTTP/1.1 connection."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, bytes]:
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(data)}\r\n"
                + ("Content-Type: application/json\r\n" if body is not None else "") + "\r\n")
        self.sock.sendall(head.encode() + data)
        while b"\r\n\r\n" not in self.buf:
            self._more()
        header, _, self.buf = self.buf.partition(b"\r\n\r\n")
        status = int(header.split(b" ", 2)[1])
        length = int(re.search(rb"(?i)content-length: *(\d+)", header).group(1))  # type: ignore[union-attr]
        while len(self.buf) < length:
            self._more()
        answer, self.buf = self.buf[:length], self.buf[length:]
        return status, answer

    def _more(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self.buf += chunk

    def close(self) -> None:
        self.sock.close()


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user + system), from /proc (0 where there is none)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def load(port: int, clients: int, seconds: float, make: Any, pid: int = 0) -> dict[str, float]:
    """``clients`` threads, each sending ``make(n)`` requests for ``seconds``: requests/s, p50, p99,
    and the server's CPU time per request (``pid``), which other work on the machine moves less."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors: list[int] = []
    conns = [Client(port) for _ in range(clients)]
    start = threading.Barrier(clients + 1)
    stop = [0.0]

    def work(i: int) -> None:
        conn, mine, n = conns[i], latencies[i], i * 1_000_000
        start.wait()
        while time.perf_counter() < stop[0]:
            method, path, body = make(n)
            n += 1
            t0 = time.perf_counter()
            status, _ = conn.request(method, path, body)
            mine.append(time.perf_counter() - t0)
            if status != 200:
                errors.append(status)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    stop[0] = time.perf_counter() + seconds
    cpu0 = cpu_seconds(pid)
    t0 = time.perf_counter()
    start.wait()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    cpu = cpu_seconds(pid) - cpu0
    for c in conns:
        c.close()
    every = sorted(x for mine in latencies for x in mine)
    if errors:
        raise RuntimeError(f"{len(errors)} requests failed (status {errors[0]})")
    return {"rps": len(every) / wall, "p50": every[len(every) // 2] * 1000,
            "p99": every[min(len(every) - 1, int(len(every) * 0.99))] * 1000, "cpu": cpu / len(every) * 1e6}


def _median(rounds: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}


def start_servers(folder: str) -> tuple[subprocess.Popen[str], int, subprocess.Popen[str], int]:
    from critcore.campaign.campaign import Campaign

    path = os.path.join(folder, "web.db")
    with Campaign.new(path) as camp:
        camp.add("gurps", "fighter", FIGHTER)
        if "battletech" in camp.registry.systems:  # a 'Mech for the long simulate
            for ex in camp.engine("battletech").pm.hook.critcore_examples() or ():
                if ex.name.endswith(".mtf"):
                    camp.add_text("battletech", "mech", ex.name, ex.text)
                    break
    env = {**os.environ, "NO_COLOR": "1", "CRITCORE_USER": "bench"}
    crit = os.path.join(os.path.dirname(sys.executable), "crit")
    serve = subprocess.Popen([crit, "serve", "--campaign", path, "--port", "0"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, env=env)
    assert serve.stdout is not None
    line = serve.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if found is None:
        serve.kill()
        raise RuntimeError(f"crit serve did not start: {line}{serve.stdout.read()}")
    serve_port = int(found.group(1))
    _wait(serve_port)
    answers = os.path.join(folder, "answers.json")
    with open(answers, "w", encoding="utf-8") as fh:
        json.dump(crit_answers(serve_port), fh)
    bare_port = _free_port()
    bare = subprocess.Popen([sys.executable, "-c", BARE, str(bare_port), answers], stdout=subprocess.PIPE, text=True,
                            env=env)
    assert bare.stdout is not None
    bare.stdout.readline()
    _wait(bare_port)
    return serve, serve_port, bare, bare_port


def _wait(port: int) -> None:
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port)).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError("a server did not start") from None
            time.sleep(0.05)


def crit_answers(port: int) -> dict[str, Any]:
    """crit serve's own answers to a stateless resolve and a campaign read: what the bare app
    answers, so that both send JSON of the same keys and size (about 4 KB and 0.3 KB), and each
    encodes its answer at every request."""
    c = Client(port)
    try:
        status, resolve = c.request("POST", "/api/resolve", {**STATELESS, "seed": 0})
        status2, target = c.request("GET", "/api/targets/fighter")
    finally:
        c.close()
    if status != 200 or status2 != 200:
        raise RuntimeError(f"crit serve answered {status} and {status2}")
    return {"resolve": json.loads(resolve), "target": json.loads(target)}


def requests() -> dict[str, Any]:
    return {
        "stateless resolve (POST /api/resolve)": lambda n: ("POST", "/api/resolve", {**STATELESS, "seed": n}),
        "campaign read (GET /api/targets/NAME)": lambda n: ("GET", "/api/targets/fighter", None),
        "campaign write (POST /api/resolve @NAME)": lambda n: ("POST", "/api/resolve", {**WRITE, "seed": n}),
    }


def long_work(port: int, seconds: float, runs: int) -> list[str]:
    """A long simulate in one client while another resolves; then more long requests at once than
    the pool holds: what each got."""
    lines = []
    quiet = load(port, 1, seconds, requests()["stateless resolve (POST /api/resolve)"])
    sim = {"system": "battletech", "procedure": "critical", "target": "mech", "params": {"location": "LT"},
           "runs": runs, "seed": 1}
    done: dict[str, Any] = {}

    def long_one() -> None:
        c = Client(port)
        t0 = time.perf_counter()
        done["status"], _ = c.request("POST", "/api/simulate", sim)
        done["seconds"] = time.perf_counter() - t0
        c.close()

    t = threading.Thread(target=long_one)
    t.start()
    time.sleep(0.2)
    busy = load(port, 1, seconds, requests()["stateless resolve (POST /api/resolve)"])
    t.join()
    lines.append(f"  a stateless resolve alone:                                 p50 {quiet['p50']:7.2f} ms  p99 {quiet['p99']:7.2f} ms  "
                 f"{quiet['rps']:7.0f} /s")
    lines.append(f"  the same beside a simulate (BattleTech critical, {runs:,} runs): p50 {busy['p50']:7.2f} ms  p99 {busy['p99']:7.2f} ms  "
                 f"{busy['rps']:7.0f} /s  (the simulate: status {done['status']}, {done['seconds']:.1f} s)")
    statuses: list[tuple[int, float, str]] = []

    def many() -> None:
        c = Client(port)
        t0 = time.perf_counter()
        status, body = c.request("POST", "/api/simulate", sim)
        statuses.append((status, time.perf_counter() - t0, json.loads(body).get("error", "")))
        c.close()

    threads = [threading.Thread(target=many) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for status, took, error in sorted(statuses):
        lines.append(f"  4 simulates at once: status {status} after {took:.2f} s" + (f": {error}" if error else ""))
    return lines


def server_kind() -> str:
    """What uvicorn runs both servers on (its "auto" choice) and what encodes crit serve's JSON."""
    import importlib.util

    def have(name: str) -> bool:
        return importlib.util.find_spec(name) is not None

    return (f"HTTP parser {'httptools' if have('httptools') else 'h11'}, event loop "
            f"{'uvloop' if have('uvloop') else 'asyncio'}, crit serve's JSON by {'orjson' if have('orjson') else 'json'}")


def start_raw(folder: str) -> tuple[subprocess.Popen[str], int]:
    """uvicorn alone (``--floor``): an ASGI app of a few lines that reads the body and sends a copy
    of crit serve's answer as bytes made at start; what the server costs a request by itself."""
    port = _free_port()
    raw = subprocess.Popen([sys.executable, "-c", RAW, str(port), os.path.join(folder, "answers.json")],
                           stdout=subprocess.PIPE, text=True)
    assert raw.stdout is not None
    raw.stdout.readline()
    _wait(port)
    return raw, port


def report(systems: list[str], quick: bool = False, rounds: int | None = None, only: str = "",
           floor_too: bool = False) -> None:
    if "gurps" not in systems:
        print("\nweb: skipped (needs the GURPS system)")
        return
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        print("\nweb: skipped (needs the web extra: pip install \"critcore[web]\")")
        return
    seconds = 0.3 if quick else 1.0
    rounds = rounds or (1 if quick else 3)
    print()
    print(f"crit serve against a bare Starlette app on the same uvicorn (median of {rounds} alternating rounds "
          f"of {seconds:g} s; load average {os.getloadavg()[0]:.1f}; {server_kind()})")
    print(f"  {'':<42} {'clients':>7} {'crit serve':>31} {'bare Starlette':>31} {'req/s':>6} {'CPU':>6}")
    print(f"  {'':<42} {'':>7} {'req/s  p50 ms  p99 ms  CPU us':>31} {'req/s  p50 ms  p99 ms  CPU us':>31} "
          f"{'ratio':>6} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as folder:
        serve, serve_port, bare, bare_port = start_servers(folder)
        raw, raw_port = start_raw(folder) if floor_too else (None, 0)
        try:
            for label, make in requests().items():
                if only not in label:
                    continue
                for clients in (1, 8):
                    ours: list[dict[str, float]] = []
                    floor: list[dict[str, float]] = []
                    for _ in range(rounds):
                        floor.append(load(bare_port, clients, seconds, make, bare.pid))
                        ours.append(load(serve_port, clients, seconds, make, serve.pid))
                    a, b = _median(ours), _median(floor)
                    print(f"  {label:<42} {clients:>7} {a['rps']:7.0f} {a['p50']:7.2f} {a['p99']:7.2f} {a['cpu']:7.0f} "
                          f"{b['rps']:7.0f} {b['p50']:7.2f} {b['p99']:7.2f} {b['cpu']:7.0f} "
                          f"{a['rps'] / b['rps']:6.2f} {b['cpu'] / a['cpu'] if a['cpu'] else 0:6.2f}")
                    if raw is not None and label.startswith("stateless"):
                        c = _median([load(raw_port, clients, seconds, make, raw.pid) for _ in range(rounds)])
                        print(f"  {'  uvicorn alone (the same bytes, no framework)':<42} {clients:>7} {c['rps']:7.0f} "
                              f"{c['p50']:7.2f} {c['p99']:7.2f} {c['cpu']:7.0f}")
            print("  budgets: a stateless resolve p50 at most 5 ms and at least 0.5 of the bare app's req/s "
                  "(1 and 8 clients); a campaign write with 8 clients p99 at most 100 ms")
            print("  (CPU ratio: the bare app's server CPU time per request over crit serve's, what req/s would be "
                  "on an otherwise idle machine)")
            if "battletech" in systems and not only or only == "long":
                print()
                print("long work on crit serve (simulate) beside a client resolving")
                for line in long_work(serve_port, seconds * 3, 10_000 if quick else 200_000):
                    print(line)
        finally:
            for p in (serve, bare, raw):
                if p is not None:
                    p.terminate()
                    p.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--only", default="", help="only the requests whose label holds this ('long': the long work)")
    parser.add_argument("--floor", action="store_true",
                        help="also uvicorn alone: a raw ASGI app sending the same answer's bytes (a stateless resolve)")
    args = parser.parse_args()
    from critcore.stages.loader import Registry

    report(sorted(Registry.installed().systems), quick=args.quick, rounds=args.rounds, only=args.only,
           floor_too=args.floor)


if __name__ == "__main__":
    main()
