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
from critcore.errors import BusyError, CampaignError, CritcoreError, DiskError
from critcore.campaign.store import SCHEMA_VERSION, SECRET_KEYS, LogEntry, StoredState, TargetRow
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
    """A campaign in one SQLite file. ``create=True`` makes a new one (the file must not exist).

    Where the file can be read but not written (a full disk, a read-only disk, a file without
    write permission) it is opened read-only: reading works, and a change is refused with one
    line saying why (:attr:`read_only`). A failed ``create`` leaves no file behind.
    """

    def __init__(self, path: str, *, create: bool = False, critcore_version: str = "") -> None:
        self.location = path
        self.read_only: str | None = None  # why the campaign can only be read (None: it can be changed)
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
        if exists and _empty(path):
            raise CampaignError(f"{path}: an empty file (0 bytes), not a campaign: a `crit campaign new` that "
                                "failed (a full disk?) leaves one; delete it and make the campaign again")
        self._timeout = busy_timeout()
        try:
            self._db = self._open(path, create, critcore_version)
        except BaseException:
            if create:
                _remove_made(path)
            raise

    def _open(self, path: str, create: bool, critcore_version: str) -> sqlite3.Connection:
        try:
            self._db = sqlite3.connect(path, timeout=self._timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            if create:
                raise self._fault(exc, "cannot make the campaign", "nothing was made") from None
            return self._open_read_only(path, exc)
        try:
            self._setup(create, critcore_version)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if _is_busy(exc):
                raise self._busy() from None
            if create:
                raise self._fault(exc, "cannot make the campaign", "nothing was made") from None
            if _cause(exc, path)[0] == "damaged":
                raise CampaignError(f"{path}: not a critcore campaign, or a damaged one ({exc}); "
                                    f"crit campaign --campaign {path} check says more") from None
            return self._open_read_only(path, exc)
        except BaseException:
            self._db.close()
            raise
        return self._db

    def _open_read_only(self, path: str, first: sqlite3.Error) -> sqlite3.Connection:
        """Open the campaign for reading only, after opening it for writing failed with ``first``
        (a full or read-only disk): ``mode=ro``, else, when no change waits in the write-ahead log,
        ``immutable=1`` (which reads the file alone, and is right only while nobody writes it)."""
        kind, why = _cause(first, path)
        if kind == "damaged":
            raise CampaignError(f"{path}: not a critcore campaign, or a damaged one ({first})") from None
        from urllib.parse import quote

        uri = "file:" + quote(os.path.abspath(path))
        tries = [uri + "?mode=ro"]
        wal = path + "-wal"
        if not os.path.exists(wal) or os.path.getsize(wal) == 0:
            tries.append(uri + "?immutable=1")
        for attempt in tries:
            try:
                db = sqlite3.connect(attempt, uri=True, timeout=self._timeout, isolation_level=None,
                                     check_same_thread=False)
            except sqlite3.Error:
                continue
            try:
                version = db.execute("PRAGMA user_version").fetchone()[0]
                db.execute("SELECT count(*) FROM targets").fetchone()
            except sqlite3.Error:
                db.close()
                continue
            if version > SCHEMA_VERSION:
                db.close()
                raise self._newer(version)
            self.read_only = why
            self._db = db
            return db
        raise CampaignError(f"{path}: cannot open the campaign: {why}; nothing was changed") from None

    def _fault(self, exc: sqlite3.Error, doing: str, unchanged: str) -> CritcoreError:
        kind, why = _cause(exc, self.location)
        line = f"{self.location}: {doing}: {why}; {unchanged}"
        return CampaignError(line) if kind in ("damaged", "place") else DiskError(line)

    def _newer(self, version: int) -> CampaignError:
        return CampaignError(f"{self.location}: written by a newer critcore (campaign format {version}; this "
                             f"critcore reads up to {SCHEMA_VERSION}): upgrade critcore to open it")

    def _busy(self) -> BusyError:
        return BusyError(f"{self.location}: the campaign is busy (another crit held its lock for over "
                            f"{self._timeout:g} s); nothing was changed, try again")

    def _setup(self, create: bool, critcore_version: str) -> None:
        db = self._db
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise self._newer(version)
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
        if write and self.read_only is not None:
            raise DiskError(f"{self.location}: the campaign can be read but not changed: {self.read_only}; "
                            "nothing was changed")
        try:
            self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise self._busy() from None
            raise self._fault(exc, "cannot read or change the campaign", "nothing was changed") from None
        try:
            yield
        except sqlite3.Error as exc:  # a campaign edited by hand, a full disk: one line, nothing written
            self._rollback()
            if _is_busy(exc):
                raise self._busy() from None
            if isinstance(exc, sqlite3.DataError):  # a row critcore cannot read (see _loads)
                raise CampaignError(f"{self.location}: {exc}; crit campaign check names every damaged row") from None
            raise self._fault(exc, "the campaign cannot be read or written", "nothing was changed") from None
        except BaseException:
            self._rollback()
            raise
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            if _is_busy(exc):
                raise self._busy() from None
            raise self._fault(exc, "cannot write the change", "nothing was changed") from None

    def _rollback(self) -> None:
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.Error:  # SQLite rolled back already (a full disk, an I/O error)
            pass

    @contextmanager
    def transaction(self, write: bool = False) -> Iterator[_Tx]:
        with self._begin(write):
            yield _Tx(self._db)

    def data_version(self) -> int | None:
        try:
            return int(self._db.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:  # read the settings, which says what is wrong
            return None

    def secret_digests(self) -> dict[str, str]:
        """The digests of the campaign's own token and players' key, if it keeps them
        (``crit campaign keys``; then ``crit serve`` checks them, docs/web.md)."""
        with self._begin(False):
            rows = self._db.execute("SELECT key, value FROM meta WHERE key IN (?, ?)", SECRET_KEYS).fetchall()
        return {str(k): str(v) for k, v in rows}

    def new_secrets(self) -> tuple[str, str]:
        """Make a new token and players' key, kept as digests (the old ones stop working at once)."""
        from critcore.campaign.store import digest, new_keys

        token, key = new_keys()
        with self._begin(True):
            self._db.executemany("INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                                 list(zip(SECRET_KEYS, (digest(token), digest(key)))))
        return token, key

    @property
    def connection(self) -> sqlite3.Connection:
        """The SQLite connection itself, for ``crit campaign check`` (:mod:`critcore.campaign.check`)."""
        return self._db

    def close(self) -> None:
        self._db.close()


def _is_busy(exc: BaseException) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def _empty(path: str) -> bool:
    """A 0-byte file with no write-ahead log holding its pages: nothing SQLite ever wrote."""
    try:
        if os.path.getsize(path) != 0:
            return False
        wal = path + "-wal"
        return not os.path.exists(wal) or os.path.getsize(wal) == 0
    except OSError:
        return False


def _remove_made(path: str) -> None:
    """Remove what a failed ``create`` left (the file SQLite began, its journal files), unless the
    file holds a campaign after all (another process made it meanwhile): its header's format
    number is still 0 and no write-ahead log holds pages."""
    try:
        with open(path, "rb") as fh:
            header = fh.read(64)
        wal = path + "-wal"
        if (len(header) >= 64 and header[60:64] != bytes(4)) or (os.path.exists(wal) and os.path.getsize(wal)):
            return
    except OSError:
        return
    for leftover in (path, path + "-wal", path + "-shm", path + "-journal"):
        try:
            os.unlink(leftover)
        except OSError:
            pass


def _cause(exc: sqlite3.Error, path: str) -> tuple[str, str]:
    """What went wrong, in the user's words: ``(kind, text)``, kind one of ``disk`` (full,
    read-only, an I/O error), ``place`` (permissions) or ``damaged`` (not a campaign, corrupt)."""
    name = str(getattr(exc, "sqlite_errorname", "") or "")
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fs = os.statvfs(folder)
        read_only_fs, full = bool(fs.f_flag & os.ST_RDONLY), fs.f_bavail == 0
    except (OSError, AttributeError):  # no statvfs (Windows)
        read_only_fs = full = False
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in str(exc) or \
            "not a database" in str(exc):
        return "damaged", f"the campaign is damaged ({exc})"
    if read_only_fs:
        return "disk", "the disk is read-only"
    if name == "SQLITE_FULL" or (full and name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN"))):
        return "disk", "the disk is full"
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
        if not os.access(path, os.W_OK) or not os.access(folder, os.W_OK | os.X_OK):
            return "place", f"no permission to write the campaign or its folder {folder}"
        if name.startswith("SQLITE_READONLY"):
            return "disk", f"the file is read-only to SQLite ({exc})"
        return "disk", f"it cannot be written ({exc})"
    if name.startswith("SQLITE_IOERR"):
        return "disk", f"a disk input/output error ({name})"
    if "disk" in str(exc) or "readonly" in str(exc):  # a Python without sqlite_errorname
        return "disk", str(exc)
    return "damaged", f"the campaign is damaged ({exc})"  # a table or a row not as critcore made it


def _loads(text: str | None, what: str = "a log entry") -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise sqlite3.DataError(f"{what} is not valid JSON (edited by hand?)") from None


DAMAGED = "damaged"
"""The one key of a log entry's outcome that could not be read (``{"damaged": WHAT}``): the entry
stays in the log (its summary, its states, undo), its outcome is shown as damaged, and
``crit campaign check`` names it."""


def _outcome(entry_id: int, text: str | None) -> dict[str, Any] | None:
    try:
        value = _loads(text)
    except sqlite3.DataError:
        return {DAMAGED: f"log entry #{entry_id}: its outcome is not valid JSON (edited by hand?)"}
    if value is not None and not isinstance(value, dict):
        return {DAMAGED: f"log entry #{entry_id}: its outcome is not a JSON object (edited by hand?)"}
    return value


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
                         _outcome(r[0], r[8]) if outcomes else ({} if r[8] else None), r[9], r[10], r[11],
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
