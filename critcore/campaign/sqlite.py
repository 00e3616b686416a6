"""The campaign store in one SQLite file (Python's ``sqlite3``: nothing to install or start).

- Write-ahead log with ``synchronous=FULL``: a committed change is on disk, and a process
  killed at any moment leaves a database that passes ``PRAGMA integrity_check``.
- A write transaction starts with ``BEGIN IMMEDIATE``: it takes the write lock before its first
  read, so two processes changing one target one after the other lose nothing. Waiting for the
  lock is bounded (``CRITCORE_BUSY_TIMEOUT`` seconds, 10 by default); then a clear error.
- ``PRAGMA user_version`` is the campaign format; a newer one is refused.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from typing import Any, Iterator

import json
from critcore.errors import BusyError, CampaignError
from critcore.campaign.store import SCHEMA_VERSION, LogEntry, StoredState, TargetRow
from critcore.files.timeouts import busy_timeout

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE targets (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    system TEXT NOT NULL,
    head INTEGER REFERENCES states(id),
    created TEXT NOT NULL
);
CREATE UNIQUE INDEX targets_live_name ON targets(name) WHERE head IS NOT NULL;
CREATE TABLE states (
    id INTEGER PRIMARY KEY,
    target INTEGER NOT NULL REFERENCES targets(id),
    system TEXT NOT NULL,
    plugin_version TEXT NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE log (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    who TEXT NOT NULL,
    kind TEXT NOT NULL,
    target INTEGER REFERENCES targets(id),
    name TEXT NOT NULL,
    system TEXT NOT NULL,
    procedure TEXT NOT NULL,
    summary TEXT NOT NULL,
    outcome TEXT,
    before_state INTEGER REFERENCES states(id),
    after_state INTEGER REFERENCES states(id),
    ref INTEGER REFERENCES log(id),
    undone INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX log_target ON log(target, id);
"""
"""Format 1, as the first campaigns were made; a new campaign is made as that, then upgraded."""

_IN_FORCE = "kind IN ('add', 'resolve', 'treat', 'remove') AND undone = 0"
"""A change still in force (what undo takes back). A query uses the partial index below only when
its WHERE holds these very terms, so both are made from this one string."""

_UPGRADES = {
    # 1 -> 2 (issue 25): no command reads the whole log. Each target keeps its number of log
    # entries and the time of the latest (``crit campaign list``, the web page's cards); undo,
    # redo and the undo of a removal find their entry through partial indexes.
    1: f"""
ALTER TABLE targets ADD COLUMN entries INTEGER NOT NULL DEFAULT 0;
ALTER TABLE targets ADD COLUMN updated TEXT;
UPDATE targets SET entries = (SELECT count(*) FROM log WHERE log.target = targets.id),
                   updated = (SELECT at FROM log WHERE log.target = targets.id ORDER BY id DESC LIMIT 1);
CREATE INDEX log_in_force ON log(target, id) WHERE {_IN_FORCE};
CREATE INDEX log_undos ON log(target, id) WHERE kind = 'undo';
CREATE INDEX log_removals ON log(name, id) WHERE kind = 'remove';
""",
}


def _run(db: sqlite3.Connection, script: str) -> None:
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)

_LOG_COLUMNS = ("id, at, who, kind, name, system, procedure, summary, outcome, before_state, after_state, "
                "ref, undone, target")


class SQLiteStore:
    """A campaign in one SQLite file. ``create=True`` makes a new one (the file must not exist)."""

    def __init__(self, path: str, *, create: bool = False, critcore_version: str = "") -> None:
        self.location = path
        exists = os.path.exists(path)
        if create and exists:
            raise CampaignError(f"{path}: already exists; open it with --campaign {path}")
        if not create and not exists:
            raise CampaignError(f"{path}: no campaign there (make one with: crit campaign new {path})")
        if create:
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                raise CampaignError(f"{path}: the folder {folder} does not exist")
        if exists and os.path.isdir(path):
            raise CampaignError(f"{path}: is a folder, not a campaign file")
        if exists and not os.path.isfile(path):
            raise CampaignError(f"{path}: not a campaign file (a device or a pipe)")
        self._timeout = busy_timeout()
        try:
            self._db = sqlite3.connect(path, timeout=self._timeout, isolation_level=None,
                                       check_same_thread=False)
        except sqlite3.Error as exc:
            raise CampaignError(f"{path}: cannot open the campaign: {exc}") from None
        try:
            self._setup(create, critcore_version)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if "locked" in str(exc) or "busy" in str(exc):
                raise self._busy() from None
            raise CampaignError(f"{path}: not a critcore campaign ({exc})") from None
        except BaseException:
            self._db.close()
            raise

    def _busy(self) -> BusyError:
        return BusyError(f"{self.location}: the campaign is busy (another crit held its lock for over "
                            f"{self._timeout:g} s); nothing was changed, try again")

    def _setup(self, create: bool, critcore_version: str) -> None:
        db = self._db
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise CampaignError(f"{self.location}: written by a newer critcore (campaign format {version}; this "
                                f"critcore reads up to {SCHEMA_VERSION}): upgrade critcore to open it")
        db.execute("PRAGMA synchronous=FULL")  # these two hold for this connection only: set at each open
        db.execute("PRAGMA foreign_keys=ON")
        if version == 0:
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if tables and not create:
                raise CampaignError(f"{self.location}: an SQLite file, but not a critcore campaign")
        # kept in the file, so a no-op once set; set again when someone switched the file to
        # another journal (a tool, a copy): readers beside a writer need the write-ahead log
        db.execute("PRAGMA journal_mode=WAL")
        if version < SCHEMA_VERSION:
            from datetime import datetime, timezone

            with self._begin(True):  # the schema (or its upgrade) and its version in one transaction
                version = db.execute("PRAGMA user_version").fetchone()[0]  # made meanwhile by another?
                now = datetime.now(timezone.utc).isoformat(timespec="seconds")
                by = f"critcore {critcore_version}".strip()
                if version == 0:
                    _run(db, _SCHEMA)
                    db.executemany("INSERT INTO meta VALUES (?, ?)", [("created", now), ("created_by", by)])
                    version = 1
                elif version < SCHEMA_VERSION:
                    db.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               (f"upgraded_from_{version}", f"{now} by {by}"))
                while version < SCHEMA_VERSION:
                    _run(db, _UPGRADES[version])
                    version += 1
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def _begin(self, write: bool) -> Iterator[None]:
        try:
            self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise self._busy() from None
            raise CampaignError(f"{self.location}: {exc}") from None
        try:
            yield
        except sqlite3.Error as exc:  # a campaign edited by hand, a full disk: one line, nothing written
            self._db.execute("ROLLBACK")
            if "locked" in str(exc) or "busy" in str(exc):
                raise self._busy() from None
            raise CampaignError(f"{self.location}: the campaign cannot be read or written: {exc}") from None
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        try:
            self._db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            self._db.execute("ROLLBACK")
            if "locked" in str(exc) or "busy" in str(exc):
                raise self._busy() from None
            raise CampaignError(f"{self.location}: {exc}") from None

    @contextmanager
    def transaction(self, write: bool = False) -> Iterator[_Tx]:
        with self._begin(write):
            yield _Tx(self._db)

    def data_version(self) -> int | None:
        try:
            return int(self._db.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:  # read the settings, which says what is wrong
            return None

    def close(self) -> None:
        self._db.close()


def _loads(text: str | None, what: str = "a log entry") -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise sqlite3.DataError(f"{what} is not valid JSON (edited by hand?)") from None


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class _Tx:
    """One transaction of an :class:`SQLiteStore` (see :class:`critcore.campaign.store.Transaction`)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def target(self, name: str) -> TargetRow | None:
        row = self._db.execute("SELECT id, name, system, head, created FROM targets WHERE name = ? AND head IS NOT NULL",
                               (name,)).fetchone()
        return None if row is None else TargetRow(*row)

    def target_by_id(self, target_id: int) -> TargetRow:
        row = self._db.execute("SELECT id, name, system, head, created FROM targets WHERE id = ?",
                               (target_id,)).fetchone()
        return TargetRow(*row)

    def targets(self) -> list[TargetRow]:
        rows = self._db.execute("SELECT id, name, system, head, created FROM targets WHERE head IS NOT NULL "
                                "ORDER BY name").fetchall()
        return [TargetRow(*r) for r in rows]

    def summaries(self) -> list[tuple[TargetRow, int, str]]:
        rows = self._db.execute("SELECT id, name, system, head, created, entries, coalesce(updated, created) "
                                "FROM targets WHERE head IS NOT NULL ORDER BY name").fetchall()
        return [(TargetRow(*r[:5]), r[5], r[6]) for r in rows]

    def new_target(self, name: str, system: str, at: str) -> TargetRow:
        cur = self._db.execute("INSERT INTO targets (name, system, head, created) VALUES (?, ?, NULL, ?)",
                               (name, system, at))
        return TargetRow(int(cur.lastrowid or 0), name, system, None, at)

    def state(self, state_id: int) -> StoredState:
        row = self._db.execute("SELECT id, target, system, plugin_version, state FROM states WHERE id = ?",
                               (state_id,)).fetchone()
        if row is None:
            raise sqlite3.DataError(f"state #{state_id} is missing")
        state = _loads(row[4], f"state #{row[0]}")
        if not isinstance(state, dict):
            raise sqlite3.DataError(f"state #{row[0]} is not a JSON object (edited by hand?)")
        return StoredState(row[0], row[1], row[2], row[3], state)

    def add_state(self, target_id: int, system: str, plugin_version: str, state: dict[str, Any]) -> int:
        cur = self._db.execute("INSERT INTO states (target, system, plugin_version, state) VALUES (?, ?, ?, ?)",
                               (target_id, system, plugin_version, _dumps(state)))
        return int(cur.lastrowid or 0)

    def set_head(self, target_id: int, state_id: int | None) -> None:
        self._db.execute("UPDATE targets SET head = ? WHERE id = ?", (state_id, target_id))

    def add_log(self, entry: dict[str, Any]) -> int:
        cur = self._db.execute(
            "INSERT INTO log (at, who, kind, target, name, system, procedure, summary, outcome, before_state, "
            "after_state, ref, undone) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
            (entry["at"], entry["who"], entry["kind"], entry.get("target"), entry.get("name", ""),
             entry.get("system", ""), entry.get("procedure", ""), entry.get("summary", ""),
             None if entry.get("outcome") is None else _dumps(entry["outcome"]),
             entry.get("before"), entry.get("after"), entry.get("ref")))
        if entry.get("target") is not None:
            self._db.execute("UPDATE targets SET entries = entries + 1, updated = ? WHERE id = ?",
                             (entry["at"], entry["target"]))
        return int(cur.lastrowid or 0)

    def set_undone(self, entry_id: int, undone: bool) -> None:
        self._db.execute("UPDATE log SET undone = ? WHERE id = ?", (int(undone), entry_id))

    def _entries(self, where: str, args: tuple[Any, ...], outcomes: bool = True) -> list[LogEntry]:
        columns = _LOG_COLUMNS if outcomes else _LOG_COLUMNS.replace("outcome,", "outcome IS NOT NULL,")
        rows = self._db.execute(f"SELECT {columns} FROM log {where}", args).fetchall()
        return [LogEntry(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7],
                         _loads(r[8]) if outcomes else ({} if r[8] else None), r[9], r[10], r[11],
                         bool(r[12]), r[13]) for r in rows]

    def log(self, target_id: int | None = None, limit: int | None = None, outcomes: bool = True) -> list[LogEntry]:
        where, args = ("WHERE target = ?", (target_id,)) if target_id is not None else ("", ())
        if limit is not None:
            entries = self._entries(f"{where} ORDER BY id DESC LIMIT ?", (*args, limit), outcomes)
            return entries[::-1]
        return self._entries(f"{where} ORDER BY id", args, outcomes)

    def entry(self, entry_id: int) -> LogEntry:
        return self._entries("WHERE id = ?", (entry_id,))[0]

    def in_force(self, target_id: int) -> LogEntry | None:
        found = self._entries(f"WHERE target = ? AND {_IN_FORCE} ORDER BY id DESC LIMIT 1", (target_id,))
        return found[0] if found else None

    def redoable(self, target_id: int) -> LogEntry | None:
        # the latest undo whose change is still undone (the undos whose change was redone are
        # passed over one index step each), unless a change in force came after it
        row = self._db.execute("SELECT u.id, u.ref FROM log AS u JOIN log AS c ON c.id = u.ref WHERE u.target = ? "
                               "AND u.kind = 'undo' AND c.undone = 1 ORDER BY u.id DESC LIMIT 1",
                               (target_id,)).fetchone()
        if row is None:
            return None
        latest = self.in_force(target_id)
        if latest is not None and latest.id > row[0]:
            return None
        return self.entry(row[1])

    def last_removed(self, name: str) -> int | None:
        row = self._db.execute("SELECT target FROM log WHERE name = ? AND kind = 'remove' AND undone = 0 "
                               "AND target IS NOT NULL ORDER BY id DESC LIMIT 1", (name,)).fetchone()
        return None if row is None else int(row[0])

    def setting(self, key: str, default: Any = None) -> Any:
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else _loads(row[0], f"setting {key!r}")

    def set_setting(self, key: str, value: Any) -> None:
        self._db.execute("INSERT INTO settings VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                         (key, _dumps(value)))

    # --- whole tables, for crit campaign copy (critcore.campaign.copy) ------------------------

    def rows(self, table: str) -> list[tuple[Any, ...]]:
        from critcore.campaign.store import COLUMNS, ORDER

        return [tuple(r) for r in self._db.execute(
            f"SELECT {', '.join(COLUMNS[table])} FROM {table} ORDER BY {ORDER[table]}").fetchall()]

    def insert_rows(self, table: str, rows: list[tuple[Any, ...]]) -> None:
        from critcore.campaign.store import COLUMNS

        columns = COLUMNS[table]
        self._db.executemany(f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) "
                             f"VALUES ({', '.join('?' * len(columns))})", rows)
