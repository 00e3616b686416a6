"""Exact odds, however critcore makes them fast, are the odds of the plain method.

``critcore.chance.exact.exact_odds`` takes short cuts (a stage run that rolls nothing is not
enumerated, determine is read from its declared look-up, one context is shared by every run).
The rule it must keep is the one docs/odds.md states: each stage is run once per distinct
sequence of roll totals, given each distinct answer of the stages before it, and the chances
multiply. :func:`plain_odds` below is that rule written out with nothing else: the stages called
through pluggy, a fresh context for every run, every stage enumerated by the general
``enumerate_within``. Every outcome and every probability must be the same, fraction for
fraction, over questions that reach each short cut (attacks at several skills, with and without
damage, ranged, on a character file, the critical tables, a defense and a spell). A core test
(it reads the odds machinery, which a plugin's own tests may not import); skipped without the
GURPS plugin.
"""

from __future__ import annotations

import json
from fractions import Fraction
from importlib import resources
from typing import Any

import pytest

from critcore import testing
from critcore.chance.enumeration import checking_keys, enumerate_within
from critcore.chance.exact import DEFAULT_TOLERANCE, exact_odds
from critcore.engine.runner import Engine

gurps = pytest.importorskip("critcore_gurps.plugin")

REG = testing.registry(gurps)
BERTRAM = json.loads(resources.files("critcore_gurps.examples").joinpath("bertram.json").read_text(encoding="utf-8"))


def plain_odds(engine: Engine, procedure: str, params: dict[str, Any],
               target: Any = None) -> tuple[dict[Any, Fraction], Fraction]:
    """Every (determination, location, effects, applied) with its probability, and what is
    missing from 1, by the plain stage-by-stage method."""
    proc, checked = engine.question(procedure, params, target)
    hook = engine.pm.hook

    def enumerate_stage(call: Any) -> tuple[dict[Any, Fraction], Fraction]:
        return enumerate_within(lambda roller: call(engine.context(proc, checked, roller, target)),
                                DEFAULT_TOLERANCE)

    missing = Fraction(0)
    dets, cut = enumerate_stage(lambda ctx: hook.critcore_determine(ctx=ctx))
    missing += cut
    outcomes: dict[Any, Fraction] = {}
    states: list[tuple[tuple[Any, ...], Fraction]] = []
    for det, p in dets.items():
        if det is not None and det.final:
            outcomes[(det, None, (), None)] = outcomes.get((det, None, (), None), Fraction(0)) + p
        else:
            states.append(((det,), p))
    for level in ("locate", "effect", "apply"):
        later: list[tuple[tuple[Any, ...], Fraction]] = []
        for prefix, p in states:
            if level == "locate":
                dist, cut = enumerate_stage(lambda ctx, pre=prefix: hook.critcore_locate(ctx=ctx, determination=pre[0]))
            elif level == "effect":
                dist, cut = enumerate_stage(lambda ctx, pre=prefix: tuple(hook.critcore_effect(
                    ctx=ctx, determination=pre[0], location=pre[1]) or ()))
            else:
                dist, cut = enumerate_stage(lambda ctx, pre=prefix: hook.critcore_apply(
                    ctx=ctx, determination=pre[0], location=pre[1], effects=pre[2]))
            missing += p * cut
            later.extend((prefix + (answer,), p * q) for answer, q in dist.items())
        states = later
    for key, p in states:
        outcomes[key] = outcomes.get(key, Fraction(0)) + p
    return outcomes, missing


QUESTIONS = [
    ("attack", {"skill": 15}, None),
    ("attack", {"skill": 9}, None),
    ("attack", {"skill": 16, "damage": "2d+1 cut", "hp": 10}, None),
    ("attack", {"skill": 12, "damage": "1d+2 imp", "location": "skull"}, None),
    ("attack", {"skill": 14, "ranged": True, "damage": "3d pi"}, None),
    ("attack", {"skill": 17, "damage": "2d cr"}, BERTRAM),
    ("critical-hit", {"damage": "2d cut"}, None),
    ("head-blow", {}, None),
    ("head-blow", {"location": "eye", "two_weapons": True}, None),
    ("critical-miss", {"fine": True}, None),
    ("attack", {"skill": 15, "cheap": True, "attack_kind": "thrust"}, None),  # treated-as rows of the miss table
    ("defense", {"skill": 11, "defense": "parry"}, None),
    ("defense", {"skill": 13, "defense": "dodge"}, BERTRAM),
    ("spell", {"skill": 14}, None),
]


@pytest.mark.parametrize("procedure, params, target", QUESTIONS,
                         ids=[f"{q[0]}-{'-'.join(f'{k}={v}' for k, v in q[1].items())}{'-bertram' if q[2] else ''}"
                              for q in QUESTIONS])
def test_exact_odds_are_those_of_the_plain_method(procedure: str, params: dict[str, Any], target: Any) -> None:
    engine = Engine("gurps", registry=REG)
    expected, missing = plain_odds(engine, procedure, params, target)
    with checking_keys():  # every effect look-up (critcore_effect_lookup) also run total by total
        odds = exact_odds(Engine("gurps", registry=REG), procedure, params, target=target)
    found: dict[Any, Fraction] = {}
    for b in odds.branches:
        key = (b.determination, b.location, b.effects, b.applied)
        found[key] = found.get(key, Fraction(0)) + b.probability
    assert len(found) == len(odds.branches)  # no outcome is given twice
    assert found == expected
    assert odds.remainder == missing
    assert sum(found.values()) + odds.remainder == 1


# generated attacks: every combination of the weapon facts the GURPS effect look-ups are kept by
# (resistant, cheap, ranged, swinging, parrying, piercing), at any skill, with or without a target
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from runlength import examples  # noqa: E402

_DAMAGE = st.sampled_from([None, "2d cut", "1d+1 imp", "3d pi", "2d cr", "1d-1 pi-"])
_ATTACK = st.fixed_dictionaries({"skill": st.integers(3, 19)}, optional={
    "ranged": st.booleans(), "cheap": st.booleans(), "fine": st.booleans(), "unarmed": st.booleans(),
    "attack_kind": st.sampled_from(["swing", "thrust"]), "location": st.sampled_from(["torso", "skull", "random"]),
    "two_weapons": st.booleans()})


@settings(max_examples=examples(8, 200), deadline=None)
@given(params=_ATTACK, damage=_DAMAGE, bertram=st.booleans())
def test_generated_attacks_have_the_odds_of_the_plain_method(params: dict[str, Any], damage: Any,
                                                             bertram: bool) -> None:
    """Each look-up (kept with its plan, by the weapon facts it reads) gives the plain method's
    odds, fraction for fraction, however the weapon and the attack are described."""
    from critcore.errors import ParamError

    if damage is not None:
        params = dict(params, damage=damage)
    target = BERTRAM if bertram else None
    engine = Engine("gurps", registry=REG)
    try:
        expected, missing = plain_odds(engine, "attack", params, target)
    except ParamError:
        return  # a combination the attack refuses (a cut aimed at the eye, ...): refused alike
    with checking_keys():
        odds = exact_odds(engine, "attack", params, target=target)
    found: dict[Any, Fraction] = {}
    for b in odds.branches:
        key = (b.determination, b.location, b.effects, b.applied)
        found[key] = found.get(key, Fraction(0)) + b.probability
    assert found == expected and odds.remainder == missing


def test_one_engine_asked_one_question_after_another_gives_each_the_plain_odds() -> None:
    """The effect look-ups are kept for the engine's life (in ``critcore_prepare``'s memo) and
    shared by all its plans, by table and the weapon facts they read: questions with other
    parameters and other weapons, asked of one engine one after another (each finding the
    look-ups the earlier ones made), each have the plain method's odds on an engine of its own."""
    engine = Engine("gurps", registry=REG)
    asked = [("attack", {"skill": 15}, None), ("attack", {"skill": 9, "hp": 7}, None),
             ("attack", {"skill": 15, "cheap": True}, None), ("attack", {"skill": 12, "ranged": True}, BERTRAM),
             ("attack", {"skill": 16, "attack_kind": "thrust", "damage": "1d+1 imp"}, None),
             ("critical-miss", {"fine": True}, None), ("attack", {"skill": 18, "location": "skull"}, None),
             ("attack", {"skill": 15}, BERTRAM)]
    for procedure, params, target in asked:
        expected, missing = plain_odds(Engine("gurps", registry=REG), procedure, params, target)
        with checking_keys():
            odds = exact_odds(engine, procedure, params, target=target)
        found: dict[Any, Fraction] = {}
        for b in odds.branches:
            key = (b.determination, b.location, b.effects, b.applied)
            found[key] = found.get(key, Fraction(0)) + b.probability
        assert found == expected and odds.remainder == missing, (procedure, params)
