"""The events Shadowrun players (and their game master) ask about, as outcome tags the stages
set: the lethality of a critical (determine) and whether a Mortal critical kills before help
can arrive (apply, against the wound procedure's ``--help-minutes``)."""

from __future__ import annotations

from critcore.plugin import Event

EVENTS = (
    Event("mortal", "Mortal critical (dies unless treated)"),
    Event("crippling", "Crippling critical"),
    Event("critical", "Critical critical (painful, not lasting)"),
    Event("dead-before-help", "dead before help can arrive"),
)

LETHALITY_TAGS = {name: frozenset({name}) for name in ("mortal", "crippling", "critical")}
"""Tags of a Body check's lethality, by the lethality row's id."""

DEAD_BEFORE_HELP = frozenset({"dead-before-help"})


def dies_before_help(death_in: int | None, help_minutes: float) -> bool:
    """A Mortal critical's death clock runs out no later than help arrives (help arriving at the
    very second of death is too late: a medic needs time to work)."""
    return death_in is not None and death_in <= help_minutes * 60
