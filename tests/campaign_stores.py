"""The campaign stores the campaign tests run on: an SQLite file, and a campaign of the PostgreSQL
database named by ``CRITCORE_TEST_POSTGRES`` (``.ci/postgres`` starts a throwaway cluster and sets
it). Without it, or without psycopg, the PostgreSQL cases skip with the reason, and the session
ends with a loud line saying so (tests/conftest.py)."""

from __future__ import annotations

import itertools
import os
import sqlite3
from typing import Any

import pytest

STORES = ("sqlite", "postgresql")
SKIPPED: list[str] = []  # why PostgreSQL cases were skipped (said loudly at the end)
_names = itertools.count()


def postgres_dsn() -> str:
    """The test database, or a skip saying why there is none."""
    dsn = os.environ.get("CRITCORE_TEST_POSTGRES")
    reason = None
    if not dsn:
        reason = "CRITCORE_TEST_POSTGRES is not set (source .ci/postgres && pg_start)"
    else:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            reason = 'psycopg is not installed (pip install "critcore[postgresql]")'
    if reason:
        SKIPPED.append(reason)
        pytest.skip(f"PostgreSQL campaign tests skipped: {reason}")
    return dsn  # type: ignore[return-value]


def new_location(kind: str, folder: Any, stem: str = "c") -> str:
    """Where a new campaign of that store goes (not made yet)."""
    if kind == "sqlite":
        return str(folder / f"{stem}-{next(_names)}.db")
    return f"{postgres_dsn()}#t{os.getpid()}_{next(_names)}_{stem.replace('-', '_')}"


def drop(location: str) -> None:
    if location.startswith("postgresql://"):
        from critcore.campaign.postgres import drop as pg_drop

        pg_drop(location)


def raw(location: str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """One SQL statement on a campaign's own tables, past critcore (a hand edit, a look inside).
    Written for SQLite (``?``); on PostgreSQL it runs in the campaign's schema with foreign keys
    not enforced (as SQLite's tools edit), ``DROP TABLE`` cascading."""
    if not location.startswith("postgresql://"):
        db = sqlite3.connect(location)
        try:
            rows = db.execute(sql, args).fetchall()
            db.commit()
            return rows
        finally:
            db.close()
    import psycopg

    dsn, _, name = location.partition("#")
    sql = sql.replace("?", "%s")
    if sql.startswith("DROP TABLE"):
        sql += " CASCADE"
    args = tuple(a.decode("utf-8", "replace") if isinstance(a, bytes) else a for a in args)
    args = tuple(a.replace("\x00", "") if isinstance(a, str) else a for a in args)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'SET search_path TO "crit_{name}"')
        conn.execute("SET session_replication_role = replica")
        cur = conn.execute(sql, args)
        return cur.fetchall() if cur.description else []


def set_format(location: str, version: int) -> None:
    if location.startswith("postgresql://"):
        raw(location, "UPDATE meta SET value = ? WHERE key = 'format'", str(version))
    else:
        raw(location, f"PRAGMA user_version = {version}")
