"""The actions of a cascade's queue that roll no dice (the acts of the slots a batch of criticals
strikes, the settling after them, a check of what is already gone), carried out one at a time on
a resolver, each kept in the unit's memo by the state it acts on (:meth:`Actions.kept_action`):
such an action is a function of that state, the action and the preparation. The layer of the
resolver's class between the rules (:class:`damage.Damage`, :class:`strikes.Strikes`) and the
closed forms of exact odds (:class:`cascadeodds.CascadeOdds`), which both real dice and exact
odds go through.

An action's answer is also shared by the states that differ only in marks it never reads
(:meth:`Actions._unmarked`; issue 25, eleventh round, speed only). A check's answers mark other
slots of one location each (the Daishi X's right torso: 885 checks, 40,564 answers), and the acts
that follow (an ammunition bin exploding, the settling after) were carried out on each of those
states anew, though such an action reads no slot's marks but the engine's and the cockpit's: it
reads a location's own entries (structure, armor, destroyed), the items, the unit's top-level
entries, what a slot holds (its kind and items, which a mark never changes) and, through the
tally that settling reads (:data:`damage.TALLIED`), whether each engine and cockpit slot is hit;
and it changes no slot (only a check's marks do). So its answer on a state is its answer on any
state that agrees with it on all of that (:func:`state_key`: the action, the top-level and items
parts, and each changed location's entries but the slots with its tallied slots' marks,
:func:`loc_key`), each location it changed taking the same entries on top of that state's own
record (:class:`Delta`, :func:`applied`). The Daishi X's right torso carried out 10,329
explosions and 4,354 settlings; with this, 1,146 and 289.
"""

from __future__ import annotations

from typing import Any, Mapping, TypeVar

from critcore.plugin import Data, Dice, Effect

from . import effects as E
from .damage import NO_TAGS, TALLIED, disabled
from .strikes import Strikes
from .unitmemo import ACT_HEADS, CASCADE_ACTS, UnitMemo
from .unitview import Work

A = TypeVar("A", bound="Actions")

# -- an act's answer shared by the states that differ only in marks it never reads ----------------
# (issue 25, eleventh round; speed only: Actions._unmarked, which kept_action goes through, takes
# the answers carrying each action out gives; test_battletech_unmarked.py holds them to it)

LocKey = tuple[Any, ...]
Changed = tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]  # (location, (entry, value) set on its record)


class Delta:
    """What an action did to a state, told apart from the state: each location's entries set on
    its record (never its slots), the top-level and items parts after it (the state's own were
    those of every state it is shared with), and the rest of its answer (queue, story, events,
    tags) as :meth:`actions.Actions._recorded` gives it."""

    __slots__ = ("locs", "top", "items", "rest")

    def __init__(self, locs: Changed, top: Data, items: Data, rest: tuple[Any, ...]) -> None:
        self.locs = locs
        self.top = top
        self.items = items
        self.rest = rest


def loc_key(loc: Mapping[str, Any], tallied: frozenset[str], marked: dict[Any, Any]) -> LocKey:
    """What an action reads of a location record: its entries but the slots, in order, and
    whether each slot of a tallied kind is hit (kept in ``marked`` under the record's id, the
    record beside it)."""
    key = ("unmarked", id(loc))
    found = marked.get(key)
    if found is not None and found[0] is loc:
        out: LocKey = found[1]
        return out
    out = (tuple([(k, v) for k, v in loc.items() if k != "slots"]),
           tuple([s["destroyed"] for s in loc["slots"] if s["kind"] in tallied]))
    if len(marked) >= CASCADE_ACTS:
        marked.clear()
    marked[key] = (loc, out)
    return out


def state_key(action: Any, overlay: tuple[Data, Data, Data], tallied: frozenset[str],
              marked: dict[Any, Any]) -> tuple[Any, ...]:
    """The key under which ``action``'s answer on ``overlay`` is shared (the module's docstring says why)."""
    top, locs, items = overlay
    return ("unmarked", action, top, items,
            tuple([(code, loc_key(loc, tallied, marked)) for code, loc in locs.items()]))


def delta(base_locs: Mapping[str, Mapping[str, Any]], before: tuple[Data, Data, Data],
          answer: tuple[Any, ...]) -> Delta | None:
    """``answer`` (an action's on the state ``before``) as a :class:`Delta`; None when it cannot
    be told that way (a location's slots changed, or an entry taken away)."""
    after = answer[0]
    locs_before, locs_after = before[1], after[1]
    changed = []
    for code, rec in locs_after.items():
        old = locs_before.get(code)
        if old is None:
            old = base_locs[code]
        if rec is old:
            continue
        if (rec["slots"] is not old["slots"] and rec["slots"] != old["slots"]) or any(k not in rec for k in old):
            return None
        changed.append((code, tuple([(k, v) for k, v in rec.items() if k != "slots" and (
            k not in old or old[k] != v or old[k].__class__ is not v.__class__)])))
    if any(code not in locs_after for code in locs_before):
        return None
    return Delta(tuple(changed), after[0], after[2], answer[1:])


def applied(memo: UnitMemo, base_locs: Mapping[str, Mapping[str, Any]], overlay: tuple[Data, Data, Data],
            d: Delta) -> tuple[Any, ...]:
    """The answer ``d`` describes, on the state ``overlay`` (one that shares its key)."""
    locs = overlay[1]
    if d.locs:
        entries = dict(locs)
        marked = memo.marked
        for code, fields in d.locs:
            old = locs.get(code)
            if old is None:
                old = base_locs[code]
            # the record these entries make of that record, one object for both (kept in
            # UnitMemo.marked by their ids, beside them): the state's locations part is then found
            # by its records' ids (UnitMemo.part), not made and hashed anew with a new record
            key = ("applied", id(old), id(fields))
            found = marked.get(key)
            if found is None or found[0] is not old or found[1] is not fields:
                found = (old, fields, (old if old.__class__ is Data else Data(old)).replace(**dict(fields)))
                if len(marked) >= CASCADE_ACTS:
                    marked.clear()
                marked[key] = found
            entries[code] = found[2]
        now = memo.whole(d.top, memo.part(entries), d.items)
    else:
        now = memo.whole(d.top, locs, d.items)
    return (now, *d.rest)


class Actions(Strikes):
    """The rules of :class:`strikes.Strikes`, with the actions of their queue carried out and kept by state."""

    actor: Actions | None = None  # the fork that works out the actions kept by state (acted)
    acts_here: dict[Any, Any] | None = None  # this resolver's part of UnitMemo.acts (kept_action)

    def fork(self: A, dice: Dice, overlay: tuple[Data, Data, Data]) -> A:
        """A resolver on the state ``overlay`` (:meth:`Work.overlay`), with empty records,
        rolling with ``dice``."""
        sub = object.__new__(type(self))
        sub.__dict__.update(self.__dict__)
        sub.w = Work(self.w.base)
        sub.w.adopt(overlay)
        sub.dice = dice
        sub.changes, sub.effects, sub.events, sub.pending = [], [], [], []
        sub.actor = None
        return sub

    def carry_out(self, queue: tuple[Any, ...]) -> tuple[Any, ...]:
        """:meth:`_carry_out` for an action that rolls no dice (not a check that rolls), kept in
        the unit's memo (:attr:`UnitMemo.acts`) by the state it acts on: such an action is a
        function of that state, the action and the preparation, and what it adds to the records
        (changes, rows, events, tags) does not depend on what they held before. The leaves of a
        cascade's steps meet the same action on the same state many times over (exact odds), and
        with real dice nothing is lost but a dictionary look-up."""
        return self._take(self.kept_action(self.w.overlay(), queue[0]), queue)

    def kept_action(self, overlay: tuple[Data, Data, Data], action: tuple[Any, ...]) -> tuple[Any, ...]:
        """What ``action`` (one that rolls no dice) does to the state ``overlay`` (:meth:`acted`),
        kept in the unit's memo (:attr:`UnitMemo.acts`) by that state, the action and what else it
        reads (the preparation, the turn, the batch, whether the cascade runs), found by the
        state's and the action's ids (each one object per value: :meth:`UnitMemo.interned`), both
        kept beside the answer so no id is reused while kept; an equal action or state met as
        another object is only worked out again. The one store of :meth:`carry_out`, and of the
        closed forms of exact odds (:mod:`cascadeodds`)."""
        acts = self.acts_here if self.acts_here is not None else self.acts_kept()
        key = (id(overlay), id(action))
        found = acts.get(key)
        if found is not None and found[0] is overlay and found[1] is action:
            answer: tuple[Any, ...] = found[2]
            return answer
        answer = self._unmarked(acts, overlay, action)
        if len(acts) >= CASCADE_ACTS:
            acts.clear()
        acts[key] = (overlay, action, answer)
        return answer

    def _unmarked(self, acts: dict[Any, Any], overlay: tuple[Data, Data, Data],
                  action: tuple[Any, ...]) -> tuple[Any, ...]:
        """:meth:`acted`, shared by the states that differ only in marks it never reads
        (:func:`state_key`, :class:`Delta`), kept in ``acts`` under that key; an act that only
        knocks out an item (:data:`effects.DISABLING`) is worked out as it is (that is cheap)."""
        if action[0] == "act" and action[1].code in E.DISABLING:
            return self.acted(action, overlay)
        key = state_key(action, overlay, TALLIED, self.memo.marked)
        found = acts.get(key)
        if found is not None:
            if found.__class__ is Delta:
                return applied(self.memo, self.w.base_locs, overlay, found)
            return self.acted(action, overlay)
        answer = self.acted(action, overlay)
        if len(acts) >= CASCADE_ACTS:
            acts.clear()
        acts[key] = delta(self.w.base_locs, overlay, answer) or False
        return answer

    def acts_kept(self) -> dict[Any, Any]:
        """This resolver's part of :attr:`UnitMemo.acts` (by what else its actions read: the
        preparation, the turn, the batch, whether the cascade runs), keyed as
        :meth:`UnitMemo.kept_by_state` keys it."""
        acts = self.acts_here
        if acts is None:
            head = (self.prep, self.turn, self.batch, self.cascade)
            acts = self.acts_here = UnitMemo.kept(self.memo.acts, head, dict, ACT_HEADS)
        return acts

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
        self.tags = NO_TAGS
        pending = self._carry_out((action,))
        return (self.memo.state_of(self.w), pending, tuple(self.changes), tuple(self.effects), tuple(self.events), self.tags)

    def acted(self, action: tuple[Any, ...], overlay: tuple[Data, Data, Data]) -> tuple[Any, ...]:
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
                changed = dict(items)
                changed[item_id] = disabled(it, self.memo.marked)
                overlay = self.memo.whole(top, locs, self.memo.part(changed))
        return (overlay, (), (E.knocked_out_text(eff),), (eff,) if record else (), (), NO_TAGS)

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
        return action[0] == "check" and self.rolls_on(self.w.overlay(), action)

    def rolls_on(self, overlay: tuple[Data, Data, Data], action: tuple[Any, ...]) -> bool:
        """:meth:`_rolls` on the state ``overlay`` (:meth:`Work.overlay`), read without a
        :class:`Work` (the one place that says which checks roll)."""
        if action[0] != "check":
            return False
        top, locs, _ = overlay
        if top["destroyed"] if "destroyed" in top else self.w.base.get("destroyed"):
            return False
        loc = locs.get(action[1])
        return not (loc if loc is not None else self.w.base_locs[action[1]]).get("destroyed")
