"""The :class:`Resolver`: the rules of damage and criticals (:class:`damage.Damage`) carried out as
a cascade, one code path for every roller.

Damage and criticals leave what they call for in a queue of pending actions (critical checks, the
acts of the slots struck, the settling after each roll's criticals). The resolver carries that
queue with :meth:`Dice.iterate`, a step being a check that rolls and the actions after it up to the
next that rolls; each action that rolls no dice is kept by the state it acts on
(:mod:`critcore_battletech.actions`), and the state is what :meth:`Work.overlay` gives. Under exact
odds the check and the step are :meth:`Dice.choose` whose closed forms, and the merge that tells
exact odds what of a state is story, are in :mod:`critcore_battletech.cascadeodds`.

The class is built in layers, each in its own module and each using only those below it:
:class:`damage.Damage` (the rules of damage), :class:`strikes.Strikes` (critical checks and the
slots they strike), :class:`actions.Actions` (the actions kept by state),
:class:`cascadeodds.CascadeOdds` (the closed forms), :class:`Resolver` (the cascade).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from critcore.plugin import Data, Dice, Effect

from .cascadeodds import CascadeOdds
from .damage import SETTLE, Story
from .derived import read_key_after
from .events import unit_tags

if TYPE_CHECKING:
    from fractions import Fraction

# where a cascade starts (Resolver.until_rolled): its state (the unit's changes, the events of its
# steps, the actions pending, the tags, the story) and the events noted before it
Start = tuple[tuple[Any, tuple[str, ...], tuple[Any, ...], frozenset[str], Story], tuple[str, ...]]


def _no_pending(state: tuple[Any, ...]) -> bool:
    return not state[2]


class Resolver(CascadeOdds):
    """One resolution: the rules of :class:`damage.Damage`, their queue carried out as a cascade
    (the actions that roll no dice: :class:`actions.Actions`; the closed forms of exact odds:
    :class:`cascadeodds.CascadeOdds`)."""

    started: Start | None = None  # where the cascade starts (start)

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
        gives it, with its records (changes, rows, events, tags) taken over; the unit's
        :class:`Work` takes the state over in :meth:`finish`, and only when it works the end out
        (exact odds run the apply stage once per outcome, and most find their end kept).
        """
        start = (self.started or self.start())[0]
        end = self.dice.iterate(start, self._step, _no_pending, "cascade", key=self.context_key("cascade"),
                                merge=self.merged, odds=self._step_closed)
        if end is start:  # nothing rolled, nothing left out: the records are the start's already
            kept: tuple[Data, Data, Data] = start[0]
            return kept
        overlay, events, _, tags, (changes, effects) = end
        self.tags = tags
        self.changes, self.effects = list(changes), list(effects)
        for e in events:
            self.event(e)
        ended: tuple[Data, Data, Data] = overlay
        return ended

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
        self.pending.append(SETTLE)
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

    def start_batch(self, batch: tuple[Effect, ...]) -> None:
        """:meth:`apply_batch` of the components rows of ``batch`` (the effect stage's answer,
        already reported: ``record=False``) and :meth:`start`, the start kept in
        :attr:`UnitMemo.starts` by the identity of ``batch`` (kept beside it, so its ``id`` is
        not reused while kept) and what else the start reads (the preparation, turn, resolution
        number, cascade): exact odds run the apply stage once per outcome, each run of one
        effect-stage answer handed the same tuple (the Daishi X's right torso: 17,543 runs, 156
        batches), and the slots it marks and the start's key are the same every time."""
        memo = self.memo
        key = ("batch", self.prep, id(batch), self.turn, self.batch, self.cascade)
        found = memo.starts.get(key)
        if found is not None and found[0] is batch:
            started: Start = found[1]
            (_, _, _, tags, (changes, effects)), events = started
            self.tags, self.changes, self.effects, self.events = tags, list(changes), list(effects), list(events)
            self.started = started  # the state itself is taken over only when finish works it out
            return
        self.apply_batch([e for e in batch if e.table == "components"], record=False)
        started = self.start()
        memo.kept(memo.starts, key, lambda: (batch, started))

    def finish(self, end: tuple[Data, Data, Data]) -> tuple[Data, Data, frozenset[str]]:
        """After :meth:`drain` (``end``: the state it left, as :meth:`Work.overlay` gives it): the
        counters brought up to date (:meth:`count_up`), the new state, the outcome's data (its
        PSRs, ``psr_now``, and the state's derived numbers, ``derived``) and the resolution's
        events (outcome tags).

        Kept in the unit's memo (:attr:`UnitMemo.ends`) by the end state, the PSRs and tags so
        far: none of it reads the story or the dice (exact odds meet a few hundred ends along
        thousands of outcomes, which share the data record too)."""
        def work_out() -> tuple[Data, Data, frozenset[str]]:
            self.w.adopt(end)  # (drain hands the end over without taking it over)
            self.count_up()
            memo = self.memo
            state = self.w.result()
            key = read_key_after(self.w, memo.key(), memo.counted(), memo.numbering)
            data = Data(psr_now=tuple(self.events), derived=memo.derived.of(key, state))
            return state, data, unit_tags(self.w, self.tags)

        return self.memo.kept(self.memo.ends, (self.prep, end, tuple(self.events), self.tags), work_out)

    def _check(self, queue: tuple[Any, ...]) -> tuple[Any, ...]:
        """:meth:`_carry_out` for the check that rolls at the front of ``queue`` (where a step
        starts), as a :meth:`Dice.choose`: real dice roll it; exact odds take its closed form
        (:meth:`_check_kept`), kept by the state it rolls on: the check's row, its slots
        and what marking them does depend on nothing else, so a check is worked out once per state
        however many queues that state is met with."""
        action = queue[0]
        if not self._rolls(action):
            return self.carry_out(queue)
        overlay = self.w.overlay()

        def check(d: Dice) -> tuple[Any, ...]:
            return self.fork(d, overlay)._rolled(action)

        found = self.dice.choose(check, lambda: self._check_kept(overlay, action), self.prep.check_label(action[1]))
        return self._take(found, queue)

    def _rolled(self, action: tuple[Any, ...]) -> tuple[Any, ...]:
        """A check that rolls, carried out on this resolver (:meth:`_recorded`), and the actions it
        calls for that roll no dice after it (:meth:`_through`)."""
        return self._through(self._recorded(action))

    def _step(self, dice: Dice, state: tuple[Any, ...]) -> tuple[Any, ...]:
        """One pending action carried out on a copy of the state, and the actions after it up to
        the next that rolls dice (:meth:`_step_rolled`), as a :meth:`Dice.choose`: real dice roll
        it; exact odds take its closed form (:meth:`_step_odds`), one answer per merged state."""
        if not self.rolls_on(state[0], state[2][0]):
            return self._step_rolled(dice, state)
        return dice.choose(lambda d: self._step_rolled(d, state), lambda: self._step_odds(state), "cascade step",
                           self.merged)

    def _step_closed(self, state: tuple[Any, ...]) -> list[tuple[Any, Fraction]] | None:
        """The closed form of :meth:`_step` from ``state`` (the ``odds`` of the cascade's
        :meth:`Dice.iterate`): :meth:`_step_odds` when the step rolls, None when it rolls
        nothing (one answer, which exact odds find by running it)."""
        return self._step_odds(state) if self.rolls_on(state[0], state[2][0]) else None

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
