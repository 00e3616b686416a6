"""critcore.dice.notation reads a dice notation part by part (``dice._read``); the grammar it reads is
this regular expression's, which the dice module used before: every text gives the same numbers
or is refused the same."""

from __future__ import annotations

import re

import pytest
from runlength import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from critcore.dice.notation import _read, parse
from critcore.errors import DiceError

GRAMMAR = re.compile(r"""^\s*(?P<count>\d+)?\s*[dD]\s*(?P<sides>\d+)?
        \s*(?:(?P<sign>[+-])\s*(?P<plus>\d+))?
        \s*(?:[xX*×]\s*(?P<times>\d+))?
        \s*(?:/\s*(?P<divide>\d+))?\s*$""", re.VERBOSE)


def by_grammar(text: str) -> tuple[int, int, int, int, int] | None:
    m = GRAMMAR.match(text)
    if m is None:
        return None
    plus = int(m["plus"]) if m["plus"] else 0
    return (int(m["count"]) if m["count"] else 1, int(m["sides"]) if m["sides"] else 6,
            -plus if m["sign"] == "-" else plus, int(m["times"]) if m["times"] else 1,
            int(m["divide"]) if m["divide"] else 1)


# digits (ASCII and others Python reads as digits), the signs, whitespace of several kinds, and noise
ALPHABET = "0123456789٣१dDxX*×/+-  \t\n\r\u00a0\u2003ae.(,"


@settings(max_examples=examples(500, 3000), deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=16))
def test_any_text_reads_as_the_grammar_reads_it(text: str) -> None:
    assert _read(text) == by_grammar(text)


@settings(max_examples=examples(150, 800), deadline=None)
@given(st.from_regex(GRAMMAR, fullmatch=True).filter(lambda t: len(t) <= 64))
def test_every_notation_of_the_grammar_is_read(text: str) -> None:
    """Texts the grammar accepts (hypothesis writes them from the expression itself)."""
    assert _read(text) == by_grammar(text) is not None


@pytest.mark.parametrize("text, numbers", [
    ("3d6", (3, 6, 0, 1, 1)),          # GURPS: three six-sided dice
    ("2d+1", (2, 6, 1, 1, 1)),         # a bare d is a d6, plus one
    ("1d-3", (1, 6, -3, 1, 1)),
    ("d6", (1, 6, 0, 1, 1)),
    ("1d6x10", (1, 6, 0, 10, 1)),
    ("1d6/2", (1, 6, 0, 1, 2)),
    (" 2 D 10 + 3 * 2 / 4 ", (2, 10, 3, 2, 4)),
    ("1 2d6", None),                   # no space inside a number
    ("2d6+", None),
    ("2d6/2x3", None),                 # the parts come in their order
    ("3d6 3", None),
])
def test_notations_and_non_notations(text: str, numbers: tuple[int, ...] | None) -> None:
    assert _read(text) == numbers


def test_a_text_that_is_no_notation_is_one_line_saying_so() -> None:
    with pytest.raises(DiceError, match=r"^cannot read dice expression '2d6\+': expected e\.g\. 3d6"):
        parse("2d6+")
