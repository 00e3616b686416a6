"""GURPS on critcore's declared surface (issue 13): the plan comes from the prepare step, hits
are told by kind (never by identity), and the simulation's look-up is a hook."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Generator

import pytest

from critcore import hookimpl, testing
from critcore.plugin import ParamError
from critcore.plugin import Determination

import critcore_gurps.plugin as gurps
from gurps_testkit import faces


class Retold:
    """A house rule that wraps determine and answers its own copy of the determination."""

    @hookimpl(wrapper=True)
    def critcore_determine(self, ctx: Any) -> Generator[None, Any, Determination | None]:
        det: Determination | None = yield
        return None if det is None else replace(det, summary=det.summary + " (retold)")


def test_a_hit_retold_by_a_house_rule_still_lands_on_the_torso() -> None:
    """Skill 14, 3d6 = 10 is a hit; an attack not aimed elsewhere lands on the torso (the
    default location), also when a rule hands locate a copy of the hit."""
    out = testing.run(gurps, "attack", faces(10), rules={"retold": Retold()}, skill=14)
    assert out.determination.kind == "hit" and out.determination.summary.endswith("(retold)")
    assert out.location is not None and out.location.id == "torso"


def test_a_bad_location_is_refused_before_any_roll() -> None:
    """--location nowhere is refused by the prepare step: no face is consumed (none is given)."""
    with pytest.raises(ParamError, match="--location: unknown location 'nowhere'"):
        testing.run(gurps, "attack", [], skill=14, location="nowhere")


def test_the_plan_is_made_once_per_engine_and_parameters() -> None:
    """Five resolutions with the same parameters share one plan (ctx.prepared)."""
    from critcore.testing import Engine

    engine = Engine("gurps", registry=testing.registry(gurps))
    proc = engine.procedure("attack")
    from critcore.testing import RandomRoller
    from critcore.testing import check_params

    params = check_params(proc, {"skill": 12})
    plans = {id(engine.context(proc, params, RandomRoller(i)).prepared) for i in range(5)}
    assert len(plans) == 1
    other = engine.context(proc, check_params(proc, {"skill": 13}), RandomRoller(0)).prepared
    assert id(other) not in plans
