"""What exact odds remember lasts one question, in the thread asking it (issue 25): the
sub-enumerations and the weights of the odds given to ``Dice.choose`` (``enumeration._KEPT``) are
forgotten as a question begins and ends (``critcore.chance.enumeration.forget``). Both are found
by value, so an earlier question's answer would hold the earlier question's objects (equal, not
the same); the BattleTech plugin's test ``test_battletech_odds_questions.py`` shows what that
cost. Two questions asked at once in two threads neither share answers nor empty each other's."""

import threading
from fractions import Fraction

import pytest

from critcore.chance import enumeration
from critcore.chance.exact import exact_odds
from critcore.engine.runner import Engine


@pytest.fixture(autouse=True)
def _nothing_kept_around():
    """Each test starts and ends with this thread's stores empty (another test's own
    enumerations, outside exact odds, may have left answers in them)."""
    enumeration.forget()
    yield
    enumeration.forget()


def _remember_something() -> None:
    enumeration._remember(("a label", "a key"), ((("an answer", 1),), 1))
    enumeration._choice_weights((("an answer", Fraction(1)),), "a label")
    assert _kept() == (1, 1)


def _kept() -> tuple[int, int]:
    return len(enumeration._KEPT.until), len(enumeration._KEPT.choices)


def test_forget_empties_both_stores():
    _remember_something()
    enumeration.forget()
    assert _kept() == (0, 0)


def test_the_odds_given_to_choose_are_checked_whether_remembered_or_not():
    """Odds that do not add up to 1 are refused each time they are given (never remembered)."""
    from critcore.errors import PluginError

    for _ in range(2):
        with pytest.raises(PluginError, match="a label: the odds given to Dice.choose must be probabilities adding up to 1"):
            enumeration._choice_weights((("an answer", Fraction(1, 2)),), "a label")
    assert enumeration._choice_weights((("a", Fraction(1, 4)), ("b", Fraction(3, 4))), "a label") == \
        ((("a", 1), ("b", 3)), 4)


def test_a_question_starts_with_nothing_remembered_and_leaves_nothing(registry, monkeypatch):
    """What an earlier question left is gone before the question's first stage runs, and what
    the question remembered is gone after it (a server keeps running without its states)."""
    seen = []
    engine = Engine("fake", registry=registry)
    context = engine.context

    def watched(*args, **kwargs):
        seen.append(_kept())
        _remember_something()  # as a system's Dice.until and Dice.choose would, during the question
        return context(*args, **kwargs)

    monkeypatch.setattr(engine, "context", watched)
    _remember_something()
    odds = exact_odds(engine, "attack", {"ac": 12, "damage": "1d8"})
    assert odds.exact and seen and seen[0] == (0, 0)
    assert _kept() == (0, 0)


def test_another_threads_question_neither_sees_nor_empties_this_ones():
    """While this thread's question keeps an answer, a question asked and finished in another
    thread starts from nothing and leaves this thread's answer where it was."""
    _remember_something()
    seen = []

    def other() -> None:
        seen.append(_kept())
        _remember_something()
        enumeration.forget()
        seen.append(_kept())

    thread = threading.Thread(target=other)
    thread.start()
    thread.join(10)
    assert seen == [(0, 0), (0, 0)] and _kept() == (1, 1)
