"""Dice.iterate's ``odds`` (issue 25): one step's closed form, as Dice.choose's odds are one
roll's. Exact odds take it instead of running the step once per answer, with the same answers,
the same chances and the same order; real dice and simulations never call it; and
checking_keys holds it to its promise."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from runlength import examples

from critcore.chance.enumeration import checking_keys, enumerate_runs, enumerate_weights
from critcore.dice.dice import Dice
from critcore.dice.rollers import ScriptedRoller
from critcore.errors import PluginError

# The state: (points so far, d6 left to roll). A d6 scores 2 on a 6, 1 on a 4 or 5, nothing
# on 1 to 3: one step's answers have chances 1/2, 1/3 and 1/6.


def score(d, state):
    points, left = state
    face = d.roll("1d6", "scoring die").total
    return points + (2 if face == 6 else 1 if face >= 4 else 0), left - 1


def score_odds(state):
    """The step's closed form, from the rule above (not from running ``score``)."""
    points, left = state
    return [((points, left - 1), Fraction(1, 2)), ((points + 1, left - 1), Fraction(1, 3)),
            ((points + 2, left - 1), Fraction(1, 6))]


def finished(state):
    return state[1] == 0


def run(odds, start=(0, 2), merge=None):
    return enumerate_weights(lambda r: Dice(r).iterate(start, score, finished, "scoring dice", merge=merge,
                                                       odds=odds))[0]


def as_fractions(found):
    return {answer: Fraction(n, d) for answer, (n, d) in found.items()}


def test_two_scoring_dice_from_the_closed_form_have_the_rules_odds():
    """Two dice: 0 points needs both to score nothing (1/2 x 1/2 = 1/4); 4 points needs two
    sixes (1/36); 2 points is 1 and 1 or 2 and 0 either way (1/3 x 1/3 + 2 x 1/6 x 1/2 = 5/18)."""
    found = as_fractions(run(score_odds))
    assert found[(0, 0)] == Fraction(1, 4)
    assert found[(4, 0)] == Fraction(1, 36)
    assert found[(2, 0)] == Fraction(5, 18)
    assert sum(found.values()) == 1


def test_the_closed_form_gives_what_the_enumeration_gives_in_the_same_order():
    """The same outcomes, chances and order with and without ``odds`` (the order a report lists
    outcomes of equal chance in): the die's totals are met 1, then 6 down to 2, so its scores
    0, 2, 1, the order in which a choose on the closed form (0, 1, 2) meets them too."""
    with_odds, without = run(score_odds), run(None)
    assert list(as_fractions(with_odds).items()) == list(as_fractions(without).items())


def test_the_step_is_not_run_when_its_closed_form_is_given():
    """With ``odds`` every step from a state that gives one is the closed form: ``score`` is
    never called under exact odds."""
    def never(d, state):
        raise AssertionError("exact odds ran the step")

    found = enumerate_runs(lambda r: Dice(r).iterate((0, 1), never, finished, "scoring dice", odds=score_odds))[0]
    assert found == {(0, 0): Fraction(1, 2), (1, 0): Fraction(1, 3), (2, 0): Fraction(1, 6)}


def test_a_step_without_a_closed_form_is_enumerated():
    """``odds`` answering None for a state leaves that step to the enumeration: here the
    second die only (so the answers are those of the rules all the same)."""
    def first_only(state):
        return score_odds(state) if state[1] == 2 else None

    assert as_fractions(run(first_only)) == as_fractions(run(None))


def test_each_closed_answer_goes_through_merge():
    """Points capped at 2 by ``merge``: 2 points or more from two dice is 1 - 1/4 - 1/3 x 1/2 x 2
    = 5/12 (the 1-point outcomes: one die 1, the other 0, 2 x 1/3 x 1/2 = 1/3)."""
    found = as_fractions(run(score_odds, merge=lambda s: (min(s[0], 2), s[1])))
    assert found == {(0, 0): Fraction(1, 4), (1, 0): Fraction(1, 3), (2, 0): Fraction(5, 12)}


def test_real_dice_and_simulations_never_call_it():
    """A 6 then a 4 typed in: 3 points, the step rolled as the rules say; the closed form is for
    exact odds only. A simulation rolls every step too."""
    from critcore.chance.montecarlo import SamplingDice

    def never(state):
        raise AssertionError("odds called outside exact odds")

    assert Dice(ScriptedRoller("6,4")).iterate((0, 2), score, finished, "scoring dice", odds=never) == (3, 0)
    assert SamplingDice(7).iterate((0, 2), score, finished, "scoring dice", odds=never)[1] == 0


def test_a_closed_form_that_is_not_the_steps_is_caught_under_checking_keys():
    """A closed form that scores a 5 as nothing (1/2 -> 2/3 for no point) is not the step's:
    under checking_keys that is a PluginError naming the label."""
    def wrong(state):
        points, left = state
        return [((points, left - 1), Fraction(2, 3)), ((points + 2, left - 1), Fraction(1, 3))]

    with checking_keys(), pytest.raises(PluginError, match="scoring dice: the odds given to Dice.iterate are not "
                                                           "those of its step"):
        run(wrong)


def test_a_true_closed_form_passes_the_check():
    """Under checking_keys the closed form is compared with the step's enumeration: the rules'
    odds pass, with the same answers as without the check."""
    with checking_keys():
        found = as_fractions(run(score_odds))
    assert found == as_fractions(run(None))


@pytest.mark.parametrize("odds", [
    lambda s: [((s[0], s[1] - 1), Fraction(1, 2))],
    lambda s: [((s[0], s[1] - 1), Fraction(3, 2)), ((s[0] + 1, s[1] - 1), Fraction(-1, 2))],
], ids=["short-of-one", "negative"])
def test_a_closed_form_that_is_not_a_distribution_is_refused(odds):
    """Chances that do not add up to 1, or a negative one, are a PluginError naming the label
    (the same promise as Dice.choose's odds)."""
    with pytest.raises(PluginError, match="scoring dice: the odds given to Dice.iterate must be probabilities"):
        run(odds)


def test_a_closed_form_given_as_a_generator_is_read_once_whole():
    """``odds`` may give its answers as any iterable (a generator here): the same odds as a list."""
    assert as_fractions(run(lambda s: (pair for pair in score_odds(s)))) == as_fractions(run(score_odds))


@settings(max_examples=examples(60, 600), deadline=None)
@given(st.lists(st.integers(0, 3), min_size=2, max_size=8), st.integers(1, 3), st.none() | st.integers(1, 4))
def test_any_closed_form_of_a_die_step_gives_the_enumerations_outcomes(points, dice, cap):
    """A step that rolls one die of len(points) faces and scores points[face - 1], ``dice`` times,
    points capped at ``cap`` by merge when given: the closed form (each score with its share of
    the faces, counted here from ``points``) gives the same outcomes with the same chances as the
    step enumerated, and passes the check of checking_keys. (Their order is that of a step that
    is one Dice.choose on the closed form: the next test.)"""
    sides = len(points)

    def step(d, state):
        total, left = state
        return total + points[d.roll(f"1d{sides}", "scoring die").total - 1], left - 1

    def closed(state):
        total, left = state
        shares: dict[tuple[int, int], Fraction] = {}
        for p in points:
            answer = (total + p, left - 1)
            shares[answer] = shares.get(answer, Fraction(0)) + Fraction(1, sides)
        return list(shares.items())

    merge = None if cap is None else (lambda s: (min(s[0], cap), s[1]))

    def odds_of(odds):
        found = enumerate_weights(lambda r: Dice(r).iterate((0, dice), step, finished, "die", merge=merge,
                                                            odds=odds))[0]
        return as_fractions(found)

    assert odds_of(closed) == odds_of(None)
    with checking_keys():
        assert odds_of(closed) == odds_of(None)


@settings(max_examples=examples(60, 600), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(1, 6)), min_size=1, max_size=8), st.integers(1, 3))
def test_a_closed_form_meets_its_outcomes_as_a_step_that_chooses_on_it(shares, dice):
    """The order of the outcomes (a report lists equal chances in it) is the order an enumeration
    meets the answers of a step that is one Dice.choose on the same odds: the closed form read as
    it is gives that order exactly, whatever the answers and their weights."""
    total = sum(w for _, w in shares)

    def closed(state):
        points, left = state
        found: dict[tuple[int, int], Fraction] = {}
        for p, w in shares:
            answer = (points + p, left - 1)
            found[answer] = found.get(answer, Fraction(0)) + Fraction(w, total)
        return list(found.items())

    def chooses(d, state):
        return d.choose(lambda dd: (_ for _ in ()).throw(AssertionError("rolled")), lambda: closed(state), "pick")

    def odds_of(step, odds):
        found = enumerate_weights(lambda r: Dice(r).iterate((0, dice), step, finished, "picks", odds=odds))[0]
        return list(as_fractions(found).items())

    assert odds_of(chooses, closed) == odds_of(chooses, None)
