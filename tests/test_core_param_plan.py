"""A procedure's parameters are checked through a plan made once per procedure (issue 25:
``crit serve`` checks only the values a request gives, not all 26 of GURPS ``attack``). The
rule it keeps is the plain walk below: every declared parameter in the declared order, unknown
names refused first, a required one missing refused where it stands in that order, defaults
filled in. On generated procedures and values (hypothesis), the plan answers as the walk does:
the same checked values, or the same error line."""

from __future__ import annotations

from typing import Any, Mapping

from hypothesis import given, settings
from hypothesis import strategies as st
from runlength import examples

from critcore.engine.params import ParamPlan, check_params, coerce_param
from critcore.errors import ParamError
from critcore.model import Data, Param, Procedure


def walk(procedure: Procedure, given: Mapping[str, Any]) -> Data:
    """The rule, written as the plain walk over every declared parameter."""
    known = {p.name for p in procedure.params}
    for name in given:
        if name not in known and given[name] is not None:
            from critcore.stages.loader import did_you_mean

            raise ParamError(f"{procedure.name} takes no parameter {name!r}{did_you_mean(name, known)}"
                             f" (it takes: {', '.join(sorted(known)) or 'none'})")
    values: dict[str, Any] = {}
    for p in procedure.params:
        value = coerce_param(p, given.get(p.name))
        if value is None:
            if p.required:
                raise ParamError(f"{procedure.name} needs {p.flag}" + (f" ({p.help})" if p.help else ""))
            value = p.default
        values[p.name] = value
    return Data(values)


NAMES = st.sampled_from(["skill", "dr", "hp", "damage", "location", "male", "x", "skil"])
PARAMS = st.builds(
    lambda name, kind, required, default, lo: Param(
        name, kind, help="what it is" if lo else "", required=required,
        default=None if required else default, choices=("arm", "leg") if kind == "choice" else (),
        min=lo if kind in ("int", "float") else None, max=20 if kind in ("int", "float") else None),
    NAMES, st.sampled_from(["int", "float", "str", "bool", "choice", "dice"]), st.booleans(),
    st.one_of(st.none(), st.integers(0, 5)), st.one_of(st.none(), st.integers(-3, 3)))
PROCEDURES = st.lists(PARAMS, max_size=6, unique_by=lambda p: p.name).map(
    lambda ps: Procedure("attack", "an attack", tuple(ps)))
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-30, 30), st.floats(-30, 30, allow_nan=False),
                   st.sampled_from(["arm", "leg", "2d+1", "3", "yes", "", "x", "1.5", "2d"]))
GIVEN = st.dictionaries(NAMES, VALUES, max_size=6)


def answer(fn, procedure, values):
    try:
        return fn(procedure, values)
    except ParamError as exc:
        return ("error", str(exc))


@settings(max_examples=examples(150, 2000), deadline=None)
@given(PROCEDURES, GIVEN)
def test_the_plan_checks_as_the_walk_over_every_parameter(procedure, values):
    expected = answer(walk, procedure, values)
    assert answer(check_params, procedure, values) == expected
    plan = ParamPlan(procedure)
    assert answer(lambda _, v: plan.check(v), procedure, values) == expected
    assert answer(lambda _, v: plan.check(v), procedure, values) == expected  # the plan is used again unchanged


def test_the_first_error_in_the_declared_order_is_the_one_named():
    """Two bad values: the one declared first is named, whatever order the request gave them in;
    a required parameter left out before a bad value is named before it."""
    proc = Procedure("attack", "", (Param("skill", "int", required=True), Param("dr", "int", min=0, max=10),
                                    Param("location", "choice", choices=("arm", "leg"))))
    plan = ParamPlan(proc)
    assert answer(lambda _, v: plan.check(v), proc, {"location": "head", "dr": 99}) == \
        ("error", "attack needs --skill")
    assert answer(lambda _, v: plan.check(v), proc, {"location": "head", "dr": 99, "skill": 12}) == \
        ("error", "--dr: 99 is out of range (allowed: 0 to 10)")


def test_equal_values_of_other_types_are_checked_each_on_their_own():
    """``True == 1 == 1.0`` in Python, but a whole-number parameter takes 1 and 1.0 and refuses
    True, and a flag takes True and refuses 1."""
    proc = Procedure("attack", "", (Param("n", "int"), Param("flag", "bool")))
    plan = ParamPlan(proc)
    assert plan.check({"n": 1}) == {"n": 1, "flag": None}
    assert answer(lambda _, v: plan.check(v), proc, {"n": True}) == ("error", "--n: True is not a valid whole number")
    assert plan.check({"n": 1.0})["n"] == 1 and type(plan.check({"n": 1.0})["n"]) is int
    assert plan.check({"flag": True}) == {"n": None, "flag": True}
    assert answer(lambda _, v: plan.check(v), proc, {"flag": 1}) == ("error", "--flag: 1 is not a valid bool")
