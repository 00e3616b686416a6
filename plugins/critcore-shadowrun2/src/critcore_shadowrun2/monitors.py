"""Condition monitors: wound level and penalty by boxes, the total modifier, the passing of time."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from critcore.plugin import Row

from .character import Character, Critical
from .words import clock_text


def level(tables: Mapping[str, Any], boxes: int) -> Row:
    """The ``wound-levels`` row for a monitor with this many boxes marked (0-10)."""
    row: Row = tables["wound-levels"].lookup(max(0, min(10, boxes)))
    return row


def penalty(tables: Mapping[str, Any], boxes: int) -> int:
    return int(level(tables, boxes).data["penalty"])


def track_penalty(tables: Mapping[str, Any], boxes: int) -> int:
    """The penalty of the Physical or Stun track (the ordinary rules: at most +3)."""
    return int(level(tables, boxes).data["track_penalty"])


def level_name(tables: Mapping[str, Any], boxes: int) -> str:
    return str(level(tables, boxes).data["level"])


@dataclass(frozen=True)
class Modifiers:
    """Target-number modifiers from wounds.

    ``general`` (Physical + Stun) applies to every test; each critical's penalty applies to tests
    that use its location; ``total`` adds all of them, as the document's example does.
    """

    physical: int
    stun: int
    criticals: tuple[tuple[int, str, int], ...]  # (critical id, location name, penalty)

    @property
    def general(self) -> int:
        return self.physical + self.stun

    @property
    def total(self) -> int:
        return self.general + sum(p for _, _, p in self.criticals)

    def by_location(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for _, where, p in self.criticals:
            out[where] = out.get(where, 0) + p
        return out

    def text(self) -> str:
        parts = [f"Physical +{self.physical}", f"Stun +{self.stun}"]
        parts += [f"critical #{i} +{p}" for i, _, p in self.criticals]
        return f"total modifier +{self.total} ({', '.join(parts)})"


def modifiers(tables: Mapping[str, Any], char: Character) -> Modifiers:
    return Modifiers(
        track_penalty(tables, char.physical),
        track_penalty(tables, char.stun),
        tuple((c.id, c.location_name, penalty(tables, c.boxes)) for c in char.criticals),
    )


def set_boxes(tables: Mapping[str, Any], crit: Critical, boxes: int) -> Critical | None:
    """The critical with a new box count and the lethality that count gives; None when healed.

    A monitor brought down to Light keeps ``critical`` lethality until its last box is gone.
    A critical that stops being Mortal loses its death clock.
    """
    if boxes <= 0:
        return None
    lethality = str(level(tables, boxes).data["critical_lethality"])
    death_at = crit.death_at if lethality == "mortal" else None
    return replace(crit, boxes=boxes, lethality=lethality, death_at=death_at)


@dataclass(frozen=True)
class Passage:
    """What happened while time passed: the new state and plain-words lines for each audience."""

    char: Character
    gm: tuple[str, ...]
    player: tuple[str, ...]


def pass_time(tables: Mapping[str, Any], char: Character, seconds: int) -> Passage:
    """Move the clock; an untreated Mortal critical whose time has come kills, healing finishes."""
    end = char.clock + seconds
    gm: list[str] = []
    player: list[str] = []
    deaths = sorted((c.death_at, c.id) for c in char.criticals if c.lethality == "mortal"
                    and c.death_at is not None and c.death_at <= end)
    stop = deaths[0][0] if deaths else end
    healed = {c.id for c in char.criticals if c.heals_at is not None and c.heals_at <= stop}
    for c in char.criticals:
        if c.id in healed:
            gm.append(f"critical {c.label} has healed naturally (monitor cleared, +{penalty(tables, c.boxes)} gone)")
            player.append(f"the {c.part} ({c.location_name}) has healed" if c.diagnosed else "the character feels better")
    char = char.without(healed) if healed else char
    if deaths:
        when, cid = deaths[0]
        crit = next(c for c in char.criticals if c.id == cid)
        cause = f"Mortal critical {crit.label}, {crit.cause}"
        gm.append(f"DEAD at clock {clock_text(when)}: {cause} ran its course untreated")
        player.append("the character dies")
        char = replace(char, clock=end, dead=True, died_at=when, cause_of_death=cause)
    else:
        char = replace(char, clock=end)
    return Passage(char, tuple(gm), tuple(player))
