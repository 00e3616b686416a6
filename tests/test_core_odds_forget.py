"""What exact odds remember lasts one question (issue 25): the sub-enumerations (``_UNTIL_CACHE``)
and the weights of the odds given to ``Dice.choose`` are forgotten as a question begins and ends
(``critcore.chance.enumeration.forget``). Both are found by value, so an earlier question's answer
would hold the earlier question's objects (equal, not the same); the BattleTech plugin's test
``test_battletech_odds_questions.py`` shows what that cost."""

from fractions import Fraction

from critcore.chance import enumeration
from critcore.chance.exact import exact_odds
from critcore.engine.runner import Engine


def _remember_something() -> None:
    enumeration._remember(("a label", "a key"), ((("an answer", 1),), 1))
    enumeration._choice_weights((("an answer", Fraction(1)),), "a label")
    assert enumeration._UNTIL_CACHE and enumeration._choice_weights.cache_info().currsize == 1


def test_forget_empties_both_stores():
    _remember_something()
    enumeration.forget()
    assert not enumeration._UNTIL_CACHE and enumeration._choice_weights.cache_info().currsize == 0


def test_a_question_starts_with_nothing_remembered_and_leaves_nothing(registry, monkeypatch):
    """What an earlier question left is gone before the question's first stage runs, and what
    the question remembered is gone after it (a server keeps running without its states)."""
    seen = []
    engine = Engine("fake", registry=registry)
    context = engine.context

    def watched(*args, **kwargs):
        seen.append((len(enumeration._UNTIL_CACHE), enumeration._choice_weights.cache_info().currsize))
        _remember_something()  # as a system's Dice.until and Dice.choose would, during the question
        return context(*args, **kwargs)

    monkeypatch.setattr(engine, "context", watched)
    _remember_something()
    odds = exact_odds(engine, "attack", {"ac": 12, "damage": "1d8"})
    assert odds.exact and seen and seen[0] == (0, 0)
    assert not enumeration._UNTIL_CACHE and enumeration._choice_weights.cache_info().currsize == 0
