"""Numbers that follow from a unit's damage: MP, heat, PSR, to-hit modifiers, pilot, destroyed.

Everything is computed from the state (slots hit, locations lost) and the ``components``
table's numbers, so the same state always gives the same figures and a house rule that
changes a row changes them too.
"""

from __future__ import annotations

from itertools import count
from math import ceil
from typing import Any, Mapping

from critcore.plugin import Table

from . import locations as L

LEG_ACTUATORS = ("upper-leg-actuator", "lower-leg-actuator", "foot-actuator")
ARM_ACTUATORS = ("upper-arm-actuator", "lower-arm-actuator", "hand-actuator")
COUNTED_ITEMS = ("heat-sink", "jump-jet")  # kinds whose items derive() counts (a record disabled counts)
# What derive() reads: the slot kinds it looks at, and the top-level keys besides locations and
# items. Keep these with the functions below: read_key() relies on them.
READ_KINDS = frozenset({"hip", *LEG_ACTUATORS, *ARM_ACTUATORS, "shoulder", "engine", "gyro", "sensors",
                        "life-support", *COUNTED_ITEMS})
TOP_READ = ("config", "walk_mp", "jump_mp", "heat_sinks", "heat", "gyro_type", "pilot", "destroyed",
            "destroyed_reason")  # the top-level entries it reads besides locations and items, in a fixed order
READ_KEYS = frozenset({*TOP_READ, "locations", "items"})


def _num(row: Any, key: str, default: int = 0) -> int:
    return int(row.data.get(key, default))


def _same_turn(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    ta, tb = a.get("hit_turn"), b.get("hit_turn")
    if ta is not None and tb is not None:
        return bool(ta == tb)
    return a.get("hit_batch") is not None and a.get("hit_batch") == b.get("hit_batch")


def _before_hip(act: Mapping[str, Any], hip: Mapping[str, Any]) -> bool:
    """An actuator hit from an earlier turn than the hip's (its PSR modifier is then ignored)."""
    sa, sh = act.get("hit_batch"), hip.get("hit_batch")
    if sa is None or sh is None:
        return False
    return bool(sa < sh) and not _same_turn(act, hip)


def _hits(loc: Mapping[str, Any], kind: str) -> list[Mapping[str, Any]]:
    return [s for s in loc["slots"] if s["kind"] == kind and s["destroyed"]]


def _has(loc: Mapping[str, Any], kind: str) -> bool:
    return any(s["kind"] == kind for s in loc["slots"])


def _out_count(locs: Mapping[str, Any], kind: str, with_lost_locations: bool = False) -> int:
    """Slots of a kind hit by a critical (and, if asked, those in destroyed locations)."""
    return sum(1 for loc in locs.values() for s in loc["slots"]
               if s["kind"] == kind and (s["destroyed"] or (with_lost_locations and loc.get("destroyed"))))


def _items_out(state: Mapping[str, Any], kind: str) -> int:
    """Items of a kind knocked out; for heat sinks, the heat sinks in them (a compact heat sink
    slot holds two)."""
    locs = state["locations"]
    items = state.get("items") or {}
    seen: dict[Any, int] = {}
    for code, loc in locs.items():
        for i, s in enumerate(loc["slots"]):
            if s["kind"] != kind:
                continue
            key = s.get("item") if s.get("item") is not None else (code, i)
            it = items.get(s.get("item")) if s.get("item") is not None else None
            if loc.get("destroyed") or s["destroyed"] or (it is not None and it.get("disabled")):
                seen[key] = int(it.get("heat_sinks", 1)) if it is not None and kind == "heat-sink" else 1
    return sum(seen.values())


def counted_items(locations: Mapping[str, Mapping[str, Any]]) -> frozenset[str]:
    """The items derive() counts (heat sinks, jump jets), by the slots that name them."""
    return frozenset(s["item"] for loc in locations.values() for s in loc["slots"]
                     if s["kind"] in COUNTED_ITEMS and s.get("item") is not None)


def _loc_key(loc: Mapping[str, Any]) -> tuple[Any, ...]:
    """What derive() reads of one location: whether it is gone, and the slots of the kinds it
    looks at (their marks and, for the items it counts, which item)."""
    return (loc.get("destroyed"), loc.get("blown_off"),
            tuple([(i, s["kind"], s["destroyed"], s.get("hit_batch"), s.get("hit_turn"),
                    s.get("item") if s["kind"] in COUNTED_ITEMS else None)
                   for i, s in enumerate(loc["slots"]) if s["kind"] in READ_KINDS]))


PARTS = 65_536  # parts of keys kept numbered before the numbering starts over


class Numbering:
    """Numbers for the parts of keys (a location's, the counted items'): equal parts get the
    same number, so a whole key is a few numbers and hashing it (every look-up of derived
    numbers) does not walk every slot of the unit again. Numbers are never given out twice:
    once the numbering starts over (at :data:`PARTS` parts), an equal part gets a new number (a
    miss in the caches, never a wrong hit). Keys are compared only with keys numbered by the
    same numbering: it lives with the derived numbers it keys (``unitmemo.UnitMemo``)."""

    __slots__ = ("numbers", "parts")

    def __init__(self) -> None:
        self.parts: dict[tuple[Any, ...], int] = {}
        self.numbers = count()

    def part(self, key: tuple[Any, ...]) -> int:
        parts = self.parts
        n = parts.get(key)
        if n is None:
            if len(parts) >= PARTS:
                parts.clear()
            n = parts[key] = next(self.numbers)
        return n


def _items_key(counted: frozenset[str], item: Any) -> tuple[Any, ...]:
    """What derive() reads of the items it counts (heat sinks, jump jets)."""
    out = []
    for item_id in sorted(counted):
        it = item(item_id)
        out.append((item_id, None if it is None else (it.get("disabled"), it.get("heat_sinks"))))
    return tuple(out)


def read_key(state: Mapping[str, Any], counted: frozenset[str], numbering: Numbering) -> tuple[Any, ...]:
    """Everything :func:`derive` reads of a state, as a small key (two states with the same key
    have the same derived numbers): the location codes, then each location in that order, the
    items it counts (``counted``: :func:`counted_items`), the top-level entries of ``TOP_READ``
    (the locations' parts and the items' part numbered by ``numbering``)."""
    locs = state["locations"]
    items = state.get("items") or {}
    part = numbering.part
    return (tuple(locs), tuple([part(_loc_key(loc)) for loc in locs.values()]),
            part(_items_key(counted, items.get)), tuple([state.get(k) for k in TOP_READ]))


def read_key_after(work: Any, base_key: tuple[Any, ...], counted: frozenset[str],
                   numbering: Numbering) -> tuple[Any, ...]:
    """:func:`read_key` of the state a resolution leaves (``work``, a :class:`~.unitview.Work`),
    worked out from the key of the state it started from (``base_key``, ``counted``: its
    counted items) and what changed: the locations changed, the counted items changed, the
    top-level entries set."""
    codes, locs_key, items_key, top_key = base_key
    old_locs = work.base["locations"]
    if work.locs:
        changed = list(locs_key)
        for n, code in enumerate(old_locs):
            loc = work.locs.get(code)
            if loc is not None and loc is not old_locs[code]:
                changed[n] = numbering.part(_loc_key(loc))
        locs_key = tuple(changed)
    if work.items_w and not counted.isdisjoint(work.items_w):
        items_key = numbering.part(_items_key(counted, work.item))
    if not READ_KEYS.isdisjoint(work.top):
        top_key = tuple([work.get(k) for k in TOP_READ])
    return codes, locs_key, items_key, top_key


class _Unit:
    """What every part of :func:`derive` reads: the state, its locations and the components rows."""

    def __init__(self, state: Mapping[str, Any], comp: Table) -> None:
        self.state = state
        self.row = comp.row
        self.locs: Mapping[str, Mapping[str, Any]] = state["locations"]
        self.quad = L.is_quad(state.get("config"))
        self.legs = [c for c in self.locs if L.kind(c) == "leg"]
        self.arms = [c for c in self.locs if L.kind(c) == "arm"]
        self.lost_legs = [c for c in self.legs if self.locs[c].get("destroyed")]
        self.hipped = [c for c in self.legs if c not in self.lost_legs and _hits(self.locs[c], "hip")]
        self.notes: list[str] = []

    def standing_legs(self) -> list[str]:
        return [c for c in self.legs if c not in self.lost_legs]


def derive(state: Mapping[str, Any], comp: Table) -> dict[str, Any]:
    """The derived numbers of a unit (plain data, ready for JSON)."""
    u = _Unit(state, comp)
    out = movement(u)
    out.update(heat(u))
    out.update(piloting(u))
    fighting = attacks(u)
    club = fighting.pop("club")
    out.update(fighting)
    out["kick"] = kicks(u)
    out["club"] = club
    pilot = state.get("pilot") or {}
    out["pilot"] = {"hits": int(pilot.get("hits", 0)), "dead": bool(pilot.get("dead")),
                    "conscious": bool(pilot.get("conscious", True))}
    out["destroyed"] = bool(state.get("destroyed"))
    out["destroyed_reason"] = str(state.get("destroyed_reason", ""))
    life_support_and_limbs(u)
    out["notes"] = u.notes
    return out


def movement(u: _Unit) -> dict[str, Any]:
    """Walking, running and jumping MP after hips, leg actuators, lost legs and jump jets."""
    row, locs = u.row, u.locs
    hip, leg_row = row("hip"), row("leg-destroyed")
    base_walk = int(u.state.get("walk_mp", 0))
    walk = base_walk
    for n, _ in enumerate(u.hipped, 1):
        walk = _num(hip, "second_hip_walk") if n >= 2 else ceil(walk / 2 ** _num(hip, "walk_halvings", 1))
    if len(u.hipped) >= 2:
        u.notes.append("both hips frozen: 0 MP, yet the 'Mech does not count as immobile")
    for c in u.standing_legs():
        for kind in LEG_ACTUATORS:
            walk += _num(row(kind), "walk_mp") * len(_hits(locs[c], kind))
    walk = max(0, walk)
    no_run = False
    lost = len(u.lost_legs)
    if lost:
        if not u.quad:
            walk, no_run = min(walk, _num(leg_row, "biped_walk")), True
        elif lost == 1:
            walk = max(0, walk + _num(leg_row, "quad_one_leg_walk_mp"))
        elif lost == 2:
            walk, no_run = min(walk, _num(leg_row, "quad_two_legs_walk")), True
        else:
            walk, no_run = _num(leg_row, "quad_three_legs_walk"), True
    run = walk if no_run else ceil(walk * 1.5)
    jump = max(0, int(u.state.get("jump_mp", 0)) + _num(row("jump-jet"), "jump_mp", -1) * _items_out(u.state, "jump-jet"))
    return {"walk": walk, "run": run, "jump": jump, "base_walk": base_walk}


def heat(u: _Unit) -> dict[str, Any]:
    """Heat from engine hits and the dissipation left after heat sinks knocked out."""
    engine = u.row("engine")
    engine_hits = _out_count(u.locs, "engine", True)
    per_turn = _num(engine, "heat_per_hit") * min(engine_hits, _num(engine, "destroyed_at", 3))
    hs = u.state.get("heat_sinks") or {}
    hs_type = str(hs.get("type", "single"))
    per_sink = _num(u.row("heat-sink"), hs_type if hs_type in ("single", "double") else "single", 1)
    sinks_out = _items_out(u.state, "heat-sink")
    dissipation = max(0, int(hs.get("count", 0)) * per_sink - sinks_out * per_sink)
    return {"engine_hits": engine_hits, "heat_per_turn": per_turn, "dissipation": dissipation,
            "heat_sinks": {"count": int(hs.get("count", 0)), "type": hs_type, "destroyed": sinks_out}}


def piloting(u: _Unit) -> dict[str, Any]:
    """The piloting skill roll modifier: gyro, lost legs, hips and leg actuators."""
    psr = 0
    why: list[str] = []
    psr_for: set[str] = set()
    gyro = u.row("gyro")
    gyro_hits = _out_count(u.locs, "gyro")
    heavy = "heavy" in str(u.state.get("gyro_type") or "").lower()
    gyro_destroyed = gyro_hits >= (_num(gyro, "heavy_duty_destroyed_at", 3) if heavy else _num(gyro, "destroyed_at", 2))
    if gyro_hits and heavy and not gyro_destroyed:
        # a heavy-duty gyro: a smaller modifier while damaged, one more hit before it is destroyed
        mod = int(list(gyro.data.get("heavy_duty_psr", (1, 3)))[min(gyro_hits, 2) - 1])
        psr += mod
        why.append(f"heavy-duty gyro hit {gyro_hits}x +{mod}")
        psr_for.update(gyro.data.get("psr_on", ()))
    elif gyro_hits:
        psr += _num(gyro, "psr_damaged")
        why.append(f"gyro damaged +{_num(gyro, 'psr_damaged')}")
        psr_for.update(gyro.data.get("psr_on", ()))
    if gyro_destroyed:
        psr += _num(gyro, "psr_destroyed")
        why.append(f"gyro destroyed +{_num(gyro, 'psr_destroyed')}")
        u.notes.append("gyro destroyed: the 'Mech is down and cannot stand; it may fire as if prone and turn "
                       "one hexside a turn with at least 1 MP; it is not immobile")
    hip, leg_row = u.row("hip"), u.row("leg-destroyed")
    for c in u.legs:
        loc = u.locs[c]
        if c in u.lost_legs:
            psr += _num(leg_row, "psr")
            why.append(f"{L.name(c)} lost +{_num(leg_row, 'psr')}")
            continue
        hips = sorted(_hits(loc, "hip"), key=lambda s: s.get("hit_batch") or 0)
        if hips:
            psr += _num(hip, "psr") * len(hips)
            why.append(f"{L.name(c)} hip +{_num(hip, 'psr') * len(hips)}")
            psr_for.update(hip.data.get("psr_on", ()))
        for kind in LEG_ACTUATORS:
            r = u.row(kind)
            for s in _hits(loc, kind):
                psr_for.update(r.data.get("psr_on", ()))
                if hips and _before_hip(s, hips[0]):
                    why.append(f"{L.name(c)} {kind.replace('-', ' ')} ignored (hip hit later)")
                    continue
                psr += _num(r, "psr")
                why.append(f"{L.name(c)} {kind.replace('-', ' ')} +{_num(r, 'psr')}")
    return {"psr": psr, "psr_why": why, "psr_for": sorted(psr_for), "gyro_destroyed": gyro_destroyed}


def attacks(u: _Unit) -> dict[str, Any]:
    """Weapon fire (sensors, shoulders, arm actuators), punches and clubs, per arm."""
    sensors = u.row("sensors")
    sensor_hits = _out_count(u.locs, "sensors")
    can_fire = sensor_hits < _num(sensors, "no_fire_at", 2)
    base_to_hit = _num(sensors, "weapon_to_hit") if sensor_hits else 0
    weapons: dict[str, Any] = {"all": {"to_hit": base_to_hit, "can_fire": can_fire,
                                       "why": ([f"sensors +{base_to_hit}"] if sensor_hits and can_fire else [])
                                       + ([] if can_fire else ["sensors destroyed: no weapon fire"])}}
    punches: dict[str, Any] = {}
    club = _Club(bool(u.arms), 0, [] if u.arms else ["no arms"])
    for c in u.arms:
        loc = u.locs[c]
        if loc.get("destroyed"):
            gone = "blown off" if loc.get("blown_off") else "destroyed"
            weapons[c] = {"to_hit": None, "can_fire": False, "why": [f"{L.name(c)} {gone}"]}
            punches[c] = {"possible": False, "to_hit": None, "halvings": 0, "why": [f"{L.name(c)} gone"]}
            club.refuse(f"{L.name(c)} gone")
            continue
        w_mod, w_why, punches[c] = _arm(u, c, loc, club)
        weapons[c] = {"to_hit": w_mod + base_to_hit, "can_fire": can_fire, "why": w_why + weapons["all"]["why"]}
    return {"weapons": weapons, "punch": punches,
            "club": {"possible": club.ok, "to_hit": club.mod if club.ok else None, "why": club.why}}


class _Club:
    """Whether the 'Mech can club, and the modifier, as its arms are looked at one by one."""

    def __init__(self, ok: bool, mod: int, why: list[str]) -> None:
        self.ok, self.mod, self.why = ok, mod, why

    def refuse(self, why: str) -> None:
        self.ok = False
        self.why.append(why)


def _arm(u: _Unit, c: str, loc: Mapping[str, Any], club: _Club) -> tuple[int, list[str], dict[str, Any]]:
    """One standing arm: its weapon modifier with the reasons, and its punch."""
    shoulder = _hits(loc, "shoulder")
    w_mod, w_why = 0, []
    p_mod, p_why, halvings = 0, [], 0
    p_ok = True
    if shoulder:
        w_mod = _num(u.row("shoulder"), "weapon_to_hit")
        w_why = [f"shoulder +{w_mod} (replaces the arm's other modifiers)"]
        p_ok = False
        p_why.append("shoulder frozen")
        club.refuse(f"{L.name(c)} shoulder frozen")
    for kind in ARM_ACTUATORS:
        r = u.row(kind)
        hit = len(_hits(loc, kind))
        missing = 0 if _has(loc, kind) else 1
        label = kind.replace("-", " ")
        if hit and not shoulder and _num(r, "weapon_to_hit"):
            w_mod += _num(r, "weapon_to_hit") * hit
            w_why.append(f"{label} +{_num(r, 'weapon_to_hit') * hit}")
        if missing and r.data.get("missing_counts_for_weapons") and not shoulder and _num(r, "weapon_to_hit"):
            w_mod += _num(r, "weapon_to_hit")
            w_why.append(f"no {label} +{_num(r, 'weapon_to_hit')}")
        n = hit + missing
        if n:
            state_word = "missing" if missing else "destroyed"
            p_mod += _num(r, "punch_to_hit") * n
            halvings += _num(r, "punch_halvings") * n
            p_why.append(f"{label} {state_word} +{_num(r, 'punch_to_hit') * n}")
            club.mod += _num(r, "club_to_hit") * n
            if _num(r, "club_to_hit"):
                club.why.append(f"{L.name(c)} {label} {state_word} +{_num(r, 'club_to_hit') * n}")
            if r.data.get("club") is False:
                club.refuse(f"{L.name(c)} {label} {state_word}: no club")
    punch = {"possible": p_ok, "to_hit": p_mod if p_ok else None, "halvings": halvings, "why": p_why}
    return w_mod, w_why, punch


def kicks(u: _Unit) -> dict[str, Any]:
    """Whether the 'Mech can kick, with the modifier and halvings from leg actuators."""
    ok, mod, halvings, why = bool(u.legs), 0, 0, []
    if u.lost_legs and not u.quad:
        ok = False
        why.append("a leg is lost")
    if u.hipped:
        ok = False
        why.append("hip frozen: no kicks")
    for c in u.standing_legs():
        for kind in LEG_ACTUATORS:
            r = u.row(kind)
            n = len(_hits(u.locs[c], kind))
            if n:
                mod += _num(r, "kick_to_hit") * n
                halvings += _num(r, "kick_halvings") * n
                why.append(f"{L.name(c)} {kind.replace('-', ' ')} +{_num(r, 'kick_to_hit') * n}")
    return {"possible": ok, "to_hit": mod if ok else None, "halvings": halvings, "why": why}


def life_support_and_limbs(u: _Unit) -> None:
    """Notes: what life support out does at the current heat, and limbs lying on the ground."""
    ls = u.row("life-support")
    if _out_count(u.locs, "life-support"):
        now = int(u.state.get("heat", 0))
        dmg = (_num(ls, "very_hot_damage") if now >= _num(ls, "very_hot_from")
               else _num(ls, "hot_damage") if now >= _num(ls, "hot_from") else 0)
        u.notes.append(f"life support out: the MechWarrior takes {_num(ls, 'hot_damage')} damage each heat phase at heat "
                       f"{_num(ls, 'hot_from')}-{_num(ls, 'very_hot_from') - 1}, {_num(ls, 'very_hot_damage')} at "
                       f"{_num(ls, 'very_hot_from')}+ (heat now {now}: {dmg})")
    for c, loc in u.locs.items():
        if loc.get("blown_off") and L.kind(c) in ("arm", "leg"):
            u.notes.append(f"the {L.name(c)} lies in the hex where it was lost and can be picked up as a club")
