"""``crit serve`` over a PostgreSQL database (issue 26): each campaign at /c/NAME/ with its own
keys, none of which opens another campaign; many workers and the CLI on one target at once, none
of their changes lost; a worker killed mid-write loses nothing committed and shows nothing half
written. Needs the PostgreSQL test database (tests/campaign_stores.py) and the web extra."""

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("starlette")
from campaign_stores import drop, new_location, postgres_dsn, raw  # noqa: E402
from critcore.campaign.campaign import Campaign  # noqa: E402


@pytest.fixture
def pg():
    dsn = postgres_dsn()
    made = []

    def where(stem):
        made.append(new_location("postgresql", None, stem))
        return made[-1]

    yield dsn, where
    for location in made:
        drop(location)


def _new(location, registry):
    camp = Campaign.new(location, registry=registry)
    token, key = camp.store.secrets
    camp.add("fake", "ogre", {"hp": 10})
    camp.close()
    return token, key


def _routes(token, key):
    """Every route of a campaign's app, as (method, path, body): each is tried with another's keys."""
    j = {"system": "fake", "procedure": "attack", "target": "ogre", "dice": "20,6,2"}
    return [
        ("GET", "/", None), ("GET", f"/login?token={token}", None), ("POST", "/add", {}),
        ("GET", "/t/ogre", None), ("POST", "/t/ogre/run", {}), ("POST", "/t/ogre/undo", {}),
        ("GET", "/s/fake", None), ("POST", "/s/fake/run", {}), ("GET", "/odds", None),
        ("GET", "/tables/fake", None), ("GET", "/tables/fake/crit.json", None),
        ("GET", f"/p/{key}", None), ("GET", f"/p/{key}/version", None),
        ("GET", "/api/systems", None), ("GET", "/api/systems/fake", None), ("GET", "/api/systems/fake/tables", None),
        ("GET", "/api/systems/fake/tables/crit", None), ("GET", "/api/targets", None),
        ("POST", "/api/targets", {"system": "fake", "name": "imp", "state": {"hp": 1}}),
        ("GET", "/api/targets/ogre", None), ("DELETE", "/api/targets/ogre", None),
        ("POST", "/api/targets/ogre/undo", {}), ("POST", "/api/targets/ogre/redo", {}), ("GET", "/api/log", None),
        ("POST", "/api/resolve", j), ("POST", "/api/treat", {**j, "procedure": "rest", "dice": "1"}),
        ("POST", "/api/resolve/step", j), ("POST", "/api/treat/step", {**j, "procedure": "rest"}),
        ("POST", "/api/odds", {"system": "fake", "procedure": "attack"}),
        ("POST", "/api/simulate", {"system": "fake", "procedure": "attack", "runs": 10}),
        ("GET", "/static/style.css", None),
    ]


def test_a_token_or_key_of_one_campaign_opens_no_other(pg, registry):
    from starlette.testclient import TestClient

    from critcore.web.app import create_app, with_limits
    from critcore.web.hosted import HostedApp

    dsn, where = pg
    a, b = where("a"), where("b")
    token_a, key_a = _new(a, registry)
    token_b, key_b = _new(b, registry)
    name_a = a.split("#")[1]
    client = TestClient(with_limits(HostedApp(dsn, registry=registry)), base_url="http://club.example")
    tried = _routes(token_b, key_b)
    # every route the app has is tried (a new route cannot slip past this test)
    paths = [p.split("?")[0] for _, p, _ in tried]
    missing = [r.path for r in create_app(a, registry=registry).routes
               if r.path != "/health" and not any(r.path_regex.match(p) for p in paths)]
    assert missing == []
    before = {t: raw(a, f"SELECT * FROM {t} ORDER BY 1") for t in ("targets", "states", "log", "settings", "meta")}
    refused = []
    for method, path, body in tried:
        for auth in ({"Authorization": f"Bearer {token_b}"}, {"Cookie": f"critcore_token={token_b}"}):
            kwargs = {"headers": {**auth, "Content-Type": "application/json"}}
            if body is not None:
                kwargs["content"] = json.dumps(body)
            response = client.request(method, f"/c/{name_a}{path}", **kwargs)
            if path.startswith("/static/"):  # the same file for everyone: nothing of the campaign
                assert response.status_code == 200
                continue
            refused.append((method, path, response.status_code))
            assert response.status_code in (401, 403, 404), (method, path, response.status_code, response.text)
    assert len(refused) >= 60
    after = {t: raw(a, f"SELECT * FROM {t} ORDER BY 1") for t in ("targets", "states", "log", "settings", "meta")}
    assert after == before  # nothing changed
    # and A's own keys do open it (so the refusals above are about the keys)
    ok = client.get(f"/c/{name_a}/api/targets", headers={"Authorization": f"Bearer {token_a}"})
    assert ok.status_code == 200 and [t["name"] for t in ok.json()] == ["ogre"]
    assert client.get(f"/c/{name_a}/p/{key_a}").status_code == 200
    assert client.get("/c/nosuchcampaign/api/targets").status_code == 404
    assert client.get("/healthz").json() == {"ok": True} and client.get("/readyz").json() == {"ready": True}


# --- real servers: two workers and the CLI on one target ------------------------------------------
# (critical misses: each one a change of bertram's state, and 400 of them do not kill him, which
# 400 critical hits did once GURPS refused to strike a dead character)

CLIENT = r"""
import json, sys, urllib.request
base, token, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
done = []
for i in range(n):
    body = json.dumps({"system": "gurps", "procedure": "critical-miss", "target": "bertram",
                       "seed": seed * 1000 + i}).encode()
    req = urllib.request.Request(base + "/api/resolve", body, {"Content-Type": "application/json",
                                 "Authorization": "Bearer " + token})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            done.append(json.loads(r.read()).get("log"))
    except Exception as exc:  # a worker killed under this request: it may or may not have committed
        done.append(None)
print(json.dumps(done))
"""

CLI = r"""
import sys
from critcore.cli.main import cli
where, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in range(n):
    try:
        cli.main(["resolve", "gurps", "critical-miss", "--target", "@bertram", "--campaign", where,
                  "--seed", str(seed * 1000 + i)], prog_name="crit", standalone_mode=False)
    except SystemExit as exc:
        assert not exc.code, exc.code
"""


def _serve(dsn, workers):
    proc = subprocess.Popen([sys.executable, "-m", "critcore", "serve", "--campaign", dsn, "--port", "0",
                             "--workers", str(workers)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    line = proc.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert found, line + proc.stdout.read()
    base = f"http://127.0.0.1:{found.group(1)}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/readyz", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            time.sleep(0.2)
    return proc, base


def _stop(proc):
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


def _chain(location):
    """The log of bertram's changes agrees with its states: each starts from the state the one
    before it left, the current state is the last one's, and no state stands outside the log."""
    rows = raw(location, "SELECT id, before_state, after_state FROM log WHERE kind = 'resolve' ORDER BY id")
    add = raw(location, "SELECT after_state FROM log WHERE kind = 'add'")[0][0]
    previous = add
    for _, before, after in rows:
        assert before == previous  # a change that read a stale state would break the chain here
        previous = after
    assert raw(location, "SELECT head FROM targets WHERE name = 'bertram'")[0][0] == previous
    logged = {r[2] for r in rows} | {add}
    assert {r[0] for r in raw(location, "SELECT id FROM states")} <= logged  # nothing half written
    return [r[0] for r in rows]


@pytest.fixture
def bertram(pg, tmp_path):
    pytest.importorskip("critcore_gurps")
    dsn, where = pg
    location = where("hosted")
    subprocess.run([sys.executable, "-m", "critcore", "examples"], cwd=tmp_path, check=True, capture_output=True)
    made = subprocess.run([sys.executable, "-m", "critcore", "campaign", "new", location], capture_output=True,
                          text=True, check=True)
    token = made.stdout.split("game master's token: ")[1].split()[0]
    knight = json.loads((tmp_path / "bertram.json").read_text())
    knight["hp"] = 100_000  # hundreds of criticals must land on a living knight (a dead one is refused)
    (tmp_path / "bertram.json").write_text(json.dumps(knight))
    subprocess.run([sys.executable, "-m", "critcore", "campaign", "--campaign", location, "add", "gurps", "bertram",
                    str(tmp_path / "bertram.json")], check=True, capture_output=True)
    return dsn, location, token


def test_eight_processes_through_two_workers_and_the_cli_lose_nothing(bertram):
    dsn, location, token = bertram
    proc, base = _serve(dsn, 2)
    name = location.split("#")[1]
    try:
        clients = [subprocess.Popen([sys.executable, "-c", CLIENT, f"{base}/c/{name}", token, "50", str(i)],
                                    stdout=subprocess.PIPE, text=True) for i in range(4)]
        clis = [subprocess.Popen([sys.executable, "-c", CLI, location, "50", str(10 + i)], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True) for i in range(4)]
        answered = [json.loads(c.communicate(timeout=600)[0]) for c in clients]
        for c in clis:
            assert c.wait(timeout=600) == 0, c.stderr.read()
    finally:
        _stop(proc)
    assert all(None not in a for a in answered)
    ids = _chain(location)
    assert len(ids) == 8 * 50  # 0 lost
    assert {e for a in answered for e in a} <= set(ids)


def test_a_worker_killed_mid_writes_loses_nothing_committed(bertram):
    dsn, location, token = bertram
    proc, base = _serve(dsn, 2)
    name = location.split("#")[1]
    try:
        clients = [subprocess.Popen([sys.executable, "-c", CLIENT, f"{base}/c/{name}", token, "60", str(i)],
                                    stdout=subprocess.PIPE, text=True) for i in range(4)]
        time.sleep(2)
        workers = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
        assert workers, "no worker processes"
        os.kill(int(workers[0]), signal.SIGKILL)
        answered = [json.loads(c.communicate(timeout=600)[0]) for c in clients]
    finally:
        _stop(proc)
    ids = _chain(location)  # nothing half written: the chain holds, no state outside the log
    committed = [e for a in answered for e in a if e is not None]
    assert committed and set(committed) <= set(ids)  # every change a client was told of is there
    assert len(ids) <= 4 * 60
