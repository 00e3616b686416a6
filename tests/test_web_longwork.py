"""Long work on crit serve (issue 25): odds and simulate run a bounded number at a time, each with
a time limit; one more is refused at once with 503 and a line saying why, and other requests are
answered meanwhile. A real server (uvicorn on loopback), the fake system."""

import threading
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from critcore.campaign.campaign import Campaign  # noqa: E402
from critcore.web.longwork import SLOTS  # noqa: E402

SIMULATE = {"system": "fake", "procedure": "attack", "runs": 200_000, "seed": 1}


@pytest.fixture
def served(tmp_path, registry):
    import web_server

    path = str(tmp_path / "long.db")
    with Campaign.new(path, registry=registry) as camp:
        camp.add("fake", "ogre", {"hp": 30})
    with web_server.serving(path, registry=registry) as (base, app):
        yield base, app


def _until(condition, seconds=20):
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("the server never got there")
        time.sleep(0.01)


def test_a_long_request_more_than_the_pool_holds_is_refused_at_once_and_others_are_answered(served):
    base, app = served
    service = app.state.service
    release = threading.Event()
    real_odds = service.odds

    def slow_odds(mode, body, deadline=None):  # a long simulate: holds its slot until released
        release.wait(30)
        return real_odds(mode, body, deadline=deadline)

    service.odds = slow_odds
    answers = []

    def long_client():
        answers.append(httpx.post(f"{base}/api/simulate", json={**SIMULATE, "runs": 100}, timeout=60))

    holders = [threading.Thread(target=long_client) for _ in range(SLOTS)]
    for t in holders:
        t.start()
    try:
        _until(lambda: app.state.long_work.running == SLOTS)
        refused = httpx.post(f"{base}/api/simulate", json=SIMULATE, timeout=10)
        assert refused.status_code == 503
        assert "busy with long work" in refused.json()["error"] and "try again" in refused.json()["error"]
        refused = httpx.post(f"{base}/api/odds", json={"system": "fake", "procedure": "attack"}, timeout=10)
        assert refused.status_code == 503
        # the rest of the server answers while the long work runs
        quick = httpx.post(f"{base}/api/resolve", json={"system": "fake", "procedure": "attack", "dice": "20,1,1"},
                           timeout=10)
        assert quick.status_code == 200 and quick.json()["procedure"] == "attack"
        assert httpx.get(f"{base}/api/targets/ogre", timeout=10).json()["state"] == {"hp": 30}
    finally:
        release.set()
        for t in holders:
            t.join()
    assert [a.status_code for a in answers] == [200] * SLOTS
    assert answers[0].json()["n"] == 100
    # the slot is free again
    assert httpx.post(f"{base}/api/simulate", json={**SIMULATE, "runs": 100}, timeout=30).status_code == 200


def test_a_long_request_past_its_time_limit_is_stopped_with_one_line(served):
    base, app = served
    app.state.long_work.seconds = 0  # every progress report is past the limit
    stopped = httpx.post(f"{base}/api/simulate", json=SIMULATE, timeout=60)
    assert stopped.status_code == 400
    assert stopped.json()["error"] == ("simulate took over 0 s and was stopped: ask for less (fewer runs, a smaller "
                                       "question), or use the command line, which has no time limit")
    assert app.state.long_work.running == 0  # and its slot is free
    app.state.long_work.seconds = 30
    assert httpx.post(f"{base}/api/simulate", json=SIMULATE, timeout=60).status_code == 200


def test_long_work_runs_with_the_collector_paused_and_leaves_it_on():
    """A long request runs with the cyclic collector paused (it ends by its deadline, so the
    collector is off for at most that long) and finds it on again after; overlapping requests
    are held to one pause by gcpause itself (test_core_gcpause.py)."""
    import asyncio
    import gc

    from critcore.web.longwork import LongWork

    seen = []
    was = gc.isenabled()
    gc.enable()
    try:
        asyncio.run(LongWork(seconds=5).run("odds", lambda deadline: seen.append(gc.isenabled())))
        assert seen == [False] and gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
