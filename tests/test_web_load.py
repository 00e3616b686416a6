"""A bounded load test of crit serve on loopback (issue 17): concurrent clients resolving on one
target through the JSON API, with a real server (uvicorn) and the campaign's transactions.

Each resolution is the fake system's attack with typed dice 20, 1, 1: a critical, a graze (x1),
1 damage; so after N resolutions the target has exactly N hp fewer, each response reports a
different hp, and the log holds N resolutions: a lost update would show as a repeated hp.

CI runs 20 clients x 10 resolutions; ``CRITCORE_LOAD_FULL=1`` runs the issue's 20 x 100 (its
figures are in docs/performance-log.md). p50/p99 latency are printed (``pytest -s``).
"""

import os
import threading
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from critcore.campaign.campaign import Campaign  # noqa: E402

CLIENTS = 20
EACH = 100 if os.environ.get("CRITCORE_LOAD_FULL") == "1" else 10
START_HP = 100_000


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def test_concurrent_resolutions_on_one_target_lose_nothing(tmp_path, registry):
    import web_server

    path = str(tmp_path / "load.db")
    with Campaign.new(path, registry=registry) as camp:
        camp.add("fake", "ogre", {"hp": START_HP})
    latencies: list[float] = []
    statuses: list[int] = []
    hps: list[int] = []
    lock = threading.Lock()
    with web_server.serving(path, registry=registry) as (base, _):
        start = threading.Barrier(CLIENTS)

        def client():
            with httpx.Client(base_url=base, timeout=60) as c:
                start.wait()
                for _ in range(EACH):
                    t0 = time.perf_counter()
                    r = c.post("/api/resolve", json={"target": "ogre", "procedure": "attack", "dice": "20,1,1"})
                    elapsed = time.perf_counter() - t0
                    with lock:
                        latencies.append(elapsed)
                        statuses.append(r.status_code)
                        if r.status_code == 200:
                            hps.append(r.json()["target"]["hp"])

        t_all = time.perf_counter()
        threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t_all
        final = httpx.get(f"{base}/api/targets/ogre").json()["state"]["hp"]
        logged = [e for e in httpx.get(f"{base}/api/log?target=ogre").json() if e["kind"] == "resolve"]
    n = CLIENTS * EACH
    server_errors = [s for s in statuses if s >= 500]
    print(f"\n{CLIENTS} clients x {EACH} resolutions: {n / wall:.0f}/s, p50 {percentile(latencies, 50) * 1000:.1f} ms, "
          f"p99 {percentile(latencies, 99) * 1000:.1f} ms, wall {wall:.1f} s")
    assert not server_errors
    assert statuses.count(200) == n
    assert final == START_HP - n  # every resolution's 1 damage is there: 0 lost updates
    assert sorted(hps) == list(range(START_HP - n, START_HP))  # each saw a different state
    assert len(logged) == n
