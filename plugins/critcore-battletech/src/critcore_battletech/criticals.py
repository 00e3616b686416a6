"""Determining Critical Hits and choosing the slot each critical strikes.

Slot choice follows the record sheet: a six-slot location (head, legs) rolls 1d6; a
twelve-slot location rolls 1d6 for the half (the ``critical-slot-half`` table) and 1d6 for the
slot in it. A slot that cannot take the hit (a kind whose ``components`` row has the
``roll-again`` effect: empty and "roll again" slots) or is already destroyed is rolled again;
when one half has nothing left to hit, only the other half is rolled.

Real dice roll the slots as people do at the table (:func:`choose_slot`, each "roll again" a
:meth:`critcore.dice.dice.Dice.until`). The slots of one roll's criticals are one
:meth:`critcore.dice.dice.Dice.choose`: its ``odds`` are the same chances in closed form
(:mod:`slotodds`, imported only by exact odds), one answer per set of slots, with interchangeable
slots merged, so exact odds follow one branch per outcome that anything after can tell apart
instead of enumerating the rolls (checked against them by ``check_odds_agree``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Hashable, Mapping, Sequence, TypeVar

from critcore.plugin import Dice, parse
from critcore.plugin import Data, Determination
from critcore.plugin import Row, Table

from . import locations as L

if TYPE_CHECKING:
    from fractions import Fraction

    from critcore.plugin import DiceExpr

    SlotRoll = tuple[Table, DiceExpr, str, dict[str, tuple[int, frozenset[int], str]], str | None, frozenset[int]]
    """How a critical's slot is rolled (:func:`slot_roll`): the half table, its dice and the
    half roll's label, (first slot, slot-die faces that take the critical, their label) by half
    row id ("" when no half is rolled), the label of the whole roll when both dice are rolled
    again (``slot_reroll = both``; else None), and the slots that can take it."""

ROLL_AGAIN = "roll-again"
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}

T = TypeVar("T")


class Answers:
    """The closed-form odds of slot choices already worked out (:mod:`slotodds`: ``slot_odds``,
    ``picks_odds``, ``merged_odds``, ``merge_picks``, the classes of ``slot_classes``), by their
    arguments: exact odds meet the same slots again along many branches. One engine's preparation
    keeps one (``prepared.Prepared.odds``), so they live as long as that engine and no longer; at
    :attr:`LIMIT` answers it starts afresh."""

    LIMIT = 65_536

    def __init__(self) -> None:
        self._known: dict[Hashable, Any] = {}

    def peek(self, key: Hashable) -> Any:
        """The answer kept under ``key``, or None."""
        return self._known.get(key)

    def put(self, key: Hashable, answer: Any) -> None:
        """Keep ``answer`` under ``key`` (worked out with another)."""
        known = self._known
        if len(known) >= self.LIMIT:
            known.clear()
        known[key] = answer

    def get(self, key: Hashable, work_out: Callable[[], T]) -> T:
        known = self._known
        found: Any = known.get(key, self)  # one look-up: another thread may clear the dict meanwhile
        if found is not self:
            answer: T = found
            return answer
        if len(known) >= self.LIMIT:
            known.clear()
        answer = known[key] = work_out()
        return answer


def determination(row: Row, loc_kind: str, code: str, with_unit: bool) -> Determination:
    """The answer of the determine stage for one Determining Critical Hits row and location
    (kept by row in the engine's preparation: ``prepared.Prepared.determination``)."""
    name = L.name(code)
    blown = row.code == "blown-off-or-three" and loc_kind in tuple(row.data.get("blown_off", ()))
    if blown:
        what = "head" if loc_kind == "head" else loc_kind
        return Determination(f"{what}-blown-off", True, f"The {name} is blown off.",
                             data=Data(row=row.id, criticals=0, blown_off=True))
    count = int(row.data.get("criticals", 0))
    if count == 0:
        return Determination("none", False, f"No critical hit in the {name}.", final=not with_unit,
                             data=Data(row=row.id, criticals=0, blown_off=False))
    words = NUMBER_WORDS.get(count, str(count))
    return Determination("critical-hit", True, f"{words.capitalize()} critical hit{'s' if count > 1 else ''} "
                         f"in the {name}.", data=Data(row=row.id, criticals=count, blown_off=False))


def row_odds(table: Table) -> tuple[tuple[tuple[str, None], Fraction], ...]:
    """The chance of each row of ``table`` on one roll of its dice, as the answers of the check's
    :meth:`~critcore.dice.dice.Dice.choose`: (row id, None), the totals reading one row merged (real
    dice answer (row id, total): :func:`check_answer`). Kept in the engine's preparation:
    ``prepared.Prepared.row_odds``."""
    from fractions import Fraction

    out: dict[tuple[str, None], Fraction] = {}
    for total, p in parse(table.dice).distribution():
        row = (table.lookup(total).id, None)
        out[row] = out.get(row, Fraction(0)) + p
    return tuple(out.items())


def check_answer(answer: tuple[str, int | None]) -> tuple[str, None]:
    """What exact odds keep of a check's answer (row id, total): the row alone."""
    return answer[0], None


def roll_again_kinds(components: Table) -> frozenset[str]:
    """Slot kinds that a critical never stays on (their row's effect is ``roll-again``)."""
    return frozenset(r.id for r in components.rows if r.code == ROLL_AGAIN)


def hittable(slots: Sequence[Mapping[str, Any]], skip: frozenset[str], taken: frozenset[int] | set[int]) -> list[int]:
    """Indexes (0-based) of the slots a critical can still strike."""
    return [i for i, s in enumerate(slots) if s["kind"] not in skip and not s["destroyed"] and i not in taken]


_D6 = parse("1d6")


def _until_face(dice: Dice, good: frozenset[int], label: str) -> int:
    """1d6 again and again until one of the faces ``good`` comes up (one roll when every face
    will do: the same roll, recorded the same, as an ``until`` that takes its first attempt)."""
    if len(good) == 6:
        return dice.roll(_D6, label).total

    def attempt(d: Dice) -> int | None:
        face = d.roll(_D6, label).total
        return face if face in good else None

    return dice.until(attempt, label)


Pick = tuple[str, int]
"""A critical's slot: (location code, slot index from 0; -1 when nothing was left to hit)."""

Reach = tuple[tuple[str, int, int, tuple[int, ...]], ...]
"""Where criticals can land, in the order they pass on: (location code, its record-sheet rank,
its number of slots, the slots that can still take a critical) for the location rolled and, when
criticals pass inward (``no_slot_left = transfer``), each location inward that the unit has."""


def add_fraction(acc: list[int], num: int, den: int) -> None:
    """acc += num/den in whole numbers (the denominators here are mostly multiples of each other)."""
    a, b = acc
    if den == b:
        acc[0] = a + num
    elif den % b == 0:
        acc[0], acc[1] = a * (den // b) + num, den
    elif b % den == 0:
        acc[0] = a + num * (b // den)
    else:
        acc[0], acc[1] = a * den + num * b, b * den


def sheet_order(rank: int, index: int) -> tuple[int, int]:
    """Where a pick (a location's record-sheet ``rank``, a slot ``index``) comes in a batch:
    record-sheet order, a critical that found nothing to hit after the slots struck."""
    return rank, index if index >= 0 else 1 << 30


Classes = tuple[tuple[str, int, tuple[int, ...], tuple[int, ...]], ...]
"""Interchangeable slots of each location of a :data:`Reach`: (code, rank, slots that can take a
critical, for each of them the first slot of its class: :func:`slot_classes`)."""


def slot_roll(half: Table, size: int, ok: tuple[int, ...], label: str, reroll: str = "slot") -> SlotRoll:
    """How one critical's slot is rolled (:func:`choose_slot`) among ``ok``, the slots of a
    location of ``size`` slots that can take it (in ascending order and never empty, as
    :func:`hittable` gives them and the caller checks): the labels of the rolls and, for each
    half the half die can pick, its first slot and the slot-die faces that take the critical.
    They depend on nothing else, so an engine's preparation keeps one per arguments
    (``prepared.Prepared.slot_roll``) instead of working them out at every roll.

    ``reroll`` is the ``slot_reroll`` option: ``slot`` rolls only the slot die again within the
    chosen half, ``both`` rolls both dice again. :func:`slotodds.slot_odds` gives the same chances
    in closed form.
    """
    again = "again on a slot that cannot take it"
    # (first slot, slot-die faces that take it, label) by half row id; "" when no half is rolled
    halves: dict[str, tuple[int, frozenset[int], str]] = {}
    both: str | None = None
    if size <= 6:
        halves[""] = (1, frozenset(i + 1 for i in ok), f"{label}: slot (1d6, {again})")
    elif ok[0] < 6 <= ok[-1]:  # slots in both halves: the half is rolled
        if reroll == "both":
            both = f"{label}: half and slot (both again on a slot that cannot take it)"
        for row in half.rows:
            first = int(row.data.get("first_slot", 1))
            faces = frozenset(i - first + 2 for i in ok if first - 1 <= i < first + 5)
            halves[row.id] = (first, faces, f"{label}: slot in slots {first}-{first + 5}{'' if both else f' ({again})'}")
    else:
        first = 1 if ok[0] < 6 else 7
        faces = frozenset(i - first + 2 for i in ok if first - 1 <= i < first + 5)
        halves[""] = (first, faces, f"{label}: slot in slots {first}-{first + 5} ({again})")
    return half, parse(half.dice), f"{label}: half (1-3 upper, 4-6 lower)", halves, both, frozenset(ok)


def choose_slot(dice: Dice, how: SlotRoll) -> int:
    """Roll for the slot a critical strikes, as ``how`` (:func:`slot_roll`) says: the slot die
    (1d6) in a six-slot location or in the only half with a slot that can take it; else the half
    die, then the slot die in that half. A face that cannot take the critical is rolled again
    (with ``slot_reroll = both`` the half too)."""
    half, half_dice, half_label, halves, both, good = how
    if both is not None:

        def attempt(d: Dice) -> int | None:
            first, _, label = halves[half.lookup(d.roll(half_dice, half_label).total).id]
            i = first - 2 + d.roll(_D6, label).total
            return i if i in good else None

        return int(dice.until(attempt, both))
    if "" in halves:
        first, faces, label = halves[""]
    else:
        first, faces, label = halves[half.lookup(dice.roll(half_dice, half_label).total).id]
    return first - 2 + _until_face(dice, faces, label)


def generic_slot(dice: Dice, half: Table, code: str, label: str) -> tuple[int, str]:
    """Without a unit: the slot number a critical strikes (1-based) and which half."""
    if L.slot_count(code) == 6:
        return dice.roll("1d6", f"{label}: slot (1d6)").total, ""
    row = half.lookup(dice.roll(half.dice, f"{label}: half (1-3 upper, 4-6 lower)").total)
    first = int(row.data.get("first_slot", 1))
    face = dice.roll("1d6", f"{label}: slot in slots {first}-{first + 5}").total
    return first - 1 + face, row.id
