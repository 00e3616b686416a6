"""The cascade's closed forms for exact odds (issue 25): what a check that rolls comes to on a
unit state, each answer with its chance (:meth:`CascadeOdds._check_odds`, kept by state:
:meth:`CascadeOdds._check_kept`; and without the story, as the step reads it:
:meth:`CascadeOdds._check_steps`), what a step comes to (:meth:`CascadeOdds._step_odds`: the check's
answers and the kept actions behind them, merged), and the merge that says what of a cascade's
state is its identity (:meth:`CascadeOdds.merged`, with :func:`untold` and :data:`ACTING`).

Each is the ``odds`` (or the ``merge``) of one of the resolver's :meth:`Dice.choose` or
:meth:`Dice.iterate` calls, read only by exact odds and their checks (real dice roll;
``checking_keys`` compares each with the enumeration of its roll). A layer of the resolver's
class (``Damage`` -> ``Strikes`` -> ``Actions`` -> ``CascadeOdds`` -> ``Resolver``), not functions over it:
they work on the resolver's state and records, on a probe resolver put back on a state for each
answer, and on the actions kept by state (:class:`actions.Actions`), and a layer sees what it
builds on with its types, without an import of the class above it (the plugin's modules import
each other in one direction). Kept apart, the resolver reads as the rules carried out with dice,
and this module as the one place that answers for their chances.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING, Any, Iterator, Sequence, TypeVar

from critcore.plugin import Data, Effect

from . import criticals as C
from .actions import Actions
from .damage import NO_STORY, NO_TAGS, SETTLE, disable_contents
from .unitmemo import CASCADE_ACTS, UnitMemo
from .unitview import Work

if TYPE_CHECKING:
    from critcore.plugin import Row

T = TypeVar("T")


# effect codes whose act changes the unit or the PSRs (effects.consequences); the act of any other
# row only tells what happened (the slot was marked with its batch), so exact odds leave it out of a
# cascade's queue (CascadeOdds.merged). A test holds this list to what consequences does.
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


class CascadeOdds(Actions):
    """The closed forms of the cascade's rolls (exact odds), over the actions kept by state."""

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
        kept, short = self._merged_kept(overlay, queue)
        if kept is overlay and short is queue and story is NO_STORY:
            return state
        return kept, events, short, tags, NO_STORY

    def _merged(self, overlay: tuple[Data, Data, Data], queue: tuple[Any, ...]) -> tuple[Any, ...]:
        """:meth:`merged` of a state's unit and queue (kept by them in :attr:`UnitMemo.merges`:
        the leaves of a cascade's steps meet the same ones many times over)."""
        lost = self._forgotten(overlay)
        short = untold(queue)
        if lost:
            w = Work(self.w.base)
            w.adopt(overlay)
            marked = self.memo.marked
            for code in lost:
                w.reset(code)
                disable_contents(w, code, marked)
            overlay = self.memo.state_of(w)
        return overlay, short

    def _merged_kept(self, overlay: tuple[Data, Data, Data], queue: tuple[Any, ...]) -> tuple[Any, ...]:
        """:meth:`_merged`, kept in :attr:`UnitMemo.merges` by the state's identity and the queue
        (:meth:`UnitMemo.kept_by_state`, as :meth:`Actions.kept_action` keeps actions)."""
        return UnitMemo.kept_by_state(self.memo.merges, overlay, queue, lambda: self._merged(overlay, queue))

    def _forgotten(self, overlay: tuple[Data, Data, Data]) -> list[str]:
        """The locations destroyed in this resolution whose slots took criticals on the way: what
        :meth:`merged` puts back as it was."""
        locs = overlay[1]
        base = self.w.base_locs
        return [code for code, loc in locs.items()
                if loc.get("destroyed") and not base[code].get("destroyed") and loc["slots"] is not base[code]["slots"]]

    def _check_kept(self, overlay: tuple[Data, Data, Data], action: tuple[Any, ...]) -> list[tuple[Any, Fraction]]:
        """:meth:`_check_odds`, kept in the unit's memo (:attr:`UnitMemo.checks`) by the state the
        check rolls on and what :meth:`context_key` names (the check's own ``choose``: met only
        with real dice, which roll it, and under ``checking_keys``, which compare the step's closed
        form with the step rolled)."""
        memo = self.memo
        return memo.kept(memo.checks, self.context_key(("rolled check", overlay, action)),
                         lambda: self._check_odds(overlay, action))

    def _check_steps(self, overlay: tuple[Data, Data, Data],
                     action: tuple[Any, ...]) -> tuple[tuple[tuple[Any, int], ...], int]:
        """What :meth:`_step_odds` reads of a check: each answer of :meth:`_check_answers` without
        its story (:meth:`_walked`: the state, the queue, the events, the tags), with its chance as
        a whole number over one denominator, in the order the check's roll is enumerated, kept in
        :attr:`UnitMemo.checks` as :meth:`_check_kept` keeps the check with its story. Not merged:
        each row and set of slots is an answer of its own, as it is in :meth:`_check_odds` (a row's
        effect and the slots struck are in its story), so the step visits them in the same order."""
        memo = self.memo

        def work_out() -> tuple[tuple[tuple[Any, int], ...], int]:
            found = list(self._check_answers(overlay, action, False))
            den = lcm(*(d for _, _, d in found))
            return tuple((answer, n * (den // d)) for answer, n, d in found), den

        return memo.kept(memo.checks, self.context_key(("check steps", overlay, action)), work_out)

    def _check_odds(self, overlay: tuple[Data, Data, Data], action: tuple[Any, ...]) -> list[tuple[Any, Fraction]]:
        """The closed form of :meth:`_check`'s roll on the state ``overlay`` (the ``odds`` of its
        :meth:`Dice.choose`): each row of Determining Critical Hits with its chance
        (``prep.row_odds``, the totals reading one row taken together, as the check's own
        ``choose`` does under exact odds), and for a row that calls for criticals each set of
        slots with its chance (:func:`slotodds.merged_odds`, the ``odds`` of :meth:`picks`); the
        answer of each is what :meth:`_recorded` gives for that row and those slots, equal
        answers taken together. The work that only the state and the row decide (the row's
        effect, the reach and classes of slots) is done once, not once per answer.

        Answers come in the order an enumeration of the roll meets them first (the first row,
        then the last to the second; within a row the first set of slots, then the last to the
        second), so that outcomes of equal chance are listed as before."""
        out: dict[Any, list[int]] = {}
        for answer, n, d in self._check_answers(overlay, action, True):
            before = out.get(answer)
            if before is None:
                out[answer] = [n, d]
            else:
                C.add_fraction(before, n, d)
        return [(answer, Fraction(n, d)) for answer, (n, d) in out.items()]

    def _check_answers(self, overlay: tuple[Data, Data, Data], action: tuple[Any, ...],
                       story: bool) -> Iterator[tuple[tuple[Any, ...], int, int]]:
        """Each row and set of slots of the check of ``action`` on ``overlay``, in the order an
        enumeration of its roll meets them, as (answer, numerator, denominator): the answer is
        :meth:`_through` of :meth:`_recorded_check` (``story``), or :meth:`_walked` of it."""
        from .slotodds import merged_odds  # exact odds only: real dice never load the closed forms

        code = action[1]
        prep = self.prep
        rows = prep.row_odds()
        probe = self.fork(self.dice, overlay)
        carry = probe._through if story else probe._walked
        # what every answer of this check shares, worked out once: the slots' effects on the state
        # (by slot and whether its items were knocked out earlier in the batch)
        struck: dict[Any, Any] = {}
        # and where its criticals can land and the classes of the slots there (what the closed form
        # of Strikes.picks reads: the same for every row, so read once, not once per row)
        reach: Any = None
        classes: Any = None
        for (row_id, total), p_row in _first_then_reversed(rows):
            row = self.crit_table.row(row_id)
            det = prep.determination(row, code, True)
            count = 0 if det.data["blown_off"] else int(det.data["criticals"])
            probe.w.adopt(overlay)
            if count and reach is None:
                reach = probe.reach(code)
                classes = probe._classes(reach)
            choices: Sequence[tuple[tuple[tuple[str, int], ...], Fraction]] = (
                _first_then_reversed(tuple(merged_odds(reach, count, prep.reroll, probe.half, classes, known=prep.odds)))
                if count else (((), Fraction(1)),))
            rn, rd = p_row.numerator, p_row.denominator
            for picks, p in choices:
                probe.w.adopt(overlay)  # each answer from the state the check rolls on
                yield carry(probe._recorded_check(code, row, total, picks, det, struck)), rn * p.numerator, rd * p.denominator

    def _recorded_check(self, code: str, row: Row, total: int | None, picks: tuple[tuple[str, int], ...],
                        det: Any = None, struck: dict[Any, Any] | None = None) -> tuple[Any, ...]:
        """:meth:`_recorded` of the critical check of ``code`` (one that rolls) with its row and
        slots given (:meth:`_roll_check`'s answer): what :meth:`critical_check` does after its roll.
        ``det`` is the row's determination when known; ``struck`` keeps the slots' effects
        (:meth:`struck`) on one state across the answers of its check."""
        self.changes, self.effects, self.events, self.pending = [], [], [], []
        self.tags = NO_TAGS
        self.effects.append(self.prep.row_effect(row.id, code) if total is None
                            else row.effect(self.crit_table.id, total, location=code))
        if det is None:
            det = self.prep.determination(row, code, True)
        if det.data["blown_off"]:
            self.blow_off(code)
        elif picks:
            if struck is None:
                batch = self.struck(code, picks)
                interned = self.memo.interned  # one object per action (a kept action is found by its identity)
                acts = [interned(("act", e, True)) for e in batch]
            else:
                acts = []
                batch = self.struck(code, picks, struck, acts)  # the acts interned once per slot, kept with it
            self.mark(batch)
            self.pending.extend(acts)
            self.pending.append(SETTLE)
        pending, self.pending = tuple(self.pending), []
        return (self.memo.state_of(self.w), pending, tuple(self.changes), tuple(self.effects),
                tuple(self.events), self.tags)

    def _through(self, found: tuple[Any, ...]) -> tuple[Any, ...]:
        """``found`` (what an action did, as :meth:`_recorded` gives it) with the actions it calls
        for carried out up to the first that rolls dice (each found kept by the state it acts on:
        :meth:`_kept_act`), and what they added to the records added to its own: what the step
        after a check does first, whatever else waits in the queue behind (so it is worked out
        once per check's answer, not once per queue the check is met with)."""
        overlay, pending, changes, effects, events, tags = found
        if not pending or self.rolls_on(overlay, pending[0]):
            return found
        now, queue = overlay, pending
        more_changes: list[str] = []
        more_effects: list[Effect] = []
        seen = list(events)
        while queue and not self.rolls_on(now, queue[0]):
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

    def _walked(self, found: tuple[Any, ...]) -> tuple[Any, ...]:
        """:meth:`_through` without the story, as the step's closed form reads it (the merge drops
        the story): the state, the queue, the events and the tags (:meth:`_walk`)."""
        now, queue, _, _, events, tags = found
        if not queue or self.rolls_on(now, queue[0]):
            return now, queue, events, tags
        return self._walk(now, queue, events, tags)

    def _walk(self, now: tuple[Data, Data, Data], queue: tuple[Any, ...], events: tuple[str, ...],
              tags: frozenset[str]) -> tuple[Any, ...]:
        """The actions of ``queue`` carried out on the state ``now`` up to the first check that
        rolls, without the story: the state, the queue left, the events (``events`` and those
        noted on the way) and the tags. An act that only tells and a check that does not roll are
        taken off the queue without a look-up: neither changes the state, queues anything or notes
        an event (what they record is story)."""
        kept_action, rolls_on = self.kept_action, self.rolls_on
        seen: list[str] | None = None
        while queue:
            action = queue[0]
            # rolls_on, asked of checks alone (it is False for any other action)
            if action[0] == "check":
                if rolls_on(now, action):
                    break
                queue = queue[1:]
                continue
            if action[0] == "act" and action[1].code not in ACTING:
                queue = queue[1:]
                continue
            done = kept_action(now, action)
            now = done[0]
            queue = done[1] + queue[1:] if done[1] else queue[1:]
            if done[4]:
                if seen is None:
                    seen = list(events)
                for e in done[4]:
                    if e not in seen:
                        seen.append(e)
            if done[5]:
                tags = tags | done[5]
        return now, queue, events if seen is None else tuple(seen), tags

    def _kept_act(self, overlay: tuple[Data, Data, Data], action: tuple[Any, ...]) -> tuple[Any, ...]:
        """What ``action`` (one that rolls no dice) does to the state ``overlay``, as :meth:`_recorded`
        gives it, kept in the unit's memo (:attr:`UnitMemo.acts`) as :meth:`carry_out` keeps it; an
        act that only tells (:data:`ACTING`) is kept by the act alone (:meth:`_told`)."""
        if action[0] == "act" and action[1].code not in ACTING:
            return self._told(overlay, action)
        return self.kept_action(overlay, action)

    def _told(self, overlay: tuple[Data, Data, Data], action: tuple[Any, ...]) -> tuple[Any, ...]:
        """:meth:`_recorded` of an act that only tells (its row not in :data:`ACTING`): the state as it
        was, nothing queued, and the change and row it records, which read the act alone (kept in
        :attr:`UnitMemo.tells` by it and the preparation)."""
        memo = self.memo
        key = (self.prep, action)
        kept = memo.tells.get(key)
        if kept is None:
            done = self.acted(action, overlay)
            kept = memo.kept(memo.tells, key, lambda: done[2:4], CASCADE_ACTS)
        return (overlay, (), kept[0], kept[1], (), NO_TAGS)

    def _step_odds(self, state: tuple[Any, ...]) -> list[tuple[Any, Fraction]]:
        """The closed form of :meth:`_step_rolled` from ``state`` (whose first action is a check
        that rolls), each answer merged (:meth:`merged`): the check's answers with their chances
        (:meth:`_check_kept`, the actions each calls for already carried out up to the next
        roll), each followed by the actions of the queue behind it up to the next that rolls,
        found kept by the state they act on (:meth:`carry_out`'s store). The story is left out
        (the merge drops it), so no records are built, only the events and tags a state keeps."""
        overlay, events, queue, tags, _ = state
        rest = self.memo.interned(queue[1:])  # one object per value: the walks below are kept by its identity
        walks = self.acts_here if self.acts_here is not None else self.acts_kept()
        out: dict[Any, list[int]] = {}
        weights, den = self._check_steps(overlay, queue[0])
        # the check's answers in the order an enumeration of the step visits them, and the merged
        # answers handed on so that it visits them in the order they were first met (outcomes
        # of equal chance are listed as before)
        for (now, pending, seen, seen_tags), w in _first_then_reversed(weights):
            key = ("walk", id(now), id(pending), id(rest))
            found = walks.get(key)
            if found is None or found[0] is not now or found[1] is not pending or found[2] is not rest:
                found = self._walked_on(walks, key, now, pending, rest)
            short, noted, added = found[3]
            now_tags = tags | seen_tags if seen_tags else tags
            if added:
                now_tags = now_tags | added
            if noted:
                seen = seen + tuple([e for e in noted if e not in seen])
            new_events = events + tuple([e for e in seen if e not in events]) if seen else events
            answer = (short[0], new_events, short[1], now_tags, NO_STORY)
            out.setdefault(answer, [0])[0] += w
        return [(answer, Fraction(w[0], den)) for answer, w in _first_then_reversed(tuple(out.items()))]

    def _walked_on(self, walks: dict[Any, Any], key: tuple[Any, ...], now: tuple[Data, Data, Data],
                   pending: tuple[Any, ...], rest: tuple[Any, ...]) -> tuple[Any, ...]:
        """What :meth:`_step_odds` reads of a check's answer (the state ``now``, the actions
        ``pending`` it left) followed by the queue ``rest`` behind the check: :meth:`_walk` of
        them from no events and no tags (the events noted on the way, in order, and the tags
        added: the step adds them to its own) and the merge of the state it reaches
        (:meth:`_merged_kept`). Kept in ``walks`` (the resolver's part of :attr:`UnitMemo.acts`,
        bounded as it is) under ``key``, the identities of the three (kept beside the answer): a
        check's answers meet the same queues behind it over and over (the Daishi X's right torso:
        70,993 answers walked in its steps, 20,033 walked with this), each walk a few kept actions and a
        merge found by value."""
        at, q = now, pending + rest if pending else rest
        noted: tuple[str, ...] = ()
        added = NO_TAGS
        if q:
            at, q, noted, added = self._walk(now, q, (), NO_TAGS)
        kept = self.memo.merges.get((id(at), q))
        short = kept[1] if kept is not None and kept[0] is at else self._merged_kept(at, q)
        found = (now, pending, rest, (short, noted, added))
        if len(walks) >= CASCADE_ACTS:
            walks.clear()
        walks[key] = found
        return found
