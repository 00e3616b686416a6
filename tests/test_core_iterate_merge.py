"""Dice.iterate's ``merge`` (issue 13, "one declared way"): a plugin writes one code path whose
state carries the story of how it was reached; real dice keep it, exact odds leave out what
``merge`` says is not the state's identity, and checking_keys holds ``merge`` to its promise."""

from fractions import Fraction

import pytest

from critcore.dice.dice import Dice
from critcore.dice.rollers import ScriptedRoller
from critcore.chance.enumeration import checking_keys, enumerate_runs
from critcore.errors import PluginError

# A state: (evens so far, coins left to toss, the story: one line per toss). A coin is a d6,
# even or odd.


def toss(d, state):
    evens, left, story = state
    total = d.roll("1d6", "coin").total
    return evens + (total % 2 == 0), left - 1, story + (f"{total}: {'even' if total % 2 == 0 else 'odd'}",)


def untold(state):
    """The state without its story (what nothing after reads)."""
    return state if not state[2] else (state[0], state[1], ())


def finished(state):
    return state[1] == 0


def test_real_dice_keep_the_story_and_never_call_merge():
    """Two tosses typed in as 2 and 3: one even, the story says both, in order; merge is for
    exact odds only and is never called."""
    def never(state):
        raise AssertionError("real dice called merge")

    d = Dice(ScriptedRoller("2,3"))
    assert d.iterate((0, 2, ()), toss, finished, "coins", merge=never) == (1, 0, ("2: even", "3: odd"))


def test_exact_odds_leave_out_what_merge_leaves_out_and_step_once_per_merged_state():
    """Two tosses under exact odds: 0, 1 or 2 evens with 1/4, 1/2, 1/4 and no story. The step
    runs from the three merged states (0 or 1 evens with one toss left, the start), not from
    every story (each of the six faces would be a state of its own after the first toss)."""
    stepped = []

    def counted(d, state):
        stepped.append(state)
        return toss(d, state)

    result, remainder = enumerate_runs(
        lambda r: Dice(r).iterate((0, 2, ("start",)), counted, finished, "coins", merge=untold))
    assert remainder == 0
    assert result == {(0, 0, ()): Fraction(1, 4), (1, 0, ()): Fraction(1, 2), (2, 0, ()): Fraction(1, 4)}
    assert set(stepped) == {(0, 2, ()), (0, 1, ()), (1, 1, ())}


def test_a_truthful_merge_passes_the_check():
    """Under checking_keys every state met before merging is stepped too: the story is read by
    nothing, so the coins pass (the same odds as without the check)."""
    with checking_keys():
        result, _ = enumerate_runs(lambda r: Dice(r).iterate((0, 2, ()), toss, finished, "coins", merge=untold)[0])
    assert result == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}


def test_a_merge_that_leaves_out_what_the_step_reads_is_caught():
    """Count the d6 rolls that reach 5, a 6 giving the next roll +1 (it then reaches 5 on a
    4: 1/2 instead of 1/3): the bonus is read by the next step, and a merge that drops it makes
    the odds wrong. Under checking_keys that is a PluginError naming the label."""
    def with_bonus(d, state):
        hits, left, bonus = state
        total = d.roll("1d6", "bonus roll").total
        return hits + (total + bonus >= 5), left - 1, int(total == 6)

    def drop_bonus(state):
        return (state[0], state[1], 0)

    with checking_keys(), pytest.raises(PluginError, match="bonus rolls: the merge given to Dice.iterate leaves out"):
        enumerate_runs(lambda r: Dice(r).iterate((0, 2, 0), with_bonus, finished, "bonus rolls", merge=drop_bonus))


@pytest.mark.parametrize("merge, message", [
    (lambda s: (s[0], s[1], s[2] + ("merged",)), "must give a merged state back unchanged"),
    (lambda s: (s[0], 0, ()), "must be finished alike"),
], ids=["not-idempotent", "changes-done"])
def test_a_merge_that_breaks_its_promise_is_caught(merge, message):
    """A merge that changes its own answer again, or that finishes a state its step would go
    on from, is a PluginError under checking_keys."""
    with checking_keys(), pytest.raises(PluginError, match=message):
        enumerate_runs(lambda r: Dice(r).iterate((0, 2, ()), toss, finished, "coins", merge=merge))


def test_keep_gives_a_kept_value_as_these_dice_keep_what_they_carry():
    """Dice.keep: a value kept from an earlier run (a memo's answer) comes back whole with real
    dice, and as ``merge`` leaves it under exact odds and in a simulation, as iterate would
    have left a state with the same merge."""
    from critcore.chance.montecarlo import SamplingDice

    kept = (1, 0, ("2: even", "3: odd"))
    assert Dice(ScriptedRoller("1")).keep(kept, untold) is kept
    result, remainder = enumerate_runs(lambda r: Dice(r).keep(kept, untold))
    assert remainder == 0 and result == {(1, 0, ()): Fraction(1)}
    assert SamplingDice(7).keep(kept, untold) == (1, 0, ())


def test_a_simulation_keeps_what_exact_odds_keep():
    """A simulation rolls every toss, as real dice do, and counts the state as exact odds keep
    it (merge on what iterate returns), so the two can be compared outcome by outcome."""
    from critcore.chance.montecarlo import SamplingDice

    assert SamplingDice(7).iterate((0, 2, ("start",)), toss, finished, "coins", merge=untold)[2] == ()


def test_a_simulations_dice_answer_everything_a_stage_may_ask_of_dice():
    """A stage is handed a Dice with real dice and exact odds and a SamplingDice in a
    simulation: every public method of Dice is there too (Dice.keep was once missing, which a
    kept answer met in a simulation would have turned into an AttributeError)."""
    from critcore.chance.montecarlo import SamplingDice

    public = {n for n in dir(Dice) if not n.startswith("_")} - {"roller"}  # the roller: real dice only
    assert public <= set(dir(SamplingDice))
