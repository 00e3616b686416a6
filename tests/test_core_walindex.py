"""A campaign store asked again and again whether another connection committed (crit serve, at
each request) reads the WAL index's header instead of asking SQLite when nothing changed
(critcore/_speed/walindex.py, issue 25). The rule it keeps is SQLite's own: its answer is
always what ``PRAGMA data_version`` on the same connection answers. Checked on generated
sequences (hypothesis) of commits from other connections and processes' stand-ins, commits of
its own, checkpoints of every kind (the log restarted, truncated) and reads."""

from __future__ import annotations

import os
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from critcore.campaign.sqlite import SQLiteStore

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the WAL index is read through a POSIX mapping")


def _pragma(store: SQLiteStore) -> int:
    return int(store._db.execute("PRAGMA data_version").fetchone()[0])


def _store(tmp_path, name: str = "camp.db") -> SQLiteStore:
    return SQLiteStore(str(tmp_path / name), create=True)


def _other(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    return db


OPS = st.lists(st.sampled_from(["other commits", "other commits twice", "own commit", "passive checkpoint",
                                "restart checkpoint", "truncate checkpoint", "other reads", "ask",
                                "other reconnects"]), min_size=1, max_size=25)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(ops=OPS)
def test_the_answer_is_always_sqlites(tmp_path_factory, ops):
    folder = tmp_path_factory.mktemp("wal")
    store = _store(folder)
    path = store.location
    store.data_version()
    store.data_version()  # asked again: the store now reads the header
    assert store._wal is not None
    other = _other(path)
    n = 0
    try:
        for op in ops:
            n += 1
            if op == "other commits":
                other.execute("INSERT INTO meta VALUES (?, 'x')", (f"o{n}",))
            elif op == "other commits twice":
                other.execute("INSERT INTO meta VALUES (?, 'x')", (f"a{n}",))
                other.execute("INSERT INTO meta VALUES (?, 'x')", (f"b{n}",))
            elif op == "own commit":
                store._db.execute("INSERT INTO meta VALUES (?, 'x')", (f"s{n}",))
            elif op.endswith("checkpoint"):
                other.execute(f"PRAGMA wal_checkpoint({op.split()[0].upper()})").fetchall()
            elif op == "other reads":
                other.execute("SELECT count(*) FROM meta").fetchone()
            elif op == "other reconnects":
                other.close()
                other = _other(path)
            assert store.data_version() == _pragma(store), ops[:n]
    finally:
        other.close()
        store.close()


def test_nothing_changed_asks_sqlite_nothing(tmp_path):
    """What the header saves: with no commit since the last look, no statement runs at all; a
    commit from another connection is seen at the next look."""
    store = _store(tmp_path)
    first = store.data_version()
    store.data_version()
    statements: list[str] = []
    store._db.set_trace_callback(statements.append)
    assert [store.data_version() for _ in range(5)] == [first] * 5
    assert statements == ["PRAGMA data_version"]  # the first look keeps the header, the next four read it alone
    statements.clear()
    assert store.data_version() == first and statements == []
    other = _other(store.location)
    other.execute("INSERT INTO meta VALUES ('seen', 'x')")
    assert store.data_version() != first and statements == ["PRAGMA data_version"]
    other.close()
    store.close()


def test_a_store_asked_once_sets_nothing_up(tmp_path):
    """A command asks once: it maps nothing (start-up stays as it was)."""
    store = _store(tmp_path)
    store.data_version()
    assert store._wal is None
    store.close()


def test_without_a_write_ahead_log_sqlite_answers(tmp_path):
    """A campaign file someone switched to another journal: no header to read, SQLite's answer."""
    store = _store(tmp_path)
    path = store.location
    store.close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    store = SQLiteStore.__new__(SQLiteStore)  # opened as it is, without the open's switch back to WAL
    store.location, store.read_only, store._asked, store._wal, store._seen = path, None, 0, None, None
    store._db = sqlite3.connect(path, isolation_level=None)
    other = sqlite3.connect(path, isolation_level=None)
    for _ in range(3):
        other.execute("INSERT INTO meta VALUES (?, 'x')", (os.urandom(4).hex(),))
        assert store.data_version() == _pragma(store)
    assert store._wal is None
    other.close()
    store._db.close()
