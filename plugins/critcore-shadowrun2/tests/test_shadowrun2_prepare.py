"""The wound procedure's Body check is worked out by the engine's prepare step (issue 13): once
per engine and parameters, errors before any roll, and nothing shared between engines.

Expected numbers come from the document: a serious wound's TNs are 4 (gentle) and 6
(recommended); Combat Pool dice on the Body check are an option, off by default.
"""

from __future__ import annotations

import critcore_shadowrun2.plugin as sr2
import pytest
from critcore import testing
from critcore.testing import RandomRoller
from critcore.testing import Engine, check_params
from critcore.plugin import ParamError

REG = testing.registry(sr2)


def test_combat_pool_without_the_option_is_refused_before_any_roll() -> None:
    """No face is given: the refusal comes from the prepare step, not from a roll running short."""
    with pytest.raises(ParamError, match="Combat Pool on the Body check is off"):
        testing.run(sr2, "wound", [], body=4, combat_pool=2, severity="serious")


def test_two_engines_with_different_options_keep_their_own_body_check() -> None:
    """Serious wound, Body 4: TN 6 (recommended) on one engine, TN 4 (gentle) on the other,
    asked in turn with the same parameters (a module-level cache keyed by the parameters alone
    would hand one engine's check to the other)."""
    plain = Engine("shadowrun2", registry=REG)
    gentle = Engine("shadowrun2", registry=REG, options={"tn_set": "gentle"})
    for _ in range(2):
        for engine, tn in ((plain, 6), (gentle, 4)):
            out = engine.run("wound", {"body": 4, "severity": "serious"}, seed=3)
            assert out.rolls[0].notation == f"4d6 vs TN {tn}"


def test_the_plan_is_made_once_per_engine_and_parameters() -> None:
    engine = Engine("shadowrun2", registry=REG)
    proc = engine.procedure("wound")
    params = check_params(proc, {"body": 4, "severity": "serious"})
    plans = {id(engine.context(proc, params, RandomRoller(i)).prepared) for i in range(4)}
    assert len(plans) == 1


def test_body_from_the_character_file_when_not_given() -> None:
    """No --body: the plan leaves the dice to the character file (Body 5 rolls 5 dice)."""
    out = testing.run(sr2, "wound", None, seed=1, target={"body": 5}, severity="serious")
    assert out.rolls[0].notation == "5d6 vs TN 6"
    with pytest.raises(ParamError, match="wound needs --body N"):
        testing.run(sr2, "wound", None, seed=1, severity="serious")
