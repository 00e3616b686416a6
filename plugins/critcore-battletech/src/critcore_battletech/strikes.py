"""Critical checks and the slots they strike: the layer of the resolver's class between the
rules of damage (:class:`damage.Damage`) and the actions of its queue (:class:`actions.Actions`).

A location whose internal structure took damage gets a check (Determining Critical Hits, one
:meth:`~critcore.dice.dice.Dice.choose`); the criticals it calls for pick their slots (another,
rolled as the record sheet says: :mod:`criticals`; in closed form for exact odds:
:mod:`slotodds`), each slot struck is marked hit (:meth:`Strikes.mark`, one object per value),
and the acts of the batch and the settling after it wait in the queue of pending actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from critcore.plugin import Data, Dice, Effect

from . import criticals as C
from . import effects as E
from . import locations as L
from .damage import SETTLE, Damage
from .unitmemo import CASCADE_ACTS

if TYPE_CHECKING:
    from fractions import Fraction

    from critcore.plugin import Row

_ORDER = {c: i for i, c in enumerate(L.CODES)}


def _sheet_order(pick: tuple[str, int]) -> tuple[int, int]:
    """Record-sheet order of a (location, slot) pick (:func:`criticals.sheet_order`)."""
    return C.sheet_order(_ORDER[pick[0]], pick[1])


class Strikes(Damage):
    """The rules of :class:`Damage`, with the critical checks, the slots they strike and the marks."""

    def critical_check(self, code: str) -> None:
        """Roll Determining Critical Hits for a location whose internal structure was damaged,
        and apply the criticals it calls for (they wait in the queue)."""
        if self.destroyed:
            self.change(f"No critical check for the {L.name(code)}: the 'Mech is already destroyed")
            return
        row, effect, picks = self._roll_check(code)
        self.effects.append(effect)
        self._checked(code, row, picks)

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
        roll slot by slot, exact odds take :func:`slotodds.merged_odds` (the same chances, one
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

        def closed() -> Sequence[tuple[tuple[tuple[str, int], ...], Fraction]]:
            from .slotodds import merged_odds  # exact odds only: real dice never load the closed forms

            return merged_odds(reach, count, reroll, self.half, classes(), known=odds)

        def merge(answer: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
            from .slotodds import merge_picks

            return merge_picks(answer, classes(), known=odds)

        chosen = self.dice.choose(roll, closed, f"{label}s ({L.name(code)})" if count > 1
                                  else f"{label} ({L.name(code)})", merge)
        return list(chosen)

    def _classes(self, reach: C.Reach) -> C.Classes:
        """The classes of interchangeable slots in each location of ``reach`` (exact odds)."""
        from .slotodds import slot_classes

        odds = self.prep.odds
        return tuple((where, rank, ok, slot_classes(self.w, self.slots(where), ok, known=odds))
                     for where, rank, _, ok in reach)

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

    def struck(self, code: str, picks: Sequence[tuple[str, int]], kept: dict[Any, Any] | None = None,
               acts: list[Any] | None = None) -> list[Effect]:
        """What the criticals of a roll in ``code`` strike, in the slots :meth:`picks` chose
        (no dice: the same picks on the same state give the same effects). ``kept``: the effects
        of each slot worked out before on this same state (:meth:`_check_odds`), by slot and
        whether its items were knocked out earlier in the batch (all :func:`effects.classify`
        reads of the batch), each with the act it queues (recorded: a check's own criticals), which
        go on ``acts`` when given (one object per value, as :meth:`apply_batch` interns them: kept
        with the slot, an act is interned once per check, not once per set of slots)."""
        out: list[Effect] = []
        knocked: set[str] = set()
        interned = self.memo.interned
        for where, idx in picks:
            if where != code:
                self.change(f"Nothing left to hit in the {L.name(code)}: a critical passes to the {L.name(where)}")
            if idx < 0:
                out.append(self.components.row("nothing-to-hit").effect(self.components.id, None, location=where))
                if acts is not None:
                    acts.append(interned(("act", out[-1], True)))
                continue
            if kept is None:
                effects, items = self._slot_struck(where, idx, knocked)
            else:
                slot = self.w.loc(where)["slots"][idx]
                key = (where, idx, slot.get("item") in knocked, slot.get("item2") in knocked)
                found = kept.get(key)
                if found is None:
                    # one object per distinct effect (UnitMemo.interned): the actions queued with it
                    # are then found kept by identity, not field by field, whichever check made them
                    effects, items = self._slot_struck(where, idx, knocked)
                    effects = tuple([interned(e) for e in effects])
                    found = kept[key] = (effects, items, tuple([interned(("act", e, True)) for e in effects]))
                effects, items, queued = found
                if acts is not None:
                    acts.extend(queued)
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
        interned = self.memo.interned  # one object per action: a kept action is found by its identity
        self.pending.extend([interned(("act", e, record)) for e in batch] + [SETTLE])

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
        # thousands of states, and a location's hash reads each slot's, kept by the object. So is
        # a location marked: the same slots (the same objects) and the same other entries are one
        # record (its hash worked out once, and equal states compared by identity), kept under
        # those slots' ids beside the record that holds them (no id is reused while it is kept),
        # and found first by the record marked and the marks (kept beside the record marked)
        marked = self.memo.marked
        turn, batch_n = self.turn, self.batch
        w = self.w
        for code, indexes in by_code.items():
            loc = w.loc(code)
            # the same marks on the same location record: the record they made before
            move = (id(loc), tuple(indexes), turn, batch_n)
            made = marked.get(move)
            if made is not None and made[0] is loc:
                w.put_loc(code, made[1])
                continue
            slots = list(loc["slots"])
            shared = True
            for index in indexes:
                slot = slots[index]
                if slot.__class__ is not Data:  # a state handed in unfrozen: nothing to share
                    slots[index] = Data(slot).replace(destroyed=True, hit_turn=turn, hit_batch=batch_n)
                    shared = False
                    continue
                # by the slot's identity, the slot beside it (a slot's hash is a Python call)
                key = ("slot", id(slot), turn, batch_n)
                found = marked.get(key)
                if found is None or found[0] is not slot:
                    if len(marked) >= CASCADE_ACTS:
                        marked.clear()
                    found = marked[key] = (slot, slot.replace(destroyed=True, hit_turn=turn, hit_batch=batch_n))
                slots[index] = found[1]
            if not shared or loc.__class__ is not Data:
                w.set_loc(code, slots=tuple(slots))
                continue
            # its entries but the slots, named once per record (a check's answers mark one record)
            rest = marked.get(("rest", id(loc)))
            if rest is None or rest[0] is not loc:
                rest = marked[("rest", id(loc))] = (loc, (tuple(loc), *[v for k, v in loc.items() if k != "slots"]))
            where = (tuple(map(id, slots)), rest[1])
            kept = marked.get(where)
            if kept is None:
                w.set_loc(code, slots=tuple(slots))
                kept = w.loc(code)
                if len(marked) >= CASCADE_ACTS - 1:
                    marked.clear()
                marked[where] = kept
            else:
                w.put_loc(code, kept)
            marked[move] = (loc, kept)

    def act(self, eff: Effect) -> None:
        """The consequences of one slot's critical (the slot is already marked)."""
        if eff.code == "nothing-to-hit":
            self.change(f"Nothing in the {L.name(eff.data['location'])} can take the critical: it is lost")
            return
        E.consequences(self, eff)
