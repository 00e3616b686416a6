"""Damage to a 'Mech: armor, then internal structure, transfer inward, critical checks, and the
explosions that feed back into damage (cascades).

A :class:`Resolver` works on one resolution: it holds the copy-on-write state, the dice, the
tables and options, and collects the plain-words changes, the table rows rolled on the way
and the events (PSRs due now). The effect stage uses one to pick the slots, the apply stage
to carry them out. Its cascade is one
code path for every roller: a queue of pending actions carried by :meth:`Dice.iterate`, whose
``merge`` (:meth:`Resolver.merged`) tells exact odds what of a state is story, to be left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence, TypeVar

from critcore.plugin import Dice
from critcore.plugin import Data, Effect

from . import criticals as C
from . import effects as E
from . import locations as L
from .prepared import Prepared
from .derived import read_key_after
from .events import unit_tags
from .unitmemo import CASCADE_ACTS, Tally, UnitMemo, knocked_out
from .unitview import Work

if TYPE_CHECKING:
    from fractions import Fraction

    from critcore.plugin import Row

T = TypeVar("T")

PILOT_DEAD_AT = 6
_NO_TAGS: frozenset[str] = frozenset()
CASCADING = frozenset({"ammo-explosion", "component-explosion"})  # effect codes that roll dice again  # Total Warfare: the sixth point of damage kills the MechWarrior


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


_ORDER = {c: i for i, c in enumerate(L.CODES)}


def _sheet_order(pick: tuple[str, int]) -> tuple[int, int]:
    """Record-sheet order of a (location, slot) pick (:func:`criticals.sheet_order`)."""
    return C.sheet_order(_ORDER[pick[0]], pick[1])


# effect codes whose act changes the unit or the PSRs (effects.consequences); the act of any other
# row only tells what happened (the slot was marked with its batch), so exact odds leave it out of a
# cascade's queue (Resolver.merged). A test holds this list to what consequences does.
ACTING = frozenset({"disabled", "heat-sink", "jump-jet", "ammo-explosion", "component-explosion", "cockpit",
                    "leg-actuator", "hip"})


def untold(queue: tuple[Any, ...]) -> tuple[Any, ...]:
    """A cascade's queue of pending actions without what changes nothing but the story: the acts of
    rows that only tell (not in :data:`ACTING`), and a settling right after another (settling
    twice in a row changes nothing the first did not). The first action (a check that rolls) is
    always kept, so a state and its merge are finished alike. ``queue`` itself when nothing goes."""
    kept: list[Any] = []
    dropped = False
    for n, action in enumerate(queue):
        if n and ((action[0] == "act" and action[1].code not in ACTING)
                  or (action[0] == "settle" and kept[-1][0] == "settle")):
            dropped = True
            continue
        kept.append(action)
    return tuple(kept) if dropped else queue


def _first_then_reversed(items: Sequence[T]) -> Sequence[T]:
    """``items`` in the order exact odds visit the answers of one roll: the first, then the last
    to the second (a run's untried siblings are taken from a stack)."""
    return (items[0], *items[:0:-1]) if len(items) > 2 else items


def _no_pending(state: tuple[Any, ...]) -> bool:
    return not state[2]


Story = tuple[tuple[str, ...], tuple[Effect, ...]]  # the changes told and the table rows rolled, in order
_NO_STORY: Story = ((), ())
# where a cascade starts (Resolver.until_rolled): its state (the unit's changes, the events of its
# steps, the actions pending, the tags, the story) and the events noted before it
Start = tuple[tuple[Any, tuple[str, ...], tuple[Any, ...], frozenset[str], Story], tuple[str, ...]]


def _disable_contents(w: Work, code: str) -> None:
    """Knock out the items in a destroyed location's slots (a superheavy's second items too)."""
    for s in w.loc(code)["slots"]:
        for item_id in (s.get("item") if s["kind"] in E.ITEM_KINDS else None, s.get("item2")):
            if item_id is not None:
                it = w.item(item_id)
                if it is not None and not it.get("disabled"):
                    w.set_item(item_id, disabled=True)


class Resolver:
    """One resolution's working state and record."""

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
        self.tags: frozenset[str] = _NO_TAGS  # events (outcome tags) the rules set as they apply
        self.pending: list[tuple[Any, ...]] = []  # actions not yet carried out (see drain)
        self.started: Start | None = None  # where the cascade starts (start)
        self.actor: Resolver | None = None  # the fork that works out the actions kept by state (_acted)
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
            self.w.set_item(item_id, disabled=True)

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
        _disable_contents(self.w, code)
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
        self.pending.extend(("check", c) for c in damaged)

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

    # -- criticals -------------------------------------------------------------------------
    def critical_check(self, code: str) -> None:
        """Roll Determining Critical Hits for a location whose internal structure was damaged,
        and apply the criticals it calls for (they wait in the queue)."""
        if self.destroyed:
            self.change(f"No critical check for the {L.name(code)}: the 'Mech is already destroyed")
            return
        row, effect, picks = self._roll_check(code)
        self.effects.append(effect)
        self._checked(code, row, picks)

    # -- the cascade: a queue of pending actions, one code path for every roller ---------------
    def drain(self) -> tuple[Data, Data, Data]:
        """Carry out the pending actions (critical checks, the criticals they call for, the
        settling after each roll's criticals) with :meth:`critcore.dice.dice.Dice.iterate`.

        Each action runs to its end and leaves the actions it calls for at the front of the
        queue, in the order the rules take them (an explosion's damage, then the checks of the
        locations it damaged, each check's criticals and their cascades before the next check).
        The actions before the first that rolls dice are carried out here; from there the state
        carried is the unit, the PSRs called for so far, the queue, the events and the story
        (the changes told and the rows rolled), a step being an action and the actions after it
        up to the next that rolls dice (a snapshot per roll, not per action): with real dice a
        plain loop that keeps all of it. Under exact odds equal states merge, each action is worked out
        once per distinct state however it was reached, and :meth:`merged` says what of a
        state is its identity: the story is left out, and so are the hits of a location
        destroyed on the way (the state handed in is merged too, even with nothing left to
        roll). The actions before the first roll, and the settling after them, are carried
        out by :meth:`start`. Returns the state the cascade leaves, as :meth:`Work.overlay`
        gives it.
        """
        start = (self.started or self.start())[0]
        end = self.dice.iterate(start, self._step, _no_pending, "cascade", key=self.context_key("cascade"),
                                merge=self.merged)
        if end is start:  # nothing rolled, nothing left out: this resolver holds the state already
            kept: tuple[Data, Data, Data] = start[0]
            return kept
        overlay, events, _, tags, (changes, effects) = end
        self.w.adopt(overlay)
        self.tags = tags
        self.changes, self.effects = list(changes), list(effects)
        for e in events:
            self.event(e)
        adopted: tuple[Data, Data, Data] = overlay
        return adopted

    def until_rolled(self) -> Start:
        """Carry out the pending actions before the first that rolls dice (:meth:`drain`'s
        start): the state the cascade starts from, with the events noted so far (no dice)."""
        queue, self.pending = tuple(self.pending), []
        while queue and not self._rolls(queue[0]):  # no dice: nothing to enumerate or merge yet
            queue = self.carry_out(queue)
        return (self.w.overlay(), (), queue, self.tags, (tuple(self.changes), tuple(self.effects))), tuple(self.events)

    def start(self) -> Start:
        """The settling after the pending actions queued, and the actions before the first that
        rolls dice carried out: where :meth:`drain` takes up the cascade.

        Kept in the unit's memo (:attr:`UnitMemo.starts`) by everything it reads: no dice are
        rolled before the first check that rolls, so the same state, queue, story and preparation
        always start the same cascade (exact odds run the apply stage once per outcome, and the
        outcomes of one batch of criticals share its start)."""
        self.pending.append(("settle",))
        key = (self.prep, self.w.overlay(), tuple(self.pending), self.tags, tuple(self.changes), tuple(self.effects),
               tuple(self.events), self.turn, self.batch, self.cascade)
        started: Start = self.memo.kept(self.memo.starts, key, self.until_rolled)
        if self.pending:  # found kept: this resolver takes over the state it starts from
            (overlay, _, _, tags, (changes, effects)), events = started
            self.pending = []
            self.w.adopt(overlay)
            self.tags, self.changes, self.effects, self.events = tags, list(changes), list(effects), list(events)
        self.started = started
        return started

    def finish(self, end: tuple[Data, Data, Data]) -> tuple[Data, tuple[str, ...], Data, frozenset[str]]:
        """After :meth:`drain` (``end``: the state it left, as :meth:`Work.overlay` gives it): the
        counters brought up to date (:meth:`count_up`), the new state, its PSRs, its derived
        numbers and the resolution's events (outcome tags).

        Kept in the unit's memo (:attr:`UnitMemo.ends`) by the end state, the PSRs and tags so
        far: none of it reads the story or the dice (exact odds meet a few hundred ends along
        thousands of outcomes)."""
        def work_out() -> tuple[Data, tuple[str, ...], Data, frozenset[str]]:
            self.count_up()
            memo = self.memo
            state = self.w.result()
            key = read_key_after(self.w, memo.key(), memo.counted(), memo.numbering)
            return state, tuple(self.events), memo.derived.of(key, state), unit_tags(self.w, self.tags)

        return self.memo.kept(self.memo.ends, (self.prep, end, tuple(self.events), self.tags), work_out)

    def carry_out(self, queue: tuple[Any, ...]) -> tuple[Any, ...]:
        """:meth:`_carry_out` for an action that rolls no dice (not a check that rolls), kept in
        the unit's memo (:attr:`UnitMemo.acts`) by the state it acts on: such an action is a
        function of that state, the action and the preparation, and what it adds to the records
        (changes, rows, events, tags) does not depend on what they held before. The leaves of a
        cascade's steps meet the same action on the same state many times over (exact odds), and
        with real dice nothing is lost but a dictionary look-up."""
        action = queue[0]
        key = (self.prep, self.turn, self.batch, self.cascade, self.w.overlay(), action)
        return self._take(self.memo.kept(self.memo.acts, key, lambda: self._acted(action, key[4]), CASCADE_ACTS), queue)

    def _check(self, queue: tuple[Any, ...]) -> tuple[Any, ...]:
        """:meth:`_carry_out` for the check that rolls at the front of ``queue`` (where a step
        starts), as a :meth:`Dice.branch` keyed by the state it rolls on: the check's row, its
        slots and what marking them does depend on nothing else, so exact odds enumerate a
        check once per state however many queues that state is met with, and each answer is a
        state met before (one object, hashed once: the actions after it are found kept by
        :meth:`carry_out`). Real dice just roll it."""
        action = queue[0]
        if not self._rolls(action):
            return self.carry_out(queue)
        overlay = self.w.overlay()

        def check(d: Dice) -> tuple[Any, ...]:
            return self.fork(d, overlay)._rolled(action)

        found = self.dice.choose(check, lambda: self._check_kept(overlay, action), self.prep.check_label(action[1]))
        return self._take(found, queue)

    def _check_kept(self, overlay: tuple[Data, Data, Data], action: tuple[Any, ...]) -> list[tuple[Any, Fraction]]:
        """:meth:`_check_odds`, kept in the unit's memo (:attr:`UnitMemo.checks`) by the state the
        check rolls on and what :meth:`context_key` names."""
        return self._check_found(overlay, action)[0]

    def _check_found(self, overlay: tuple[Data, Data, Data],
                     action: tuple[Any, ...]) -> tuple[list[tuple[Any, Fraction]], tuple[tuple[Any, int], ...], int]:
        """What :attr:`UnitMemo.checks` keeps of a check: :meth:`_check_odds`, and the same chances
        as whole numbers over one denominator (cheap to add up: :meth:`_step_odds`)."""
        memo = self.memo

        def work_out() -> tuple[list[tuple[Any, Fraction]], tuple[tuple[Any, int], ...], int]:
            from math import lcm

            odds = self._check_odds(overlay, action)
            den = lcm(*(p.denominator for _, p in odds))
            return odds, tuple((answer, p.numerator * (den // p.denominator)) for answer, p in odds), den

        return memo.kept(memo.checks, self.context_key(("rolled check", overlay, action)), work_out)

    def _rolled(self, action: tuple[Any, ...]) -> tuple[Any, ...]:
        """A check that rolls, carried out on this resolver (:meth:`_recorded`), and the actions it
        calls for that roll no dice after it (:meth:`_through`)."""
        return self._through(self._recorded(action))

    def _through(self, found: tuple[Any, ...]) -> tuple[Any, ...]:
        """``found`` (what an action did, as :meth:`_recorded` gives it) with the actions it calls
        for carried out up to the first that rolls dice (each found kept by the state it acts on:
        :meth:`_kept_act`), and what they added to the records added to its own: what the step
        after a check does first, whatever else waits in the queue behind (so it is worked out
        once per check's answer, not once per queue the check is met with)."""
        overlay, pending, changes, effects, events, tags = found
        if not pending or self._rolls_on(overlay, pending[0]):
            return found
        now, queue = overlay, pending
        more_changes: list[str] = []
        more_effects: list[Effect] = []
        seen = list(events)
        while queue and not self._rolls_on(now, queue[0]):
            done = self._kept_act(now, queue[0])
            now = done[0]
            queue = done[1] + queue[1:] if done[1] else queue[1:]
            more_changes.extend(done[2])
            more_effects.extend(done[3])
            for e in done[4]:
                if e not in seen:
                    seen.append(e)
            if done[5]:
                tags = tags | done[5]
        return (now, queue, changes + tuple(more_changes), effects + tuple(more_effects), tuple(seen), tags)

    def _kept_act(self, overlay: tuple[Data, Data, Data], action: tuple[Any, ...]) -> tuple[Any, ...]:
        """What ``action`` (one that rolls no dice) does to the state ``overlay``, as :meth:`_recorded`
        gives it, kept in the unit's memo (:attr:`UnitMemo.acts`) as :meth:`carry_out` keeps it; an
        act that only tells (:data:`ACTING`) is kept by the act alone (:meth:`_told`)."""
        if action[0] == "act" and action[1].code not in ACTING:
            return self._told(overlay, action)
        key = (self.prep, self.turn, self.batch, self.cascade, overlay, action)
        memo = self.memo
        found = memo.acts.get(key)
        if found is None:
            found = memo.kept(memo.acts, key, lambda: self._acted(action, overlay), CASCADE_ACTS)
        return found

    def _told(self, overlay: tuple[Data, Data, Data], action: tuple[Any, ...]) -> tuple[Any, ...]:
        """:meth:`_recorded` of an act that only tells (its row not in :data:`ACTING`): the state as it
        was, nothing queued, and the change and row it records, which read the act alone (kept in
        :attr:`UnitMemo.tells` by it and the preparation)."""
        memo = self.memo
        key = (self.prep, action)
        told = memo.tells.get(key)
        if told is None:
            done = self._acted(action, overlay)
            told = memo.kept(memo.tells, key, lambda: done[2:4], CASCADE_ACTS)
        return (overlay, (), told[0], told[1], (), _NO_TAGS)

    def _check_odds(self, overlay: tuple[Data, Data, Data], action: tuple[Any, ...]) -> list[tuple[Any, Fraction]]:
        """The closed form of :meth:`_check`'s roll on the state ``overlay`` (the ``odds`` of its
        :meth:`Dice.choose`): each row of Determining Critical Hits with its chance
        (``prep.row_odds``, the totals reading one row taken together, as the check's own
        ``choose`` does under exact odds), and for a row that calls for criticals each set of
        slots with its chance (:func:`criticals.merged_odds`, the ``odds`` of :meth:`picks`); the
        answer of each is what :meth:`_recorded` gives for that row and those slots, equal
        answers taken together. The work that only the state and the row decide (the row's
        effect, the reach and classes of slots) is done once, not once per answer.

        Answers come in the order an enumeration of the roll meets them first (the first row,
        then the last to the second; within a row the first set of slots, then the last to the
        second), so that outcomes of equal chance are listed as before."""
        from fractions import Fraction

        code = action[1]
        prep = self.prep
        rows = prep.row_odds()
        probe = self.fork(self.dice, overlay)
        # what every answer of this check shares, worked out once: the slots' effects on the state
        # (by slot and whether its items were knocked out earlier in the batch)
        struck: dict[Any, Any] = {}
        out: dict[Any, list[int]] = {}
        for (row_id, total), p_row in _first_then_reversed(rows):
            row = self.crit_table.row(row_id)
            det = prep.determination(row, code, True)
            count = 0 if det.data["blown_off"] else int(det.data["criticals"])
            probe.w.adopt(overlay)
            choices: Sequence[tuple[tuple[tuple[str, int], ...], Fraction]] = (
                _first_then_reversed(tuple(probe.picks_odds(code, count))) if count else (((), Fraction(1)),))
            rn, rd = p_row.numerator, p_row.denominator
            for picks, p in choices:
                probe.w.adopt(overlay)  # each answer from the state the check rolls on
                answer = probe._through(probe._recorded_check(code, row, total, picks, det, struck))
                before = out.get(answer)
                if before is None:
                    out[answer] = [rn * p.numerator, rd * p.denominator]
                else:
                    C._add(before, rn * p.numerator, rd * p.denominator)
        return [(answer, Fraction(n, d)) for answer, (n, d) in out.items()]

    def _recorded_check(self, code: str, row: Row, total: int | None, picks: tuple[tuple[str, int], ...],
                        det: Any = None, struck: dict[Any, Any] | None = None) -> tuple[Any, ...]:
        """:meth:`_recorded` of the critical check of ``code`` (one that rolls) with its row and
        slots given (:meth:`_roll_check`'s answer): what :meth:`critical_check` does after its roll.
        ``det`` is the row's determination when known; ``struck`` keeps the slots' effects
        (:meth:`struck`) on one state across the answers of its check."""
        self.changes, self.effects, self.events, self.pending = [], [], [], []
        self.tags = _NO_TAGS
        self.effects.append(self.prep.row_effect(row.id, code) if total is None
                            else row.effect(self.crit_table.id, total, location=code))
        if det is None:
            det = self.prep.determination(row, code, True)
        if det.data["blown_off"]:
            self.blow_off(code)
        elif picks:
            batch = self.struck(code, picks, struck)
            self.mark(batch)
            self.pending.extend([("act", e, True) for e in batch] + [("settle",)])
        pending, self.pending = tuple(self.pending), []
        return (self.memo.interned(self.w.overlay()), pending, tuple(self.changes), tuple(self.effects),
                tuple(self.events), self.tags)

    def _take(self, found: tuple[Any, ...], queue: tuple[Any, ...]) -> tuple[Any, ...]:
        """Take over what an action did (:meth:`_recorded`): the state after it and what it added
        to the records; the queue left, with the actions it called for at the front."""
        overlay, pending, changes, effects, events, tags = found
        self.w.adopt(overlay)
        self.changes.extend(changes)
        self.effects.extend(effects)
        for e in events:
            self.event(e)
        if tags:
            self.tags = self.tags | tags
        return pending + queue[1:] if pending else queue[1:]

    def _recorded(self, action: tuple[Any, ...]) -> tuple[Any, ...]:
        """``action`` carried out on this resolver with its records emptied first: the state
        after it, the actions it calls for, and what it added to the records."""
        self.changes, self.effects, self.events, self.pending = [], [], [], []
        self.tags = _NO_TAGS
        pending = self._carry_out((action,))
        return (self.memo.interned(self.w.overlay()), pending, tuple(self.changes), tuple(self.effects), tuple(self.events), self.tags)

    def _acted(self, action: tuple[Any, ...], overlay: tuple[Data, Data, Data]) -> tuple[Any, ...]:
        """What ``action`` does to the state ``overlay`` (:meth:`_recorded` on a fork, one kept
        for every action this resolver works out: an action that rolls no dice never works out
        another, and its records are emptied first)."""
        if action[0] == "act" and action[1].code in E.DISABLING:
            return self._knocked_out(action[1], action[2], overlay)
        actor = self.actor
        if actor is None:
            actor = self.actor = self.fork(self.dice, overlay)
        else:
            actor.w.adopt(overlay)
        return actor._recorded(action)

    def _knocked_out(self, eff: Effect, record: bool, overlay: tuple[Data, Data, Data]) -> tuple[Any, ...]:
        """:meth:`_recorded` of the act of a critical whose row only knocks out the slot's item
        (:data:`effects.DISABLING`: what :func:`effects.consequences` does for it, on the state
        ``overlay`` without a resolver): the item disabled if it was not, its sentence, its row."""
        item_id = eff.data.get("item")
        if item_id is not None:
            top, locs, items = overlay
            it = items.get(item_id)
            if it is None:
                it = self.w.base.get("items", {}).get(item_id)
            if it is not None and not it.get("disabled"):
                it = it if it.__class__ is Data else Data(it)
                overlay = (top, locs, items.replace(**{item_id: it.replace(disabled=True)}))
        return (self.memo.interned(overlay), (), (E.knocked_out_text(eff),), (eff,) if record else (), (), _NO_TAGS)

    def _carry_out(self, queue: tuple[Any, ...]) -> tuple[Any, ...]:
        """Carry out the action at the front of ``queue``: the queue left, with the actions it
        called for at the front."""
        action, queue = queue[0], queue[1:]
        if action[0] == "act":
            if action[2]:
                self.effects.append(action[1])
            self.act(action[1])
        elif action[0] == "settle":
            self.settle()
        elif not self.w.loc(action[1]).get("destroyed"):
            self.critical_check(action[1])
        if self.pending:
            queue = tuple(self.pending) + queue
            self.pending = []
        return queue

    def _rolls(self, action: tuple[Any, ...]) -> bool:
        """Carrying out ``action`` now rolls dice: a critical check of a location still standing
        on a 'Mech still standing (acts and settling roll none, nor does a check of what is gone)."""
        return action[0] == "check" and not self.destroyed and not self.w.loc(action[1]).get("destroyed")

    def _step(self, dice: Dice, state: tuple[Any, ...]) -> tuple[Any, ...]:
        """One pending action carried out on a copy of the state, and the actions after it up to
        the next that rolls dice (:meth:`_step_rolled`), as a :meth:`Dice.choose`: real dice roll
        it; exact odds take its closed form (:meth:`_step_odds`), one answer per merged state."""
        if not self._rolls_on(state[0], state[2][0]):
            return self._step_rolled(dice, state)
        return dice.choose(lambda d: self._step_rolled(d, state), lambda: self._step_odds(state), "cascade step",
                           self.merged)

    def _rolls_on(self, overlay: tuple[Data, Data, Data], action: tuple[Any, ...]) -> bool:
        """:meth:`_rolls` on the state ``overlay`` (:meth:`Work.overlay`), read without a
        :class:`Work`."""
        if action[0] != "check":
            return False
        top, locs, _ = overlay
        if top["destroyed"] if "destroyed" in top else self.w.base.get("destroyed"):
            return False
        loc = locs.get(action[1])
        return not (loc if loc is not None else self.w.base_locs[action[1]]).get("destroyed")

    def _step_odds(self, state: tuple[Any, ...]) -> list[tuple[Any, Fraction]]:
        """The closed form of :meth:`_step_rolled` from ``state`` (whose first action is a check
        that rolls), each answer merged (:meth:`merged`): the check's answers with their chances
        (:meth:`_check_kept`, the actions each calls for already carried out up to the next
        roll), each followed by the actions of the queue behind it up to the next that rolls,
        found kept by the state they act on (:meth:`carry_out`'s store). The story is left out
        (the merge drops it), so no records are built, only the events and tags a state keeps."""
        from fractions import Fraction

        overlay, events, queue, tags, _ = state
        rest = queue[1:]
        memo = self.memo
        acts, merges = memo.acts, memo.merges
        head = (self.prep, self.turn, self.batch, self.cascade)
        out: dict[Any, int] = {}
        _, weights, den = self._check_found(overlay, queue[0])
        # the check's answers in the order an enumeration of the step visits them, and the merged
        # answers handed on so that it visits them in the order they were first met (outcomes
        # of equal chance are listed as before)
        for (now, pending, _c, _e, seen_events, seen_tags), w in _first_then_reversed(weights):
            q = pending + rest if pending else rest
            seen = list(seen_events)
            now_tags = tags | seen_tags if seen_tags else tags
            while q and not self._rolls_on(now, q[0]):
                action = q[0]
                if action[0] == "act" and action[1].code not in ACTING:  # only tells: the story, left out
                    q = q[1:]
                    continue
                key = (*head, now, action)
                found = acts.get(key)
                if found is None:
                    found = memo.kept(acts, key, lambda: self._acted(action, now), CASCADE_ACTS)
                now, pending = found[0], found[1]
                q = pending + q[1:] if pending else q[1:]
                for e in found[4]:
                    if e not in seen:
                        seen.append(e)
                if found[5]:
                    now_tags = now_tags | found[5]
            new_events = events + tuple([e for e in seen if e not in events])
            short = merges.get((now, q))  # merged: what the merge keeps of the state (no story here)
            if short is None:
                short = self.memo.kept(merges, (now, q), lambda: self._merged(now, q), CASCADE_ACTS)
            merged = (short[0], new_events, short[1], now_tags, _NO_STORY)
            out[merged] = out.get(merged, 0) + w
        return [(merged, Fraction(w, den)) for merged, w in _first_then_reversed(tuple(out.items()))]

    def _step_rolled(self, dice: Dice, state: tuple[Any, ...]) -> tuple[Any, ...]:
        """One pending action carried out on a copy of the state, and the actions after it up to
        the next that rolls dice.

        A step starts with a critical check that rolls (:meth:`until_rolled` and every step stop
        before one): its row and slots, then what they do, up to the next check that rolls."""
        overlay, events, queue, tags, (changes, effects) = state
        sub = self.fork(dice, overlay)
        sub.tags = tags
        sub.changes, sub.effects = list(changes), list(effects)
        return sub._until_roll(sub._check(queue), events, (), ())

    def _until_roll(self, queue: tuple[Any, ...], events: tuple[str, ...], changes: tuple[str, ...],
                    effects: tuple[Effect, ...]) -> tuple[Any, ...]:
        """The actions of ``queue`` carried out up to the next that rolls dice: the cascade's
        state after them (this resolver's changes and rows added to ``changes`` and ``effects``,
        its new events to ``events``)."""
        while queue and not self._rolls(queue[0]):
            queue = self.carry_out(queue)
        new_events = events + tuple(e for e in self.events if e not in events)
        return (self.w.overlay(), new_events, queue, self.tags,
                (changes + tuple(self.changes), effects + tuple(self.effects)))

    def merged(self, state: tuple[Any, ...]) -> tuple[Any, ...]:
        """What exact odds keep of a cascade's state (the ``merge`` of :meth:`Dice.iterate`; real
        dice keep everything). The story (changes told, rows rolled) is how the state was
        reached, not what it is. And nothing in a location destroyed in this resolution can be
        hit, explode or count again (engine slots count the same, hit or lost), so which of its
        slots took criticals on the way changes nothing that follows: its slots are put back as
        they were and the records of the items in them with them, those items knocked out, and
        cascades that end with the location gone merge (a location no critical struck before it
        went is left as it is: nothing in it to forget). The queue of pending actions loses what
        would only add to the story (:func:`untold`)."""
        overlay, events, queue, tags, story = state
        kept, short = self.memo.kept(self.memo.merges, (overlay, queue), lambda: self._merged(overlay, queue),
                                     CASCADE_ACTS)
        if kept is overlay and short is queue and story is _NO_STORY:
            return state
        return kept, events, short, tags, _NO_STORY

    def _merged(self, overlay: tuple[Data, Data, Data], queue: tuple[Any, ...]) -> tuple[Any, ...]:
        """:meth:`merged` of a state's unit and queue (kept by them in :attr:`UnitMemo.merges`:
        the leaves of a cascade's steps meet the same ones many times over)."""
        lost = self._forgotten(overlay)
        short = untold(queue)
        if lost:
            w = Work(self.w.base)
            w.adopt(overlay)
            for code in lost:
                w.reset(code)
                _disable_contents(w, code)
            overlay = self.memo.interned(w.overlay())
        return overlay, short

    def _forgotten(self, overlay: tuple[Data, Data, Data]) -> list[str]:
        """The locations destroyed in this resolution whose slots took criticals on the way: what
        :meth:`merged` puts back as it was."""
        locs = overlay[1]
        base = self.w.base_locs
        return [code for code, loc in locs.items()
                if loc.get("destroyed") and not base[code].get("destroyed") and loc["slots"] is not base[code]["slots"]]

    def fork(self, dice: Dice, overlay: tuple[Data, Data, Data]) -> Resolver:
        """A resolver on the state ``overlay`` (:meth:`Work.overlay`), with empty records,
        rolling with ``dice``."""
        sub = object.__new__(Resolver)
        sub.__dict__.update(self.__dict__)
        sub.w = Work(self.w.base)
        sub.w.adopt(overlay)
        sub.dice = dice
        sub.changes, sub.effects, sub.events, sub.pending = [], [], [], []
        sub.actor = None
        return sub

    def _roll_check(self, code: str) -> tuple[Row, Effect, tuple[tuple[str, int], ...]]:
        """Roll Determining Critical Hits for a location, and the slots of the criticals it calls
        for: the row, its effect (with the roll) and the slots (:meth:`picks`; none when the
        location is blown off or no critical follows). :meth:`_checked` carries them out."""
        label = self.prep.check_label(code)
        table = self.crit_table
        # one roll; its answer is the row read and the total (shown in the effect), and under
        # exact odds the row alone: the totals that read the same row are taken together
        def check(d: Dice) -> tuple[str, int | None]:
            total = d.roll(self.prep.crit_dice, label).total
            return table.lookup(total).id, total

        row_id, total = self.dice.choose(check, self.prep.row_odds, label, C.check_answer)
        row = table.row(row_id)
        effect = row.effect(table.id, total, location=code)
        det = self.prep.determination(row, code, True)
        count = 0 if det.data["blown_off"] else int(det.data["criticals"])
        return row, effect, tuple(self.picks(code, count, "critical")) if count else ()

    def _checked(self, code: str, row: Row, picks: tuple[tuple[str, int], ...]) -> None:
        """What a critical check's row and slots (:meth:`_roll_check`) do, with no dice: a
        blown-off location goes; the criticals' slots are marked and their acts queued."""
        if self.prep.determination(row, code, True).data["blown_off"]:
            self.blow_off(code)
        elif picks:
            self.apply_batch(self.struck(code, picks))

    def picks(self, code: str, count: int, label: str) -> list[tuple[str, int]]:
        """Roll the slots ``count`` criticals strike, starting in location ``code``.

        Answers (location, slot index) pairs in record-sheet order (the batch is applied in
        that order), index -1 when nothing was left to hit. One :meth:`Dice.choose`: real dice
        roll slot by slot, exact odds take :func:`criticals.merged_odds` (the same chances, one
        answer per set of slots, interchangeable slots merged).
        """
        prep = self.prep
        reroll = prep.reroll
        reach = self.reach(code)

        def one_more(d: Dice, taken: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
            """The slot of the next critical, given the slots already struck (in record-sheet order)."""
            for where, _, size, ok in reach:
                left = tuple([i for i in ok if (where, i) not in taken]) if taken else ok
                if left:
                    break
            else:
                return tuple(sorted(taken + ((reach[-1][0], -1),), key=_sheet_order))
            idx = C.choose_slot(d, prep.slot_roll(size, left, label, where, len(taken) + 1 if count > 1 else 0))
            if not taken:
                return ((where, idx),)
            return tuple(sorted(taken + ((where, idx),), key=_sheet_order))

        def roll(d: Dice) -> tuple[tuple[str, int], ...]:
            # one slot after another as at the table; enumerated (by the checks of the odds) with
            # the same sets of slots struck in another order merged (one slot: nothing to merge)
            if count == 1:
                return one_more(d, ())
            return d.iterate((), one_more, lambda taken: len(taken) == count, f"{label}s ({L.name(code)})")

        odds = self.prep.odds  # the closed-form odds worked out before, kept by the engine's preparation
        found: list[C.Classes] = []

        def classes() -> C.Classes:  # only exact odds and their checks need them
            if not found:
                found.append(self._classes(reach))
            return found[0]

        chosen = self.dice.choose(roll, lambda: C.merged_odds(reach, count, reroll, self.half, classes(), known=odds),
                                  f"{label}s ({L.name(code)})" if count > 1 else f"{label} ({L.name(code)})",
                                  lambda answer: C.merge_picks(answer, classes(), known=odds))
        return list(chosen)

    def _classes(self, reach: C.Reach) -> C.Classes:
        """The classes of interchangeable slots in each location of ``reach`` (exact odds)."""
        odds = self.prep.odds
        return tuple((where, rank, ok, C.slot_classes(self.w, self.slots(where), ok, known=odds))
                     for where, rank, _, ok in reach)

    def picks_odds(self, code: str, count: int) -> Sequence[tuple[tuple[tuple[str, int], ...], Fraction]]:
        """The ``odds`` of :meth:`picks` (:func:`criticals.merged_odds`): each set of slots that
        ``count`` criticals rolled in ``code`` can strike, with its chance."""
        reach = self.reach(code)
        return C.merged_odds(reach, count, self.prep.reroll, self.half, self._classes(reach), known=self.prep.odds)

    def slots(self, code: str) -> Sequence[Any]:
        """The slots of a location that criticals are rolled among (the first six of a six-slot one)."""
        slots: Sequence[Any] = self.w.loc(code)["slots"]
        return slots[:6] if L.slot_count(code) == 6 else slots

    def reach(self, code: str) -> C.Reach:
        """Where the criticals of a roll in ``code`` can land (:data:`criticals.Reach`): ``code``,
        then (``no_slot_left = transfer``) each location inward that the unit has."""
        transfer = self.prep.transfer
        out = []
        where: str | None = code
        while where is not None:
            loc = self.w.loc(where)
            slots = self.slots(where)
            ok = () if loc.get("destroyed") else tuple(C.hittable(slots, self.skip, set()))
            out.append((where, _ORDER[where], len(slots), ok))
            nxt = L.INWARD[where] if transfer else None
            where = nxt if nxt is not None and self.w.has(nxt) else None
        return tuple(out)

    def struck(self, code: str, picks: Sequence[tuple[str, int]], kept: dict[Any, Any] | None = None) -> list[Effect]:
        """What the criticals of a roll in ``code`` strike, in the slots :meth:`picks` chose
        (no dice: the same picks on the same state give the same effects). ``kept``: the effects
        of each slot worked out before on this same state (:meth:`_check_odds`), by slot and
        whether its items were knocked out earlier in the batch (all :func:`effects.classify`
        reads of the batch)."""
        out: list[Effect] = []
        knocked: set[str] = set()
        for where, idx in picks:
            if where != code:
                self.change(f"Nothing left to hit in the {L.name(code)}: a critical passes to the {L.name(where)}")
            if idx < 0:
                out.append(self.components.row("nothing-to-hit").effect(self.components.id, None, location=where))
                continue
            if kept is None:
                effects, items = self._slot_struck(where, idx, knocked)
            else:
                slot = self.w.loc(where)["slots"][idx]
                key = (where, idx, slot.get("item") in knocked, slot.get("item2") in knocked)
                found = kept.get(key)
                if found is None:
                    found = kept[key] = self._slot_struck(where, idx, knocked)
                effects, items = found
            out.extend(effects)
            knocked.update(items)
        return out

    def _slot_struck(self, where: str, idx: int, knocked: set[str]) -> tuple[tuple[Effect, ...], tuple[str, ...]]:
        """The effects of a critical on one slot (and the second item of a double slot), given the
        items knocked out earlier in its batch, and the items it knocks out."""
        option, ammunition = self.prep.explosion, self.prep.ammunition_damage
        row_id = E.classify(self.w, where, idx, self.known_rows, knocked)
        slot = self.w.loc(where)["slots"][idx]
        item = slot.get("item")
        items: list[str] = []
        if item is not None and row_id != "absorbed":
            items.append(item)
        out = [E.slot_effect(self.components, row_id, self.w, where, idx, option, ammunition=ammunition)]
        if slot.get("item2") is not None:  # a superheavy's double slot: the hit strikes both items
            row_id = E.classify(self.w, where, idx, self.known_rows, knocked | set(items), second=True)
            if row_id != "absorbed":
                items.append(slot["item2"])
            out.append(E.slot_effect(self.components, row_id, self.w, where, idx, option, second=True,
                                     ammunition=ammunition))
        return tuple(out), tuple(items)

    def apply_batch(self, batch: list[Effect], record: bool = True) -> None:
        """Mark every slot of a batch first, then act on each in order (cascades follow).

        ``record=False`` leaves the batch's own rows out of :attr:`effects` (the effect stage
        already reported them); rows rolled in cascades are always recorded. The acts (each
        row recorded as it is acted on) and the settling wait in the queue of pending actions
        (see :meth:`drain`).
        """
        self.mark(batch)
        self.pending.extend([("act", e, record) for e in batch] + [("settle",)])

    def mark(self, batch: list[Effect]) -> None:
        """Mark the slots a batch of criticals strikes as hit."""
        by_code: dict[str, list[int]] = {}
        for eff in batch:
            if "slot" in eff.data:
                by_code.setdefault(eff.data["location"], []).append(eff.data["slot"] - 1)
        # every slot hit in one resolution carries the same marks: only the order of turns
        # matters to the rules (hip vs earlier actuators), and this lets exact odds merge
        # cascades that hit the same slots in a different order. A slot marked once is the same
        # object wherever it is marked again (UnitMemo.marked): exact odds mark the same slots on
        # thousands of states, and a location's hash reads each slot's, kept by the object
        marked = self.memo.marked
        turn, batch_n = self.turn, self.batch
        w = self.w
        for code, indexes in by_code.items():
            slots = list(w.loc(code)["slots"])
            for index in indexes:
                slot = slots[index]
                if slot.__class__ is not Data:  # a state handed in unfrozen: nothing to share
                    slots[index] = Data(slot).replace(destroyed=True, hit_turn=turn, hit_batch=batch_n)
                    continue
                key = (slot, turn, batch_n)
                found = marked.get(key)
                if found is None:
                    if len(marked) >= CASCADE_ACTS:
                        marked.clear()
                    found = marked[key] = slot.replace(destroyed=True, hit_turn=turn, hit_batch=batch_n)
                slots[index] = found
            w.set_loc(code, slots=tuple(slots))

    def act(self, eff: Effect) -> None:
        """The consequences of one slot's critical (the slot is already marked)."""
        if eff.code == "nothing-to-hit":
            self.change(f"Nothing in the {L.name(eff.data['location'])} can take the critical: it is lost")
            return
        E.consequences(self, eff)

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
        if self.w.get("pilot", {}).get("dead"):
            self.events = [e for e in self.events if not e.startswith("consciousness")]

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

