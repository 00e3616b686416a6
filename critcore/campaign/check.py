"""``crit campaign check``: is the campaign file whole, and which of its rows cannot be read?

:func:`check` runs SQLite's integrity check, then reads every row critcore keeps as JSON (the
settings, every state, every log entry's outcome) and every live target's current state
through its system's checks, and names what it finds. :func:`repair` moves the damaged rows
aside without touching the rest: their text is first written to a file beside the campaign
(``FILE.damaged-TIME.json``), then, in one transaction, a damaged setting is dropped (its
default applies again), a damaged outcome is emptied (the entry, its summary and undo stay)
and a target whose current state is damaged is renamed ``NAME.damaged`` (its states and log
stay; the name is free to add it again). Damage SQLite's integrity check finds is named, not
repaired: only a copy from a backup mends that.
"""

from __future__ import annotations

import json
import os
import sqlite3
from typing import TYPE_CHECKING, Any

from critcore._speed.records import record
from critcore.errors import CampaignError

if TYPE_CHECKING:
    from critcore.campaign.campaign import Campaign


@record
class Finding:
    """One damaged thing: ``kind`` is ``file``, ``setting``, ``state``, ``target`` or ``log`` (or
    ``aside``: a target an earlier repair set aside, named but no longer counted);
    ``key`` the setting's key or the row's id; ``repair`` what ``--repair`` does (empty: nothing)."""

    kind: str
    key: str
    problem: str
    repair: str

    def line(self) -> str:
        if self.kind == "aside":
            return f"set aside by an earlier --repair: {self.key} ({self.problem})"
        shown = repr(self.key) if self.kind == "setting" else self.key
        return f"damaged {self.kind} {shown}: {self.problem}" + (f" (--repair: {self.repair})" if self.repair else "")


def _json_problem(text: Any, want: type | None = dict) -> str | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return "not valid JSON"
    if want is not None and not isinstance(value, want):
        return f"not a JSON {'object' if want is dict else want.__name__}"
    return None


_SETTING_SHAPES: dict[str, type] = {"rules": list, "options": dict}


def check(camp: Campaign) -> tuple[list[Finding], dict[str, int]]:
    """What is damaged in the campaign, and how many targets, states and log entries it holds."""
    db = _connection(camp)
    found: list[Finding] = []
    try:
        problems = [r[0] for r in db.execute("PRAGMA integrity_check").fetchall()]
        if problems != ["ok"]:
            for p in problems[:20]:
                found.append(Finding("file", os.path.basename(camp.path), str(p), ""))
        counts = {"targets": db.execute("SELECT count(*) FROM targets WHERE head IS NOT NULL").fetchone()[0],
                  "states": db.execute("SELECT count(*) FROM states").fetchone()[0],
                  "log entries": db.execute("SELECT count(*) FROM log").fetchone()[0]}
        for key, value in db.execute("SELECT key, value FROM settings ORDER BY key"):
            problem = _json_problem(value, _SETTING_SHAPES.get(key))
            if problem:
                found.append(Finding("setting", key, problem, "drop it (its default applies again)"))
        heads = {head: name for name, head in
                 db.execute("SELECT name, head FROM targets WHERE head IS NOT NULL")}
        for state_id, target, text in db.execute("SELECT id, target, state FROM states ORDER BY id"):
            problem = _json_problem(text)
            if problem and state_id not in heads:
                found.append(Finding("state", f"#{state_id}", f"{problem} (an earlier state, kept: undo to it fails)",
                                     ""))
        for entry_id, text in db.execute("SELECT id, outcome FROM log ORDER BY id"):
            problem = _json_problem(text)
            if problem:
                found.append(Finding("log", f"entry #{entry_id}", f"its outcome is {problem}",
                                     "empty the outcome (the entry, its summary and undo stay)"))
        targets = db.execute("SELECT name, system, head FROM targets WHERE head IS NOT NULL ORDER BY name").fetchall()
    except sqlite3.DatabaseError as exc:
        raise CampaignError(f"{camp.path}: the campaign is damaged beyond reading ({exc}); "
                            "restore it from a backup") from None
    systems = camp.registry.systems
    for name, system, head in targets:
        row = db.execute("SELECT state FROM states WHERE id = ?", (head,)).fetchone()
        problem = "its current state is missing" if row is None else _json_problem(row[0])
        if problem is None and system in systems and not any(f.kind == "setting" for f in found):
            from critcore.errors import CritcoreError

            try:
                camp.state(name)
            except CritcoreError as exc:
                problem = str(exc).replace(f"{camp.path}: ", "", 1)
        if problem and name.endswith(".damaged"):  # set aside by an earlier --repair: named, not counted again
            found.append(Finding("aside", name, problem, ""))
        elif problem:
            found.append(Finding("target", name, problem, f"rename it {_aside(name)} (its states and log stay)"))
    return found, counts


def _connection(camp: Campaign) -> sqlite3.Connection:
    from critcore.campaign.sqlite import SQLiteStore

    if not isinstance(camp.store, SQLiteStore):
        raise CampaignError(f"{camp.path}: crit campaign check reads SQLite campaigns only")
    return camp.store.connection


def _aside(name: str) -> str:
    return name[:56] + ".damaged"


def repair(camp: Campaign, found: list[Finding]) -> str | None:
    """Move the damaged rows of ``found`` aside (see the module's docstring); returns the file
    their text was saved to (None: nothing to repair)."""
    if not any(f.repair for f in found):
        return None
    db = _connection(camp)
    saved: dict[str, Any] = {"campaign": os.path.basename(camp.path), "settings": {}, "outcomes": {}, "targets": {}}
    for f in found:
        if f.kind == "setting":
            key = f.key
            saved["settings"][key] = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()[0]
        elif f.kind == "log":
            entry_id = int(f.key.removeprefix("entry #"))
            saved["outcomes"][str(entry_id)] = db.execute("SELECT outcome FROM log WHERE id = ?",
                                                          (entry_id,)).fetchone()[0]
        elif f.kind == "target":
            saved["targets"][f.key] = {"renamed": _aside(f.key), "problem": f.problem}
    from datetime import datetime, timezone

    from critcore.targets.state import write_atomic

    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
    aside = f"{camp.path}.damaged-{stamp}.json"
    write_atomic(aside, json.dumps(saved, ensure_ascii=False, indent=2, default=str) + "\n")
    from critcore.campaign.campaign import _now

    with camp.store.transaction(write=True):
        for key in saved["settings"]:
            db.execute("DELETE FROM settings WHERE key = ?", (key,))
        for entry_id in saved["outcomes"]:
            db.execute("UPDATE log SET outcome = NULL WHERE id = ?", (int(entry_id),))
        for name, what in saved["targets"].items():
            new = what["renamed"]
            while db.execute("SELECT 1 FROM targets WHERE name = ? AND head IS NOT NULL", (new,)).fetchone():
                new = new.removesuffix(".damaged") + "_.damaged"
            what["renamed"] = new
            db.execute("UPDATE targets SET name = ? WHERE name = ? AND head IS NOT NULL", (new, name))
        summary = f"check --repair: moved {len(found)} damaged row(s) aside; their text is in {os.path.basename(aside)}"
        db.execute("INSERT INTO log (at, who, kind, target, name, system, procedure, summary) "
                   "VALUES (?, ?, 'settings', NULL, '', '', '', ?)", (_now(), camp.who, summary))
    return aside
