"""The shortcuts the blow's hot path takes (apply_blow, blow, record, compute_injury, the
outcome's tags) say what the longer way says.

Rules checked (the GURPS rule document, General Injury, as issue 15 states them): an HP loss
that reaches -1xHP, or a further multiple down to -4xHP, owes an HT roll to avoid death; one
that reaches -5xHP kills outright and owes no roll. Where a check compares a shortcut with the
code it replaces, the expected value is that code's answer on generated inputs.
"""

from __future__ import annotations

import pytest
import os

from hypothesis import given, settings
from hypothesis import strategies as st

import inspect

from critcore_gurps.collapse import owed_for, owes_death_roll
from critcore_gurps.damage import compute_injury
from critcore_gurps.reference import DAMAGE_TYPES, LOCATIONS
from critcore_gurps.traits import injury_terms

LONG = bool(os.environ.get("CRITCORE_LONG"))  # .ci/run's long run (step 7) draws ten times as many


@pytest.mark.parametrize(("before", "after", "owed"), [
    (10, 1, False),     # above 0 HP: nothing owed
    (10, 0, False),     # 0 HP: a roll to stay conscious, none to avoid death
    (10, -10, True),    # -1xHP: a death roll
    (-10, -19, False),  # -1xHP passed already, -2xHP not reached
    (-35, -40, True),   # -4xHP: the last death roll
    (10, -49, True),    # -1x to -4x at once
    (10, -50, False),   # -5xHP: dead, no roll to make
    (-45, -60, False),  # dead from -4.5xHP
])
def test_a_death_roll_is_owed_at_each_multiple_of_minus_hp_until_death(before: int, after: int, owed: bool) -> None:
    """HP 10: -10, -20, -30, -40 each owe a death roll; -50 kills and owes none."""
    assert owes_death_roll(before, after, 10) is owed


@settings(max_examples=2000 if LONG else 200, deadline=None)
@given(st.integers(-200, 60), st.integers(0, 150), st.integers(1, 40))
def test_owes_death_roll_says_what_owed_for_holds(before: int, injury: int, hp: int) -> None:
    """The death-check tag's shortcut answers as the owed rolls it no longer makes: a roll of
    kind "death" among :func:`owed_for` of the same loss."""
    after = before - injury
    assert owes_death_roll(before, after, hp) == any(o["kind"] == "death" for o in owed_for(before, after, hp))


# what blow hands compute_injury of the traits' terms, by name, and the value it passes without them
BLOW_TERMS = {"wounding": None, "multiplier": 1, "most": None}


def test_blow_passes_the_traits_terms_with_compute_injurys_own_defaults() -> None:
    """blow names each term of injury_terms rather than passing ``**terms``: the value it passes
    for a term the traits leave alone is compute_injury's own default."""
    params = inspect.signature(compute_injury).parameters
    assert {name: params[name].default for name in BLOW_TERMS} == BLOW_TERMS


TRAITS = st.fixed_dictionaries({}, optional={
    "injury_tolerance": st.lists(st.sampled_from(["diffuse", "homogenous", "unliving", "no brain", "no vitals",
                                                  "no eyes", "no neck"]), unique=True),
    "vulnerability": st.lists(st.fixed_dictionaries({"types": st.lists(st.sampled_from(sorted(DAMAGE_TYPES)),
                                                                       min_size=1, unique=True),
                                                     "multiplier": st.integers(1, 4)}), max_size=2),
})


@settings(max_examples=1500 if LONG else 150, deadline=None)
@given(TRAITS, st.sampled_from(sorted(LOCATIONS)), st.sampled_from(sorted(DAMAGE_TYPES)),
       st.integers(0, 40), st.integers(0, 10), st.integers(1, 30))
def test_the_traits_terms_by_name_give_the_injury_of_passing_them_all(traits: dict, where: str, dtype: str,
                                                                       basic: int, dr: int, hp: int) -> None:
    """Every term injury_terms gives is one blow names, and naming them gives the same injury
    as ``compute_injury(..., **terms)`` (the call blow made before)."""
    terms = injury_terms({"traits": traits}, LOCATIONS[where], dtype, [])
    assert set(terms) <= set(BLOW_TERMS)
    named = {name: terms.get(name, default) for name, default in BLOW_TERMS.items()}
    args = (basic, dtype, dr, 1.0, LOCATIONS[where], hp, 10, {})
    assert compute_injury(*args, **named) == compute_injury(*args, **terms)
