"""A character's own body type: hit locations read from a GCS file (humanoid, quadruped, avian,
a slime...), each with its roll range, to-hit penalty and DR, and the Basic Set rule that applies
there (``data/bodies.toml``).

The body lives in the character's state as plain data (``body``); :func:`body_of` turns it
into :class:`Body`, kept in the engine's per-target memo, so a run only looks things up.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from critcore.plugin import parse
from critcore.plugin import ParamError
from critcore.plugin import Data, Location, record
from critcore.plugin import load_data

from .reference import LOCATIONS, LocationRule, location_as

_RAW: dict[str, Any] = load_data("critcore_gurps.data", "bodies.toml")
IDS: dict[str, Mapping[str, Any]] = _RAW["ids"]
WORDS: tuple[tuple[str, str], ...] = tuple((w["word"], w["rule"]) for w in _RAW["words"])
FALLBACK: str = _RAW["fallback"]["rule"]
UNCOVERED: str = _RAW["roll"]["uncovered"]
DR_WORDS: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _RAW["dr_words"].items()}
D6S = {n: parse(f"{n}d6") for n in (1, 2, 3, 4)}
_DICE = re.compile(r"^\s*(\d*)\s*d\s*$", re.IGNORECASE)


def rule_for(gcs_id: str) -> str:
    """The location of locations.toml whose rules apply at a GCS location id."""
    found = IDS.get(gcs_id)
    if found is not None:
        return str(found["rule"])
    low = gcs_id.lower()
    for word, rule in WORDS:
        if word in low:
            return rule
    return FALLBACK


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "location"


def dice_count(roll: str) -> int:
    """How many six-sided dice a body table rolls (``"3d"`` -> 3)."""
    m = _DICE.match(roll or "3d")
    if not m:
        raise ValueError(f"body type roll {roll!r} is not dice like '3d'")
    return int(m[1] or 1)


def _ranges(rolls: Any) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in rolls]


@record
class Part:
    """One location of a body: the rules there, the rolls that land there and the DR."""

    key: str
    base: str  # the location of locations.toml whose rules it takes
    rule: LocationRule
    rolls: tuple[tuple[int, int], ...]
    dr: int
    dr_types: Data
    location: Location
    rolled: Location


@record
class Body:
    """A body table: its name, dice and locations by key."""

    name: str
    dice: int
    parts: Data  # key -> Part
    head: bool  # some location takes the Critical Head Blow table

    def part(self, key: str) -> Part:
        found = self.parts.get(key)
        if found is None:
            from critcore.plugin import did_you_mean

            names = ", ".join(self.parts)
            raise ParamError(f"--location: the {self.name} body has no {key!r}{did_you_mean(key, list(self.parts))}; "
                             f"its locations: {names}, random")
        return found  # type: ignore[no-any-return]

    def rolled(self, total: int) -> Part:
        """The location a roll of ``total`` on the body table lands on."""
        for part in self.parts.values():
            for lo, hi in part.rolls:
                if lo <= total <= hi:
                    return part  # type: ignore[no-any-return]
        fallback = self.parts.get(UNCOVERED)
        return fallback if fallback is not None else next(iter(self.parts.values()))  # type: ignore[no-any-return]


def _part(raw: Mapping[str, Any], body_name: str) -> Part:
    key = str(raw["id"])
    base = str(raw.get("rule", FALLBACK))
    name = str(raw.get("name", key))
    rolls = tuple(_ranges(raw.get("rolls", ())))
    rule = location_as(base, key, name=name.lower(), penalty=int(raw.get("penalty", 0)), extra_dr=0,
                       aimed_only=not rolls)
    summary = f"{rule.name} ({rule.penalty:+d} to hit, {body_name} body)"
    rolled = f"{rule.name}, rolled on the {body_name} hit-location table ({rule.penalty:+d} to hit when aimed)"
    return Part(key, base, rule, rolls, int(raw.get("dr", 0)), Data(raw.get("dr_types", {})),
                Location(key, rule.name, summary, Data(penalty=rule.penalty)),
                Location(key, rule.name, rolled, Data(penalty=rule.penalty, rolled=True)))


def build(raw: Mapping[str, Any]) -> Body:
    name = str(raw.get("name", "body"))
    parts = {}
    for loc in raw.get("locations", ()):
        part = _part(loc, name)
        parts[part.key] = part
    return Body(name, int(raw.get("dice", 3)), Data(parts), any(p.rule.head_blow for p in parts.values()))


def body_of(ctx: Any) -> Body | None:
    """The target's body table (None: a humanoid of critcore's own table), built once per target."""
    target = getattr(ctx, "target", None)
    if target is None or "body" not in target:
        return None
    memo = getattr(ctx, "memo", None)
    if memo is not None:
        found = memo.get("body")
        if found is None:
            found = memo["body"] = build(target["body"])
        return found  # type: ignore[no-any-return]
    return build(target["body"])


def rule_at(ctx: Any, key: str) -> LocationRule:
    """The hit-location rule at ``key``: the body's own location, else critcore's humanoid one;
    with Injury Tolerance, the rule of the location a blow there counts as (B61)."""
    body = body_of(ctx)
    if body is not None:
        part = body.part(key)
        rule, base = part.rule, part.base
    else:
        found_rule = LOCATIONS.get(key)
        if found_rule is None:
            from .aims import check_location

            check_location("attack", Data(location=key), None)  # raises the usual line
            raise ParamError(f"--location: unknown location {key!r}")
        rule, base = found_rule, key
    target = getattr(ctx, "target", None)
    found = target.get("traits") if target is not None else None
    if not found:
        return rule
    from . import traits

    swap = traits.location_as(found, rule, base)
    if swap == "":
        raise ParamError(f"--location: the {rule.name} cannot be hit: the character has none (Injury Tolerance, B61)")
    if swap:
        from dataclasses import replace

        other = LOCATIONS[swap]
        keep = traits.keeps_crippling(base)
        rule = replace(other, id=rule.id, name=rule.name, penalty=rule.penalty, extra_dr=rule.extra_dr,
                       aimed_only=rule.aimed_only, aim_types=rule.aim_types,
                       cripple_divisor=rule.cripple_divisor if keep else other.cripple_divisor,
                       crippled_word=rule.crippled_word if keep else other.crippled_word)
    if traits.no_crippling(found) and rule.cripple_divisor:
        from dataclasses import replace

        rule = replace(rule, cripple_divisor=0)
    return rule


def locate_on_body(ctx: Any, plan: Any) -> Location:
    """Where a blow lands on the character's own body table: the aimed part, or a roll on its
    table (the default torso of a body without one: its first location)."""
    body = body_of(ctx)
    assert body is not None
    aim = plan.aim
    if aim is None:
        total = ctx.dice.roll(D6S[body.dice] if body.dice in D6S else f"{body.dice}d6",
                              f"hit location ({body.name} table)").total
        return body.rolled(total).rolled
    return aimed_part(ctx, plan).location


def aimed_part(ctx: Any, plan: Any) -> Part:
    """The part ``plan.aim`` names on the target's body; refused in one line when the body
    lacks it. The default location (none given), or a head location of a headless body given
    to ``head-blow``, falls to the torso or the body's first location."""
    body = body_of(ctx)
    assert body is not None
    aim = plan.aim
    if aim not in body.parts and (not plan.aim_given or (not body.head and LOCATIONS.get(aim) is not None
                                                         and LOCATIONS[aim].head_blow)):
        aim = UNCOVERED if UNCOVERED in body.parts else next(iter(body.parts))
    part = body.part(aim)
    rule_at(ctx, aim)  # refuses a part the character lacks (Injury Tolerance)
    damage = plan.damage
    if part.rule.aim_types and damage is not None and plan.aim_given and damage.dtype not in part.rule.aim_types:
        raise ParamError(f"--location: a {damage.dtype} attack cannot be aimed at the {part.rule.name} "
                         f"(only {', '.join(part.rule.aim_types)})")
    return part


def _ranges_text(rolls: Any) -> str:
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in rolls) or "aimed only"


AS_WORDS = {"right-arm": "a limb", "right-leg": "a limb", "hand": "an extremity", "foot": "an extremity"}


def show_body(raw: Mapping[str, Any] | None) -> list[str]:
    """Lines for ``crit show``: the body table, location by location."""
    if raw is None:
        return []
    body = build(raw)
    head = "" if body.head else (" (no head: the Critical Hit table takes the place of the Critical Head Blow "
                                 "table)")
    lines = [f"  body: {body.name}, {body.dice}d6 hit-location table{head}"]
    for part in body.parts.values():
        extra = "".join(f", {k} {v}" for k, v in part.dr_types.items())
        rule = "" if part.key in LOCATIONS else f", {AS_WORDS.get(part.base, 'as the ' + LOCATIONS[part.base].name)}"
        lines.append(f"    {part.key}: {_ranges_text(part.rolls)}, {part.rule.penalty:+d} to hit, DR {part.dr}{extra}{rule}")
    return lines


def has_eye(ctx: Any) -> bool:
    """Whether an eye can be hit (a body without eyes, or Injury Tolerance (No Eyes): no)."""
    target = getattr(ctx, "target", None)
    found = target.get("traits") if target is not None else None
    if found and "no eyes" in (found.get("injury_tolerance") or ()):
        return False
    body = body_of(ctx)
    return body is None or any(p.base == "eye" for p in body.parts.values())


def headless(ctx: Any) -> str:
    """Why the Critical Head Blow table cannot apply to this body ("" when it can)."""
    body = body_of(ctx)
    if body is None or body.head:
        return ""
    return (f"the {body.name} body has no head (no skull, face, eye or brain): the Critical Hit table "
            "takes the place of the Critical Head Blow table")


# --- reading a GCS body type -----------------------------------------------------------------


def _roll_range(text: str) -> list[list[int]]:
    text = text.strip()
    if text in ("", "-"):
        return []
    lo, _, hi = text.partition("-")
    return [[int(lo), int(hi or lo)]]


def _slots_ranges(locations: list[Mapping[str, Any]], start: int) -> list[list[list[int]]]:
    """Roll ranges worked out from the slots, as GCS does (the first location starts at the
    dice's least total): checked against GCS's own ``calc.roll_range`` by the corpus test."""
    out = []
    for loc in locations:
        slots = int(loc.get("slots", 0) or 0)
        out.append([[start, start + slots - 1]] if slots > 0 else [])
        start += max(slots, 0)
    return out


def from_gcs(body_type: Mapping[str, Any]) -> dict[str, Any]:
    """The ``body`` of a character's state from GCS's ``settings.body_type``."""
    dice = dice_count(str(body_type.get("roll", "3d")))
    raw = list(body_type.get("locations") or ())
    ranges = _slots_ranges(raw, dice)
    counts: dict[str, set[str]] = {}
    for loc in raw:
        counts.setdefault(str(loc["id"]), set()).add(str(loc.get("table_name", loc["id"])))
    parts: dict[str, dict[str, Any]] = {}

    def add(loc: Mapping[str, Any], rolls: list[list[int]], parent: str | None) -> None:
        gid = str(loc["id"])
        name = str(loc.get("table_name") or loc.get("choice_name") or gid)
        key = slug(gid) if len(counts.get(gid, ())) <= 1 else slug(name)
        calc = loc.get("calc") or {}
        drs = {str(k): int(v) for k, v in (calc.get("dr") or {}).items()}
        base = drs.pop("all", 0)
        rule = rule_for(gid)
        if parent is not None and rule == FALLBACK and gid not in IDS:
            rule = parts[parent]["rule"]  # a sub-location nothing names takes its parent's rule
        part = parts.get(key)
        if part is None:
            part = parts[key] = {"id": key, "gcs_id": gid, "name": name, "rule": rule,
                                 "penalty": int(loc.get("hit_penalty", 0) or 0), "rolls": [], "dr": base}
            if drs:
                part["dr_types"] = {k: base + v for k, v in drs.items()}
            if parent is not None:
                part["parent"] = parent
        part["rolls"].extend(rolls)
        sub = loc.get("sub_table")
        if isinstance(sub, Mapping):
            for inner in sub.get("locations") or ():
                add(inner, [], key)

    for loc, rolls in zip(raw, ranges):
        add(loc, rolls, None)
    return {"name": str(body_type.get("name", "body")), "dice": dice, "locations": list(parts.values())}


def gcs_ranges(body_type: Mapping[str, Any]) -> list[tuple[str, list[list[int]]]]:
    """Each top-level location's roll range as GCS wrote it (``calc.roll_range``)."""
    return [(str(loc["id"]), _roll_range(str((loc.get("calc") or {}).get("roll_range", "-"))))
            for loc in body_type.get("locations") or ()]


def dr_for(part: Part, dtype: str) -> int:
    """DR at a part against damage of type ``dtype``: GCS's DR against all attacks, or against
    the kind of attack the type counts as (``[dr_words]``) when that is higher."""
    best = part.dr
    for word in DR_WORDS.get(dtype, ()):
        value = part.dr_types.get(word)
        if value is not None:
            best = max(best, int(value))
    return best
