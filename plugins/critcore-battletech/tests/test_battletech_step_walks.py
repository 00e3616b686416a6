"""A step's walks kept by the check's answer and the queue behind it change no probability (issue
25, twelfth round).

``CascadeOdds._step_odds`` follows each answer of the check a step starts with by the actions of
the queue behind the check, up to the next roll, and merges the state it reaches. That walk and
merge read the answer's state, the actions it left and the queue behind, nothing else: the
events it notes and the tags it adds are put together with the step's own. So they are kept
(``CascadeOdds._walked_on``, in the resolver's part of ``UnitMemo.acts``) by the identities of
the three, and a step that meets them again takes them from there. The rules it must keep: for
any step exact odds meet, with any events and tags, the answers (state, events, queue, tags, in
the same order, with the same chances) are those of walking every answer anew; exact odds give
the same outcomes with the same fractions with it or without it; and the store is bounded.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bt_shared import odds_by_outcome


def _walked_anew(res: Any, state: tuple[Any, ...]) -> list[tuple[Any, Fraction]]:
    """``_step_odds`` as it was before its walks were kept: each answer walked with the step's
    events and tags, and merged."""
    from critcore_battletech.cascadeodds import NO_STORY, _first_then_reversed

    overlay, events, queue, tags, _ = state
    rest = queue[1:]
    out: dict[Any, list[int]] = {}
    weights, den = res._check_steps(overlay, queue[0])
    for (now, pending, seen, seen_tags), w in _first_then_reversed(weights):
        q = pending + rest if pending else rest
        now_tags = tags | seen_tags if seen_tags else tags
        if q:
            now, q, seen, now_tags = res._walk(now, q, seen, now_tags)
        new_events = events + tuple([e for e in seen if e not in events]) if seen else events
        short = res._merged_kept(now, q)
        answer = (short[0], new_events, short[1], now_tags, NO_STORY)
        out.setdefault(answer, [0])[0] += w
    return [(answer, Fraction(w[0], den)) for answer, w in _first_then_reversed(tuple(out.items()))]


_MET: dict[Any, list[tuple[Any, Any]]] = {}  # by unit and question: the same steps for every example


def _steps(bt_registry: Any, unit: dict[str, Any], procedure: str, params: dict[str, Any]) -> list[tuple[Any, Any]]:
    """Every (resolver, state) ``_step_odds`` is asked about in the exact odds of ``procedure``."""
    from critcore.testing import Engine, exact_odds
    from critcore_battletech.resolver import Resolver

    key = (unit["config"], procedure, repr(sorted(params.items())))
    if key in _MET:
        return _MET[key]
    met = _MET[key] = []
    real = Resolver._step_odds

    def spy(self: Resolver, state: Any) -> Any:
        met.append((self, state))
        return real(self, state)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(Resolver, "_step_odds", spy)
        exact_odds(Engine("battletech", registry=bt_registry), procedure, params, copy.deepcopy(unit))
    return met


# the fixtures are only read
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(unit=st.sampled_from(["mech", "quad"]), location=st.sampled_from(["LT", "RT", "CT"]),
       amount=st.integers(min_value=12, max_value=40), critical=st.booleans(), draws=st.data())
def test_a_step_with_its_walks_kept_is_the_step_walked_anew(bt_registry: Any, mech: dict[str, Any],
                                                           quad: dict[str, Any], unit: str, location: str,
                                                           amount: int, critical: bool, draws: Any) -> None:
    """Any step exact odds meet (of a critical in the left torso, whose steps meet kept walks,
    or of damage anywhere), as it was met and with other events, tags and queues behind its
    check (some of its actions left out, checks added: the walks kept from one then taken for
    another): the answers, their order and their chances are those of walking every answer
    anew."""
    if critical:
        met = _steps(bt_registry, mech, "critical", {"location": "LT"})
    else:
        met = _steps(bt_registry, mech if unit == "mech" else quad, "damage", {"location": location, "amount": amount})
    if not met:
        return
    events = sorted({e for _, state in met for e in state[1]} | {"PSR: test"})
    tags = sorted({t for _, state in met for t in state[3]} | {"test"})
    picks = draws.draw(st.lists(st.integers(min_value=0, max_value=len(met) - 1), min_size=1, max_size=10))
    for n in picks:
        res, state = met[n]
        assert res._step_odds(state) == _walked_anew(res, state)
        other_events = tuple(draws.draw(st.lists(st.sampled_from(events), unique=True, max_size=3)))
        other_tags = frozenset(draws.draw(st.sets(st.sampled_from(tags), max_size=2)))
        other = (state[0], other_events, state[2], other_tags, state[4])
        assert res._step_odds(other) == _walked_anew(res, other)
        rest = state[2][1:]
        kept = [a for a in rest if draws.draw(st.booleans())]
        codes = sorted(res.w.base_locs)  # the unit's own locations (a quad's legs are not a biped's)
        more = [("check", code) for code in draws.draw(st.lists(st.sampled_from(codes), max_size=2))]
        behind = (state[0], state[1], (state[2][0], *kept, *more), state[3], state[4])
        assert res._step_odds(behind) == _walked_anew(res, behind)


def test_walks_are_kept_and_taken_in_exact_odds(bt_registry: Any, mech: dict[str, Any]) -> None:
    """The kept walks are taken: the exact odds of a critical in the left torso (a cascade of
    ammunition explosions) walk fewer answers than their steps read."""
    from critcore.testing import Engine, exact_odds
    from critcore_battletech.resolver import Resolver

    walked: list[Any] = []
    read: list[int] = []
    real_walk, real_check = Resolver._walked_on, Resolver._check_steps

    def walk(self: Resolver, *args: Any) -> Any:
        walked.append(args)
        return real_walk(self, *args)

    def check(self: Resolver, *args: Any) -> Any:
        found = real_check(self, *args)
        read.append(len(found[0]))
        return found

    with pytest.MonkeyPatch.context() as m:
        m.setattr(Resolver, "_walked_on", walk)
        m.setattr(Resolver, "_check_steps", check)
        exact_odds(Engine("battletech", registry=bt_registry), "critical", {"location": "LT"}, copy.deepcopy(mech))
    assert walked and len(walked) < sum(read)


# the fixtures are only read
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(location=st.sampled_from(["LT", "RT", "CT", "RA", "LL"]), amount=st.integers(min_value=10, max_value=40),
       critical=st.booleans())
def test_odds_with_walks_kept_are_those_walked_anew(bt_registry: Any, mech: dict[str, Any], location: str,
                                                    amount: int, critical: bool) -> None:
    """A critical or damage anywhere, of any amount that reaches the structure: the same outcomes
    with the same fractions, each step's walks kept or each answer walked anew."""
    from critcore_battletech.resolver import Resolver

    procedure, params = ("critical", {"location": location}) if critical else (
        "damage", {"location": location, "amount": amount})

    kept = odds_by_outcome(bt_registry, mech, procedure, params)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(Resolver, "_step_odds", _walked_anew)
        anew = odds_by_outcome(bt_registry, mech, procedure, params)
    assert kept == anew


def test_the_kept_walks_are_bounded(bt_registry: Any, mech: dict[str, Any], monkeypatch: Any) -> None:
    """The walks share the bound of the acts they are kept with (``CASCADE_ACTS``): a full store
    starts afresh, and the odds are the same."""
    from critcore_battletech import cascadeodds
    from critcore_battletech.resolver import Resolver

    sizes: list[int] = []
    real = Resolver._walked_on

    def walk(self: Resolver, walks: dict[Any, Any], *args: Any) -> Any:
        found = real(self, walks, *args)
        sizes.append(len(walks))
        return found

    before = odds_by_outcome(bt_registry, mech, "critical", {"location": "LT"})
    monkeypatch.setattr(cascadeodds, "CASCADE_ACTS", 16)
    monkeypatch.setattr(Resolver, "_walked_on", walk)
    after = odds_by_outcome(bt_registry, mech, "critical", {"location": "LT"})
    assert sizes and max(sizes) <= 16
    assert before == after


def test_equal_answers_met_as_other_objects_are_taken_together(bt_registry: Any, mech: dict[str, Any]) -> None:
    """A step takes its answers together by value, whatever object a kept walk hands on: with
    every walk's merged state handed on as an object of its own (equal answers met as other
    objects), the odds are still those of walking every answer anew, order and fractions."""
    from critcore_battletech.resolver import Resolver

    real = Resolver._walked_on

    def apart(self: Resolver, walks: dict[Any, Any], key: Any, *args: Any) -> Any:
        found = real(self, walks, key, *args)
        short, noted, added = found[3]
        walks[key] = found = (*found[:3], ((*short,), noted, added))  # an equal tuple, another object
        return found

    def odds() -> Any:
        from critcore.testing import Engine, exact_odds

        found = exact_odds(Engine("battletech", registry=bt_registry), "critical", {"location": "LT"},
                           copy.deepcopy(mech))
        return [(repr(sorted(b.to_json().items())), b.probability) for b in found.branches]

    with pytest.MonkeyPatch.context() as m:
        m.setattr(Resolver, "_walked_on", apart)
        shared = odds()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(Resolver, "_step_odds", _walked_anew)
        anew = odds()
    assert shared == anew
