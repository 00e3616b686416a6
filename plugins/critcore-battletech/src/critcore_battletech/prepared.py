"""What ``critcore_prepare`` builds for a procedure and its parameters, from the engine's tables
and options: the engine keeps it and hands it to every stage as ``ctx.prepared``.

It holds the tables and option values the stages read, the components table's row ids and the
slot kinds a critical never stays on, and the closed-form odds of slot choices that exact odds
work out (``criticals.Answers``: the same choice comes up on many branches of one enumeration);
the stage results themselves are made where they are asked for.
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


class Prepared:
    """One engine's preparation of one procedure and its parameters (see the module)."""

    def __init__(self, procedure: str, params: Mapping[str, Any], options: Mapping[str, Any],
                 tables: Mapping[str, Table]) -> None:
        self.procedure = procedure
        self.options = options
        self.tables = tables
        code = params.get("location")
        self.location = Location(code, L.name(code)) if code is not None else None
        self._row_effects: dict[tuple[str, str], Effect] = {}  # row_effect's, made once
        self._determinations: dict[tuple[int, str, bool], tuple[Row, Determination]] = {}  # determination's
        self._row_odds: tuple[tuple[tuple[str, None], Fraction], ...] | None = None  # row_odds', once
        self.reroll = str(options.get("slot_reroll", "slot"))
        self.explosion = str(options.get("explosion_damage", "per-turn"))
        self.transfer = options.get("no_slot_left") == "transfer"
        if procedure in ON_A_UNIT:  # hit-location reads the components table only with a unit
            self.components = tables["components"]
            self.crit_table = tables["determining-critical-hits"]
            self.crit_dice = parse(self.crit_table.dice)  # its dice, read once
            self.half = tables["critical-slot-half"]
            self.known_rows = frozenset(r.id for r in self.components.rows)
            self.skip = C.roll_again_kinds(self.components)  # slot kinds a critical never stays on
            self.odds = C.Answers()  # the closed-form odds of slot choices worked out (exact odds)
            # a heavy flamer bin's shot: the ammunition record's figure instead of the weapon's
            self.ammunition_damage = options.get("heavy_flamer_explosion") == "ammunition"

    @staticmethod
    def check_label(code: str) -> str:
        """The label of the Determining Critical Hits roll for a location."""
        return f"Determining Critical Hits: {L.name(code)}"

    def determination(self, row: Row, code: str, with_unit: bool) -> Determination:
        """The determine stage's answer for a Determining Critical Hits row in a location (made
        once per row, location and whether a unit is given, kept by the row's identity with the
        row beside it: exact odds ask for it at every row of every check)."""
        key = (id(row), code, with_unit)
        found = self._determinations.get(key)
        if found is None or found[0] is not row:
            found = self._determinations[key] = (row, C.determination(row, L.kind(code), code, with_unit))
        return found[1]

    def row_effect(self, row_id: str, code: str) -> Effect:
        """The effect of a Determining Critical Hits row in a location (made once: exact odds ask
        for it at every answer of every check)."""
        effects = self._row_effects
        found: Effect | None = effects.get((row_id, code))
        if found is None:
            found = effects[(row_id, code)] = self.crit_table.row(row_id).effect(self.crit_table.id, None,
                                                                                location=code)
        return found

    def slot_roll(self, size: int, ok: tuple[int, ...], label: str, code: str, n: int) -> C.SlotRoll:
        """How the ``n``-th critical of a roll (0: its only one) is rolled among the slots ``ok``
        of location ``code`` with ``size`` slots (:func:`criticals.slot_roll`), labelled after
        ``label``."""
        tag = f"{label} {n} ({L.name(code)})" if n else f"{label} ({L.name(code)})"
        return C.slot_roll(self.half, size, ok, tag, self.reroll)

    def row_odds(self) -> tuple[tuple[tuple[str, None], Fraction], ...]:
        """The chance of each Determining Critical Hits row (:func:`criticals.row_odds`), worked
        out once (exact odds ask for it at every check)."""
        found = self._row_odds
        if found is None:
            found = self._row_odds = C.row_odds(self.crit_table)
        return found

    @staticmethod
    def hit_location(row: Row, side: str, quad: bool) -> Location:
        """Where a hit-location row puts the hit from ``side``."""
        code = str(row.data["front" if side in ("front", "rear") else side])
        if quad:
            code = L.QUAD_MAP.get(code, code)
        rear = side == "rear" and code in L.TORSOS_WITH_REAR
        where = L.name(code) + (" (rear armor)" if rear else "")
        return Location(code, L.name(code), where, Data(row=row.id, side=side, rear=rear))

    def hit_effects(self, location: Location) -> tuple[Effect, ...]:
        """A hit location's effect: its row of the hit-location table."""
        table = self.tables["hit-location"]
        return (table.row(location.data["row"]).effect(table.id, None, location=location.id,
                                                       rear=location.data["rear"]),)

    @staticmethod
    def hit_applied(location: Location, through_armor: bool) -> Applied:
        """What a hit location comes to without a unit."""
        summary = f"the hit lands on the {location.summary}"
        if through_armor:
            summary += f"; roll for a critical even if the armor holds (critical --location {location.id})"
        return Applied(summary, data=Data(location=location.id, rear=location.data["rear"]),
                       tags=THROUGH_ARMOR if through_armor else frozenset())


def prepared_of(ctx: Any) -> Prepared:
    """``ctx.prepared``, or the same made now for a context built by hand (``crit show``'s)."""
    found = ctx.prepared
    if found.__class__ is Prepared:
        return found
    return Prepared(ctx.procedure.name, ctx.params, ctx.options, ctx.tables)
