"""Exact odds and simulation on the fake system, checked against probabilities worked by hand."""

import json
from fractions import Fraction

import critcore
from critcore.engine.runner import Engine
from critcore.chance.exact import exact_odds
from critcore.chance.montecarlo import simulate, wilson


def kind(k):
    return lambda b: b.determination is not None and b.determination.kind == k


def test_odds_match_the_d20_by_hand(registry):
    """AC 15, bonus 0: 1 fumbles (1/20), 2-14 miss (13/20), 15-19 hit (5/20), 20 crits (1/20);
    a critical rolls 1d6 on the confirm table: 1-2 graze, 3-5 solid, 6 brutal."""
    odds = exact_odds(Engine("fake", registry=registry), "attack", {"ac": 15})
    assert odds.exact and sum(b.probability for b in odds.branches) == 1
    assert odds.probability(kind("fumble")) == Fraction(1, 20)
    assert odds.probability(kind("miss")) == Fraction(13, 20)
    assert odds.probability(kind("hit")) == Fraction(5, 20)
    solid = odds.probability(lambda b: any(e.id == "solid" for e in b.effects))
    assert solid == Fraction(1, 20) * Fraction(3, 6)


def test_odds_merge_equal_outcomes(registry):
    """Damage 1d8 x3 on a brutal critical gives 8 distinct results; 1d8 on a hit gives 8 more."""
    odds = exact_odds(Engine("fake", registry=registry), "attack", {"ac": 15, "damage": "1d8"})
    brutal = [b for b in odds.branches if b.effects and b.effects[0].id == "brutal"]
    assert len(brutal) == 8 and all(b.probability == Fraction(1, 20) * Fraction(1, 6) * Fraction(1, 8) for b in brutal)


def test_option_and_rule_change_the_odds(registry):
    """With crit_on_19 the critical chance doubles to 2/20."""
    odds = critcore.odds("fake", "attack", registry=registry, options={"crit_on_19": True}, ac=15)
    assert odds.probability(kind("critical")) == Fraction(2, 20)


def test_treat_odds(registry):
    odds = critcore.odds("fake", "rest", registry=registry, target={"hp": 1})
    assert sorted(b.applied.target["hp"] for b in odds.branches) == [2, 3, 4, 5]


def test_simulation_agrees_with_exact_odds_within_its_interval(registry):
    engine = Engine("fake", registry=registry)
    exact = exact_odds(engine, "attack", {"ac": 12})
    sim = simulate(engine, "attack", {"ac": 12}, n=40_000, seed=3)
    for k in ("fumble", "miss", "hit", "critical"):
        freq, low, high = sim.frequency(kind(k))
        assert low <= float(exact.probability(kind(k))) <= high, k


def test_simulation_is_reproducible_by_seed(registry):
    engine = Engine("fake", registry=registry)
    a = simulate(engine, "attack", {}, n=2000, seed=9)
    b = simulate(engine, "attack", {}, n=2000, seed=9)
    assert a.counts == b.counts


def test_wilson_interval():
    """50 of 100: the 95% Wilson interval is about 0.4038 to 0.5962."""
    low, high = wilson(50, 100)
    assert abs(low - 0.4038) < 1e-3 and abs(high - 0.5962) < 1e-3


def test_cli_odds_and_simulate(invoke):
    result = invoke("odds", "fake", "attack", "--ac", "15", "--depth", "1")
    assert result.exit_code == 0, result.output
    assert "65.0000%  13/20" in result.output and "exact: every outcome accounted for" in result.output
    data = json.loads(invoke("odds", "fake", "attack", "--ac", "15", "--json").output)
    groups = {g["label"].split(" — ")[0]: g["probability"] for g in data["groups"]}
    assert data["exact"] and groups["natural critical"] == {"fraction": "1/20", "float": 0.05}
    sim = json.loads(invoke("simulate", "fake", "attack", "-n", "5000", "--json").output)
    assert sim["n"] == 5000 and sum(g["count"] for g in sim["groups"]) == 5000
    assert invoke("odds", "fake", "attack", "--ac", "99").exit_code == 2


def test_simulation_counts_outcomes_whose_later_stages_roll(registry):
    """The fake system's hits roll damage in apply, so they are worked out every time: AC 11
    is hit on 11-19, 9 of 20, and every resolution is counted once."""
    engine = Engine("fake", registry=registry)
    sim = simulate(engine, "attack", {"ac": 11, "damage": "1d8"}, n=20_000, seed=4)
    assert sum(c for _, c in sim.counts) == 20_000
    freq, low, high = sim.frequency(kind("hit"))
    assert low <= 9 / 20 <= high  # 11-19 hit against AC 11: 9 of 20


def test_simulation_calls_rollless_stages_once_per_determination():
    """A system whose later stages roll nothing: they run once per distinct determination, and
    the counts still follow the determine roll (1d6: 1-2 low, 3-6 high)."""
    from critcore import hookimpl
    from critcore.model import Applied, Determination, Location, Procedure, SystemInfo
    from critcore.stages.loader import Registry

    low, high = Determination("low", False, "low"), Determination("high", False, "high")
    calls = []

    class Quiet:
        @hookimpl
        def critcore_system(self):
            return SystemInfo("quiet", "Quiet", (Procedure("go", "Go."),))

        @hookimpl
        def critcore_determine(self, ctx):
            return low if ctx.dice.roll("1d6", "d").total <= 2 else high

        @hookimpl
        def critcore_locate(self, ctx, determination):
            calls.append(determination.kind)
            return Location("here", "Here")

        @hookimpl
        def critcore_apply(self, ctx, determination, location, effects):
            return Applied(determination.kind)

    reg = Registry.installed(extra_systems={"quiet": Quiet()}, discover=False)
    sim = simulate(Engine("quiet", registry=reg), "go", {}, n=30_000, seed=2)
    assert sorted(calls) == ["high", "low"]
    freq, lo, hi = sim.frequency(kind("low"))
    assert lo <= 1 / 3 <= hi and sum(c for _, c in sim.counts) == 30_000


def test_a_result_quoting_its_effect_reads_as_a_sentence_without_it():
    """The odds report does not repeat what an enclosing line said: a result that quotes its
    effect's words keeps the words on either side, joined as one clause ("the chest; dies in 10
    min"), not an empty one ("the chest: ; dies in 10 min")."""
    from critcore.chance.exact import _unsaid

    said = ("Mortal: the character dies unless treated in time.", "chest", "Lung pierced (internal bleeding).")
    label = "Mortal critical in the chest: Lung pierced (internal bleeding); dies in 10 min unless treated"
    assert _unsaid(label, said) == "Mortal critical in the chest; dies in 10 min unless treated"
    assert _unsaid("Lung pierced (internal bleeding); dies in 1 h", said) == "dies in 1 h"
    assert _unsaid("the critical: Lung pierced (internal bleeding).", said) == "the critical"


def test_odds_and_simulation_refuse_a_procedure_without_the_target_it_needs(registry):
    """The fake system's ``rest`` needs a target: exact odds and a simulation refuse it in one line,
    as a run does, before any stage is called (found by issue 29's generated API bodies: the
    stage read a missing target and the server answered 500)."""
    import pytest

    from critcore.engine.runner import Engine
    from critcore.errors import ParamError

    with pytest.raises(ParamError, match="^fake rest needs a target"):
        exact_odds(Engine("fake", registry=registry), "rest", {}, None)
    with pytest.raises(ParamError, match="^fake rest needs a target"):
        critcore.simulate("fake", "rest", n=10, registry=registry)
