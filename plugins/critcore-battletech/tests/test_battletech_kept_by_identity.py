"""The cascade's kept actions and merges found by the state's identity change no probability (issue 25).

``Actions.kept_action`` and ``CascadeOdds._merged_kept`` keep what an action does to a unit state,
and what the merge keeps of a state and queue, under the state's ``id`` (with the state itself kept
beside the answer and checked to be the same object), where they were kept under the state's
value: a state's three records each hash with a Python call, an ``id`` in C. The rule they must
keep: an answer is only ever taken for the very object it was worked out on, so a state met as
another object of the same value is worked out again (never a wrong answer), and an entry left by
an object since gone, whose ``id`` a new state reuses, is not taken for it.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bt_shared import odds_by_outcome


def _by_value(m: pytest.MonkeyPatch) -> None:
    """The stores as they were before: by the state's value (what the identity stores replace)."""
    from critcore_battletech.resolver import Resolver
    from critcore_battletech.unitmemo import CASCADE_ACTS

    def kept_action(self: Resolver, overlay: Any, action: Any) -> Any:
        key = (self.prep, self.turn, self.batch, self.cascade, overlay, action)
        return self.memo.kept(self.memo.acts, key, lambda: self.acted(action, overlay), CASCADE_ACTS)

    def merged_kept(self: Resolver, overlay: Any, queue: Any) -> Any:
        return self.memo.kept(self.memo.merges, (overlay, queue), lambda: self._merged(overlay, queue), CASCADE_ACTS)

    m.setattr(Resolver, "kept_action", kept_action)
    m.setattr(Resolver, "_merged_kept", merged_kept)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # the fixtures are only read
@given(location=st.sampled_from(["LT", "RT", "CT", "RA", "LL"]), amount=st.integers(min_value=10, max_value=40))
def test_kept_by_identity_gives_the_odds_kept_by_value(bt_registry: Any, mech: dict[str, Any], location: str,
                                                       amount: int) -> None:
    """Damage anywhere, of any amount that reaches the structure: the same outcomes with the same
    fractions, the stores keyed by the state's identity or by its value."""
    by_identity = odds_by_outcome(bt_registry, mech, "damage", {"location": location, "amount": amount})
    with pytest.MonkeyPatch.context() as m:
        _by_value(m)
        by_value = odds_by_outcome(bt_registry, mech, "damage", {"location": location, "amount": amount})
    assert by_identity == by_value


def test_only_the_object_an_answer_was_worked_out_on_finds_it(bt_registry: Any, mech: dict[str, Any]) -> None:
    """A state equal to a kept one but another object is worked out again, to the same answer; an
    entry under its ``id`` left by another object (one since gone whose ``id`` it reuses) is not
    taken."""
    from critcore.testing import Engine, exact_odds
    from critcore_battletech.resolver import Resolver

    met: list[tuple[Any, Any, Any]] = []
    real = Resolver.kept_action

    def spy(self: Resolver, overlay: Any, action: Any) -> Any:
        met.append((self, overlay, action))
        return real(self, overlay, action)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(Resolver, "kept_action", spy)
        exact_odds(Engine("battletech", registry=bt_registry), "damage", {"location": "LT", "amount": 27},
                   copy.deepcopy(mech))
    assert met
    for res, overlay, action in met[:20]:
        again: Any = tuple(copy.copy(dict(part)) for part in overlay)  # the same value, another object
        again = tuple(type(part)(d) for part, d in zip(overlay, again))
        assert again == overlay and again is not overlay
        assert real(res, again, action) == res.acted(action, overlay)
        assert res.acts_here is not None
        res.acts_here[(id(again), id(action))] = (object(), action, ("a wrong answer",))
        assert real(res, again, action) == res.acted(action, overlay)


def test_a_target_asked_about_turn_after_turn_keeps_a_bounded_store_of_actions(bt_registry: Any,
                                                                               mech: dict[str, Any]) -> None:
    """The kept actions are held per preparation, turn, batch and cascade; a target asked about
    twelve turns in a row (a bot, a long session) keeps at most ``ACT_HEADS`` such sets, then they
    start afresh, and the odds of a turn asked again are those of the first asking."""
    from critcore.testing import Engine, exact_odds
    from critcore_battletech.unitmemo import ACT_HEADS, KEY

    engine = Engine("battletech", registry=bt_registry)
    target = engine.check_target(copy.deepcopy(mech))
    params = {"location": "LT", "amount": 27}
    first = exact_odds(engine, "damage", {**params, "turn": 1}, target)
    for turn in range(2, 13):
        exact_odds(engine, "damage", {**params, "turn": turn}, target)
        assert engine.memos is not None
        memo = engine.memos.of(target)
        assert memo is not None
        assert len(memo[KEY].acts) <= ACT_HEADS
    again = exact_odds(engine, "damage", {**params, "turn": 1}, target)
    assert [(b.to_json(), b.probability) for b in again.branches] == [(b.to_json(), b.probability) for b in first.branches]
