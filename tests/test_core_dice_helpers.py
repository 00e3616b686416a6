"""DiceExpr's helpers for plugins (issue 24): scaling the dice keeps the modifier, multiplier and
divisor; multiplying and dividing keep their meaning (every result scaled, rounded up as a
divided roll is); out of the limits is a DiceError, never a silent change."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from critcore.errors import DiceError
from critcore.plugin import DiceExpr, parse


def test_doubling_the_dice_keeps_every_other_part():
    """A critical that doubles the dice: 2d6+3 -> 4d6+3, 1d6x10 -> 2d6x10, 1d6/2 -> 2d6/2."""
    assert parse("2d6+3").scaled(2).notation == "4d6+3"
    assert parse("1d6x10").scaled(2).notation == "2d6x10"
    assert parse("1d6/2").scaled(2).notation == "2d6/2"
    assert parse("3d6").with_dice(5) == parse("5d6")
    assert parse("2d+1").plus_more(2) == parse("2d6+3")


EXPRS = st.builds(DiceExpr, st.integers(1, 6), st.sampled_from([2, 4, 6, 10]), st.integers(-5, 5),
                  st.integers(1, 4), st.integers(1, 4))


@given(EXPRS, st.integers(1, 5))
def test_multiplying_multiplies_every_result(expr, factor):
    """Before any division: (faces + plus) x times x factor, so each result is what the old
    expression's undivided result times the factor gives, divided and rounded up once."""
    new = expr.multiplied(factor)
    for faces in range(expr.count, expr.count * expr.sides + 1):
        undivided = (faces + expr.plus) * expr.times * factor
        assert new.value(faces) == -(-undivided // expr.divide)


@given(EXPRS, st.integers(1, 5))
def test_dividing_divides_every_result_rounding_up(expr, divisor):
    new = expr.divided(divisor)
    for faces in range(expr.count, expr.count * expr.sides + 1):
        assert new.value(faces) == -(-((faces + expr.plus) * expr.times) // (expr.divide * divisor))


def test_out_of_the_limits_is_a_dice_error():
    with pytest.raises(DiceError, match="number of dice must be 1 to 200"):
        parse("150d6").scaled(2)
    with pytest.raises(DiceError, match="out of range"):
        parse("1d6x1000000").multiplied(2)
