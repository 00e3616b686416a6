"""Two exact-odds questions in one process (``crit serve``, a bot, a program): the second is
worked out from its own objects, as the first was (issue 25).

The core remembered sub-enumerations and the weights of ``Dice.choose`` by value from one question
to the next. A later question on the same unit then got answers holding the earlier question's
unit states: equal to its own, not the same objects. This plugin finds what it keeps (kept actions,
merges, marked slots) by identity, so those look-ups missed and the second question on the Daishi
X's right torso took a third more work than the first. Now the core forgets both as a question
begins and ends (``critcore.chance.enumeration.forget``; ``tests/test_core_odds_forget.py``)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_a_second_question_does_the_work_of_the_first(bt_registry, monkeypatch):
    """The superheavy fixture's left torso asked twice, of two engines, in one process: the same
    outcomes and fractions, and the second compares as many unit states field by field as the
    first (kept look-ups answered by identity, not by comparing an earlier question's equal
    states: without ``forget`` the second made 97,459 comparisons where the first made 9,330)."""
    from critcore.plugin import Data
    from critcore.testing import Engine, exact_odds
    from critcore_battletech.data.catalog import catalog
    from critcore_battletech.units import unit_from_mtf

    path = FIXTURES / "superheavy-fs5x.mtf"
    unit = unit_from_mtf(path.read_text(encoding="utf-8"), str(path), catalog())
    compared = [0]
    plain_eq = Data.__eq__

    def counted(self: Any, other: object) -> bool:
        compared[0] += 1
        return plain_eq(self, other)

    monkeypatch.setattr(Data, "__eq__", counted)
    answers, counts = [], []
    for _ in range(2):
        compared[0] = 0
        answers.append(exact_odds(Engine("battletech", registry=bt_registry), "critical", {"location": "LT"},
                                  copy.deepcopy(unit)).branches)
        counts.append(compared[0])
    assert counts[1] == counts[0]
    assert answers[0] == answers[1] and len(answers[0]) > 1000  # every outcome and fraction, in order
