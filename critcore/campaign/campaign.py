"""A campaign: the table's targets, their history and the log, in one file.

::

    from critcore import Campaign

    camp = Campaign.new("critcore.db")
    camp.add("gurps", "bertram", "bertram.toml")
    outcome = camp.resolve("bertram", "critical-hit", damage="2d+1 cut", seed=7)
    camp.undo("bertram")

Every change (add, resolve, treat, remove, undo, redo) is one transaction of the store: the
state is read, the stages run and the new state and its log entry are written together, with
the campaign's write lock held throughout, so concurrent processes lose nothing.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from time import monotonic
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

from critcore.errors import CampaignError, InputError, StateError
from critcore.model import thaw
from critcore._speed.records import record
from critcore.campaign.store import CHANGES, LogEntry, Store, TargetRow, Transaction

if TYPE_CHECKING:
    from critcore.dice.dice import Roller
    from critcore.engine.runner import Engine
    from critcore.model import Data, Outcome
    from critcore.stages.loader import Registry

CAMPAIGN_FILE = "critcore.db"
NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"  # compiled when a name is checked (adding), not at import


def find_campaign(cwd: str | None = None) -> str | None:
    """The campaign to use: ``CRITCORE_CAMPAIGN``, else ``critcore.db`` in the working folder or the
    nearest parent that has one (as git and pytest find theirs); None if there is none."""
    named = os.environ.get("CRITCORE_CAMPAIGN")
    if named:
        return named
    folder = os.path.abspath(cwd or os.getcwd())
    while True:
        candidate = os.path.join(folder, CAMPAIGN_FILE)
        if os.path.isfile(candidate):
            try:
                return os.path.relpath(candidate)
            except ValueError:  # another drive (Windows)
                return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def is_database(location: str) -> bool:
    """Is this a campaign in a PostgreSQL database (``postgresql://.../DB#NAME``), not a file?"""
    return location.startswith(("postgresql://", "postgres://"))


def open_store(location: str, *, create: bool = False, pooled: bool = False) -> Store:
    """The store of a campaign: an SQLite file, or a campaign of a PostgreSQL database (psycopg is
    imported only then). ``pooled``: connections from the process's pool (a server's threads)."""
    from critcore import __version__

    if is_database(location):
        from critcore.campaign.postgres import PostgresStore

        return PostgresStore(location, create=create, critcore_version=__version__, pooled=pooled)
    from critcore.campaign.sqlite import SQLiteStore

    return SQLiteStore(location, create=create, critcore_version=__version__)


def check_name(name: str) -> str:
    if not re.fullmatch(NAME, name):  # fullmatch: ``$`` alone lets a final newline through
        shown = name if len(name) <= 40 else name[:40] + "..."
        raise CampaignError(f"{shown!r} is not a usable target name: use letters, digits, '-', '_' and '.', "
                            "starting with a letter or digit, at most 64 characters")
    return name


def _now() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _who() -> str:
    """Who makes a change, for the log: ``CRITCORE_USER``, else the login name found as
    ``getpass.getuser`` finds it (its environment variables, then the password database), without
    importing getpass, which imports termios for its password prompt (0.6 ms of a campaign
    command's start-up)."""
    for variable in ("CRITCORE_USER", "LOGNAME", "USER", "LNAME", "USERNAME"):
        who = os.environ.get(variable)
        if who:
            return who
    try:
        import pwd  # not on Windows, where USERNAME is always set

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError, OSError):  # no user name to be had: the log says so
        return "unknown"


@record
class TargetInfo:
    """A campaign target as listed: ``installed`` is false when its system is not installed
    (the target is kept, and works again once the system is back)."""

    name: str
    system: str
    installed: bool
    changes: int
    updated: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "system": self.system, "installed": self.installed,
                "changes": self.changes, "updated": self.updated}


def _outcome_record(outcome: Any) -> dict[str, Any]:
    """The outcome as the log keeps it: everything but the new state, which the states table holds
    once (the outcome carries it twice: as its ``target`` and as its applied result's)."""
    data = outcome.to_dict() if hasattr(outcome, "to_dict") else outcome.to_json()
    if isinstance(data, str):
        import json

        data = json.loads(data)
    data = dict(data)
    data.pop("target", None)
    if isinstance(data.get("applied"), dict):
        data["applied"] = {**data["applied"], "target": None}
    return data


def _summary(outcome: Any) -> str:
    parts: list[str] = []
    for step in outcome.steps:  # a stage that only repeats the one before (no injury to add) says it once
        if step.summary and (not parts or parts[-1] != step.summary):
            parts.append(step.summary)
    text = "; ".join(parts) or f"{outcome.procedure}: nothing happened"
    return text if len(text) <= 300 else text[:297] + "..."


def in_force(entries: Iterable[LogEntry]) -> dict[int | None, LogEntry]:
    """Each target's latest change still in force, by target id (``entries`` oldest first): what
    :meth:`Campaign.undo` takes back (the web page puts its undo buttons there)."""
    latest: dict[int | None, LogEntry] = {}
    for e in entries:
        if e.kind in CHANGES and not e.undone:
            latest[e.target] = e
    return latest


class Campaign:
    """A campaign file opened for reading and changing. Keep one for many calls (a bot, a page);
    it keeps one engine per system with the campaign's house rules and options."""

    def __init__(self, path: str, *, create: bool = False, registry: Registry | None = None, who: str | None = None,
                 store: Store | None = None) -> None:
        if store is None:
            store = open_store(path, create=create)
        self.store = store
        self.path = store.location  # a database's address without its password
        self.who = who or _who()
        self._registry = registry
        self._engines: dict[tuple[str, tuple[str, ...], str], Engine] = {}
        # the engine last returned for (system, rules), with the store's data version it was read
        # at (None: a store that cannot tell) and when that version was last read (time.monotonic)
        self._latest: dict[tuple[str, tuple[str, ...]], tuple[int | None, Engine, float]] = {}
        self.settings_window = 0.0
        """Seconds during which :meth:`engine` trusts the settings it read last, without asking
        the store whether another process changed them (0: it asks at every call). ``crit serve``
        sets :data:`critcore.web.service.SETTINGS_WINDOW`: a busy server asks once for many
        requests, not three system calls for each."""

    @classmethod
    def new(cls, path: str, **kwargs: Any) -> Campaign:
        """Make a new, empty campaign file (refused if the file exists)."""
        return cls(path, create=True, **kwargs)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Campaign:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # --- settings -----------------------------------------------------------------------

    @property
    def registry(self) -> Registry:
        if self._registry is None:
            from critcore.stages.loader import Registry

            self._registry = Registry.installed()
        return self._registry

    def rules(self) -> list[str]:
        """The house rules the campaign enables (plugin names and rule-file paths)."""
        with self.store.transaction() as tx:
            return list(tx.setting("rules", []))

    def options(self, system: str | None = None) -> dict[str, Any]:
        """The options the campaign sets: per system, or for one system."""
        with self.store.transaction() as tx:
            everything: dict[str, dict[str, Any]] = tx.setting("options", {})
        return dict(everything.get(system, {})) if system is not None else everything

    def settings(self, system: str) -> tuple[list[str], dict[str, Any]]:
        """The house rules the campaign enables and the options it sets for ``system``, read in one
        transaction (what an engine for that system is made with)."""
        with self.store.transaction() as tx:
            rules: list[str] = list(tx.setting("rules", []))
            options: dict[str, Any] = dict(tx.setting("options", {}).get(system, {}))
        return rules, options

    def enable_rule(self, rule: str) -> None:
        """Enable a house rule for the whole campaign (checked by loading it for its system)."""
        from critcore.config.houserules import is_rule_file

        if is_rule_file(rule):
            if not os.path.isfile(rule):
                raise CampaignError(f"{rule}: house-rule file not found")
            rule = os.path.abspath(rule)
        elif rule not in self.registry.rules:
            from critcore.stages.loader import unknown_message

            raise CampaignError(unknown_message("house rule", rule, self.registry.rules))
        self._settings("rules", lambda rules: rules if rule in rules else [*rules, rule], [], f"enabled {rule}")

    def disable_rule(self, rule: str) -> None:
        found = [r for r in self.rules() if r == rule or (os.path.isabs(r) and r == os.path.abspath(rule))]
        if not found:
            raise CampaignError(f"{rule}: not enabled in this campaign (enabled: {', '.join(self.rules()) or 'none'})")
        self._settings("rules", lambda rules: [r for r in rules if r not in found], [], f"disabled {rule}")

    def set_option(self, system: str, name: str, value: Any) -> None:
        """Set one option of one system for the campaign (checked against the system's options)."""
        from critcore.engine.runner import Engine
        from critcore.engine.params import check_options

        info = Engine(system, registry=self.registry).info
        checked = check_options(info, {name: value}, where=f"{self.path}: [{system}]")[name]

        def change(options: dict[str, Any]) -> dict[str, Any]:
            options = {k: dict(v) for k, v in options.items()}
            options.setdefault(system, {})[name] = checked
            return options

        self._settings("options", change, {}, f"set {system} option {name} = {checked!r}")

    def _settings(self, key: str, change: Any, default: Any, summary: str) -> None:
        with self.store.transaction(write=True) as tx:
            tx.set_setting(key, change(tx.setting(key, default)))
            tx.add_log({"at": _now(), "who": self.who, "kind": "settings", "summary": summary})
        self._engines.clear()
        self._latest.clear()

    def engine(self, system: str, rules: Iterable[str] = ()) -> Engine:
        """The engine for ``system`` with the campaign's house rules and options (plus ``rules``)."""
        rules = tuple(rules)
        latest = self._latest.get((system, rules))
        now = monotonic()
        if latest is not None and now - latest[2] < self.settings_window:
            return latest[1]  # read within the window (crit serve's): the same settings
        # nothing committed by another connection since the last call: the same settings, the same
        # engine (one statement instead of a read transaction)
        version = self.store.data_version()
        if latest is not None and version is not None and latest[0] == version:
            self._latest[(system, rules)] = (version, latest[1], now)
            return latest[1]
        enabled, options = self.settings(system)
        enabled += rules
        # the options are part of the key: another process may have changed them since
        key = (system, tuple(enabled), repr(sorted(options.items())))
        found = self._engines.get(key)
        if found is None:
            from critcore.engine.runner import Engine

            if len(self._engines) >= 64:  # a long-lived campaign (a bot, crit serve) met many settings
                self._engines.clear()
            found = self._engines[key] = Engine(system, rules=enabled, options=options, registry=self.registry,
                                                option_sources={n: f"{self.path} (campaign option)" for n in options})
        if version is not None or self.settings_window:  # (a store that cannot tell: kept for the window only)
            if len(self._latest) >= 64:
                self._latest.clear()
            self._latest[(system, rules)] = (version, found, now)
        return found

    # --- targets ------------------------------------------------------------------------

    def _live(self, tx: Transaction, name: str) -> TargetRow:
        row = tx.target(name)
        if row is None:
            names = [t.name for t in tx.targets()]
            from critcore.stages.loader import did_you_mean

            known = f" (targets: {', '.join(names[:12])}{', ...' if len(names) > 12 else ''})" if names else \
                " (it has no targets yet: add one with crit campaign add SYSTEM NAME FILE)"
            raise CampaignError(f"{self.path}: no target named {name!r}{did_you_mean(name, names)}{known}")
        return row

    def add(self, system: str, name: str, source: str | Mapping[str, Any], *, origin: str | None = None) -> TargetInfo:
        """Add a target: from a file any system reads (``.mtf``, JSON, TOML) or from state data.
        ``origin`` is what the log says it was added from (default: the file, or "data")."""
        check_name(name)
        engine = self.engine(system)
        if isinstance(source, str):
            from critcore.targets.state import read_target

            state, _ = read_target(source, engine.read_target)
            where = source
        else:
            state, where = dict(source), f"target {name}"
        state = thaw(engine.check_target(state, where))
        with self.store.transaction(write=True) as tx:
            if tx.target(name) is not None:
                raise CampaignError(f"{self.path}: a target named {name!r} exists already; pick another name, "
                                    f"or remove it first (crit campaign remove {name})")
            now = _now()
            row = tx.new_target(name, system, now)
            state_id = tx.add_state(row.id, system, engine.info.version, state)
            tx.set_head(row.id, state_id)
            tx.add_log({"at": now, "who": self.who, "kind": "add", "target": row.id, "name": name,
                        "system": system, "summary": f"added from {origin or where}", "after": state_id})
        return TargetInfo(name, system, True, 1, now)

    def add_text(self, system: str, name: str, file_name: str, text: str, *, origin: str | None = None) -> TargetInfo:
        """:meth:`add` from a file's text (an upload, a shipped example): read as the system reads
        a file called ``file_name`` (its suffix decides the format); an error names ``file_name``."""
        import tempfile

        base = os.path.basename(file_name.replace("\\", "/"))
        if not base or base.startswith(".") or any(ord(c) < 32 or c == "\x7f" for c in base):  # a NUL: open() raises
            raise InputError(f"{file_name!r} is not a usable file name")
        with tempfile.TemporaryDirectory(prefix="critcore-") as folder:
            path = os.path.join(folder, base)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            try:
                return self.add(system, name, path, origin=origin or base)
            except InputError as exc:  # name the file, not the temporary copy
                raise type(exc)(str(exc).replace(path, base)) from None

    def targets(self) -> list[TargetInfo]:
        """Every target, by name, with how many changes its log holds."""
        systems = self.registry.systems
        with self.store.transaction() as tx:
            return [TargetInfo(row.name, row.system, row.system in systems, entries, updated)
                    for row, entries, updated in tx.summaries()]

    def _current(self, tx: Transaction, row: TargetRow, engine: Engine) -> Data | None:
        """The target's current state, upgraded by its plugin if an older version wrote it, checked
        (frozen; ``crit`` and the web service run it by ``Engine.run_session``, which does not walk
        it again)."""
        assert row.head is not None
        stored = tx.state(row.head)
        state = stored.state
        if stored.plugin_version != engine.info.version:
            upgraded = engine.pm.hook.critcore_upgrade_state(state=state, version=stored.plugin_version)
            if upgraded is not None:
                state = dict(upgraded)
        return engine.check_target(state, f"{self.path}: {row.name}")

    def system_of(self, name: str) -> str:
        with self.store.transaction() as tx:
            return self._live(tx, name).system

    def state(self, name: str) -> dict[str, Any]:
        """The target's state as it stands now."""
        system = self.system_of(name)
        engine = self.engine(system)
        with self.store.transaction() as tx:
            state: dict[str, Any] = thaw(self._current(tx, self._live(tx, name), engine))
            return state

    @contextmanager
    def session(self, name: str, *, rules: Iterable[str] = (), preview: bool = False,
                hold_lock: bool = True, engine: Engine | None = None) -> Iterator[CampaignSession]:
        """Read a target, let the caller run a procedure on it, and write what :meth:`CampaignSession.commit`
        is given, all in one transaction (``hold_lock``). With ``hold_lock=False`` (dice typed in at a
        prompt, which may take minutes) the state is read first and the change refused if the target
        changed meanwhile. ``preview`` changes nothing. ``engine`` replaces the campaign's own engine
        for the target's system (the CLI's, which also has the config's house rules); a target of
        another system is refused, in the same transaction that reads it."""
        if engine is None:
            engine = self.engine(self.system_of(name), rules)
        if preview or not hold_lock:
            with self.store.transaction() as tx:
                row = self._same_system(self._live(tx, name), engine)
                session = CampaignSession(self, engine, row, self._current(tx, row, engine), None)
            session.preview = preview
            yield session
            if preview or session.outcome is None:
                return
            with self.store.transaction(write=True) as tx:
                now_row = self._live(tx, name)
                if now_row.head != row.head or now_row.id != row.id:
                    raise CampaignError(f"{self.path}: {name} changed while the dice were being entered; "
                                        "nothing was written, resolve again")
                session._write(tx)
            return
        with self.store.transaction(write=True) as tx:
            row = self._same_system(self._live(tx, name), engine)
            session = CampaignSession(self, engine, row, self._current(tx, row, engine), tx)
            yield session
            if session.outcome is not None:
                session._write(tx)

    def _same_system(self, row: TargetRow, engine: Engine) -> TargetRow:
        if row.system != engine.info.name:
            raise CampaignError(f"{self.path}: {row.name} is a {row.system} target, not a {engine.info.name} one "
                                f"(resolve it with the {row.system} system)")
        return row

    def run(self, verb: str, name: str, procedure: str, *, seed: int | str | None = None,
            dice: str | Sequence[int] | None = None, roller: Roller | None = None, preview: bool = False,
            rules: Iterable[str] = (), **params: Any) -> Outcome:
        with self.session(name, rules=rules, preview=preview) as session:
            outcome = session.engine.run(session.engine.procedure(procedure, verb).name, params, roller=roller,
                                         seed=seed, dice=dice, target=session.state)
            session.commit(outcome)
        return outcome

    def resolve(self, name: str, procedure: str, **kwargs: Any) -> Outcome:
        """Resolve a procedure on a target, apply the new state and log it (``preview=True``: change nothing)."""
        return self.run("resolve", name, procedure, **kwargs)

    def treat(self, name: str, procedure: str, **kwargs: Any) -> Outcome:
        """Run a treat procedure on a target, apply and log it."""
        return self.run("treat", name, procedure, **kwargs)

    # --- the log, undo and redo ------------------------------------------------------------

    def log(self, name: str | None = None, limit: int | None = None, *, outcomes: bool = True) -> list[LogEntry]:
        """The log, oldest first: of one target or the whole campaign (the newest ``limit`` entries).
        ``outcomes=False`` for a listing: each entry's ``outcome`` is then ``{}`` (it has one,
        unread) or None."""
        with self.store.transaction() as tx:
            target = self._live(tx, name).id if name is not None else None
            return tx.log(target, limit, outcomes)

    def in_force(self, name: str | None = None) -> dict[str, LogEntry]:
        """Each live target's latest change still in force (what :meth:`undo` takes back), by name
        (of one target, or of all): read through an index, not from the log (the web page puts its
        undo buttons there)."""
        with self.store.transaction() as tx:
            rows = [self._live(tx, name)] if name is not None else tx.targets()
            found = {row.name: tx.in_force(row.id) for row in rows}
        return {name: entry for name, entry in found.items() if entry is not None}

    def undo(self, name: str) -> LogEntry:
        """Take back the target's latest change (itself logged; :meth:`redo` brings it back)."""
        with self.store.transaction(write=True) as tx:
            row = self._find_for_undo(tx, name)
            latest = tx.in_force(row.id)
            if latest is None or latest.kind == "add":
                raise CampaignError(f"{self.path}: {name}: nothing to undo (its log holds only its adding)"
                                    if latest else f"{self.path}: {name}: nothing to undo")
            return self._flip(tx, row, latest, undo=True)

    def redo(self, name: str) -> LogEntry:
        """Bring back the change the latest undo took back (while no new change came after it)."""
        with self.store.transaction(write=True) as tx:
            row = self._find_for_undo(tx, name)
            redoable = tx.redoable(row.id)
            if redoable is None:
                raise CampaignError(f"{self.path}: {name}: nothing to redo")
            return self._flip(tx, row, redoable, undo=False)

    def _flip(self, tx: Transaction, row: TargetRow, change: LogEntry, *, undo: bool) -> LogEntry:
        """Take ``change`` back (``undo``) or bring it back: move the target's head, mark the change,
        and log that, in the caller's transaction."""
        start, end = (change.after, change.before) if undo else (change.before, change.after)
        tx.set_head(row.id, end)
        tx.set_undone(change.id, undo)
        entry_id = tx.add_log({"at": _now(), "who": self.who, "kind": "undo" if undo else "redo", "target": row.id,
                               "name": row.name, "system": row.system,
                               "summary": f"{'undid' if undo else 'redid'} #{change.id}: {change.summary}",
                               "before": start, "after": end, "ref": change.id})
        return tx.entry(entry_id)

    def _find_for_undo(self, tx: Transaction, name: str) -> TargetRow:
        """The live target of that name, or the last removed one (so a removal can be undone)."""
        row = tx.target(name)
        if row is not None:
            return row
        removed = tx.last_removed(name)
        if removed is not None:
            return tx.target_by_id(removed)
        return self._live(tx, name)  # raises the usual error

    def remove(self, name: str) -> LogEntry:
        """Take a target out of the campaign (its history stays in the log; undo brings it back)."""
        with self.store.transaction(write=True) as tx:
            row = self._live(tx, name)
            tx.set_head(row.id, None)
            entry_id = tx.add_log({"at": _now(), "who": self.who, "kind": "remove", "target": row.id,
                                   "name": row.name, "system": row.system, "summary": "removed from the campaign",
                                   "before": row.head, "after": None})
            return tx.entry(entry_id)

    def export(self, name: str, path: str, *, overwrite: bool = False) -> str:
        """Write the target's current state to a ``.json`` or ``.toml`` file, or a file in a
        format of its system's own (``SystemInfo.writes``, written by ``critcore_write_target``)."""
        from critcore.targets.state import check_writable, dumps, write_atomic

        engine = None
        if not path.lower().endswith((".json", ".toml")):
            engine = self.engine(self.system_of(name))
            if not engine.writes(path):
                raise CampaignError(f"{path}: export to a .json or .toml file"
                                    + (f" (or {', '.join(engine.info.writes)})" if engine.info.writes else ""))
        if os.path.exists(path) and not overwrite:
            raise CampaignError(f"{path}: exists already; choose another file or pass --overwrite")
        check_writable(path)
        state = self.state(name)
        if engine is not None:
            write_atomic(path, engine.write_target(path, state))
        else:
            write_atomic(path, dumps(state, "toml" if path.lower().endswith(".toml") else "json"))
        return path


class CampaignSession:
    """One target read for a change; :meth:`commit` records the outcome to be written."""

    def __init__(self, campaign: Campaign, engine: Engine, row: TargetRow, state: Data | None,
                 tx: Transaction | None) -> None:
        self.campaign = campaign
        self.engine = engine
        self.row = row
        self.state = state
        self.where = f"{campaign.path}: {row.name}"
        self.outcome: Outcome | None = None
        self.entry_id: int | None = None
        self.preview = False

    def commit(self, outcome: Outcome) -> str | None:
        """Keep this outcome: its new state and its log entry are written when the session ends
        (returns where, or None for a preview, which writes nothing)."""
        if self.preview:
            return None
        self.outcome = outcome
        return f"{self.row.name} in {self.campaign.path}"

    def _write(self, tx: Transaction) -> None:
        outcome, row = self.outcome, self.row
        assert outcome is not None  # written only once commit() kept one
        after = row.head
        if outcome.target is not None:
            new_state = thaw(outcome.target)
            if row.head is None or tx.state(row.head).state != new_state:
                after = tx.add_state(row.id, row.system, self.engine.info.version, new_state)
        tx.set_head(row.id, after)
        self.entry_id = tx.add_log({
            "at": _now(), "who": self.campaign.who, "kind": "treat" if self._verb(outcome) == "treat" else "resolve",
            "target": row.id, "name": row.name, "system": row.system, "procedure": outcome.procedure,
            "summary": _summary(outcome), "outcome": _outcome_record(outcome), "before": row.head, "after": after})

    def _verb(self, outcome: Outcome) -> str:
        proc = self.engine.info.procedure(outcome.procedure)
        return proc.verb if proc is not None else "resolve"


__all__ = ["Campaign", "CampaignSession", "TargetInfo", "find_campaign", "CAMPAIGN_FILE", "StateError"]
