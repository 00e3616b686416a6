"""Campaign format 2 (issue 25): what a campaign keeps so that no command reads its whole log, and
the upgrade of a campaign the previous release made.

``tests/golden/campaign-65d83fa.db`` was written by critcore at commit 65d83fa (campaign format 1)
with the fake system; ``campaign-65d83fa.json`` is what that critcore answered about it (see
``tests/golden/make_campaign_65d83fa.py``, which made both).
"""

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from critcore.campaign.campaign import Campaign
from critcore.campaign.store import CHANGES, SCHEMA_VERSION
from critcore.errors import BusyError, CampaignError

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def old_campaign(tmp_path):
    path = tmp_path / "old.db"
    shutil.copyfile(GOLDEN / "campaign-65d83fa.db", path)
    return str(path)


def _version(path):
    with sqlite3.connect(path) as db:
        return db.execute("PRAGMA user_version").fetchone()[0]


def test_the_fixture_is_a_format_1_campaign(old_campaign):
    assert _version(old_campaign) == 1
    with sqlite3.connect(old_campaign) as db:
        columns = [r[1] for r in db.execute("PRAGMA table_info(targets)")]
    assert "entries" not in columns


def test_a_campaign_of_the_previous_release_is_upgraded_and_reads_as_it_did(old_campaign, registry):
    expected = json.loads((GOLDEN / "campaign-65d83fa.json").read_text(encoding="utf-8"))
    with Campaign(old_campaign, registry=registry, who="gm") as camp:
        assert [t.to_dict() for t in camp.targets()] == expected["targets"]
        assert [e.to_dict() for e in camp.log()] == expected["log"]
        assert {t.name: camp.state(t.name) for t in camp.targets()} == expected["states"]
    assert _version(old_campaign) == SCHEMA_VERSION == 2
    with sqlite3.connect(old_campaign) as db:
        meta = dict(db.execute("SELECT key, value FROM meta"))
        indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert "upgraded_from_1" in meta and meta["created"]  # the campaign's own history is kept
    assert {"log_in_force", "log_undos", "log_removals"} <= indexes


def test_an_upgraded_campaign_keeps_its_undo_and_redo(old_campaign, registry):
    # the previous release left the ogre with its attack undone (redo would bring it back) and
    # the imp removed (undo would bring it back)
    with Campaign(old_campaign, registry=registry, who="gm") as camp:
        redone = camp.redo("ogre")
        assert camp.state("ogre") == {"hp": 7}
        assert camp.log()[redone.ref - 1].procedure == "attack"
        with pytest.raises(CampaignError, match="nothing to redo"):
            camp.redo("ogre")
        camp.undo("imp")
        assert camp.state("imp") == {"hp": 3}
        listed = {t.name: (t.changes, t.updated) for t in camp.targets()}
        for name, (changes, updated) in listed.items():
            entries = camp.log(name)
            assert (changes, updated) == (len(entries), entries[-1].at)
        assert listed["ogre"][0] == 9  # eight before, and the redo


def test_an_upgrade_happens_once(old_campaign, registry):
    Campaign(old_campaign, registry=registry).close()
    with sqlite3.connect(old_campaign) as db:
        before = db.execute("SELECT key, value FROM meta ORDER BY key").fetchall()
    Campaign(old_campaign, registry=registry).close()
    with sqlite3.connect(old_campaign) as db:
        assert db.execute("SELECT key, value FROM meta ORDER BY key").fetchall() == before


def test_a_campaign_that_cannot_be_upgraded_is_one_line_and_left_as_it_was(old_campaign, registry):
    # another program holds the write lock: the upgrade waits its bounded time, then says so
    with sqlite3.connect(old_campaign, isolation_level=None) as other:
        other.execute("BEGIN IMMEDIATE")
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("CRITCORE_BUSY_TIMEOUT", "0")
            with pytest.raises(BusyError, match="busy"):
                Campaign(old_campaign, registry=registry)
        other.execute("ROLLBACK")
    assert _version(old_campaign) == 1


# --- undo, redo and the listing read what they need, and answer as reading the whole log did ---


def _oracle_undo(log, target):
    """What undo took back when it read the target's whole log (critcore before issue 25)."""
    latest = None
    for e in log:
        if e.target == target and e.kind in CHANGES and not e.undone:
            latest = e
    return latest


def _oracle_redo(log, target):
    by_id = {e.id: e for e in log}
    for e in reversed([e for e in log if e.target == target]):
        if e.kind in ("resolve", "treat", "remove") and not e.undone:
            return None
        if e.kind == "undo" and e.ref is not None and by_id[e.ref].undone:
            return by_id[e.ref]
    return None


def _oracle_removed(log, name):
    for e in reversed(log):
        if e.kind == "remove" and e.name == name and e.target is not None and not e.undone:
            return e.target
    return None


def test_undo_redo_and_list_answer_as_the_whole_log_did(tmp_path, registry):
    rng = random.Random(25)
    names = ["ogre", "troll", "imp"]
    with Campaign.new(str(tmp_path / "c.db"), registry=registry, who="gm") as camp:
        for name in names:
            camp.add("fake", name, {"hp": 50})
        kinds = set()
        for _ in range(400):
            name = rng.choice(names)
            op = rng.choice(["treat", "treat", "undo", "undo", "redo", "redo", "remove", "add"])
            log = camp.log()
            live = {t.name for t in camp.targets()}
            if op == "treat" and name in live:
                camp.treat(name, "rest", dice="1")
            elif op == "add" and name not in live:
                camp.add("fake", name, {"hp": 50})
            elif op == "remove" and name in live and rng.random() < 0.3:
                camp.remove(name)
            elif op in ("undo", "redo"):
                row = [t for t in log if t.name == name and t.target is not None]
                target = None
                if name in live:
                    with camp.store.transaction() as tx:
                        target = tx.target(name).id
                elif row:
                    target = _oracle_removed(log, name)
                if target is None:
                    continue
                if op == "undo":
                    want = _oracle_undo(log, target)
                    want = None if want is None or want.kind == "add" else want
                else:
                    want = _oracle_redo(log, target)
                if want is None:
                    with pytest.raises(CampaignError, match=f"nothing to {op}"):
                        getattr(camp, op)(name)
                else:
                    assert getattr(camp, op)(name).ref == want.id
                    kinds.add((op, want.kind))
            log = camp.log()
            for t in camp.targets():
                mine = [e for e in log if e.name == t.name and e.target == _target_id(camp, t.name)]
                assert (t.changes, t.updated) == (len(mine), mine[-1].at)
    # the walk met every case: undo and redo of treatments and of removals
    assert {("undo", "treat"), ("redo", "treat"), ("undo", "remove"), ("redo", "remove")} <= kinds


def _target_id(camp, name):
    with camp.store.transaction() as tx:
        return tx.target(name).id
