"""The events GURPS players ask about, as outcome tags the stages set (``crit odds`` leads
with them): critical hit and miss (determine), and what a blow or a fumble does (apply)."""

from __future__ import annotations

from typing import Any

from critcore.plugin import Event

from .collapse import owes_death_roll

CRITICAL_HIT = frozenset({"critical-hit"})
CRITICAL_MISS = frozenset({"critical-miss"})

EVENTS = (
    Event("critical-hit", "critical hit"),
    Event("critical-miss", "critical miss"),
    Event("major-wound", "major wound"),
    Event("crippling", "a limb or extremity crippled"),
    Event("knockdown-roll", "knockdown roll owed"),
    Event("weapon-lost", "weapon dropped or broken"),
    Event("death-check", "death check owed"),
)

WEAPON_LOST = frozenset({"weapon-lost"})
FUMBLE_TAGS = {"weapon-breaks": WEAPON_LOST, "drop-weapon": WEAPON_LOST, "weapon-flies": WEAPON_LOST}
"""Critical-miss effect codes after which the fumbler no longer holds a working weapon."""


def injury_tags(inj: Any, before: int, hp: int, killed: bool = False) -> frozenset[str]:
    """The events one blow's injury brings: a major wound, crippling (or worse), a knockdown roll,
    a roll to avoid death (HP from ``before`` down past a multiple of -HP). A blow that ``killed``
    owes no roll, so it brings neither roll (the report says death alone)."""
    tags = set()
    if inj.major:
        tags.add("major-wound")
    if inj.crippled or inj.dismembered:
        tags.add("crippling")
    if killed:
        return frozenset(tags)
    if inj.knockdown is not None:
        tags.add("knockdown-roll")
    if inj.injury > 0 and owes_death_roll(before, before - inj.injury, hp):
        tags.add("death-check")
    return frozenset(tags)
