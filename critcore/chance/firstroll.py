"""An effect stage read from its declared look-up on its first roll (``critcore_effect_lookup``).

A critical table's row is decided by one roll of its dice; most rows end the stage there (the
row is the answer), a few roll again (a weapon that flies rolls its yards). When the system
declares, for the answers so far, ``RollLookup(dice, label, answers)`` (``answers[t]`` the
effects after total ``t``, or ``None`` where the stage goes on rolling), exact odds run the
stage once on the lowest total and, when that run matches the declaration, take every other
total's answer from ``answers`` with the roll's weight and run the stage only below the totals
that have none. The answers, their probabilities and the order in which they are met are those
of the whole enumeration: the enumeration visits the first total's runs, then the highest
total's, then the next lower, and so does this. Under
:func:`~critcore.chance.enumeration.checking_keys` the whole enumeration is made as well and
the two must agree (:func:`agrees`).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable

from critcore.chance.enumeration import EnumeratingRoller, _weights_of, add_to, enumerate_weights
from critcore.dice.notation import parse
from critcore.errors import PluginError
from critcore.stages.hookspecs import RollLookup

Weights = tuple[dict[Any, list[int]], list[int]]


def lookup_weights(spec: Any) -> Any:
    """The weights of the look-up's roll, or None when some total it can show has no place in
    its answers."""
    notation, _, answers = spec
    weighted, den, highest = _spread_text(notation) if isinstance(notation, str) else _spread(notation)
    return (weighted, den) if highest < len(answers) else None


@lru_cache(maxsize=256)
def _spread_text(notation: str) -> tuple[Any, int, int]:
    """:func:`_spread` of a notation, kept by its text (a str's hash is kept by the str: a
    ``DiceExpr``'s is worked out in Python at each look-up)."""
    return _spread(parse(notation))


@lru_cache(maxsize=256)
def _spread(expr: Any) -> tuple[Any, int, int]:
    """The roll's weights and its highest total (totals are never below 0 where a look-up is used:
    a negative one is given as highest, so that no look-up is taken)."""
    weighted, den = _weights_of(expr)
    totals = [total for total, _ in weighted]
    return weighted, den, (max(totals) if totals and min(totals) >= 0 else 1 << 62)


def _every_roll_fits(spec: Any) -> bool:
    """Whether every roll of the look-up, the next rolls included, has a place for each total
    it can show (a look-up that does not is not taken: the stage is enumerated as usual)."""
    if lookup_weights(spec) is None:
        return False
    return all(_every_roll_fits(nxt) for nxt in spec[2] if isinstance(nxt, RollLookup))


def _first_path_matches(spec: Any, roller: EnumeratingRoller, answer: Any) -> bool:
    """The first run (every roll its first result) made the rolls the look-up declares along
    that path, and, where the look-up answers, nothing more and that answer."""
    level = 0
    while True:
        found = lookup_weights(spec)
        if found is None or len(roller.widths) <= level or roller.widths[level] != len(found[0]):
            return False
        nxt = spec[2][found[0][0][0]]
        if nxt is None:
            return True
        level += 1
        if isinstance(nxt, RollLookup):  # the next roll
            spec = nxt
            continue
        return len(roller.widths) == level and not roller.lost[0] and answer == tuple(nxt)


def by_first_roll(run: Callable[[EnumeratingRoller], Any], first: tuple[EnumeratingRoller, Any, bool], spec: Any,
                  runs: list[int], tolerance: Fraction, cut: tuple[int, int], runs_limit: int) -> Weights | None:
    """The stage's answers (``[numerator, denominator]`` each) and what was cut off, from the
    look-up ``spec`` and runs below the totals it leaves open; None when the first run (``first``,
    made on the empty path with the cut-off ``tolerance``) does not match the look-up (the
    caller then enumerates the stage as usual, from that run). ``runs`` counts the runs made;
    ``runs_limit`` bounds them as it bounds the whole enumeration's.

    An answer may itself be a ``RollLookup``: the stage's next roll, and its answers by that
    roll's total. A run the enumeration would stop before that roll (its chance below the
    cut-off) is stopped here too, and what it held is cut off as there."""
    roller, answer, _ = first
    if not _every_roll_fits(spec) or not _first_path_matches(spec, roller, answer):
        return None
    start = runs[0]
    cutoff = tolerance

    def walk(spec: Any, path: tuple[int, ...], num: int, den: int) -> None:
        weighted, wden = lookup_weights(spec)
        answers = spec[2]
        for i in _order(len(weighted)):
            total, w = weighted[i]
            fixed = answers[total]
            if fixed.__class__ is tuple:  # the effects (most totals): merged with the equal ones met before
                if fresh[0]:  # the first run's own answer: the one met first
                    key, fresh[0] = answer, False
                else:
                    key = fixed
                n, d = num * w, den * wden
                acc = dist.get(key)
                if acc is None:
                    dist[key] = [n, d]
                elif acc[1] == d:  # one roll's weights: the same denominator (add_to's first case)
                    acc[0] += n
                else:
                    add_to(acc, n, d)
            elif fixed is None:
                found, cut_i = enumerate_weights(run, cutoff, runs_limit - (runs[0] - start), root=(*path, i))
                for key, (fn, fd) in found.items():
                    acc = dist.get(key)
                    if acc is None:
                        dist[key] = [fn, fd]
                    else:
                        add_to(acc, fn, fd)
                if cut_i[0]:
                    add_to(lost, *cut_i)
                fresh[0] = False
            elif isinstance(fixed, RollLookup):
                n, d = num * w, den * wden
                if cutoff.numerator and n * cutoff.denominator < cutoff.numerator * d:
                    add_to(lost, n, d)  # below the cut-off and rolling again: cut off, as a run would be
                    fresh[0] = False
                else:
                    walk(fixed, (*path, i), n, d)
            else:
                if fresh[0]:  # the first run's own answer: the one met first
                    key, fresh[0] = answer, False
                else:
                    key = fixed if type(fixed) is tuple else tuple(fixed)
                acc = dist.get(key)
                if acc is None:
                    dist[key] = [num * w, den * wden]
                else:
                    add_to(acc, num * w, den * wden)

    for _ in range(6):  # as enumerate_weights_within: lower the cut-off while too much is cut
        dist: dict[Any, list[int]] = {}
        lost = [0, 1]
        fresh = [True]  # no answer met yet: the next is the first run's (every roll its first result)
        walk(spec, (), 1, 1)
        if not lost[0] or lost[0] * tolerance.denominator < tolerance.numerator * lost[1]:
            break
        cutoff /= 1000
    return dist, lost


@lru_cache(maxsize=64)
def _order(results: int) -> tuple[int, ...]:
    """The order in which the whole enumeration meets a roll's results: the first, then the
    others from the last (its runs are a stack)."""
    return (0, *range(results - 1, 0, -1))


def agrees(spec: Any, found: Weights, whole: Weights) -> None:
    """Under ``checking_keys``: the look-up's answers are those of the whole enumeration."""
    def fractions(w: Weights) -> tuple[dict[Any, Fraction], Fraction]:
        return {k: Fraction(n, d) for k, (n, d) in w[0].items()}, Fraction(*w[1])

    if fractions(found) != fractions(whole):
        raise PluginError(f"{spec[1]}: the effects given by critcore_effect_lookup are not those of the effect "
                          "stage (run for every total, it answers otherwise)")
