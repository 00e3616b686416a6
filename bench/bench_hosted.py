"""Campaign writes through crit serve (issue 26): writes per second and p99 latency, SQLite
against PostgreSQL, one worker and four, 8 clients each resolving on a target of its own
(a GURPS critical hit, seeded), over real servers on 127.0.0.1.

    CRITCORE_TEST_POSTGRES=postgresql://... python bench/bench_hosted.py [--requests 50]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def serve(where: str, workers: int, env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "critcore", "serve", "--campaign", where, "--port", "0",
                             "--workers", str(workers), "--token", "b" * 24], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    port = re.search(r"127\.0\.0\.1:(\d+)/", line)
    assert port, line
    time.sleep(2 + workers)
    return proc, f"http://127.0.0.1:{port.group(1)}"


def run(base: str, token: str, clients: int, requests: int) -> tuple[float, float, float]:
    times: list[float] = []
    lock = threading.Lock()

    def client(i: int) -> None:
        for n in range(requests):
            body = json.dumps({"system": "gurps", "procedure": "critical-hit", "target": f"k{i}",
                               "params": {"location": "torso", "damage": "1d cut"}, "seed": n}).encode()
            req = urllib.request.Request(base + "/api/resolve", body, {"Content-Type": "application/json",
                                                                       "Authorization": f"Bearer {token}"})
            start = time.perf_counter()
            with urllib.request.urlopen(req, timeout=60) as r:
                r.read()
            with lock:
                times.append(time.perf_counter() - start)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    times.sort()
    return len(times) / wall, times[len(times) // 2] * 1000, times[int(len(times) * 0.99) - 1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    dsn = os.environ.get("CRITCORE_TEST_POSTGRES")
    folder = tempfile.mkdtemp(prefix="critcore-bench-")
    subprocess.run([sys.executable, "-m", "critcore", "examples"], cwd=folder, check=True, capture_output=True)
    stores = [("SQLite", os.path.join(folder, "bench.db"))]
    if dsn:
        stores.append(("PostgreSQL", f"{dsn}#bench_{os.getpid()}"))
    print(f"{args.clients} clients x {args.requests} resolutions each, one target per client")
    print(f"{'store':<11} {'workers':>7} {'writes/s':>9} {'p50 ms':>7} {'p99 ms':>7}")
    for label, where in stores:
        made = subprocess.run([sys.executable, "-m", "critcore", "campaign", "new", where], capture_output=True,
                              text=True, check=True).stdout
        for i in range(args.clients):
            subprocess.run([sys.executable, "-m", "critcore", "campaign", "--campaign", where, "add", "gurps", f"k{i}",
                            os.path.join(folder, "bertram.json")], check=True, capture_output=True)
        hosted = "#" in where
        token = made.split("game master's token: ")[1].split()[0] if hosted else "b" * 24
        for workers in (1, 4):
            env = dict(os.environ)
            proc, base = serve(where.split("#")[0] if hosted else where, workers, env)
            try:
                url = f"{base}/c/{where.split('#')[1]}" if hosted else base
                rate, p50, p99 = run(url, token, args.clients, args.requests)
                print(f"{label:<11} {workers:>7} {rate:>9.0f} {p50:>7.1f} {p99:>7.1f}")
            finally:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait()
        if hosted:
            from critcore.campaign.postgres import drop

            drop(where)


if __name__ == "__main__":
    main()
