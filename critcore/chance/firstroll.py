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
from typing import Any, Callable

from critcore.chance.enumeration import EnumeratingRoller, _weights_of, add_to, enumerate_weights
from critcore.dice.dice import parse
from critcore.errors import PluginError

Weights = tuple[dict[Any, list[int]], list[int]]


def by_first_roll(run: Callable[[EnumeratingRoller], Any], first: tuple[EnumeratingRoller, Any, bool], spec: Any,
                  runs: list[int], tolerance: Fraction, cut: tuple[int, int], runs_limit: int) -> Weights | None:
    """The stage's answers (``[numerator, denominator]`` each) and what was cut off, from the
    look-up ``spec`` and runs below the totals it leaves open; None when the first run (``first``,
    made on the empty path with the cut-off ``tolerance``) does not match the look-up (the
    caller then enumerates the stage as usual, from that run). ``runs`` counts the runs made;
    ``runs_limit`` bounds them as it bounds the whole enumeration's."""
    notation, _, answers = spec
    weighted, den = _weights_of(parse(notation) if isinstance(notation, str) else notation)
    if not weighted or not all(0 <= total < len(answers) for total, _ in weighted):
        return None
    roller, answer, _ = first
    if not roller.widths or roller.widths[0] != len(weighted):
        return None  # the stage did not start with a roll of the declared dice
    fixed = answers[weighted[0][0]]
    if fixed is not None and (len(roller.widths) != 1 or roller.lost[0] or answer != tuple(fixed)):
        return None  # it rolled again, or answered otherwise, where the look-up says it stops
    # the order of the whole enumeration: the first total's runs, then the others from the highest
    order = [0, *range(len(weighted) - 1, 0, -1)]
    start = runs[0]
    cutoff = tolerance
    for _ in range(6):  # as enumerate_weights_within: lower the cut-off while too much is cut
        dist: dict[Any, list[int]] = {}
        lost = [0, 1]
        for i in order:
            total, w = weighted[i]
            fixed = answers[total]
            if fixed is not None:
                key = answer if i == 0 else tuple(fixed)  # the first run's own answer: the one met first
                acc = dist.get(key)
                if acc is None:
                    dist[key] = [w, den]
                else:
                    add_to(acc, w, den)
                continue
            found, cut_i = enumerate_weights(run, cutoff, runs_limit - (runs[0] - start), root=(i,))
            for key, (n, d) in found.items():
                acc = dist.get(key)
                if acc is None:
                    dist[key] = [n, d]
                else:
                    add_to(acc, n, d)
            if cut_i[0]:
                add_to(lost, *cut_i)
        if not lost[0] or lost[0] * tolerance.denominator < tolerance.numerator * lost[1]:
            break
        cutoff /= 1000
    return dist, lost


def agrees(spec: Any, found: Weights, whole: Weights) -> None:
    """Under ``checking_keys``: the look-up's answers are those of the whole enumeration."""
    def fractions(w: Weights) -> tuple[dict[Any, Fraction], Fraction]:
        return {k: Fraction(n, d) for k, (n, d) in w[0].items()}, Fraction(*w[1])

    if fractions(found) != fractions(whole):
        raise PluginError(f"{spec[1]}: the effects given by critcore_effect_lookup are not those of the effect "
                          "stage (run for every total, it answers otherwise)")
