"""Simulating a roll with very many possible sums (20d1000) draws the dice one by one instead of
building a table of its exact distribution first (which took seconds, and hours for more dice)."""

import statistics

import critcore
from critcore.chance.montecarlo import DRAW_FACES_ABOVE, SamplingDice


def test_a_roll_with_more_sums_than_the_limit_is_drawn_die_by_die():
    dice = SamplingDice(7)
    assert 20 * 999 + 1 > DRAW_FACES_ABOVE
    assert dice.table("20d1000", "damage")[0] == "faces"
    assert dice.table("3d6", "damage")[0] == "flat"
    totals = [dice.roll("20d1000+5", "damage").total for _ in range(2000)]
    assert all(25 <= t <= 20_005 for t in totals)
    # 20d1000 has mean 20 x 500.5 = 10,010 and standard deviation sqrt(20 x (1000^2 - 1) / 12) ~ 1,291
    mean = statistics.fmean(totals)
    assert abs(mean - 10_015) < 5 * 1291 / 2000 ** 0.5


def test_equal_totals_are_one_roll_and_the_same_seed_gives_the_same_draws():
    a, b = SamplingDice(3), SamplingDice(3)
    first = [a.roll("20d1000", "x") for _ in range(300)]
    second = [b.roll("20d1000", "x") for _ in range(300)]
    assert [r.total for r in first] == [r.total for r in second]
    by_total = {}
    for roll in first:
        assert by_total.setdefault(roll.total, roll) is roll


def test_a_simulation_with_huge_damage_dice_counts_every_run(registry):
    sim = critcore.simulate("fake", "attack", n=400, seed=5, damage="20d1000", registry=registry)
    again = critcore.simulate("fake", "attack", n=400, seed=5, damage="20d1000", registry=registry)
    assert abs(sum(b.probability for b in sim.branches) - 1) < 1e-9
    assert [(b.probability, b.applied) for b in sim.branches] == [(b.probability, b.applied) for b in again.branches]
    damages = {b.applied.data["damage"] for b in sim.branches if b.applied is not None}
    assert damages and all(20 <= d <= 60_000 for d in damages)  # 20d1000, at most tripled by the confirm table
