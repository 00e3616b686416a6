"""What the .mtf importer keeps while an engine lives: its :class:`ImportMemo`.

The core hands the reader hook (``critcore_read_target``) the engine's reader memo, a plain dict
the engine keeps for its life: one per ``crit`` command, one for as long as the Python API, a bot
or ``crit serve`` keep their engine. The importer keeps one :class:`ImportMemo` in it, under
:data:`KEY`: the catalog, what each slot name and name text came to, and the catalog's answers
read from critcore's cache folder (:mod:`critcore_battletech.unitcache`). So what one unit taught
the importer serves the next unit read through the same engine, and two engines never share it.
The public helpers (:func:`~critcore_battletech.units.unit_from_mtf`, ``parse_mtf``,
``parse_slot_name``, ``catalog``, ``load_mtf``) take the same kind of dict as ``memo=``; without
one, each call starts from a fresh memo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, MutableMapping

if TYPE_CHECKING:
    from .data.catalog import AmmoMatch, Catalog, Equipment
    from .units import SlotName

KEY = "critcore_battletech.importer"

#: How many answers each table keeps (then it starts again: a unit needs a few dozen names).
MOST_SLOT_NAMES = 4096
MOST_CLASSIFIED = 8192
MOST_NORMS = 8192


class ImportMemo:
    """What the importer learned through one reader memo (see the module's docstring)."""

    __slots__ = ("slot_names", "classified", "norms", "catalog", "answers", "answers_key", "added")

    def __init__(self) -> None:
        self.slot_names: dict[str, SlotName] = {}  # a slot line -> what it says (units.parse_slot_name)
        # (name, tech base) -> (slot kind, equipment entry, ammunition) (units._classify)
        self.classified: dict[tuple[str, str], tuple[str, Equipment | None, AmmoMatch | None]] = {}
        self.norms: dict[str, str] = {}  # a name -> its look-up form (catalog.norm)
        self.catalog: Catalog | None = None  # built on first use (catalog.catalog_of)
        self.answers: dict[str, Any] | None = None  # the kept answers, read on first use (unitcache)
        self.answers_key = b""  # the importer's hash they were read under (and are written under)
        self.added = False  # answers were added since they were read or written


def import_memo(memo: MutableMapping[str, Any] | None) -> ImportMemo:
    """The importer's part of a reader memo (made on first use); a fresh one without a memo."""
    if memo is None:
        return ImportMemo()
    found = memo.get(KEY)
    if type(found) is not ImportMemo:
        found = ImportMemo()
        memo[KEY] = found
    return found


def kept(table: dict[Any, Any], key: Any, make: Callable[[Any], Any], most: int) -> Any:
    """``table[key]``, or ``make(key)`` remembered there (see :func:`remember`)."""
    found = table.get(key)
    if found is None:
        found = make(key)
        remember(table, key, found, most)
    return found


def remember(table: dict[Any, Any], key: Any, value: Any, most: int) -> None:
    """``table[key] = value``, the table emptied first when it holds ``most`` answers."""
    if len(table) >= most:
        table.clear()
    table[key] = value
