"""The apply stage's start kept by the effect stage's answer changes no probability (issue 25).

``Resolver.start_batch`` marks the slots of a batch of criticals and starts its cascade
(``apply_batch``, then ``start``) once per batch, and keeps the start in ``UnitMemo.starts`` by the
identity of the effect stage's answer (the tuple every run of the apply stage for that answer is
handed; exact odds run the apply stage once per outcome). The rule it must keep: the odds are
those of marking and starting anew at every run, and a start is only taken for the very tuple it
was worked out for (kept beside it, so its ``id`` is never another's while kept).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bt_shared import odds_by_outcome


def _anew(m: pytest.MonkeyPatch, made: list[Any]) -> None:
    """What start_batch replaces: the batch marked and its cascade started at every run."""
    from critcore_battletech.resolver import Resolver

    def start_batch(self: Resolver, batch: tuple[Any, ...]) -> None:
        made.append(batch)
        self.apply_batch([e for e in batch if e.table == "components"], record=False)

    m.setattr(Resolver, "start_batch", start_batch)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # the fixtures are only read
@given(location=st.sampled_from(["LT", "RT", "CT", "RA", "LL", "HD"]))
def test_the_batch_start_kept_gives_the_odds_of_starting_anew(bt_registry: Any, mech: dict[str, Any],
                                                             location: str) -> None:
    """A critical anywhere: the same outcomes with the same fractions, the start kept by batch or
    worked out at every run (which the plain way really does: once per outcome with slots hit)."""
    kept = odds_by_outcome(bt_registry, mech, "critical", {"location": location})
    made: list[Any] = []
    with pytest.MonkeyPatch.context() as m:
        _anew(m, made)
        anew = odds_by_outcome(bt_registry, mech, "critical", {"location": location})
    assert kept == anew
    assert made  # the plain way ran: each batch marked and started at every run


def test_a_start_is_taken_only_for_the_very_batch_it_was_kept_for(bt_registry: Any, mech: dict[str, Any]) -> None:
    """Each batch start is kept beside its batch under the batch's ``id``; an entry whose batch is
    another object (of the same value) is not taken: the start is worked out again, to the same
    odds."""
    from critcore.testing import Engine, exact_odds
    from critcore_battletech.unitmemo import KEY

    engine = Engine("battletech", registry=bt_registry)
    target = engine.check_target(copy.deepcopy(mech))
    first = exact_odds(engine, "critical", {"location": "LT"}, target)
    assert engine.memos is not None
    memo = engine.memos.of(target)
    assert memo is not None
    starts = memo[KEY].starts
    batches = [(key, found) for key, found in starts.items() if key[0] == "batch"]
    assert batches and all(key[2] == id(found[0]) for key, found in batches)
    for key, (batch, _) in batches:  # the same value, another object, a wrong start
        starts[key] = (tuple(list(batch)), "a wrong start")
    again = exact_odds(engine, "critical", {"location": "LT"}, target)
    assert [(b.to_json(), b.probability) for b in again.branches] == [(b.to_json(), b.probability) for b in first.branches]
