"""What ``critcore_prepare`` builds for a procedure and its parameters, from the engine's tables
and options: the engine keeps it and hands it to every stage as ``ctx.prepared``.

The stage results a table row comes to (a Determining Critical Hits answer in a location, a
row's effect there, where a hit-location row puts a hit) are the same objects every time the
row comes up, so each is made once and kept here, by row, for as long as the engine lives;
so are the components table's row ids and the slot kinds a critical never stays on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from critcore.plugin import parse
from critcore.plugin import Applied, Data, Determination, Effect, Location
from critcore.plugin import Row, Table

from . import criticals as C
from . import locations as L
from .events import THROUGH_ARMOR

if TYPE_CHECKING:
    from fractions import Fraction

ON_A_UNIT = ("critical", "damage")  # procedures whose stages resolve criticals on a unit
SLOT_ROLLS = 4096  # slot rolls (criticals.slot_roll) kept before they are forgotten


class Prepared:
    """One engine's preparation of one procedure and its parameters (see the module)."""

    def __init__(self, procedure: str, params: Mapping[str, Any], options: Mapping[str, Any],
                 tables: Mapping[str, Table]) -> None:
        self.procedure = procedure
        self.options = options
        self.tables = tables
        code = params.get("location")
        self.location = Location(code, L.name(code)) if code is not None else None
        self.reroll = str(options.get("slot_reroll", "slot"))
        self.explosion = str(options.get("explosion_damage", "per-turn"))
        self.transfer = options.get("no_slot_left") == "transfer"
        self._determinations: dict[tuple[str, str, bool], Determination] = {}
        self._row_effects: dict[tuple[str, str], Effect] = {}
        self._hits: dict[tuple[str, str, bool], Location] = {}
        self._hit_effects: dict[Location, tuple[Effect, ...]] = {}
        self._hit_applied: dict[tuple[Location, bool], Applied] = {}
        self._row_odds: tuple[tuple[tuple[str, None], Fraction], ...] | None = None
        self._labels: dict[str, str] = {}
        self._slot_rolls: dict[tuple[int, tuple[int, ...], str, str, int], C.SlotRoll] = {}
        # the derived numbers by key, the numbering of their keys and the locations' tallies,
        # shared by the unit memos this preparation's runs start (``unitmemo.Shared``): they
        # follow from the components table and the state alone, so they outlive a target
        self.unit_shared: Any = None
        if procedure in ON_A_UNIT:  # hit-location reads the components table only with a unit
            self.components = tables["components"]
            self.crit_table = tables["determining-critical-hits"]
            self.crit_dice = parse(self.crit_table.dice)  # its dice, read once
            self.half = tables["critical-slot-half"]
            self.known_rows = frozenset(r.id for r in self.components.rows)
            self.skip = C.roll_again_kinds(self.components)  # slot kinds a critical never stays on
            self.odds = C.Answers()  # the closed-form odds of slot choices worked out (exact odds)

    def check_label(self, code: str) -> str:
        """The label of the Determining Critical Hits roll for a location."""
        found = self._labels.get(code)
        if found is None:
            found = self._labels[code] = f"Determining Critical Hits: {L.name(code)}"
        return found

    def determination(self, row: Row, code: str, with_unit: bool) -> Determination:
        """The determine stage's answer for a Determining Critical Hits row in a location."""
        key = (row.id, code, with_unit)
        found = self._determinations.get(key)
        if found is None:
            found = self._determinations[key] = C.determination(row, L.kind(code), code, with_unit)
        return found

    def row_effect(self, row_id: str, code: str) -> Effect:
        """The effect of a Determining Critical Hits row in a location."""
        key = (row_id, code)
        found = self._row_effects.get(key)
        if found is None:
            found = self._row_effects[key] = self.crit_table.row(row_id).effect(self.crit_table.id, None, location=code)
        return found

    def slot_roll(self, size: int, ok: tuple[int, ...], label: str, code: str, n: int) -> C.SlotRoll:
        """How the ``n``-th critical of a roll (0: its only one) is rolled among the slots ``ok``
        of location ``code`` with ``size`` slots (:func:`criticals.slot_roll`), labelled after
        ``label``; kept by its arguments, up to SLOT_ROLLS of them."""
        key = (size, ok, label, code, n)
        found = self._slot_rolls.get(key)
        if found is None:
            if len(self._slot_rolls) >= SLOT_ROLLS:
                self._slot_rolls.clear()
            tag = f"{label} {n} ({L.name(code)})" if n else f"{label} ({L.name(code)})"
            found = self._slot_rolls[key] = C.slot_roll(self.half, size, ok, tag, self.reroll)
        return found

    def row_odds(self) -> tuple[tuple[tuple[str, None], Fraction], ...]:
        """The chance of each Determining Critical Hits row (:func:`criticals.row_odds`)."""
        found = self._row_odds
        if found is None:
            found = self._row_odds = C.row_odds(self.crit_table)
        return found

    def hit_location(self, row: Row, side: str, quad: bool) -> Location:
        """Where a hit-location row puts the hit from ``side``."""
        key = (row.id, side, quad)
        found = self._hits.get(key)
        if found is None:
            code = str(row.data["front" if side in ("front", "rear") else side])
            if quad:
                code = L.QUAD_MAP.get(code, code)
            rear = side == "rear" and code in L.TORSOS_WITH_REAR
            where = L.name(code) + (" (rear armor)" if rear else "")
            found = self._hits[key] = Location(code, L.name(code), where, Data(row=row.id, side=side, rear=rear))
        return found

    def hit_effects(self, location: Location) -> tuple[Effect, ...]:
        """A hit location's effect: its row of the hit-location table."""
        found = self._hit_effects.get(location)
        if found is None:
            table = self.tables["hit-location"]
            found = self._hit_effects[location] = (table.row(location.data["row"]).effect(
                table.id, None, location=location.id, rear=location.data["rear"]),)
        return found

    def hit_applied(self, location: Location, through_armor: bool) -> Applied:
        """What a hit location comes to without a unit."""
        key = (location, through_armor)
        found = self._hit_applied.get(key)
        if found is None:
            summary = f"the hit lands on the {location.summary}"
            if through_armor:
                summary += f"; roll for a critical even if the armor holds (critical --location {location.id})"
            found = self._hit_applied[key] = Applied(summary, data=Data(location=location.id, rear=location.data["rear"]),
                                                     tags=THROUGH_ARMOR if through_armor else frozenset())
        return found


def prepared_of(ctx: Any) -> Prepared:
    """``ctx.prepared``, or the same made now for a context built by hand (``crit show``'s)."""
    found = ctx.prepared
    if found.__class__ is Prepared:
        return found
    return Prepared(ctx.procedure.name, ctx.params, ctx.options, ctx.tables)
