"""``crit campaign copy SOURCE DEST``: a campaign moved between stores (an SQLite file and a
campaign of a PostgreSQL database, either way, or file to file), exactly: every target, every
state each has had, the whole log with its undo marks, the settings, all under their ids, so
``#4`` in the log is ``#4`` after the copy and undo and redo go on as before.

The destination is made new (an existing one is refused) and filled in one transaction of its
store: a copy is whole or not there. The source is read in one transaction, so a copy of a
campaign in use is a consistent picture of one moment. The destination's own keys stay its own:
the game master's token and players' key of a database campaign are made with it, never copied.
"""

from __future__ import annotations

from typing import Any

from critcore.campaign.store import COLUMNS

_NOT_COPIED = ("format", "gm_token_sha256", "players_key_sha256")
"""``meta`` rows that belong to the store a campaign is in, not to the campaign."""


def read_all(tx: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of a campaign, table by table (a transaction of either store)."""
    return {table: tx.rows(table) for table in COLUMNS}


def copy_campaign(source: str, dest: str) -> tuple[str, str, int, int]:
    """Copy the campaign at ``source`` to a new campaign at ``dest``. Returns the two locations
    as shown, and the numbers of targets and log entries copied."""
    from datetime import datetime, timezone

    from critcore.campaign.campaign import open_store
    from critcore.errors import CampaignError

    src = open_store(source)
    try:
        with src.transaction() as tx:
            rows = read_all(tx)
        shown = src.location
    finally:
        src.close()
    out = open_store(dest, create=True)
    try:
        if out.location == shown:
            raise CampaignError(f"{dest}: the same campaign as the source")
        with out.transaction(write=True) as tx_:
            dst: Any = tx_  # both stores' transactions have rows() and insert_rows() (not in the interface)
            # a target's head names a state, and a state its target: targets first without heads
            dst.insert_rows("targets", [(*r[:3], None, *r[4:]) for r in rows["targets"]])
            dst.insert_rows("states", rows["states"])
            for r in rows["targets"]:
                if r[3] is not None:
                    dst.set_head(r[0], r[3])
            dst.insert_rows("log", rows["log"])
            dst.insert_rows("settings", rows["settings"])
            now = datetime.now(timezone.utc).isoformat(timespec="seconds")
            dst.insert_rows("meta", [r for r in rows["meta"] if r[0] not in _NOT_COPIED]
                           + [("copied_from", f"{shown} at {now}")])
        return shown, out.location, len(rows["targets"]), len(rows["log"])
    except BaseException:
        out.close()
        _remove_new(dest)
        raise
    finally:
        out.close()


def _remove_new(dest: str) -> None:
    """Take back a destination made by a copy that failed (its transaction wrote nothing into it)."""
    import os

    from critcore.campaign.campaign import is_database

    if is_database(dest):
        from critcore.campaign.postgres import drop

        drop(dest)
    else:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.remove(dest + suffix)
            except OSError:
                pass
