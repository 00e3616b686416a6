"""What a campaign keeps, and the small interface any store of it provides.

A campaign holds named targets (each with the full history of its states), the log of every
change, and its settings (enabled house rules, options per system). :class:`Store` is all the
rest of critcore knows of where that lives; :mod:`critcore.campaign.sqlite` is the one store
today (a single SQLite file). Another database would implement the same few methods (see
docs/architecture.md, "Campaigns").

Every read and every change happens inside :meth:`Store.transaction`: a write transaction
holds the campaign's write lock from the first read to the commit, so a change that reads a
state, runs the stages and writes the new state and its log entry loses nothing to another
process doing the same.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Protocol

from critcore._speed.records import record

SCHEMA_VERSION = 2  # what this critcore writes; a newer campaign is refused, an older one upgraded
# 1: the first campaigns. 2 (issue 25): each target keeps how many log entries it has and when the
# latest was written, and the log has indexes for undo, redo and removed targets, so that no
# command reads the whole log (a campaign as fast at its 100,000th entry as at its first).

COLUMNS: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "settings": ("key", "value"),
    "targets": ("id", "name", "system", "head", "created", "entries", "updated"),
    "states": ("id", "target", "system", "plugin_version", "state"),
    "log": ("id", "at", "who", "kind", "target", "name", "system", "procedure", "summary", "outcome",
            "before_state", "after_state", "ref", "undone"),
}
"""Every column of a campaign (format 2), in both stores."""

ORDER = {"meta": "key", "settings": "key", "targets": "id", "states": "id", "log": "id"}


# the kinds of log entry
CHANGES = ("add", "resolve", "treat", "remove")  # what undo takes back, newest first
KINDS = (*CHANGES, "undo", "redo", "settings")

# The records below are made by ``record`` (frozen, compared by value, like the stage results),
# not as NamedTuples: a NamedTuple class is compiled from source text when it is made, which cost
# about 0.15 ms a class at each start-up of a campaign command.


@record
class StoredState:
    """One state of a target, as it was written: the system and plugin version that wrote it."""

    id: int
    target: int
    system: str
    plugin_version: str
    state: dict[str, Any]


@record
class TargetRow:
    """A target of the campaign: its name, system and current state (``head``; None when removed)."""

    id: int
    name: str
    system: str
    head: int | None
    created: str


@record
class LogEntry:
    """One line of the campaign's log.

    ``before``/``after`` are the state ids the change went from and to (None for a target that
    did not exist yet, or was removed); ``ref`` is the entry an undo or redo took back or
    brought back; ``undone`` is true while an entry's change is undone.
    """

    id: int
    at: str
    who: str
    kind: str
    name: str
    system: str
    procedure: str
    summary: str
    outcome: dict[str, Any] | None
    before: int | None
    after: int | None
    ref: int | None
    undone: bool
    target: int | None


    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "at": self.at, "who": self.who, "kind": self.kind, "target": self.name,
                "system": self.system, "procedure": self.procedure, "summary": self.summary,
                "undone": self.undone, "ref": self.ref, "outcome": self.outcome}


class Transaction(Protocol):
    """What one transaction of a store can read and write."""

    def target(self, name: str) -> TargetRow | None:
        """The live target of that name (None if there is none)."""

    def target_by_id(self, target_id: int) -> TargetRow:
        """A target by id, live or removed."""

    def targets(self) -> list[TargetRow]:
        """Every live target, by name."""

    def summaries(self) -> list[tuple[TargetRow, int, str]]:
        """Every live target, by name, with how many log entries it has and when the latest was
        written (its creation if none): kept with the target, not counted from the log."""

    def new_target(self, name: str, system: str, at: str) -> TargetRow:
        """Make a target (its head is set by :meth:`set_head`)."""

    def state(self, state_id: int) -> StoredState:
        """One stored state."""

    def add_state(self, target_id: int, system: str, plugin_version: str, state: dict[str, Any]) -> int:
        """Store a new state of a target; returns its id."""

    def set_head(self, target_id: int, state_id: int | None) -> None:
        """Make a state the target's current one (None: the target is removed)."""

    def add_log(self, entry: dict[str, Any]) -> int:
        """Append a log entry (the fields of :class:`LogEntry` but ``id``); returns its id."""

    def set_undone(self, entry_id: int, undone: bool) -> None:
        """Mark a change as undone (or as done again)."""

    def log(self, target_id: int | None = None, limit: int | None = None, outcomes: bool = True) -> list[LogEntry]:
        """Log entries, oldest first (the newest ``limit`` of them), of one target or all.
        ``outcomes=False`` leaves the outcomes unread (a listing): an entry's ``outcome`` is then
        ``{}`` when it has one, None when not."""

    def entry(self, entry_id: int) -> LogEntry:
        """One log entry."""

    def in_force(self, target_id: int) -> LogEntry | None:
        """The target's latest change (add, resolve, treat, remove) not undone: what undo takes back."""

    def redoable(self, target_id: int) -> LogEntry | None:
        """The change the target's latest undo took back, if it is still undone and no change in
        force came after that undo: what redo brings back."""

    def last_removed(self, name: str) -> int | None:
        """The id of the target of that name removed last (the removal not undone), if any."""

    def setting(self, key: str, default: Any = None) -> Any:
        """A campaign setting (JSON data)."""

    def set_setting(self, key: str, value: Any) -> None:
        """Change a campaign setting."""


SECRET_KEYS = ("gm_token_sha256", "players_key_sha256")
"""The ``meta`` rows holding the digests of a campaign's own game master token and players' key
(made by ``crit campaign new`` in a database, or ``crit campaign keys`` anywhere)."""


def digest(secret: str) -> str:
    """How a token or key is kept: its SHA-256, in hex (the secret itself is never stored)."""
    import hashlib

    return hashlib.sha256(secret.encode()).hexdigest()


def new_keys() -> tuple[str, str]:
    """A new game master's token and players' key."""
    import secrets

    return secrets.token_urlsafe(24), secrets.token_urlsafe(24)


class Store(Protocol):
    """Where a campaign lives."""

    location: str

    def secret_digests(self) -> dict[str, str]:
        """The :data:`SECRET_KEYS` rows the campaign has (none: it keeps no keys of its own)."""

    def new_secrets(self) -> tuple[str, str]:
        """Make a new game master's token and players' key, keep their digests (replacing the old
        ones, which stop working at once) and return them: the only time they are shown."""

    def transaction(self, write: bool = False) -> AbstractContextManager[Transaction]:
        """A transaction: committed when the block ends, rolled back if it raises.

        ``write=True`` takes the write lock at once (before the first read).
        """

    def data_version(self) -> int | None:
        """A number that changes whenever another connection or process committed a change since
        this one last looked (None: this store cannot tell, read every time). A campaign kept open
        reads its settings again only when it changed."""

    def close(self) -> None:
        """Release the store."""
