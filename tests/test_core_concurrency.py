"""Several processes at once on one target, and processes killed mid-write.

Each worker is ``tests/fake_crit.py``: the ``crit`` command with the fake system, run N times in
one process. ``rest --dice 1`` heals exactly one hp, so a target's hp count the changes that
reached it: none may be lost, and a killed writer leaves the old state or the new, never a
torn one. The campaign tests run on both stores (SQLite, PostgreSQL: tests/campaign_stores.py).
"""

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from campaign_stores import raw
from critcore.campaign.campaign import Campaign

WORKER = str(Path(__file__).with_name("fake_crit.py"))
PROCESSES, UPDATES = 4, 25


def spawn(times, *args, env=None):
    return subprocess.Popen([sys.executable, WORKER, str(times), *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)


def run_all(args):
    procs = [spawn(UPDATES, *args) for _ in range(PROCESSES)]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()


@pytest.fixture
def campaign_file(campaign_at, registry):
    path = campaign_at()
    with Campaign.new(path, registry=registry) as camp:
        camp.add("fake", "ogre", {"hp": 10})
    return path


def test_four_processes_on_one_campaign_target_lose_no_update(campaign_file, registry):
    run_all(["treat", "fake", "rest", "--dice", "1", "--target", "@ogre", "--campaign", campaign_file])
    with Campaign(campaign_file, registry=registry) as camp:
        assert camp.state("ogre") == {"hp": 10 + PROCESSES * UPDATES}
        assert [e.kind for e in camp.log("ogre")].count("treat") == PROCESSES * UPDATES


def test_four_processes_saving_one_file_lose_no_update(isolated_config):
    path = isolated_config / "ogre.json"
    path.write_text('{"hp": 10}')
    run_all(["treat", "fake", "rest", "--dice", "1", "--target", str(path), "--save"])
    assert json.loads(path.read_text()) == {"hp": 10 + PROCESSES * UPDATES}


def kill_repeatedly(args, rounds=6, writing=None):
    """``writing``: a function saying how many changes have landed; each round then kills only
    once the writers are at it (however long their start took), a random moment later."""
    rng = random.Random(20261201)
    for _ in range(rounds):
        before = writing() if writing else 0
        procs = [spawn(0, *args) for _ in range(2)]
        if writing:
            deadline = time.monotonic() + 30
            while writing() == before and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(rng.random() * 0.3)
        else:
            time.sleep(0.4 + rng.random() * 0.4)
        for p in procs:
            os.kill(p.pid, signal.SIGKILL)
        for p in procs:
            p.wait(timeout=30)
            assert p.returncode == -signal.SIGKILL, p.stderr.read().decode()  # killed while working


def test_kill_9_during_campaign_writes_leaves_a_sound_campaign_whose_log_matches_its_states(campaign_file,
                                                                                            registry):
    kill_repeatedly(["treat", "fake", "rest", "--dice", "1", "--target", "@ogre", "--campaign", campaign_file],
                    writing=lambda: raw(campaign_file, "SELECT count(*) FROM log")[0][0])
    if not campaign_file.startswith("postgresql://"):
        assert raw(campaign_file, "PRAGMA integrity_check") == [("ok",)]
        assert raw(campaign_file, "PRAGMA foreign_key_check") == []
    head = raw(campaign_file, "SELECT head FROM targets WHERE name = 'ogre'")[0][0]
    last_after = raw(campaign_file, "SELECT after_state FROM log WHERE name = 'ogre' ORDER BY id DESC LIMIT 1")[0][0]
    assert head == last_after  # the state the log says it left is the current one
    treats = raw(campaign_file, "SELECT count(*) FROM log WHERE kind = 'treat'")[0][0]
    hp = json.loads(raw(campaign_file, "SELECT state FROM states WHERE id = ?", head)[0][0])["hp"]
    assert treats > 0 and hp == 10 + treats  # every logged change is in the state, and nothing else is
    states = raw(campaign_file, "SELECT count(*) FROM states")[0][0]
    assert states == 1 + treats  # no state written without its log entry (nothing half written)
    with Campaign(campaign_file, registry=registry) as camp:  # and it goes on working
        camp.treat("ogre", "rest", dice="1")
        assert camp.state("ogre") == {"hp": hp + 1}


def test_kill_9_during_file_saves_leaves_the_old_or_the_new_content(isolated_config, invoke):
    path = isolated_config / "ogre.json"
    path.write_text('{"hp": 10}')
    seen = 10
    for _ in range(4):
        kill_repeatedly(["treat", "fake", "rest", "--dice", "1", "--target", str(path), "--save"], rounds=1)
        hp = json.loads(path.read_text())["hp"]  # never torn: it parses
        assert hp >= seen
        seen = hp
    assert invoke("treat", "fake", "rest", "--dice", "1", "--target", str(path), "--save").exit_code == 0
    assert json.loads(path.read_text()) == {"hp": seen + 1}
    assert not [n for n in os.listdir(isolated_config) if n.endswith(".tmp")]  # leftovers cleaned up


def test_a_campaign_busy_for_too_long_is_a_clear_error_and_changes_nothing(campaign_file, invoke, monkeypatch):
    monkeypatch.setenv("CRITCORE_BUSY_TIMEOUT", "0.2")
    if campaign_file.startswith("postgresql://"):  # another transaction holds the target's row
        import psycopg

        dsn, _, name = campaign_file.partition("#")
        holder = psycopg.connect(dsn)
        holder.execute(f"SELECT * FROM crit_{name}.targets WHERE name = 'ogre' FOR UPDATE")
    else:
        holder = sqlite3.connect(campaign_file, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
    try:
        result = invoke("treat", "fake", "rest", "--dice", "1", "--target", "@ogre", "--campaign", campaign_file)
    finally:
        holder.rollback() if campaign_file.startswith("postgresql://") else holder.execute("ROLLBACK")
        holder.close()
    assert result.exit_code == 1
    assert "busy" in result.output and "nothing was changed" in result.output
    assert len(result.output.strip().splitlines()) == 1
