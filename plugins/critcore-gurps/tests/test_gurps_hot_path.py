"""The shortcuts the blow's hot path takes (apply_blow, blow, record, compute_injury, the
outcome's tags) say what the longer way says.

Rules checked (the GURPS rule document, General Injury, as issue 15 states them): an HP loss
that reaches -1xHP, or a further multiple down to -4xHP, owes an HT roll to avoid death; one
that reaches -5xHP kills outright and owes no roll. Where a check compares a shortcut with the
code it replaces, the expected value is that code's answer on generated inputs.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from critcore_gurps.collapse import owed_for, owes_death_roll


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


@settings(max_examples=500, deadline=None)
@given(st.integers(-200, 60), st.integers(0, 150), st.integers(1, 40))
def test_owes_death_roll_says_what_owed_for_holds(before: int, injury: int, hp: int) -> None:
    """The death-check tag's shortcut answers as the owed rolls it no longer makes: a roll of
    kind "death" among :func:`owed_for` of the same loss."""
    after = before - injury
    assert owes_death_roll(before, after, hp) == any(o["kind"] == "death" for o in owed_for(before, after, hp))
