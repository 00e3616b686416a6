"""Damage to a 'Mech: armor, then internal structure, transfer inward, locations destroyed, the
unit as a whole (the MechWarrior, the cockpit, engine hits), the counters brought up to date at
the end. The critical checks a damaged location gets and the slots they strike are the next
layer's (:class:`critcore_battletech.strikes.Strikes`).

:class:`Damage` holds one resolution's copy-on-write state, the dice, the tables and options, and
collects the plain-words changes, the table rows rolled on the way and the events (PSRs due now).
Everything it does that calls for more (a check after damage to the structure, the acts of a
batch of criticals and the settling after them) waits in its queue of pending actions
(:attr:`Damage.pending`): :class:`critcore_battletech.resolver.Resolver` (the one class used)
carries that queue out as a cascade, and :mod:`critcore_battletech.cascadeodds` holds the
cascade's closed forms for exact odds.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from critcore.plugin import Dice
from critcore.plugin import Data, Effect

from . import effects as E
from . import locations as L
from .prepared import Prepared
from .unitmemo import CASCADE_ACTS, Tally, UnitMemo, knocked_out
from .unitview import Work

PILOT_DEAD_AT = 6  # Total Warfare: the sixth point of damage kills the MechWarrior
NO_TAGS: frozenset[str] = frozenset()

Story = tuple[tuple[str, ...], tuple[Effect, ...]]  # the changes told and the table rows rolled, in order
NO_STORY: Story = ((), ())
# the settling after a roll's criticals, one object wherever it is queued (an action is found kept by
# its identity: actions.Actions.kept_action)
SETTLE: tuple[str] = ("settle",)
# the kinds of slot whose hits the rules of an action that rolls no dice read (settling: the
# cockpit lost, the engine's hits), through the tally; no other mark is read by such an action
# (actions.Actions._unmarked shares their answers across states that differ only in other marks)
TALLIED = frozenset({"cockpit", "engine"})


def torso_cockpit(view: Any) -> bool:
    """The cockpit sits in a torso (a torso-mounted cockpit): the head is not vital."""
    if "torso" in str(view.get("cockpit_type") or "").lower():
        return True
    return any(s["kind"] == "cockpit" for code in view.codes() if code != "HD" for s in view.loc(code)["slots"])


def gyro_destroyed_at(view: Any, row: Any) -> int:
    """Gyro hits that destroy it: 2, or 3 for a heavy-duty gyro (Tactical Operations)."""
    if "heavy" in str(view.get("gyro_type") or "").lower():
        return int(row.data.get("heavy_duty_destroyed_at", 3))
    return int(row.data.get("destroyed_at", 2))


def gyro_psr_now_from(view: Any, row: Any) -> int:
    """The gyro hit from which a hit calls for a PSR right away: the first, or the second for a
    heavy-duty gyro (its first hit only adds its modifier to later PSRs)."""
    if "heavy" in str(view.get("gyro_type") or "").lower():
        return int(row.data.get("heavy_duty_psr_now_from", 2))
    return 1


def disable_contents(w: Work, code: str, kept: dict[Any, Any] | None = None) -> None:
    """Knock out the items in a destroyed location's slots (a superheavy's second items too);
    ``kept``: as for :func:`disabled`, and the items of the slots (:func:`contents`) kept there."""
    for item_id in contents(w.loc(code)["slots"], kept):
        it = w.item(item_id)
        if it is not None and not it.get("disabled"):
            w.put_item(item_id, disabled(it, kept))


def contents(slots: Sequence[Mapping[str, Any]], kept: dict[Any, Any] | None = None) -> tuple[str, ...]:
    """The items held in ``slots``, in slot order (an item of a kind that holds one, then a
    superheavy's second item; an item once per slot it fills). With ``kept``
    (``UnitMemo.marked``) kept under the slots' id beside them (taken only for those very
    slots): exact odds destroy the same location, its slots one object, on thousands of states
    (a speed-only store; :func:`disable_contents` reads the same items either way)."""
    if kept is not None:
        key = ("contents", id(slots))
        found = kept.get(key)
        if found is not None and found[0] is slots:
            ids: tuple[str, ...] = found[1]
            return ids
    ids = tuple([item_id for s in slots
                 for item_id in (s.get("item") if s["kind"] in E.ITEM_KINDS else None, s.get("item2"))
                 if item_id is not None])
    if kept is not None:
        if len(kept) >= CASCADE_ACTS:
            kept.clear()
        kept[("contents", id(slots))] = (slots, ids)
    return ids


def disabled(item: Mapping[str, Any], kept: dict[Any, Any] | None = None) -> Data:
    """An item's record knocked out (``disabled = true``). With ``kept`` (``UnitMemo.marked``) one
    object for each record knocked out, kept under the record's id beside it (taken only for that
    very record): exact odds knock out the same items on thousands of states, and a state's hash
    then reads the item's hash kept by the object."""
    if kept is None or item.__class__ is not Data:
        return (item if item.__class__ is Data else Data(item)).replace(disabled=True)
    key = ("disabled", id(item))
    found = kept.get(key)
    if found is not None and found[0] is item:
        out: Data = found[1]
        return out
    out = item.replace(disabled=True)
    if len(kept) >= CASCADE_ACTS:
        kept.clear()
    kept[key] = (item, out)
    return out


class Damage:
    """One resolution's working state and record, and the rules of damage on it."""

    def __init__(self, work: Work, dice: Dice, prep: Prepared, memo: UnitMemo,
                 turn: int | None = None, cascade: bool = True) -> None:
        self.w = work
        self.cascade = cascade  # False in the effect stage, where nothing follows the slot rolls
        self.dice = dice
        self.prep = prep  # the engine's preparation: tables, options, rows' answers (prepared.py)
        self.memo = memo  # the numbers of the state the work starts from (unitmemo.py)
        self.components = prep.components
        self.crit_table = prep.crit_table
        self.half = prep.half
        self.options = prep.options
        self.changes: list[str] = []
        self.effects: list[Effect] = []
        self.events: list[str] = []
        self.tags: frozenset[str] = NO_TAGS  # events (outcome tags) the rules set as they apply
        self.pending: list[tuple[Any, ...]] = []  # actions not yet carried out (see drain)
        self._last_tally: tuple[Any, tuple[Tally, Tally]] | None = None  # the tally last worked out, with its locations
        self.known_rows, self.skip = prep.known_rows, prep.skip
        self.batch, counted = memo.counted_damage()  # this resolution's number, and its damage record
        if cascade:  # the apply stage: every slot hit in this resolution is marked with it
            self.w.set("damage", counted)
        if turn is not None:
            self.w.set("turn", turn)
        self.turn = turn if turn is not None else work.base.get("turn")  # the turn set just above, or the unit's

    # -- record ----------------------------------------------------------------------------

    def change(self, text: str) -> None:
        self.changes.append(text)

    def event(self, text: str) -> None:
        if text not in self.events:
            self.events.append(text)

    def tag(self, name: str) -> None:
        """An event of the resolution (``events.EVENTS``), set where the rule that makes it happens."""
        self.tags = self.tags | {name}

    @property
    def destroyed(self) -> bool:
        return bool(self.w.get("destroyed"))

    # -- the unit as a whole ---------------------------------------------------------------

    def destroy_unit(self, reason: str) -> None:
        if not self.destroyed:
            self.w.set("destroyed", True)
            self.w.set("destroyed_reason", reason)
            self.change(f"The 'Mech is destroyed: {reason}")

    def pilot_damage(self, amount: int, why: str) -> None:
        if amount <= 0:
            return
        pilot = self.w.get("pilot") or {}
        if pilot.get("dead"):
            return
        before = int(pilot.get("hits", 0))
        now = min(PILOT_DEAD_AT, before + amount)
        self.w.set_sub("pilot", hits=now)
        self.change(f"MechWarrior takes {amount} damage ({why}): hits {before} -> {now}")
        if now >= PILOT_DEAD_AT:
            self.kill_pilot(f"{PILOT_DEAD_AT} points of damage")
            self.destroy_unit("MechWarrior killed")
        else:
            self.event("consciousness roll for the MechWarrior (damage taken)")

    def kill_pilot(self, why: str) -> None:
        if not (self.w.get("pilot") or {}).get("dead"):
            self.w.set_sub("pilot", dead=True, conscious=False)
            self.change(f"MechWarrior killed ({why})")

    def disable_item(self, item_id: str) -> None:
        it = self.w.item(item_id)
        if it is not None and not it.get("disabled"):
            self.w.put_item(item_id, disabled(it, self.memo.marked))

    def tally(self) -> tuple[Mapping[str, int], Mapping[str, int]]:
        """Slots hit by criticals, and slots lost with their location, by kind (read only): the
        tally of the state handed in, carried over the locations changed since."""
        base = self.w.base["locations"]
        changed = tuple([(base[code], loc) for code, loc in self.w.locs.items() if loc is not base[code]])
        memo = self.memo
        if not changed:
            return memo.tally()
        last = self._last_tally
        if last is not None and last[0] == changed:  # the same locations as last asked (compared by identity first)
            return last[1]
        hits, lost = memo.tally()
        hits, lost = dict(hits), dict(lost)
        for old, new in changed:
            memo.add_tally(hits, lost, old, -1)
            memo.add_tally(hits, lost, new, 1)
        self._last_tally = (changed, (hits, lost))
        return hits, lost

    def settle(self) -> None:
        """Check what ends the 'Mech as a whole: a lost cockpit, engine hits."""
        hits, lost = self.tally()
        if hits.get("cockpit", 0) + lost.get("cockpit", 0) and not self.w.get("pilot", {}).get("dead"):
            self.kill_pilot("cockpit lost")
            self.destroy_unit("cockpit destroyed")
        limit = int(self.components.row("engine").data.get("destroyed_at", 3))
        if hits.get("engine", 0) + lost.get("engine", 0) >= limit:
            self.destroy_unit(f"{limit} engine hits")

    # -- locations -------------------------------------------------------------------------

    def destroy_location(self, code: str, why: str, blown_off: bool = False) -> None:
        loc = self.w.loc(code)
        if loc.get("destroyed"):
            return
        gone: dict[str, Any] = {"destroyed": True, "structure": 0, "armor": 0}
        if loc.get("rear_armor") is not None:
            gone["rear_armor"] = 0
        if blown_off:
            gone["blown_off"] = True
        self.w.set_loc(code, **gone)
        disable_contents(self.w, code, self.memo.marked)
        self.change(f"{L.name(code)} {'blown off' if blown_off else 'destroyed'} ({why}); "
                    "nothing in it explodes")
        if code in L.VITAL and not (code == "HD" and torso_cockpit(self.w)):
            self.destroy_unit(f"{L.name(code).lower()} destroyed")
        elif code == "HD":
            self.change("The cockpit is in the centre torso: losing the head does not end the 'Mech")
        arm = L.ARM_OF_TORSO.get(code)
        if arm and not L.is_quad(self.w.config) and self.w.has(arm):
            self.destroy_location(arm, "its side torso is gone")
        self.settle()

    def blow_off(self, code: str) -> None:
        row = self.components.row(f"{L.kind(code)}-blown-off")
        self.effects.append(row.effect(self.components.id, None, location=code))
        self.destroy_location(code, "a 12 on Determining Critical Hits", blown_off=True)

    # -- damage ----------------------------------------------------------------------------

    def damage(self, code: str, amount: int, rear: bool = False, structure_only: bool = False,
               cause: str = "") -> None:
        """Damage to a location: armor (front or rear), then internal structure, then inward.

        ``structure_only`` is explosion damage: it goes to internal structure, here and in
        every location it passes to. Each location whose structure took damage and still
        stands gets a critical check afterwards, in the order they were damaged.
        """
        remaining = amount
        damaged: list[str] = []
        case = self.options.get("case", False) and structure_only
        if (code == "HD" and not structure_only and amount > 0 and self.options.get("head_hit_pilot_damage", True)
                and not torso_cockpit(self.w) and not self.w.loc(code).get("destroyed")):
            # Total Warfare: every hit on the head shakes the MechWarrior in the cockpit
            self.pilot_damage(int(self.components.row("cockpit").data.get("head_hit_pilot_damage", 1)),
                              "a hit on the head")
        while remaining > 0 and code is not None:
            loc = self.w.loc(code)
            if loc.get("destroyed"):
                if case and self.has_case(code):  # an explosion in a location already gone (double slot)
                    self.change(f"CASE in the {L.name(code)}: the {remaining} explosion damage is vented")
                    break
                nxt = L.INWARD[code]
                if nxt is None or not self.w.has(nxt):
                    self.change(f"{L.name(code)} is already destroyed: {remaining} damage is lost")
                    break
                self.change(f"{L.name(code)} is already destroyed: {remaining} damage passes to the {L.name(nxt)}")
                code = nxt
                continue
            if not structure_only:
                use_rear = rear and code in L.TORSOS_WITH_REAR and loc.get("rear_armor") is not None
                key = "rear_armor" if use_rear else "armor"
                have = int(loc.get(key) or 0)
                take = min(have, remaining)
                if take:
                    self.w.set_loc(code, **{key: have - take})
                    remaining -= take
                    label = "rear armor" if key == "rear_armor" else "armor"
                    self.change(f"{L.name(code)} {label} {have} -> {have - take}")
            if remaining <= 0:
                break
            have = int(loc["structure"])
            take = min(have, remaining)
            self.w.set_loc(code, structure=have - take)
            remaining -= take
            self.change(f"{L.name(code)} internal structure {have} -> {have - take}")
            if take and code not in damaged:
                damaged.append(code)
            if have - take > 0:
                break
            self.destroy_location(code, cause or "internal structure gone")
            if case and self.has_case(code):
                if remaining:
                    self.change(f"CASE in the {L.name(code)}: the other {remaining} explosion damage is vented")
                break
            nxt = L.INWARD[code]
            if nxt is None or not self.w.has(nxt):
                break
            if remaining:
                self.change(f"{remaining} damage passes inward to the {L.name(nxt)}")
            code = nxt
        # the checks wait in the queue of pending actions, in this order (see drain)
        # one object per action (UnitMemo.interned): a kept action is found by its identity
        interned = self.memo.interned
        self.pending.extend(interned(("check", c)) for c in damaged)

    def context_key(self, what: Any) -> tuple[Any, ...]:
        """What the steps of :meth:`drain` depend on besides the state they are handed (their
        results are shared by it)."""
        base = self.w.base
        return (what, id(base), hash(base), self.options, self.turn, self.batch, self.cascade,
                self.components, self.crit_table, self.half)

    def has_case(self, code: str) -> bool:
        """CASE protects this location: a CASE slot in it, or any location of a Clan 'Mech."""
        if str(self.w.get("tech_base", "")).lower() == "clan":
            return True
        return any(s["kind"] in ("roll-again", "equipment") and "CASE" in str(s.get("name", "")).upper()
                   for s in self.w.loc(code)["slots"])

    # -- the counters at the end -----------------------------------------------------------

    def count_up(self) -> None:
        """Bring the damage counters up to date and note the PSRs this resolution calls for
        (after :meth:`drain`: it reads the state the cascade left, its events and tags)."""
        hits, lost = self.tally()
        gyro = hits.get("gyro", 0)
        gyro_before = self.memo.tally()[0].get("gyro", 0)
        self.w.set_sub("damage", engine_hits=hits.get("engine", 0) + lost.get("engine", 0), gyro_hits=gyro,
                       sensor_hits=hits.get("sensors", 0), life_support_hit=hits.get("life-support", 0) > 0,
                       heat_sinks_destroyed=self.count_items("heat-sink"),
                       jump_jets_destroyed=self.count_items("jump-jet"))
        destroyed_at = gyro_destroyed_at(self.w, self.components.row("gyro"))
        if gyro > gyro_before:
            if gyro >= destroyed_at and gyro_before < destroyed_at:
                fall = self.components.row("gyro").data.get("fall_psr", 6)
                self.event(f"the 'Mech falls automatically (gyro destroyed); the PSR against MechWarrior damage "
                           f"in the fall is at +{fall}")
            elif gyro >= gyro_psr_now_from(self.w, self.components.row("gyro")):
                self.event("PSR now (gyro damaged)")
        if self.destroyed:  # off the board once the phase ends: nothing is rolled for it now
            self.events = []

    def count_items(self, kind: str) -> int:
        """Items of a kind knocked out (a critical on any of their slots, or their location lost);
        for heat sinks, the heat sinks in them (a compact heat sink slot holds two). The count of
        the state handed in, carried over the items whose locations or records changed since."""
        w = self.w
        memo = self.memo
        n = memo.count(kind)
        if not w.locs and not w.items_w:
            return n
        locations, items = memo.locations, memo.items
        by_code = memo.items_by_code(kind)
        touched = {item_id: places for code in w.locs for item_id, places in by_code.get(code, ())}
        if w.items_w:
            touched.update((item_id, places) for item_id, places in memo.items_of(kind) if item_id in w.items_w)
        for item_id, places in touched.items():
            n += (knocked_out(w.loc, w.item, item_id, places, kind)
                  - knocked_out(locations.__getitem__, items.get, item_id, places, kind))
        return n
