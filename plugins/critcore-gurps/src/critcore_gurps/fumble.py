"""What a miss table needs to know about the fumbler and his weapon, read from the parameters
(and the fumbler's own file). Its own module so that the plan (:mod:`.determine`) can read the
foe's fumble once and the effect stage (:mod:`.chains`) use it, neither importing the other's
way round."""

from __future__ import annotations

from typing import Any

from critcore.plugin import record

PIERCING = frozenset({"imp", "pi-", "pi", "pi+", "pi++"})


@record
class Fumble:
    """What a miss table needs to know about the fumbler and his weapon."""

    ranged: bool
    swinging: bool
    parrying: bool
    piercing: bool
    cheap: bool
    resistant: bool
    natural: bool
    foe_impaling: bool
    head: bool
    iq: int | None
    dx: int | None
    kick: bool
    technique: int

    @property
    def self_reroll(self) -> bool:
        """Impaling or piercing melee attacks and every ranged attack roll "hit yourself" again."""
        return self.ranged or (self.piercing and not self.parrying)

    def trip_modifier(self, row: Any) -> int:
        """DX modifier of the trip roll: twice a technique's mishap penalty, else -4 for a kick."""
        if self.technique:
            return int(row["technique_factor"]) * self.technique
        return int(row["kick_modifier"]) if self.kick else 0


def fumble_of(p: Any, damage: Any, target: Any, *, ranged: bool, parrying: bool) -> Fumble:
    """What a miss table needs, from the parameters, ``--damage`` read and the fumbler's own file
    (``{}`` when the file is not his)."""
    piercing = damage is not None and damage.dtype in PIERCING
    iq = p.get("iq") if p.get("iq") is not None else target.get("iq")
    dx = p.get("dx") if p.get("dx") is not None else target.get("dx")
    return Fumble(
        ranged=bool(ranged),
        swinging=p.get("attack_kind") in (None, "swing"),
        parrying=bool(parrying),
        piercing=piercing,
        cheap=bool(p.get("cheap")),
        resistant=bool(p.get("fine") or p.get("magic") or p.get("solid_crushing") or p.get("firearm")),
        natural=bool(p.get("natural_weapon")),
        foe_impaling=bool(p.get("foe_impaling")),
        head=p.get("unarmed_with") == "head",
        iq=iq if isinstance(iq, int) else None,
        dx=dx if isinstance(dx, int) else None,
        kick=bool(p.get("kick")),
        technique=int(p.get("technique_penalty") or 0),
    )
