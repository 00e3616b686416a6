"""An engine keeps each question it was asked (``Engine.question``: the procedure and its checked
parameters, by the parameters as given; issue 25, ``crit serve`` asks the same ones thousands of
times). The rule it keeps: an engine's answer is the parameter plan's answer for those values,
whatever it was asked before: the same checked values of the same types, or the same error line.
Values that are equal but not the same (``1`` and ``True``, ``0``, ``False``, ``0.0`` and
``-0.0``) are never answered for each other. Held on generated questions (hypothesis) to one
engine asked them all in turn, against a fresh plan for each."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from critcore.engine.params import ParamPlan
from critcore.engine.runner import Engine
from critcore.errors import ParamError

pytest.importorskip("critcore_gurps")


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine("gurps")


def _typed(value: Any) -> Any:
    """A value with its type and, for a float, its sign: equal values of other types differ."""
    if isinstance(value, float):
        return (float, math.copysign(1.0, value), value)
    if isinstance(value, tuple):
        return (tuple, tuple(_typed(v) for v in value))
    return (type(value), value)


def _fresh(engine: Engine, procedure: str, params: Any) -> Any:
    """The rule: the procedure's parameter plan, made afresh, on these values."""
    proc = engine.procedure(procedure)
    try:
        checked = ParamPlan(proc).check(params or {})
    except ParamError as exc:
        return ("error", str(exc))
    return (proc, [(k, _typed(v)) for k, v in checked.items()])


def _asked(engine: Engine, procedure: str, params: Any) -> Any:
    try:
        proc, checked = engine.question(procedure, params, None)
    except ParamError as exc:
        return ("error", str(exc))
    return (proc, [(k, _typed(v)) for k, v in checked.items()])


NAMES = st.sampled_from(["skill", "damage", "hp", "dr", "location", "ranged", "armor_divisor", "fine", "x"])
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 20), st.sampled_from([0.0, -0.0, 1.0, 14.0, 2.5]),
                   st.sampled_from(["", "14", "2d+1 cut", "1d cut", "torso", "skull", "yes", "x", "3d imp"]))
QUESTIONS = st.lists(st.tuples(st.sampled_from(["attack", "critical-hit", "defense"]),
                               st.one_of(st.none(), st.dictionaries(NAMES, VALUES, max_size=4))),
                     min_size=1, max_size=12)


@settings(max_examples=150, deadline=None)
@given(QUESTIONS)
def test_a_kept_question_answers_as_a_fresh_plan_whatever_was_asked_before(engine: Engine, questions) -> None:
    for procedure, params in questions + questions[::-1]:
        assert _asked(engine, procedure, params) == _fresh(engine, procedure, params)


def test_equal_values_of_other_types_are_never_answered_for_each_other(engine: Engine) -> None:
    for first, second in [(1, True), (0, False), (True, 1), (0.0, -0.0), (-0.0, 0.0), (14, 14.0), (14.0, 14)]:
        for params in ({"skill": 12, "fine": first}, {"skill": 12, "fine": second},
                       {"skill": 12, "hp": first}, {"skill": 12, "hp": second},
                       {"skill": 12, "damage": "2d+1 cut", "armor_divisor": first},
                       {"skill": 12, "damage": "2d+1 cut", "armor_divisor": second}):
            assert _asked(engine, "attack", params) == _fresh(engine, "attack", params)


def test_the_same_question_is_the_same_checked_parameters_and_a_missing_target_still_refused(engine: Engine) -> None:
    first = engine.question("attack", {"skill": 14, "damage": "2d+1 cut"}, None)
    again = engine.question("attack", {"skill": 14, "damage": "2d+1 cut"}, None)
    assert again[1] is first[1]  # kept: the prepared answer finds it by its kept hash
    assert engine.question("attack", dict(first[1]), None)[1] == first[1]  # a Data or its values: checked afresh
    needs = next((p.name for p in engine.info.procedures if p.target == "required"), None)
    if needs is not None:
        for _ in range(2):
            with pytest.raises(ParamError, match="needs a target"):
                engine.question(needs, {}, None)


def test_a_large_question_is_answered_but_not_kept() -> None:
    """A client may send a 4 MB body: a question with many parameters (a null is taken by any
    name), or a long name or string, is checked afresh each time, never kept."""
    engine = Engine("gurps")
    many = {f"unused_{i}": None for i in range(100)} | {"skill": 12}
    long_name = {"x" * 300: None, "skill": 12}
    long_text = {"skill": 12, "damage": "2d+1 cut" + " " * 300}
    for params in (many, long_name, long_text, many):
        assert _asked(engine, "attack", params) == _fresh(engine, "attack", params)
    assert engine._questions == {}
    engine.question("attack", {"skill": 12}, None)
    assert len(engine._questions) == 1
