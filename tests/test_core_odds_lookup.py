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
from critcore.dice.dice import parse
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
