"""``crit serve``'s outcome JSON without copies (critcore/_speed/outcomejson.py, issue 25) against
the one it stands for, ``Outcome.to_dict``: the rule is that both encoders ``crit serve`` uses
(orjson, and json without it) write the same bytes for either. Checked on seeded outcomes of every
procedure of every installed system that runs without a target, and on every shipped example
target of every system with each procedure that takes one (hypothesis picks the seeds)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from critcore._speed.jsonbytes import json_dumps, json_dumps_plain
from critcore._speed.outcomejson import as_is
from critcore.errors import CritcoreError
from critcore.model import outcome_object


def _same(outcome) -> None:
    fast = outcome_object(outcome, as_is)
    plain = outcome.to_dict()
    assert list(fast) == list(plain)
    assert json_dumps(fast) == json_dumps(plain)
    assert json_dumps_plain(fast) == json_dumps_plain(plain)


def _systems():
    from critcore.stages.loader import Registry

    return sorted(Registry.installed().systems)


def _targets(engine):
    """The system's shipped examples it reads as targets (a character, a unit)."""
    import json

    found = []
    for ex in engine.pm.hook.critcore_examples() or ():
        try:
            state = engine.read_target(ex.name, ex.text)
            if state is None and ex.name.endswith(".json"):
                state = json.loads(ex.text)
            if state is not None:
                found.append(engine.check_target(state))
        except (CritcoreError, ValueError):
            continue  # a house-rule file, not a target
    return found


def _value(param):
    """A value a required parameter may take (some the procedure refuses: those runs are skipped)."""
    if param.choices:
        return st.sampled_from(list(param.choices))
    if param.type in ("int", "float"):
        low = 0 if param.min is None else int(param.min)
        return st.integers(low, max(low, 20 if param.max is None else int(param.max)))
    if param.type == "bool":
        return st.booleans()
    if param.type == "dice":
        return st.sampled_from(["1d6", "2d6+1", "3d6"])
    return st.sampled_from(["1", "2d+1 cut", "M", "LT", "torso"])


@pytest.mark.parametrize("system", _systems())
def test_the_bytes_are_to_dicts_for_every_procedure(system):
    from critcore.engine.runner import Engine

    engine = Engine(system)
    targets = _targets(engine)
    runs = []
    for proc in engine.info.procedures:
        if proc.target != "required":
            runs.append((proc.name, None))
        if proc.target != "none":
            runs.extend((proc.name, t) for t in targets)
    assert runs

    @settings(max_examples=50, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(runs), st.integers(0, 10**6), st.data())
    def check(run, seed, data):
        name, target = run
        params = {p.name: data.draw(_value(p), p.name) for p in engine.procedure(name).params
                  if p.required or (p.type == "int" and data.draw(st.booleans(), f"give {p.name}"))}
        try:
            outcome = engine.run(name, params, seed=seed, target=target)
        except CritcoreError:
            return  # a procedure this target cannot take (a 'Mech without the location asked)
        _same(outcome)

    check()
