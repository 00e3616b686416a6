"""A slot marked by a critical is one object per slot, turn and batch, found by the slot's
identity (issue 25, twelfth round: ``Strikes.mark``'s store in ``UnitMemo.marked``, keyed by the
slot's ``id`` with the slot kept beside it, where it was keyed by the slot's value, a Python hash
per slot marked). The rule it must keep: whatever slots are marked, on whatever state, turn and
batch, in whatever order and again, each marked slot is the slot with ``destroyed``, ``hit_turn``
and ``hit_batch`` set, and every other slot is as it was.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


_MET: list[tuple[Any, Any, Any]] = []  # the batches met, once for every example


def _marks(bt_registry: Any, mech: dict[str, Any]) -> list[tuple[Any, Any, Any]]:
    """Every (resolver, state, batch) ``mark`` is asked about in the exact odds of a critical."""
    from critcore.testing import Engine, exact_odds
    from critcore_battletech.resolver import Resolver

    if _MET:
        return _MET
    met = _MET
    real = Resolver.mark

    def spy(self: Resolver, batch: list[Any]) -> None:
        met.append((self, self.w.overlay(), list(batch)))
        real(self, batch)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(Resolver, "mark", spy)
        # the same batches for every example (a question starts from nothing remembered: the
        # core's enumeration.forget)
        exact_odds(Engine("battletech", registry=bt_registry), "critical", {"location": "LT"}, copy.deepcopy(mech))
    return met


# the fixtures are only read
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(draws=st.data())
def test_a_kept_mark_is_the_slot_marked(bt_registry: Any, mech: dict[str, Any], draws: Any) -> None:
    """Batches exact odds mark, on the states they were met on, with any turn and batch number,
    one after another and again: each slot of the batch is marked with that turn and batch, the
    others are as they were."""
    met = _marks(bt_registry, mech)
    assert met
    picks = draws.draw(st.lists(st.integers(min_value=0, max_value=len(met) - 1), min_size=1, max_size=8))
    for n in picks + picks:
        res, overlay, batch = met[n]
        probe = res.fork(res.dice, overlay)
        probe.turn = draws.draw(st.sampled_from([None, 1, 2]))
        probe.batch = draws.draw(st.sampled_from([1, 2]))
        probe.mark(batch)
        hit = {(e.data["location"], e.data["slot"] - 1) for e in batch if "slot" in e.data}
        before = res.fork(res.dice, overlay).w
        for code in {c for c, _ in hit}:
            for i, (old, new) in enumerate(zip(before.loc(code)["slots"], probe.w.loc(code)["slots"])):
                if (code, i) in hit:
                    assert new == old.replace(destroyed=True, hit_turn=probe.turn, hit_batch=probe.batch)
                else:
                    assert new is old
