"""How serious each line of a GURPS outcome is (critcore_changes, report.py): the first severity,
deadly before grave before serious, whose words a line holds, whatever its case; a line holding
none is minor."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from critcore_gurps.report import _RANKS, rank_line

LONG = bool(os.environ.get("CRITCORE_LONG"))  # .ci/run's long run (step 7) draws ten times as many


def test_each_line_ranks_by_the_worst_words_it_holds() -> None:
    """Death outranks crippling, crippling outranks a roll owed; a line of none of the words is minor."""
    assert rank_line("down to -5xHP = -50 HP: dead") == "deadly"
    assert rank_line("Right arm crippled (roll after the fight)") == "grave"
    assert rank_line("owes an HT-1 roll to avoid death (down to -1xHP = -10 HP)") == "grave"
    assert rank_line("owes an HT roll against knockdown and stunning (major wound to the torso)") == "serious"
    assert rank_line("12 basic cut damage against DR 0: 12 through, x1.5 at the torso = 18 injury") == "minor"


WORDS = [w for _, words in _RANKS for w in words]
PIECES = st.one_of(st.sampled_from(WORDS + [w.upper() for w in WORDS] + [w.title() for w in WORDS]),
                   st.text(alphabet="abcdeiklnorstuvwy :-\n()İ", max_size=10))


@settings(max_examples=1500 if LONG else 150, deadline=None)
@given(st.lists(PIECES, max_size=5).map("".join))
def test_a_line_ranks_by_the_first_severity_whose_words_it_holds_in_any_case(line: str) -> None:
    """A line of the plugin's words and other text, in any case (a dotted capital I lowers to
    two characters): the first severity, in the order deadly, grave, serious, with a word in it."""
    low = line.lower()
    expected = next((severity for severity, words in _RANKS if any(w in low for w in words)), "minor")
    assert rank_line(line) == expected
