"""Dice notation, success tests, rollers and exact enumeration."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from critcore.dice.dice import Dice
from critcore.dice.notation import DiceExpr, SuccessTest, make_test, parse
from critcore.dice.rollers import PromptRoller, RandomRoller, ScriptedRoller, parse_faces
from critcore.chance.enumeration import enumerate_runs, enumerate_within
from critcore.errors import Aborted, DiceError


@pytest.mark.parametrize(
    "text, expected",
    [
        ("3d6", DiceExpr(3, 6)),
        ("d6", DiceExpr(1, 6)),
        ("d", DiceExpr(1, 6)),  # GURPS: a bare d is a d6
        ("2d+1", DiceExpr(2, 6, 1)),
        ("3d-3", DiceExpr(3, 6, -3)),
        ("1d6x10", DiceExpr(1, 6, 0, 10)),
        ("1d6/2", DiceExpr(1, 6, 0, 1, 2)),
        ("2D10", DiceExpr(2, 10)),
        (" 1d20 + 5 ", DiceExpr(1, 20, 5)),
    ],
)
def test_notation_parses(text, expected):
    assert parse(text) == expected


def test_notation_ranges():
    """2d+1 runs 3..13; 1d6x10 runs 10..60; 1d6/2 halves rounding up, so 1..3."""
    assert (parse("2d+1").minimum, parse("2d+1").maximum) == (3, 13)
    assert (parse("1d6x10").minimum, parse("1d6x10").maximum) == (10, 60)
    assert [v for v, _ in parse("1d6/2").distribution()] == [1, 2, 3]


@pytest.mark.parametrize("bad", ["", "3", "d0", "0d6", "1d1", "3d6+", "2d6*", "1000d6", "1d100000", "3d6; rm", "abc",
                                 "1d6x0", "1d6/0", "__import__('os')"])
def test_bad_notation_is_a_dice_error(bad):
    with pytest.raises(DiceError):
        parse(bad)


def test_3d6_distribution_is_exact():
    """3d6: 27 of 216 ways make 10, one way makes 3, all 216 ways accounted for."""
    dist = dict(parse("3d6").distribution())
    assert dist[10] == Fraction(27, 216)
    assert dist[3] == Fraction(1, 216)
    assert dist[18] == Fraction(1, 216)
    assert sum(dist.values()) == 1
    assert len(dist) == 16


@pytest.mark.parametrize(
    "tn, p",
    [
        (1, Fraction(5, 6)),  # below 2 counts as 2
        (2, Fraction(5, 6)),
        (4, Fraction(3, 6)),
        (6, Fraction(1, 6)),
        (7, Fraction(1, 6)),  # 6, then anything
        (8, Fraction(1, 6) * Fraction(5, 6)),  # 6, then 2+
        (10, Fraction(1, 6) * Fraction(3, 6)),  # 6, then 4+
        (12, Fraction(1, 36)),  # 6, then 6
        (13, Fraction(1, 36)),  # 6, 6, then 1+
    ],
)
def test_rule_of_six_probability_per_die(tn, p):
    assert SuccessTest(1, tn).p_die == p


def test_success_distribution_separates_rule_of_one():
    """Two dice at TN 4: all ones is 1/36 and is a disaster; P(0 successes) is 1/4 in all."""
    dist = dict(SuccessTest(2, 4).distribution())
    assert dist[(0, True)] == Fraction(1, 36)
    assert dist[(0, False)] + dist[(0, True)] == Fraction(1, 4)
    assert dist[(2, False)] == Fraction(1, 4)
    assert sum(dist.values()) == 1


def test_scripted_faces_exploding_die_extra_face_follows_it():
    """TN 8, faces 6,2 | 3 | 6,1: the first die is 6+2=8 (success), the third 6+1=7 (not)."""
    roll = Dice(ScriptedRoller("6,2,3,6,1")).test(3, 8, "Body check")
    assert roll.successes == 1
    assert roll.faces == (6, 2, 3, 6, 1)


def test_scripted_no_extra_face_when_six_already_succeeds():
    """At TN 5 a 6 is enough: nobody rolls it again, so the next face is the next die."""
    roll = Dice(ScriptedRoller("6,5")).test(2, 5, "check")
    assert roll.successes == 2


def test_rule_of_one_is_recorded():
    roll = Dice(ScriptedRoller("1,1,1")).test(3, 4, "check")
    assert roll.successes == 0 and "rule of one" in roll.detail


def test_scripted_face_out_of_range_names_the_roll():
    with pytest.raises(DiceError, match="attack roll"):
        Dice(ScriptedRoller("7,1,1")).roll("3d6", "attack roll")


def test_scripted_too_few_faces_names_the_roll():
    with pytest.raises(DiceError, match="damage.*needs 1 more"):
        Dice(ScriptedRoller("3,4")).roll("3d6", "damage")


def test_scripted_faces_parse_errors():
    with pytest.raises(DiceError):
        parse_faces("6,x,5")
    with pytest.raises(DiceError):
        parse_faces("  ")


def test_seed_reproduces_every_roll():
    a, b = Dice(RandomRoller(42)), Dice(RandomRoller(42))
    for d in (a, b):
        d.roll("3d6", "one")
        d.test(6, 9, "two")
        d.roll("1d6x10", "three")
    assert a.rolls == b.rolls


def test_random_faces_stay_on_the_die():
    d = Dice(RandomRoller(1))
    for _ in range(500):
        r = d.roll("2d6", "x")
        assert all(1 <= f <= 6 for f in r.faces) and r.total == sum(r.faces)


def test_prompt_roller_asks_with_label_and_accepts_a_total():
    asked = []
    answers = iter(["oops", "9", "4 5 6"])
    roller = PromptRoller(lambda q: (asked.append(q), next(answers))[1], lambda m: asked.append("!" + m))
    d = Dice(roller)
    assert d.roll("2d6", "location").total == 9
    assert d.roll("3d6", "attack").faces == (4, 5, 6)
    assert "location" in asked[0] and asked[1].startswith("!")


def test_prompt_roller_asks_again_for_a_six_under_rule_of_six():
    answers = iter(["6 3", "4"])
    d = Dice(PromptRoller(lambda q: next(answers), lambda m: None))
    roll = d.test(2, 9, "Body")
    assert roll.successes == 1 and roll.faces == (6, 4, 3)


def test_prompt_says_when_a_die_stops_being_rolled_again():
    """Rule of Six (issue 28): a 6 short of the TN is rolled again and added; a die that reached
    the TN is not rolled again, even on a 6. TN 10: the first question says so; die 1 shows 6,
    then 6 (12: done, and the prompt says it is done although it showed a 6); die 2 shows 6, then
    3 (9: no 6, so it stops short); die 3 (a 2) is not asked again."""
    asked = []
    answers = iter(["6 6 2", "6", "3"])
    d = Dice(PromptRoller(lambda q: (asked.append(q), next(answers))[1], lambda m: asked.append("!" + m)))
    roll = d.test(3, 10, "Body")
    assert roll.faces == (6, 6, 6, 3, 2) and roll.successes == 1
    assert "a 6 is rolled again and added until that die reaches 10, then it stops, even on a 6" in asked[0]
    assert "die 1 showed 6 (6 so far" in asked[1] and "stop once the die reaches the TN" in asked[1]
    assert asked[2] == "!die 1 has 12, TN 10 reached: it is done, not rolled again even on a 6"
    assert "die 2 showed 6 (6 so far" in asked[3]
    assert len(asked) == 4


def test_prompt_at_tn_6_or_less_says_no_die_is_rolled_again():
    """TN 6: a 6 already reaches it, so no die is rolled again; the question says so."""
    asked = []
    d = Dice(PromptRoller(lambda q: (asked.append(q), "6 6")[1], lambda m: asked.append("!" + m)))
    assert d.test(2, 6, "Body").faces == (6, 6)
    assert asked == ["Roll 2d6 vs TN 6 for Body (TN 6: no die is rolled again, not even a 6) (2 faces)"]


def test_roll_by_roll_labels_say_when_to_stop():
    """Roll by roll (the web's step, a scripted roller that runs out): each die's question carries
    the stopping rule, and so does the question for a 6 rolled again."""
    from critcore.errors import DiceError

    with pytest.raises(DiceError, match=r"Body \(die 1 of 2; TN 9: a 6 is rolled again and added until that die "
                                        r"reaches 9, then it stops, even on a 6\)"):
        Dice(ScriptedRoller([])).test(2, 9, "Body")
    with pytest.raises(DiceError, match=r"die 1 showed 6 \(6 so far, short of the TN\), roll it again and add it; "
                                        r"stop once the die reaches the TN"):
        Dice(ScriptedRoller([6])).test(2, 9, "Body")


def test_prompt_roller_end_of_input_aborts():
    def ask(_):
        raise EOFError

    with pytest.raises(Aborted):
        Dice(PromptRoller(ask, lambda m: None)).roll("1d6", "x")


def test_enumeration_branches_on_totals_with_exact_probabilities():
    """P(3d6 <= 4) = 4/216; the enumerator visits 16 totals, not 216 faces."""
    runs = []

    def run(roller):
        runs.append(1)
        return Dice(roller).roll("3d6", "x").total <= 4

    result, remainder = enumerate_runs(run)
    assert result[True] == Fraction(4, 216)
    assert remainder == 0 and len(runs) == 16


def test_enumeration_of_success_test():
    """At least one success with 2 dice at TN 8: 1 - (1 - 5/36)^2."""
    result, _ = enumerate_runs(lambda r: Dice(r).test(2, 8, "x").successes >= 1)
    assert result[True] == 1 - (1 - Fraction(5, 36)) ** 2


def test_until_is_exact_under_enumeration():
    """Roll 1d6 again until it is not a 1: each of 2..6 then has probability 1/5, nothing is lost."""

    def not_a_one(d):
        total = d.roll("1d6", "slot").total
        return None if total == 1 else total

    def run(roller):
        return Dice(roller).until(not_a_one, "slot")

    result, remainder = enumerate_runs(run)
    assert remainder == 0
    assert result == {v: Fraction(1, 5) for v in range(2, 7)}


def test_until_records_every_reroll_with_real_dice():
    d = Dice(ScriptedRoller("1,1,4"))
    value = d.until(lambda dd: (lambda t: None if t == 1 else t)(dd.roll("1d6", "slot").total), "slot")
    assert value == 4 and [r.total for r in d.rolls] == [1, 1, 4]


def test_enumeration_cutoff_reports_remainder():
    """An exploding d6 (a 6 adds another roll) has no end: cut off below one part in a
    million per branch, the probabilities found plus the remainder make exactly 1."""

    def run(roller):
        d = Dice(roller)
        total = face = d.roll("1d6", "exploding").total
        while face == 6:
            face = d.roll("1d6", "again").total
            total += face
        return total

    result, remainder = enumerate_within(run, tolerance=Fraction(1, 10**6))
    assert sum(result.values()) + remainder == 1
    assert result[5] == Fraction(1, 6) and result[7] == Fraction(1, 36)
    assert 0 < remainder < Fraction(1, 10**6)


def test_make_test_refuses_absurd_sizes():
    with pytest.raises(DiceError):
        make_test(10_000, 4)
    with pytest.raises(DiceError):
        make_test(3, 1000)


@given(st.text(max_size=40))
def test_any_text_parses_or_raises_dice_error(text):
    try:
        expr = parse(text)
    except DiceError:
        return
    assert 1 <= expr.count and 2 <= expr.sides and expr.minimum <= expr.maximum


@given(st.integers(1, 12), st.sampled_from([4, 6, 8, 10, 12, 20]), st.integers(-20, 20))
def test_parsed_expressions_round_trip_and_sum_to_one(count, sides, plus):
    text = f"{count}d{sides}{plus:+d}" if plus else f"{count}d{sides}"
    expr = parse(text)
    assert parse(expr.notation) == expr
    dist = expr.distribution()
    assert sum(p for _, p in dist) == 1
    assert dist[0][0] == count + plus and dist[-1][0] == count * sides + plus


def test_until_with_a_key_is_enumerated_once():
    """Same label and key: the attempt is enumerated on the first run only; the answer is the same."""
    calls = []

    def attempt(d):
        calls.append(1)
        total = d.roll("1d6", "slot").total
        return None if total <= 2 else total

    def run(roller):
        d = Dice(roller)
        first = d.roll("1d2", "which").total
        return first, d.until(attempt, "slot", key="slots 3-6")

    result, _ = enumerate_runs(run)
    assert result == {(w, v): Fraction(1, 2) * Fraction(1, 4) for w in (1, 2) for v in (3, 4, 5, 6)}
    assert len(calls) == 6  # one enumeration of the six faces, not one per branch of 'which'


def test_random_success_test_matches_face_by_face_rolling():
    """The random roller's fast success test draws the same faces as rolling die by die."""
    from critcore.dice.rollers import FaceRoller

    for seed in range(30):
        fast = RandomRoller(seed).roll_test(SuccessTest(6, 9), "x")
        slow = FaceRoller.roll_test(RandomRoller(seed), SuccessTest(6, 9), "x")
        assert fast == slow


def test_branch_merges_equal_answers_inside_a_run():
    """Two dice whose sum only matters as odd/even: the branch has two answers, 1/2 each."""

    def parity(d):
        return (d.roll("1d6", "a").total + d.roll("1d6", "b").total) % 2

    runs = []

    def run(roller):
        runs.append(1)
        return Dice(roller).branch(parity, "parity", key="two dice")

    result, remainder = enumerate_runs(run)
    assert result == {0: Fraction(1, 2), 1: Fraction(1, 2)} and remainder == 0
    assert len(runs) == 2  # the outer run branches on 2 answers, not 36 faces


def test_branch_with_real_dice_records_the_rolls():
    d = Dice(ScriptedRoller("3,4"))
    assert d.branch(lambda dd: dd.roll("1d6", "a").total + dd.roll("1d6", "b").total, "sum") == 7
    assert [r.label for r in d.rolls] == ["a", "b"]


def test_fold_carries_merged_states_from_step_to_step():
    """Three steps, each adding a d6's parity to a running parity: the final parity is 0 or 1
    with 1/2 each, and each step is enumerated once per distinct state (2), not per path (8)."""
    calls = []

    def step(d, state):
        calls.append(state)
        return (state + d.roll("1d6", "step").total) % 2

    result, remainder = enumerate_runs(lambda r: Dice(r).fold(0, [step, step, step], "parity", key="3 steps"))
    assert result == {0: Fraction(1, 2), 1: Fraction(1, 2)} and remainder == 0
    # six faces for each distinct state at each step (1, then 2, then 2 states); with the key the
    # second outer branch reuses the fold instead of working it out again
    assert len(calls) == 6 * (1 + 2 + 2)


def test_fold_with_real_dice_is_a_loop():
    d = Dice(ScriptedRoller("3,4,5"))
    assert d.fold(0, [lambda dd, s: s + dd.roll("1d6", "x").total] * 3, "sum") == 12


def test_fold_with_a_key_shares_each_step_between_folds():
    """Two folds with the same key start from 5 and from 7, and both reach state 1 after the
    first step: the second step is enumerated once for state 1 (six faces), not once per fold;
    each fold still gives 1 + a d6's parity with 1/2 each."""
    calls = []

    def settle(d, state):
        return min(state, 1)

    def add(d, state):
        calls.append(state)
        return (state + d.roll("1d6", "add").total) % 2

    for start in (5, 7):
        result, remainder = enumerate_runs(
            lambda r, s=start: Dice(r).fold(s, [settle, add], "shared steps", key="settle then add"))
        assert result == {0: Fraction(1, 2), 1: Fraction(1, 2)} and remainder == 0
    assert calls == [1] * 6


def test_iterate_with_real_dice_is_a_loop():
    """Add d6 rolls until the total reaches 10: 4 + 5 + 3 = 12, the fourth die never rolled."""
    d = Dice(ScriptedRoller("4,5,3,6"))
    total = d.iterate(0, lambda dd, s: s + dd.roll("1d6", "add").total, lambda s: s >= 10, "to ten")
    assert total == 12 and len(d.rolls) == 3


def test_iterate_merges_states_and_is_exact():
    """A queue of two coin-like steps (d6 even or odd), each state a count of evens so far and
    what is left to do: the final count is 0, 1 or 2 with 1/4, 1/2, 1/4, and each step runs
    once per distinct state (3 states), never once per path (4 paths)."""
    calls = []

    def step(d, state):
        evens, left = state
        calls.append(state)
        return evens + (d.roll("1d6", "coin").total % 2 == 0), left - 1

    result, remainder = enumerate_runs(
        lambda r: Dice(r).iterate((0, 2), step, lambda s: s[1] == 0, "coins", key="coins")[0])
    assert result == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)} and remainder == 0
    assert sorted(set(calls)) == [(0, 1), (0, 2), (1, 1)] and len(calls) == 6 * 3


def test_iterate_that_may_never_end_shows_a_remainder():
    """Roll a d6 until a 6, counting nothing: the process ends with probability 1 but has no
    last step; states a millionth of the cut-off (1/1000 here) are dropped, and what they held
    is reported as the remainder."""
    def step(d, state):
        return d.roll("1d6", "until six").total == 6

    result, remainder = enumerate_runs(
        lambda r: Dice(r).iterate(False, step, bool, "until six"), cutoff=Fraction(1, 1000))
    assert set(result) == {True}
    assert 0 < remainder < Fraction(1, 10**9) and result[True] + remainder == 1


def test_what_a_branch_cuts_off_counts_in_the_remainder():
    """A branch that rolls a d6 again on every 6, for ever: with a cut-off of 1/1000, after three
    6s in a row (1/216) each face of the fourth roll is a run of 1/1296 < 1/1000. A run is cut off
    only when it would roll again below the cut-off: the five faces that end the branch there are
    counted, and the fourth 6 (1/1296), which would roll again, is the remainder of the whole
    enumeration, not silently lost; "two or more 6s" keeps 1/36 - 1/1296."""
    def sixes(d):
        n = 0
        while d.roll("1d6", "again").total == 6:
            n += 1
        return n

    result, remainder = enumerate_runs(lambda r: Dice(r).branch(sixes, "sixes") >= 2, cutoff=Fraction(1, 1000))
    assert remainder == Fraction(1, 1296)
    assert result[True] == Fraction(1, 36) - Fraction(1, 1296) and sum(result.values()) + remainder == 1


def test_cut_off_is_lowered_until_what_branches_lose_is_below_the_tolerance():
    """An endless branch with two rows of 6s, one after the other (tolerance one in a million).
    One row alone loses only 1/6^8 at the first cut-off (1e-6): the runs that would roll a
    ninth time. Two rows have a run about to roll below the cut-off for every length of the
    first row, about 2.4e-5 together: too much, so the cut-off is lowered and what is left
    unaccounted ends below one in a million."""
    def two_rows(d):
        n = 0
        for _ in range(2):
            while d.roll("1d6", "again").total == 6:
                n += 1
        return n

    def run(r):
        return Dice(r).branch(two_rows, "endless sixes") >= 2

    _, first = enumerate_runs(run, cutoff=Fraction(1, 10**6))
    assert first > Fraction(1, 10**6)
    result, remainder = enumerate_within(run)
    assert 0 < remainder < Fraction(1, 10**6)
    assert sum(result.values()) + remainder == 1


# --- the roller protocol is declared, never probed (issue 13) -------------------------------

ROLLER_METHODS = ("roll_sum", "roll_test", "roll_until", "roll_branch", "roll_iterate", "roll_choice")


@pytest.mark.parametrize("make", [
    lambda: RandomRoller(1), lambda: ScriptedRoller("1,2"), lambda: PromptRoller(lambda _: "1"),
    lambda: __import__("critcore.chance.enumeration", fromlist=["x"]).EnumeratingRoller(),
], ids=["random", "scripted", "prompt", "enumerating"])
def test_every_roller_implements_the_whole_roller_protocol(make):
    """Dice calls roll_until/roll_branch/roll_iterate and reads unused on every roller: each
    shipped roller has them all (no getattr with a fallback in Dice)."""
    roller = make()
    for name in ROLLER_METHODS:
        assert callable(getattr(type(roller), name, None)), name
    assert isinstance(roller.unused, list)


def test_dice_does_not_fall_back_when_a_roller_lacks_a_protocol_method():
    """A roller with only roll_sum/roll_test is not a Roller: Dice.until fails on it instead
    of quietly running a loop of its own (the protocol is the one way)."""
    class Partial:
        def roll_sum(self, expr, label):
            return (), expr.count

    with pytest.raises(AttributeError):
        Dice(Partial()).until(lambda d: 1, "x")  # type: ignore[arg-type]


def test_scripted_roller_reports_unused_faces_and_others_none():
    """--dice 3,4,5 with one d6 rolled leaves 4,5 unused; a random roller never has any."""
    scripted = ScriptedRoller("3,4,5")
    Dice(scripted).roll("1d6", "a")
    assert scripted.unused == [4, 5]
    assert RandomRoller(3).unused == []


def test_two_functions_under_one_label_and_key_never_share_an_answer():
    """The remembered sub-enumeration is keyed by the function's code as well: a d6's parity
    (1/2 each) and a constant 7 under the same label and key each keep their own answer."""
    def parity(d):
        return d.roll("1d6", "x").total % 2

    def seven(d):
        return 7

    def run(roller):
        d = Dice(roller)
        return d.branch(parity, "x", key="k"), d.branch(seven, "x", key="k")

    result, _ = enumerate_runs(run)
    assert result == {(0, 7): Fraction(1, 2), (1, 7): Fraction(1, 2)}


def test_a_key_that_leaves_out_what_the_function_reads_is_caught_when_checking_keys():
    """fn rolls n d6 where n comes from outside, but its key does not say n: the remembered
    1d6 answer would be reused for 2d6 (silently wrong odds). Under checking_keys that is a
    PluginError naming the label; with a complete key the odds are exact (2d6 > 6: 21/36)."""
    from critcore.chance.enumeration import checking_keys
    from critcore.errors import PluginError

    def run(key_names_n):
        def go(roller):
            d = Dice(roller)
            n = d.roll("1d2", "how many").total
            return d.branch(lambda dd: dd.roll(f"{n}d6", "dice").total > 6, "many dice",
                            key=("dice", n) if key_names_n else "dice")
        return go

    with checking_keys():
        with pytest.raises(PluginError, match="many dice: the key 'dice'"):
            enumerate_runs(run(False))
        result, _ = enumerate_runs(run(True))
    assert result == {True: Fraction(1, 2) * Fraction(21, 36), False: Fraction(1, 2) + Fraction(1, 2) * Fraction(15, 36)}


# --- Dice.choose: a closed form for exact odds, one code path --------------------------------

def _slot(d):
    """1d6 again until it shows 1-4 (an empty slot rolled again): each of 1-4 is 1/4."""
    return d.until(lambda dd: (lambda f: f if f <= 4 else None)(dd.roll("1d6", "slot").total), "slot")


QUARTERS = lambda: [(i, Fraction(1, 4)) for i in (1, 2, 3, 4)]  # noqa: E731


def test_choose_with_real_dice_rolls_as_the_rules_say_and_never_asks_the_odds():
    """Faces 6, 5, 3: two empty slots rolled again, then slot 3; odds() is not called."""
    asked = []
    d = Dice(ScriptedRoller("6,5,3"))
    assert d.choose(_slot, lambda: asked.append(1) or QUARTERS(), "slot") == 3
    assert [r.total for r in d.rolls] == [6, 5, 3] and asked == []


def test_choose_under_exact_odds_branches_on_the_odds_without_rolling():
    """Under the enumerating roller the answer is each slot with 1/4, and roll is never run."""
    ran = []

    def roll(d):
        ran.append(1)
        return _slot(d)

    result, rest = enumerate_runs(lambda roller: Dice(roller).choose(roll, QUARTERS, "slot"))
    assert result == {i: Fraction(1, 4) for i in (1, 2, 3, 4)} and rest == 0 and ran == []


def test_odds_that_are_not_those_of_the_roll_are_caught_when_checking():
    """Slot 1 given 1/2 is a lie (it is 1/4): a PluginError naming the label under checking_keys;
    the true odds pass."""
    from critcore.chance.enumeration import checking_keys
    from critcore.errors import PluginError

    lie = lambda: [(1, Fraction(1, 2)), (2, Fraction(1, 4)), (3, Fraction(1, 8)), (4, Fraction(1, 8))]  # noqa: E731
    with checking_keys():
        with pytest.raises(PluginError, match="slot: the odds given to Dice.choose are not those of its roll"):
            enumerate_runs(lambda roller: Dice(roller).choose(_slot, lie, "slot"))
        result, _ = enumerate_runs(lambda roller: Dice(roller).choose(_slot, QUARTERS, "slot"))
    assert result == {i: Fraction(1, 4) for i in (1, 2, 3, 4)}


def test_choose_merges_answers_nothing_can_tell_apart_only_for_the_odds():
    """Slots 1 and 2 hold one weapon (interchangeable): the odds give their class's 1/2 to slot 1
    and ``merge`` maps 2 to 1. Real dice still answer the slot rolled (a 2); under checking_keys
    the merged roll agrees with the odds, and odds naming slot 2 for the class are caught."""
    from critcore.chance.enumeration import checking_keys
    from critcore.errors import PluginError

    def merge(slot):
        return 1 if slot in (1, 2) else slot

    classes = lambda: [(1, Fraction(1, 2)), (3, Fraction(1, 4)), (4, Fraction(1, 4))]  # noqa: E731
    assert Dice(ScriptedRoller("2")).choose(_slot, classes, "slot", merge) == 2
    with checking_keys():
        result, rest = enumerate_runs(lambda roller: Dice(roller).choose(_slot, classes, "slot", merge))
        assert result == {1: Fraction(1, 2), 3: Fraction(1, 4), 4: Fraction(1, 4)} and rest == 0
        wrong = lambda: [(2, Fraction(1, 2)), (3, Fraction(1, 4)), (4, Fraction(1, 4))]  # noqa: E731
        with pytest.raises(PluginError, match="slot: the odds given to Dice.choose are not those of its roll"):
            enumerate_runs(lambda roller: Dice(roller).choose(_slot, wrong, "slot", merge))


def test_choose_takes_several_distinct_picks_from_one_roll():
    """Two criticals among three slots, the second rolled again on the first's slot: each pair
    (in slot order) has chance 1/3, given as one choice; checking compares it with the rolls."""
    from critcore.chance.enumeration import checking_keys

    def two(d):
        first = d.roll("1d3", "first").total
        second = d.until(lambda dd: (lambda f: None if f == first else f)(dd.roll("1d3", "second").total), "second")
        return tuple(sorted((first, second)))

    pairs = lambda: [((1, 2), Fraction(1, 3)), ((1, 3), Fraction(1, 3)), ((2, 3), Fraction(1, 3))]  # noqa: E731
    assert Dice(ScriptedRoller("3,3,1")).choose(two, pairs, "pair") == (1, 3)
    with checking_keys():
        result, _ = enumerate_runs(lambda roller: Dice(roller).choose(two, pairs, "pair"))
    assert result == dict(pairs())


def test_odds_must_add_up_to_one():
    from critcore.errors import PluginError

    half = lambda: [(1, Fraction(1, 4)), (2, Fraction(1, 4))]  # noqa: E731
    with pytest.raises(PluginError, match="adding up to 1"):
        enumerate_runs(lambda roller: Dice(roller).choose(_slot, half, "short"))


def test_a_simulation_rolls_the_choice():
    from critcore.chance.montecarlo import SamplingDice

    d = SamplingDice(3)
    assert d.choose(lambda dd: dd.roll("1d4", "slot").total, QUARTERS, "slot") in (1, 2, 3, 4)


def test_the_cli_refuses_faces_the_scripted_roller_never_rolled(invoke):
    """Fake attack, AC 10: a 5 misses (final), so the faces 3 and 4 are never rolled; the CLI
    reads them from the roller's declared unused and refuses them in one line, exit 2 (issue 28:
    a misplaced face must not go unnoticed); --allow-extra-dice makes it a warning."""
    result = invoke("resolve", "fake", "attack", "--ac", "10", "--dice", "5,3,4")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "Error: --dice: 2 dice face(s) not used: 3,4 (nothing saved; --allow-extra-dice accepts them)"]
    allowed = invoke("resolve", "fake", "attack", "--ac", "10", "--dice", "5,3,4", "--allow-extra-dice")
    assert allowed.exit_code == 0, allowed.output
    assert "warning: 2 dice face(s) not used: 3,4" in allowed.stderr


def test_extra_faces_refused_leave_the_target_file_as_it_was(invoke, tmp_path):
    """Fake attack, AC 10: it rolls 20, 1 and 5 (as test_core_cli's --save test does); the 6 is
    left over: refused, and with --save the file is not written."""
    target = tmp_path / "t.json"
    target.write_text('{"hp": 10}')
    result = invoke("resolve", "fake", "attack", "--ac", "10", "--dice", "20,1,5,6", "--target", str(target), "--save")
    assert result.exit_code == 2, result.output
    assert target.read_text() == '{"hp": 10}'
