"""Exact odds read determine from the system's declared look-up (``critcore_determine_lookup``)
only when determine's own run agrees with it; otherwise they enumerate determine.

The fake system (tests/fakesystem.py): an attack rolls 1d20; 20 is a critical, 1 a fumble,
otherwise a hit when roll + bonus reaches the armour class. At AC 12 with no bonus: a fumble
1/20, a miss on 2-11 (10/20), a hit on 12-19 (8/20), a critical 1/20.
"""

from __future__ import annotations

from fractions import Fraction

import fakesystem

from critcore import hookimpl
from critcore.chance import exact
from critcore.chance.exact import exact_odds
from critcore.dice.notation import parse
from critcore.engine.runner import Engine
from critcore.stages.hookspecs import RollLookup
from critcore.stages.loader import Registry


def _engine() -> Engine:
    return Engine("fake", registry=Registry.installed(extra_systems={"fake": fakesystem}, discover=False))


def _by_kind(odds: exact.Odds) -> dict[str, Fraction]:
    found: dict[str, Fraction] = {}
    for b in odds.branches:
        found[b.determination.kind] = found.get(b.determination.kind, Fraction(0)) + b.probability
    return found


EXPECTED = {"fumble": Fraction(1, 20), "miss": Fraction(10, 20), "hit": Fraction(8, 20), "critical": Fraction(1, 20)}


def test_a_true_lookup_gives_the_rules_odds_with_one_run_of_determine(monkeypatch):
    calls = []
    real = fakesystem.critcore_determine
    monkeypatch.setattr(fakesystem, "critcore_determine", hookimpl(lambda ctx: calls.append(1) or real(ctx)))
    odds = exact_odds(_engine(), "attack", {"ac": 12})
    assert _by_kind(odds) == EXPECTED
    assert odds.exact
    assert len(calls) == 1  # the other 19 totals read from the look-up


def test_a_lookup_that_determine_does_not_keep_is_not_used(monkeypatch):
    """A look-up declaring every total a critical, which determine's own run contradicts: the
    odds are determine's, enumerated total by total."""
    always = (None,) + (fakesystem.CRITICAL,) * 20
    monkeypatch.setattr(fakesystem, "critcore_determine_lookup",
                        hookimpl(lambda ctx: RollLookup(parse("1d20"), "attack roll", always)))
    odds = exact_odds(_engine(), "attack", {"ac": 12})
    assert _by_kind(odds) == EXPECTED


def test_a_lookup_of_another_roll_is_not_used(monkeypatch):
    """A look-up declaring a 2d10 roll where determine rolls 1d20: not taken."""
    answers = (None, None) + (fakesystem.HIT,) * 19
    monkeypatch.setattr(fakesystem, "critcore_determine_lookup",
                        hookimpl(lambda ctx: RollLookup(parse("2d10"), "attack roll", answers)))
    odds = exact_odds(_engine(), "attack", {"ac": 12})
    assert _by_kind(odds) == EXPECTED


# --- the effect stage's look-up on its first roll (critcore_effect_lookup) ----------------------


def _effects(odds: exact.Odds) -> dict[tuple, Fraction]:
    """Every outcome (determination, effects) with its probability, in the order given."""
    return {(b.determination.kind, b.effects, b.applied): b.probability for b in odds.branches}


def _plain(monkeypatch) -> exact.Odds:
    """The same question with no effect look-up: the effect stage run for every total."""
    with monkeypatch.context() as m:
        m.setattr(fakesystem, "critcore_effect_lookup", hookimpl(lambda ctx, determination, location: None))
        return exact_odds(_engine(), "attack", {"ac": 12, "damage": "1d2"})


def test_a_true_effect_lookup_gives_the_same_outcomes_with_one_run_of_the_effect_stage(monkeypatch):
    """The confirmation table read from the look-up: the same outcomes, probabilities and order
    as running the effect stage for each of the 1d6 totals, with 5 runs fewer."""
    plain = _plain(monkeypatch)
    calls = []
    real = fakesystem.critcore_effect
    monkeypatch.setattr(fakesystem, "critcore_effect",
                        hookimpl(lambda ctx, determination, location: calls.append(1) or real(ctx, determination,
                                                                                               location)))
    odds = exact_odds(_engine(), "attack", {"ac": 12, "damage": "1d2"})
    assert list(_effects(odds).items()) == list(_effects(plain).items())
    assert [[e.roll for e in b.effects] for b in odds.branches] == [[e.roll for e in b.effects] for b in plain.branches]
    assert odds.runs == plain.runs - 5
    assert len(calls) == 2  # the critical's one run, and the hit's (it rolls on no table)


def test_an_effect_lookup_that_leaves_totals_open_runs_the_stage_there(monkeypatch):
    """``None`` for some totals: the stage is run for those, read for the others."""
    plain = _plain(monkeypatch)
    real = fakesystem.critcore_effect_lookup

    def partly(ctx, determination, location):
        found = real(ctx, determination, location)
        return found and RollLookup(found.dice, found.label, tuple(None if i in (1, 4, 5) else a
                                                                   for i, a in enumerate(found.answers)))

    monkeypatch.setattr(fakesystem, "critcore_effect_lookup", hookimpl(partly))
    odds = exact_odds(_engine(), "attack", {"ac": 12, "damage": "1d2"})
    assert list(_effects(odds).items()) == list(_effects(plain).items())
    assert odds.runs == plain.runs - 2


def test_an_effect_lookup_the_first_run_contradicts_is_not_used(monkeypatch):
    """A look-up whose answer for the lowest total is not the stage's: enumerated as usual."""
    plain = _plain(monkeypatch)
    real = fakesystem.critcore_effect_lookup

    def wrong(ctx, determination, location):
        found = real(ctx, determination, location)
        return found and RollLookup(found.dice, found.label, (None,) + (found.answers[6],) * 6)

    monkeypatch.setattr(fakesystem, "critcore_effect_lookup", hookimpl(wrong))
    odds = exact_odds(_engine(), "attack", {"ac": 12, "damage": "1d2"})
    assert list(_effects(odds).items()) == list(_effects(plain).items())
    assert odds.runs == plain.runs


def test_an_effect_lookup_whose_later_roll_has_no_place_for_a_total_is_not_used(monkeypatch):
    """A next roll declared for the highest total (not on the first run's path) whose 1d6 can
    show totals its answers have no place for: the look-up is not taken, the stage is enumerated
    as usual (the same outcomes and runs), never an error from the odds."""
    plain = _plain(monkeypatch)
    real = fakesystem.critcore_effect_lookup

    def broken(ctx, determination, location):
        found = real(ctx, determination, location)
        return found and RollLookup(found.dice, found.label,
                                    found.answers[:6] + (RollLookup(parse("1d6"), "again", (None, ())),))

    monkeypatch.setattr(fakesystem, "critcore_effect_lookup", hookimpl(broken))
    odds = exact_odds(_engine(), "attack", {"ac": 12, "damage": "1d2"})
    assert list(_effects(odds).items()) == list(_effects(plain).items())
    assert odds.runs == plain.runs


def test_an_effect_lookup_wrong_for_a_later_total_is_caught_under_checking_keys(monkeypatch):
    """A look-up right for the first total only cannot be seen by that run; the odds checks
    (checking_keys, on in critcore.testing's odds tests) run every total and refuse it."""
    import pytest

    from critcore.chance.enumeration import checking_keys
    from critcore.errors import PluginError

    real = fakesystem.critcore_effect_lookup

    def wrong_later(ctx, determination, location):
        found = real(ctx, determination, location)
        return found and RollLookup(found.dice, found.label, found.answers[:6] + (found.answers[1],))

    monkeypatch.setattr(fakesystem, "critcore_effect_lookup", hookimpl(wrong_later))
    with checking_keys(), pytest.raises(PluginError, match="critcore_effect_lookup"):
        exact_odds(_engine(), "attack", {"ac": 12, "damage": "1d2"})


def test_an_effect_lookup_is_not_read_when_a_house_rule_wraps_the_effect_stage(monkeypatch):
    """A rule wrapping critcore_effect may change its answers: the system's look-up no longer says
    what the stage does, so the stage is run for every total (and the rule's change shows)."""
    from critcore.model import Effect

    class Doubled:
        """Wraps effect (a house rule): every critical adds a second row."""

        @hookimpl(wrapper=True)
        def critcore_effect(self, ctx, determination, location):
            found = yield
            return None if found is None else [*found, Effect("confirm", "again", "damage-multiplier", "again")]

    reg = Registry.installed(extra_systems={"fake": fakesystem}, extra_rules={"doubled": Doubled()}, discover=False)
    odds = exact_odds(Engine("fake", rules=["doubled"], registry=reg), "attack", {"ac": 12, "damage": "1d2"})
    criticals = [b for b in odds.branches if b.determination.kind == "critical"]
    assert criticals and all(len(b.effects) == 2 and b.effects[1].id == "again" for b in criticals)
    assert odds.runs == _plain(monkeypatch).runs  # every total run, as without a look-up
