"""A ``--location`` checked before any roll: one of critcore's humanoid locations, or (for the
procedures that aim at a character's own body) a key a body type could have. A leaf module:
the stages and the body types both use it, and it imports neither."""

from __future__ import annotations

from typing import TYPE_CHECKING

from critcore.plugin import Data, ParamError

from .reference import LOCATIONS

if TYPE_CHECKING:
    from .damage import DamageSpec

DEFERRED = ("attack", "critical-hit", "head-blow")  # procedures whose --location may name a body's own part
_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


def _body_key(where: str) -> bool:
    """Whether ``where`` could be a key of a body type's location: lower-case letters, digits and
    hyphens, not starting with a hyphen (no regular expression compiled at start-up)."""
    return where[:1] not in ("", "-") and _KEY_CHARS.issuperset(where)


def check_location(procedure: str, params: Data, damage: DamageSpec | None,
                   allowed: tuple[str, ...] | None = None) -> None:
    """Refuse an unknown --location (or one the damage type cannot aim at) with one line."""
    where = params.get("location")
    if where is None or (where == "random" and allowed is None):
        return
    rule = LOCATIONS.get(where)
    if rule is None and procedure in DEFERRED and _body_key(where):
        return  # a location of the character's own body type (a wing, a brain): checked by locate
    if rule is None or (allowed is not None and where not in allowed):
        from critcore.plugin import did_you_mean

        names = allowed or (*LOCATIONS, "random")
        what = "unknown location" if rule is None else f"{procedure} cannot use location"
        raise ParamError(f"--location: {what} {where!r}{did_you_mean(where, names)}; use one of {', '.join(names)}")
    if rule.aim_types and damage is not None and procedure in ("attack", "critical-hit"):
        if damage.dtype not in rule.aim_types:
            raise ParamError(f"--location: a {damage.dtype} attack cannot be aimed at the {rule.name} "
                             f"(only {', '.join(rule.aim_types)})")
