"""Determining Critical Hits and choosing the slot each critical strikes.

Slot choice follows the record sheet: a six-slot location (head, legs) rolls 1d6; a
twelve-slot location rolls 1d6 for the half (the ``critical-slot-half`` table) and 1d6 for the
slot in it. A slot that cannot take the hit (a kind whose ``components`` row has the
``roll-again`` effect: empty and "roll again" slots) or is already destroyed is rolled again;
when one half has nothing left to hit, only the other half is rolled.

Each "roll again" loop goes through :meth:`critcore.dice.Dice.until`, so real dice are rolled
again as people do at the table while exact odds take the acceptable results with their
conditional probabilities (finite and exact).
"""

from __future__ import annotations

import sys
from functools import lru_cache
from math import lcm
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from critcore.dice import Dice, parse
from critcore.model import Data, Determination, freeze
from critcore.tables import Row, Table

from . import locations as L
from .memo import remembered

if TYPE_CHECKING:
    from fractions import Fraction

ROLL_AGAIN = "roll-again"
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@remembered(256)
def determination(row: Row, loc_kind: str, code: str, with_unit: bool) -> Determination:
    """The answer of the determine stage for one Determining Critical Hits row and location."""
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


def roll_again_kinds(components: Table) -> frozenset[str]:
    """Slot kinds that a critical never stays on (their row's effect is ``roll-again``)."""
    return frozenset(r.id for r in components.rows if r.code == ROLL_AGAIN)


def hittable(slots: Sequence[Mapping[str, Any]], skip: frozenset[str], taken: frozenset[int] | set[int]) -> list[int]:
    """Indexes (0-based) of the slots a critical can still strike."""
    return [i for i, s in enumerate(slots) if s["kind"] not in skip and not s["destroyed"] and i not in taken]


def _until_face(dice: Dice, faces: Sequence[int], label: str) -> int:
    """1d6 again and again until one of ``faces`` comes up (exact under exact odds)."""
    good = frozenset(faces)

    def attempt(d: Dice) -> int | None:
        face = d.roll("1d6", label).total
        return face if face in good else None

    return dice.until(attempt, label, key=("1d6 until", good))


def exact(dice: Any) -> bool:
    """Running under exact odds (the enumerating roller)."""
    # only exact odds import the enumerating roller: without it loaded, nothing can be exact (and
    # a plain resolution does not pay for importing it, nor fractions)
    enumeration = sys.modules.get("critcore.enumeration")
    return enumeration is not None and isinstance(getattr(dice, "roller", None), enumeration.EnumeratingRoller)


@lru_cache(maxsize=4096)
def slot_odds(size: int, ok: tuple[int, ...], reroll: str, half: Table) -> tuple[tuple[int, Fraction], ...]:
    """The exact chance of each slot in ``ok`` being struck, as the rolling below gives it."""
    from fractions import Fraction

    if size <= 6:
        return tuple((i, Fraction(1, len(ok))) for i in ok)
    upper = [i for i in ok if i < 6]
    lower = [i for i in ok if i >= 6]
    if not (upper and lower):
        return tuple((i, Fraction(1, len(ok))) for i in ok)
    weights: dict[int, Fraction] = {}
    for total, p in parse(half.dice).distribution():
        first = int(half.lookup(total).data.get("first_slot", 1))
        inside = [i for i in ok if first - 1 <= i < first + 5]
        for i in inside:
            share = p / len(inside) if reroll != "both" else p / 6
            weights[i] = weights.get(i, Fraction(0)) + share
    whole = sum(weights.values(), Fraction(0))
    return tuple((i, w / whole) for i, w in sorted(weights.items()))


@lru_cache(maxsize=4096)
def _faces_for(odds: tuple[tuple[Any, Fraction], ...]) -> tuple[Any, ...]:
    """Faces of one die whose results give ``odds`` exactly (the answer per face)."""
    sides = lcm(*(p.denominator for _, p in odds))
    out: list[Any] = []
    for i, p in odds:
        out.extend([i] * int(p * sides))
    return tuple(out)


@lru_cache(maxsize=4096)
def set_odds(size: int, ok: tuple[int, ...], count: int, reroll: str,
             half: Table) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """The exact chance of each set of slots ``count`` criticals of one roll strike (in slot
    order; fewer when the location runs out of slots that can be hit)."""
    from fractions import Fraction

    from critcore.enumeration import add_to

    # whole-number [numerator, denominator] pairs: far cheaper than fractions in the recursion
    seen: dict[tuple[tuple[int, ...], int], dict[tuple[int, ...], list[int]]] = {}

    def rec(left: tuple[int, ...], k: int) -> dict[tuple[int, ...], list[int]]:
        if k == 0 or not left:
            return {(): [1, 1]}
        found = seen.get((left, k))
        if found is not None:  # the same slots left after other picks in another order
            return found
        out: dict[tuple[int, ...], list[int]] = {}
        for i, p in slot_odds(size, left, reroll, half):
            pn, pd = p.numerator, p.denominator
            for rest, (qn, qd) in rec(tuple(x for x in left if x != i), k - 1).items():
                key = tuple(sorted(rest + (i,)))
                acc = out.get(key)
                if acc is None:
                    out[key] = [pn * qn, pd * qd]
                else:
                    add_to(acc, pn * qn, pd * qd)
        seen[(left, k)] = out
        return out

    return tuple((key, Fraction(n, d)) for key, (n, d) in sorted(rec(ok, count).items()))


def slot_classes(view: Any, slots: Sequence[Mapping[str, Any]], ok: Sequence[int]) -> tuple[int, ...]:
    """For each slot in ``ok``, the first slot in ``ok`` that is interchangeable with it.

    Two slots are interchangeable when swapping them changes nothing the rules can see: they
    lie in the same half of the location and hold the same thing in the same state, either
    slots of one item (the five slots of an LRM 20) or single-slot items alike in every
    respect (two full LRM-20 bins, two rear medium lasers). Exact odds strike the first slot
    of a class with the chance of the whole class: the odds of every outcome a player can tell
    apart stay exact, with far fewer states to follow.
    """
    items = tuple(freeze(view.item(slots[i].get("item"))) for i in ok)
    return _classes(len(slots), tuple(freeze(slots[i]) for i in ok), tuple(ok), items)


@lru_cache(maxsize=4096)
def _classes(size: int, slots: tuple[Data, ...], ok: tuple[int, ...], items: tuple[Data | None, ...]) -> tuple[int, ...]:
    first: dict[Any, int] = {}
    out = []
    for s, i, item in zip(slots, ok, items):
        if item is not None and len(item.get("slots", ())) == 1:
            key: Any = (False, _without(s, "item"), _without(item, "slots"))
        else:
            key = (True, s)
        out.append(first.setdefault((size > 6 and i >= 6, key), i))
    return tuple(out)


def _without(m: Mapping[str, Any], drop: str) -> tuple[Any, ...]:
    return tuple((k, v) for k, v in sorted(m.items()) if k != drop)


def _class_odds(odds: tuple[tuple[int, Fraction], ...], ok: tuple[int, ...],
                classes: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """``odds`` of single slots, each class's chance given to its first slot."""
    from fractions import Fraction

    rep = dict(zip(ok, classes))
    out: dict[int, Fraction] = {}
    for i, p in odds:
        out[rep[i]] = out.get(rep[i], Fraction(0)) + p
    return tuple(sorted(out.items()))


def _class_sets(odds: tuple[tuple[tuple[int, ...], Fraction], ...], ok: tuple[int, ...],
                classes: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """``odds`` of sets of slots, each set told by how many slots of each class it holds (and
    standing for the set of the first that many slots of each class)."""
    rep = dict(zip(ok, classes))
    members: dict[int, list[int]] = {}
    for i, r in zip(ok, classes):
        members.setdefault(r, []).append(i)
    from fractions import Fraction

    out: dict[tuple[int, ...], Fraction] = {}
    for chosen, p in odds:
        count: dict[int, int] = {}
        for i in chosen:
            count[rep[i]] = count.get(rep[i], 0) + 1
        key = tuple(sorted(i for r, k in count.items() for i in members[r][:k]))
        out[key] = out.get(key, Fraction(0)) + p
    return tuple(sorted(out.items()))


@lru_cache(maxsize=4096)
def _set_die(size: int, ok: tuple[int, ...], count: int, reroll: str, half: Table,
             classes: tuple[int, ...] | None) -> tuple[Any, ...] | None:
    """The faces of a die giving each set of slots :func:`exact_set` can strike its chance
    (None when that would take over 1000 sides)."""
    odds = set_odds(size, ok, count, reroll, half)
    if classes is not None:
        odds = _class_sets(odds, ok, classes)
    if len(odds) > 1 and lcm(*(p.denominator for _, p in odds)) > 1000:
        return None
    return _faces_for(odds)


@lru_cache(maxsize=4096)
def _slot_die(size: int, ok: tuple[int, ...], reroll: str, half: Table,
              classes: tuple[int, ...] | None) -> tuple[int, ...]:
    """The faces of a die giving each slot (or class of slots) in ``ok`` its chance."""
    odds = slot_odds(size, ok, reroll, half)
    if classes is not None:
        odds = _class_odds(odds, ok, classes)
    return _faces_for(odds)


def _roll_face(dice: Dice, faces: tuple[Any, ...], label: str, key: Any) -> Any:
    """One face of ``faces``: one branch per distinct face under exact odds (``key`` names the
    die, cheaply, for sharing the branches)."""
    if len(faces) == 1 or len(set(faces)) == 1:
        return faces[0]
    return dice.until(lambda d: faces[d.roll(f"1d{len(faces)}", label).total - 1], label, key=key)


def exact_set(dice: Dice, half: Table, size: int, ok: list[int], count: int, reroll: str,
              label: str, classes: tuple[int, ...] | None = None) -> tuple[int, ...] | None:
    """Under exact odds: the slots of several criticals from one roll of a die whose faces give
    each set of slots its exact chance (the order they were rolled in does not change what
    happens, so far fewer branches than rolling them one by one); with ``classes``
    (:func:`slot_classes`) sets alike up to interchangeable slots are one branch. None when no
    die of at most 1000 sides can give the odds exactly (then the slots are rolled one by one)."""
    args = (size, tuple(ok), count, reroll, half, classes)
    faces = _set_die(*args)
    if faces is None:
        return None
    return tuple(_roll_face(dice, faces, label, args))


def _exact_slot(dice: Dice, half: Table, slots: Sequence[Mapping[str, Any]], ok: list[int], label: str,
                reroll: str, classes: tuple[int, ...] | None) -> int:
    """The slot roll under exact odds: the same chances as the table procedure, in as few
    branches as there are (classes of) slots that can be struck."""
    args = (len(slots), tuple(ok), reroll, half, classes)
    return int(_roll_face(dice, _slot_die(*args), label, args))


def choose_slot(dice: Dice, half: Table, slots: Sequence[Mapping[str, Any]], ok: list[int], label: str,
                reroll: str = "slot", classes: tuple[int, ...] | None = None) -> int:
    """Roll for the slot a critical strikes among ``slots``; ``ok`` lists those it can strike.

    ``reroll`` is the ``slot_reroll`` option: ``slot`` rolls only the slot die again within the
    chosen half, ``both`` rolls both dice again. Under exact odds the same chances are taken
    from one roll (:func:`slot_odds`), branching once per slot that can be struck, or once per
    class of interchangeable slots when ``classes`` (:func:`slot_classes`) is given.
    """
    if exact(dice):
        return _exact_slot(dice, half, slots, ok, label, reroll, classes)
    again = "again on a slot that cannot take it"
    if len(slots) <= 6:
        return _until_face(dice, [i + 1 for i in ok], f"{label}: slot (1d6, {again})") - 1
    upper = [i for i in ok if i < 6]
    lower = [i for i in ok if i >= 6]
    if upper and lower:
        if reroll == "both":
            good = frozenset(ok)

            def attempt(d: Dice) -> int | None:
                row = half.lookup(d.roll(half.dice, f"{label}: half (1-3 upper, 4-6 lower)").total)
                first = int(row.data.get("first_slot", 1))
                i = first - 2 + d.roll("1d6", f"{label}: slot in slots {first}-{first + 5}").total
                return i if i in good else None

            return int(dice.until(attempt, f"{label}: half and slot (both again on a slot that cannot take it)",
                                  key=("half and slot", half, good)))
        row = half.lookup(dice.roll(half.dice, f"{label}: half (1-3 upper, 4-6 lower)").total)
        first = int(row.data.get("first_slot", 1))
    else:
        first = 1 if upper else 7
    faces = [i - first + 2 for i in ok if first - 1 <= i < first + 5]
    return first - 2 + _until_face(dice, faces, f"{label}: slot in slots {first}-{first + 5} ({again})")


def generic_slot(dice: Dice, half: Table, code: str, label: str) -> tuple[int, str]:
    """Without a unit: the slot number a critical strikes (1-based) and which half."""
    if L.slot_count(code) == 6:
        return dice.roll("1d6", f"{label}: slot (1d6)").total, ""
    row = half.lookup(dice.roll(half.dice, f"{label}: half (1-3 upper, 4-6 lower)").total)
    first = int(row.data.get("first_slot", 1))
    face = dice.roll("1d6", f"{label}: slot in slots {first}-{first + 5}").total
    return first - 1 + face, row.id
