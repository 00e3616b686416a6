"""BattleTech house rule ``floating-criticals``: a hit-location 2 floats to another location.

Under the standard rules a 2 on the 'Mech hit location table strikes the centre torso (or a
side torso) and also gives a chance of a critical hit through the armor. With floating
criticals, a favourite optional rule of many groups, the attacker rolls the location again: the
hit lands where the new roll says, and the through-armor critical chance goes with it.

Two stages are adjusted, both with ``wrapper=True`` so the BattleTech plugin keeps doing the
work:

* locate: when the plugin's roll is a 2, roll the location again (the plugin's own roll, same
  side and 'Mech shape) and mark the new location as carrying the floating critical;
* effect: the row of the new location is given the through-armor critical of the 2, which the
  plugin's apply stage then reports ("roll for a critical even if the armor holds").

A 2 on the second roll stands (the rule re-rolls once), keeping its own through-armor critical.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generator, Sequence

from critcore import hookimpl
from critcore.plugin import Effect, Event, Location
from critcore.plugin import RuleInfo
from critcore_battletech import plugin as battletech

if TYPE_CHECKING:
    from critcore.plugin import Context

INFO = RuleInfo("floating-criticals", "battletech",
                "Floating criticals: a hit-location 2 is rolled again; the new location takes the hit and the "
                "through-armor critical chance.", changes=("locate", "effect"),
                events=(Event("floating-critical", "a 2 floats to another location", ("hit-location",)),))


@hookimpl
def critcore_rule() -> RuleInfo:
    """What this rule is and which system it is for (critcore registers it only there)."""
    return INFO
FLOATED = frozenset({"floating-critical"})

TWO = "two"  # the id of the hit-location row for a roll of 2
THROUGH_ARMOR = "through-armor-critical"


@hookimpl(wrapper=True)
def critcore_locate(ctx: Context, determination: Any) -> Generator[None, Any, Location | None]:
    location: Location | None = yield  # the BattleTech plugin's roll
    if ctx.procedure.name != "hit-location" or location is None or location.data.get("row") != TWO:
        return location
    again: Location | None = battletech.critcore_locate(ctx, determination)  # roll 2d6 again, same side
    if again is None:  # BattleTech always locates a hit-location; nothing to float otherwise
        return location
    if again.data["row"] == TWO:
        ctx.note(f"a 2 again: the hit stays on the {location.name} with its through-armor critical", by=INFO.name)
        return again
    ctx.note(f"a 2 floats: the through-armor critical moves from the {location.name} to the {again.name}",
             by=INFO.name)
    return replace(again, summary=f"{again.summary} (floating critical)",
                   data=again.data.replace(floating_critical=True), tags=again.tags | FLOATED)


@hookimpl(wrapper=True)
def critcore_effect(ctx: Context, determination: Any, location: Location | None
                    ) -> Generator[None, Any, Sequence[Effect] | None]:
    effects: Sequence[Effect] | None = yield
    if not effects or location is None or not location.data.get("floating_critical"):
        return effects
    row = effects[0]
    text = f"{row.text} A floating critical: the 2's chance of a critical through the armor comes here."
    return [replace(row, code=THROUGH_ARMOR, text=text, data=row.data.replace(changed_by=INFO.name)),
            *effects[1:]]
