"""The slots' chances in closed form, for exact odds only (issue 16; kept by shape: issue 25): each
slot a critical can strike with its chance (:func:`slot_odds`, :func:`slot_weights`), each set of
slots one roll's criticals strike (:func:`picks_odds`), and the same with interchangeable slots
merged (:func:`merge_picks`, :func:`slot_classes`, :func:`merged_odds`: the ``odds`` and ``merge``
of the slots' :meth:`critcore.dice.dice.Dice.choose` in :meth:`strikes.Strikes.picks`).

Real dice never import this module (:mod:`criticals` rolls the slots as people do at the table),
so a command that resolves a critical with dice does not load it. Each answer is worked out once
per engine and kept in its preparation's :class:`criticals.Answers` (:func:`_kept`).
"""

from __future__ import annotations

from functools import wraps
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, TypeVar

from critcore.plugin import Data, Table, freeze, parse

from .criticals import Answers, Classes, Pick, Reach, add_fraction, sheet_order

if TYPE_CHECKING:
    from fractions import Fraction

T = TypeVar("T")


def _kept(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn(*args, known=answers)`` is the answer kept in ``answers`` (an :class:`Answers`) for
    those arguments, worked out the first time; without ``known`` it is worked out every time."""
    name = fn.__name__

    @wraps(fn)
    def answer(*args: Any, known: Answers | None = None) -> T:
        if known is None:
            return fn(*args, known=None)
        return known.get((name, *args), lambda: fn(*args, known=known))

    return answer


@_kept
def slot_odds(size: int, ok: tuple[int, ...], reroll: str, half: Table,
              known: Answers | None = None) -> tuple[tuple[int, Fraction], ...]:
    """The exact chance of each slot in ``ok`` being struck, as :func:`choose_slot` rolls it."""
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


@_kept
def slot_weights(size: int, ok: tuple[int, ...], reroll: str, half: Table,
                 known: Answers | None = None) -> tuple[tuple[tuple[int, int], ...], int]:
    """:func:`slot_odds` as whole numbers over one denominator: ((slot, weight), ...) and the
    denominator, each slot's chance its weight over it (cheap to add up: :func:`merged_odds`).
    Worked out as :func:`slot_odds` works it out, in whole numbers (the weights need not be in
    lowest terms; a test holds their ratios to :func:`slot_odds`)."""
    from math import lcm

    if size <= 6 or all(i < 6 for i in ok) or all(i >= 6 for i in ok):
        return tuple((i, 1) for i in ok), len(ok) or 1
    # each total of the half roll shares its chance among the slots left in its half (or a sixth
    # to each, with ``both``: the faces of the half's empty slots roll again)
    parts = []
    for total, p in parse(half.dice).distribution():
        first = int(half.lookup(total).data.get("first_slot", 1))
        inside = [i for i in ok if first - 1 <= i < first + 5]
        if inside:
            parts.append((inside, p.numerator, p.denominator * (len(inside) if reroll != "both" else 6)))
    den = lcm(*(d for _, _, d in parts))
    weights: dict[int, int] = {}
    for inside, num, d in parts:
        share = num * (den // d)
        for i in inside:
            weights[i] = weights.get(i, 0) + share
    return tuple(sorted(weights.items())), sum(weights.values())


@_kept
def half_rolls(half: Table, known: Answers | None = None) -> tuple[tuple[int, int, int], ...]:
    """Each total of the half roll (``critical-slot-half``) as the first slot of its half and its
    chance as a numerator and a denominator, in the order of the roll's distribution."""
    out = []
    for total, p in parse(half.dice).distribution():
        out.append((int(half.lookup(total).data.get("first_slot", 1)), p.numerator, p.denominator))
    return tuple(out)


@_kept
def picks_odds(reach: Reach, count: int, reroll: str, half: Table,
               known: Answers | None = None) -> tuple[tuple[tuple[Pick, ...], Fraction], ...]:
    """The exact chance of each set of slots ``count`` criticals of one roll strike, as
    :func:`choose_slot` rolls them one by one (each in the first location of ``reach`` with a
    slot left, slots already struck rolled again; ``-1`` in the last location when none is
    left): sets in record-sheet order, as the rolls are applied. The order the slots were rolled
    in does not change what happens, so sets rolled in another order are one answer."""
    from fractions import Fraction

    # whole-number [numerator, denominator] pairs: far cheaper than fractions in the recursion
    Weights = dict[tuple[tuple[int, int], ...], list[int]]
    seen: dict[tuple[tuple[tuple[int, int], ...], int], Weights] = {}

    def rec(taken: tuple[tuple[int, int], ...], k: int) -> Weights:
        if k == 0:
            return {(): [1, 1]}
        memo = (taken, k)
        found = seen.get(memo)  # the same slots struck in another order
        if found is not None:
            return found
        for pos, (_, _, size, ok) in enumerate(reach):
            left = tuple(i for i in ok if (pos, i) not in taken)
            if left:
                break
        else:
            return {((len(reach) - 1, -1),) * k: [1, 1]}
        out: Weights = {}
        for i, p in slot_odds(size, left, reroll, half, known=known):
            pn, pd = p.numerator, p.denominator
            for rest, (qn, qd) in rec(tuple(sorted(taken + ((pos, i),))), k - 1).items():
                key = tuple(sorted(rest + ((pos, i),)))
                acc = out.get(key)
                if acc is None:
                    out[key] = [pn * qn, pd * qd]
                else:
                    add_fraction(acc, pn * qn, pd * qd)
        seen[memo] = out
        return out

    def named(answer: tuple[tuple[int, int], ...]) -> tuple[Pick, ...]:
        return tuple(sorted(((reach[pos][0], i) for pos, i in answer), key=lambda c: sheet_order(ranks[c[0]], c[1])))

    ranks = {code: rank for code, rank, _, _ in reach}
    return tuple(sorted(((named(a), Fraction(n, d)) for a, (n, d) in rec((), count).items()), key=_by_picks))


def _by_picks(item: tuple[tuple[Pick, ...], Fraction]) -> tuple[Pick, ...]:
    return item[0]


_first = itemgetter(0)  # _by_picks in C (merged_odds sorts every state it names)


@_kept
def merge_picks(answer: tuple[Pick, ...], classes: Classes, known: Answers | None = None) -> tuple[Pick, ...]:
    """``answer`` with each class of interchangeable slots told only by how many of its slots
    were struck: the first that many slots of the class stand for them (``-1`` stays)."""
    rep: dict[Pick, Pick] = {}
    members: dict[Pick, list[int]] = {}
    ranks = {code: rank for code, rank, _, _ in classes}
    for code, _, ok, firsts in classes:
        for i, first in zip(ok, firsts):
            rep[(code, i)] = (code, first)
            members.setdefault((code, first), []).append(i)
    count: dict[Pick, int] = {}
    out: list[Pick] = []
    for pick in answer:
        if pick[1] < 0:
            out.append(pick)
            continue
        r = rep[pick]
        out.append((r[0], members[r][count.get(r, 0)]))
        count[r] = count.get(r, 0) + 1
    return tuple(sorted(out, key=lambda c: sheet_order(ranks[c[0]], c[1])))


def merged_odds(reach: Reach, count: int, reroll: str, half: Table, classes: Classes,
                known: Answers | None = None) -> tuple[tuple[tuple[Pick, ...], Fraction], ...]:
    """:func:`picks_odds` with interchangeable slots merged by :func:`merge_picks`: an answer per
    outcome anything after can tell apart, with far fewer states to follow.

    Worked out class by class, not slot by slot: slots of one class lie in one half, where
    :func:`slot_odds` gives every slot left the same chance, so the chance of striking a class
    next depends only on how many of each class were struck before, and the first that many
    slots of each class stand for the ones struck (as :func:`merge_picks` names them). The
    same chances as merging :func:`picks_odds` (a test compares them on the corpus' units),
    with one state per count of each class instead of one per set of slots (a side torso's
    three criticals: a few dozen states, not hundreds).

    The chances are carried forward, one critical after another, from nothing struck: each
    state (how many of each class were struck, and how many criticals found nothing left) is
    one answer, so the states after ``k`` criticals are the answers for ``k``. With ``known``
    the answers for every smaller count of the same slots are kept as well (a torso's check
    asks for one, two and three criticals on the same state)."""
    if known is None:
        return _merged_forward(reach, count, reroll, half, classes, None)[count]
    key = ("merged_odds", reach, count, reroll, half, classes)
    found = known.peek(key)
    if found is None:
        every = _merged_forward(reach, count, reroll, half, classes, known)
        for k in range(1, count):
            known.put(("merged_odds", reach, k, reroll, half, classes), every[k])
        found = known.get(key, lambda: every[count])
    return found  # type: ignore[no-any-return]


def _merged_forward(reach: Reach, count: int, reroll: str, half: Table, classes: Classes,
                    known: Answers | None) -> list[tuple[tuple[tuple[Pick, ...], Fraction], ...]]:
    """:func:`merged_odds` for 0, 1, ... ``count`` criticals, by count: the states and their
    chances (:func:`_layers`, kept by the slots' shape), each named by these slots."""
    # the members of each class, by location of ``reach`` (classes are listed in its order)
    groups: list[tuple[tuple[int, ...], ...]] = []
    for _, _, ok, firsts in classes:
        members: dict[int, list[int]] = {}
        for i, first in zip(ok, firsts):
            members.setdefault(first, []).append(i)
        groups.append(tuple(tuple(m) for m in members.values()))
    ranks = {code: rank for code, rank, _, _ in reach}
    last = len(reach) - 1

    # each class's slots as picks, with where each comes in a batch (record-sheet order)
    ordered = [[[(sheet_order(ranks[reach[pos][0]], i), (reach[pos][0], i)) for i in m] for m in cls]
               for pos, cls in enumerate(groups)]
    nothing = (sheet_order(ranks[reach[last][0]], -1), (reach[last][0], -1))

    def named(taken: tuple[tuple[int, ...], ...], lost: int) -> tuple[Pick, ...]:
        """The answer of a state: the first that many slots of each class struck stand for the
        ones struck, and a critical that found nothing left is (last location, -1)."""
        picks = [o for pos, cls in enumerate(ordered) for m, c in zip(cls, taken[pos]) for o in m[:c]]
        picks += [nothing] * lost
        picks.sort()
        return tuple([pick for _, pick in picks])

    return [tuple(sorted([(named(*st), p) for st, p in layer], key=_first))
            for layer in _layers(reach, count, reroll, half, tuple(groups), known)]


State = tuple[tuple[tuple[int, ...], ...], int]  # struck by class, criticals with nothing left
Layer = tuple[tuple[State, int, int], ...]  # each state after k criticals with its chance (numerator, denominator)
Chances = tuple[tuple[State, "Fraction"], ...]  # each state after k criticals with its chance


def _chances(layer: Layer) -> Chances:
    """A layer's chances as fractions."""
    from fractions import Fraction

    return tuple([(st, Fraction(n, d)) for st, n, d in layer])


def _layers(reach: Reach, count: int, reroll: str, half: Table, groups: tuple[tuple[tuple[int, ...], ...], ...],
            known: Answers | None) -> list[Chances]:
    """The states of :func:`_merged_forward` after 0, 1, ... ``count`` criticals, with their
    chances: how many slots of each class (``groups``: the members of each, by location of
    ``reach``) were struck, and how many criticals found nothing left. With ``known``, worked out
    once per shape (:func:`_shape`) and kept by it: the chances depend on each class's size and on
    which half rows each of its slots lies in, not on which slots they are, so two sets of slots
    of one shape (the right torso's slots left after one check and after another) move alike,
    class for class in the order the shape lists them. The chances are kept as fractions, made
    once per shape, not once per set of slots (a fraction is made in Python, with a gcd); and a set
    of slots whose classes come in the shape's order takes the kept states as they are (the Daishi
    X's right torso: 651 sets of slots, 27 shapes, 31,349 states named)."""
    if known is None:
        return [_chances(layer) for layer in _layers_of(reach, count, reroll, half, groups, None)]
    shape, order = _shape(reach, groups, half, known)
    key = ("layers", shape, count, reroll, half)
    kept: list[Chances] | None = known.peek(key)
    if kept is None:
        worked = [_chances(layer) for layer in _layers_of(reach, count, reroll, half, groups, known)]
        kept = [tuple([((tuple([tuple([taken[pos][ci] for ci in o]) for pos, o in enumerate(order)]), lost), p)
                       for (taken, lost), p in layer]) for layer in worked]
        known.put(key, kept)
        return worked
    back = [sorted(range(len(o)), key=o.__getitem__) for o in order]  # each class's place in the shape's order
    if all(b == sorted(b) for b in back):
        return kept
    return [tuple([((tuple([tuple([taken[pos][j] for j in b]) for pos, b in enumerate(back)]), lost), p)
                   for (taken, lost), p in layer]) for layer in kept]


def _shape(reach: Reach, groups: tuple[tuple[tuple[int, ...], ...], ...], half: Table,
           known: Answers) -> tuple[Any, list[list[int]]]:
    """What the chances of :func:`_layers` read of ``reach`` and its classes: for each location its
    number of slots and its classes, each as its members' rows (:func:`slot_weights` gives a slot
    its chance by whether it lies in the upper half and by which rows of the half roll reach it,
    shared among the slots left in each), the classes sorted; and for each location the order of
    its classes in that list."""
    rows = tuple([first for first, _, _ in half_rolls(half, known=known)])
    shape = []
    order = []
    for (_, _, size, _), cls in zip(reach, groups):
        sigs = [tuple([(i < 6, tuple([first - 1 <= i < first + 5 for first in rows])) if size > 6 else ()
                       for i in m]) for m in cls]
        o = sorted(range(len(cls)), key=sigs.__getitem__)
        order.append(o)
        shape.append((size, tuple([sigs[ci] for ci in o])))
    return tuple(shape), order


def _layers_of(reach: Reach, count: int, reroll: str, half: Table, groups: tuple[tuple[tuple[int, ...], ...], ...],
               known: Answers | None) -> list[Layer]:
    """:func:`_layers` worked out: the chances carried forward one critical after another."""
    start: State = (tuple(tuple(0 for _ in cls) for cls in groups), 0)
    layer: dict[State, list[int]] = {start: [1, 1]}  # chance as [numerator, denominator]
    out: list[Layer] = [((start, 1, 1),)]
    # where the next critical goes from a count of each class struck: the location it lands in
    # and each class's next count with its chance (pn / pd), or None when nothing is left (the same
    # counts are met in many states of a layer and in every layer after)
    moves: dict[tuple[tuple[int, ...], ...], Any] = {}

    def next_from(taken: tuple[tuple[int, ...], ...]) -> Any:
        for pos, cls in enumerate(groups):  # the first location with a slot left
            counts = taken[pos]
            for m, c in zip(cls, counts):
                if len(m) > c:
                    break
            else:
                continue
            break
        else:  # nothing left anywhere: the critical is lost
            return None
        left = [i for m, c in zip(cls, counts) for i in m[c:]]
        left.sort()
        weights, pd = slot_weights(reach[pos][2], tuple(left), reroll, half, known=known)
        chance = dict(weights)
        out = []
        for ci, (m, c) in enumerate(zip(cls, counts)):
            if len(m) <= c:
                continue
            pn = sum([chance[i] for i in m[c:]])  # the class's chance: pn / pd
            more = counts[:ci] + (c + 1,) + counts[ci + 1:]
            out.append((taken[:pos] + (more,) + taken[pos + 1:], pn))
        return tuple(out), pd

    for _ in range(count):
        nxt: dict[State, list[int]] = {}
        for (taken, lost), (an, ad) in layer.items():
            found = moves.get(taken, moves)
            if found is moves:
                found = moves[taken] = next_from(taken)
            if found is None:
                _put(nxt, (taken, lost + 1), an, ad)
                continue
            after, pd = found
            for more, pn in after:
                _put(nxt, (more, lost), an * pn, ad * pd)
        layer = nxt
        out.append(tuple([(st, n, d) for st, (n, d) in layer.items()]))
    return out


def _put(acc: dict[Any, list[int]], key: Any, num: int, den: int) -> None:
    """acc[key] += num/den in whole numbers (:func:`_add`)."""
    found = acc.get(key)
    if found is None:
        acc[key] = [num, den]
    else:
        add_fraction(found, num, den)


def merged_by_slots(reach: Reach, count: int, reroll: str, half: Table, classes: Classes,
                    known: Answers | None = None) -> tuple[tuple[tuple[Pick, ...], Fraction], ...]:
    """:func:`merged_odds` the long way: every set of slots (:func:`picks_odds`), then merged
    (:func:`merge_picks`). For the tests, which hold :func:`merged_odds` to it."""
    from fractions import Fraction

    out: dict[tuple[Pick, ...], Fraction] = {}
    for answer, p in picks_odds(reach, count, reroll, half, known=known):
        key = merge_picks(answer, classes, known=known)
        out[key] = out.get(key, Fraction(0)) + p
    return tuple(sorted(out.items(), key=_by_picks))


def slot_classes(view: Any, slots: Sequence[Mapping[str, Any]], ok: Sequence[int],
                 known: Answers | None = None) -> tuple[int, ...]:
    """For each slot in ``ok``, the first slot in ``ok`` that is interchangeable with it.

    Two slots are interchangeable when swapping them changes nothing the rules can see: they
    lie in the same half of the location and hold the same thing in the same state, either
    slots of one item (the five slots of an LRM 20) or single-slot items alike in every
    respect (two full LRM-20 bins, two rear medium lasers). Exact odds strike the first slot
    of a class with the chance of the whole class (:func:`merge_picks`): the odds of every
    outcome a player can tell apart stay exact, with far fewer states to follow.
    """
    items = tuple(freeze(view.item(slots[i].get("item"))) for i in ok)
    return _classes(len(slots), tuple(freeze(slots[i]) for i in ok), tuple(ok), items, known=known)


@_kept
def _classes(size: int, slots: tuple[Data, ...], ok: tuple[int, ...], items: tuple[Data | None, ...],
             known: Answers | None = None) -> tuple[int, ...]:
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
