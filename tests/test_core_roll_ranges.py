"""A table row's ``roll`` is read part by part (``tables.read_roll``); what it reads is what this
regular expression (the one tables used before) and a plain whole number read: every text gives
the same low and high or is refused the same."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from runlength import examples

from critcore.errors import TableError
from critcore.tables.tableset import parse_rolls, read_roll

RANGE = re.compile(r"^\s*(-?\d+)\s*(?:-|–|\.\.)\s*(-?\d+)\s*$")
NUMBER = re.compile(r"\s*(-?\d+)\s*")


def by_expression(text: str) -> tuple[int, int] | None:
    m = RANGE.match(text)
    if m:
        return int(m[1]), int(m[2])
    m = NUMBER.fullmatch(text)
    return (int(m[1]), int(m[1])) if m else None


@settings(max_examples=examples(700, 6000), deadline=None)
@given(st.text(alphabet="0123456789٣-–.  \t\n\u2003x,+", max_size=12))
def test_any_text_reads_as_the_expression_reads_it(text: str) -> None:
    assert read_roll(text) == by_expression(text)


@settings(max_examples=examples(120, 2000), deadline=None)
@given(st.from_regex(RANGE, fullmatch=True))
def test_every_range_the_expression_reads_is_read(text: str) -> None:
    assert read_roll(text) == by_expression(text) is not None


@pytest.mark.parametrize("text, rolls", [
    ("7", (7, 7)), ("-2", (-2, -2)), ("9-11", (9, 11)), ("9 – 11", (9, 11)), ("-3..-1", (-3, -1)),
    ("-3--1", (-3, -1)), ("3 - - 1", None), ("9-", None), ("1-2-3", None), ("x", None),
])
def test_rolls_and_non_rolls(text: str, rolls: tuple[int, int] | None) -> None:
    assert read_roll(text) == rolls


def test_a_roll_that_cannot_be_read_names_the_row() -> None:
    with pytest.raises(TableError, match=r"^blows.toml, line 9: row 'hit': cannot read roll '9-' \(expected"):
        parse_rolls("9-", "blows.toml, line 9: row 'hit'")
    assert parse_rolls("3-4, 6", "x") == (3, 6, (3, 4, 6))  # scattered results: 5 is not among them
