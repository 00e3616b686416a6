"""Shadowrun events (outcome tags) in exact odds, checked by hand from the rule document: a
serious wound's Body check is against TN 6 (each die succeeds on a 6, 1/6), and the successes
give the lethality: 0 Mortal, 1 Crippling, 2 Critical, 3 or more none."""

from __future__ import annotations

from fractions import Fraction

import critcore

S, F = Fraction(1, 6), Fraction(5, 6)


def events(**params):
    return {e.name: p for e, p in critcore.odds("shadowrun2", "wound", severity="serious", **params).event_odds()}


def test_mortal_at_body_3_on_a_serious_wound_is_125_216():
    """No success on three dice: (5/6)^3 = 125/216."""
    assert events(body=3)["mortal"] == F**3 == Fraction(125, 216)


def test_crippling_and_critical_at_body_3():
    """One success of three: 3 x 1/6 x (5/6)^2; two: 3 x (1/6)^2 x 5/6."""
    found = events(body=3)
    assert found["crippling"] == 3 * S * F**2
    assert found["critical"] == 3 * S**2 * F


def test_dead_before_help_depends_on_how_long_help_takes():
    """Every Mortal critical has a time before death: with help already there (0 minutes) no one
    dies first; with help a very long way off every Mortal critical kills first."""
    assert events(body=3, help_minutes=0)["dead-before-help"] == 0
    assert events(body=3, help_minutes=10**6)["dead-before-help"] == F**3
    assert 0 < events(body=3)["dead-before-help"] < F**3  # help in 10 minutes (the default)


def test_simulated_events_fall_in_their_intervals():
    exact = events(body=3)
    sim = critcore.simulate("shadowrun2", "wound", n=40_000, seed=2, severity="serious", body=3)
    for event, _count, _freq, low, high in sim.event_estimates():
        assert low <= float(exact[event.name]) <= high, event.name
