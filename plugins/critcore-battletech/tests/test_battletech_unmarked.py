"""An act's answer shared by the states that differ only in marks it never reads changes no
probability (issue 25, eleventh round).

``Actions._unmarked`` (``actions.py``: ``state_key``, ``Delta``, ``applied``) takes what an action
that rolls no dice did to one state for any state that agrees with it on everything but the marks
of slots whose hits the rules of such an action never read (``damage.TALLIED``: only settling
reads the tally, and only the cockpit's and the engine's): the same locations' entries set on
that state's own records, the same top-level entries, items, queue, story, events and tags. The
rules it must keep: on any state, with any other slots marked or not, the answer is the one
carrying the action out gives; and exact odds give the same outcomes with the same fractions with
it or without it.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bt_shared import odds_by_outcome

from critcore.plugin import Data


def _met(bt_registry: Any, unit: dict[str, Any], location: str, amount: int) -> list[tuple[Any, Any, Any]]:
    """Every (resolver, state, action) ``_unmarked`` is asked about in the exact odds of damage."""
    from critcore.testing import Engine, exact_odds
    from critcore_battletech.resolver import Resolver

    met: list[tuple[Any, Any, Any]] = []
    real = Resolver._unmarked

    def spy(self: Resolver, acts: Any, overlay: Any, action: Any) -> Any:
        met.append((self, overlay, action))
        return real(self, acts, overlay, action)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(Resolver, "_unmarked", spy)
        exact_odds(Engine("battletech", registry=bt_registry), "damage", {"location": location, "amount": amount},
                   copy.deepcopy(unit))
    return met


def _remarked(res: Any, overlay: Any, flips: Any) -> Any:
    """``overlay`` with slots of its changed locations marked or unmarked as ``flips`` draws (most
    often slots of kinds no action reads; any slot, tallied or not, when ``anywhere``)."""
    from critcore_battletech.damage import TALLIED

    top, locs, items = overlay
    anywhere = flips.draw(st.booleans())
    changed = {}
    for code, loc in locs.items():
        slots = []
        for s in loc["slots"]:
            if (anywhere or s["kind"] not in TALLIED) and flips.draw(st.booleans()):
                hit = not s["destroyed"]
                s = s.replace(destroyed=hit, hit_turn=res.turn if hit else None, hit_batch=res.batch if hit else None)
            slots.append(s)
        changed[code] = loc.replace(slots=tuple(slots))
    return top, Data(changed), items


# the fixtures are only read
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(unit=st.sampled_from(["mech", "quad"]), location=st.sampled_from(["LT", "RT", "CT"]),
       amount=st.integers(min_value=12, max_value=40), flips=st.data())
def test_an_act_shared_across_marks_is_the_act_carried_out(bt_registry: Any, mech: dict[str, Any],
                                                          quad: dict[str, Any], unit: str, location: str,
                                                          amount: int, flips: Any) -> None:
    """Any action exact odds meet, on the state it was met on with other slots marked or unmarked
    (of kinds no such action reads, or of any kind): the answer found for the second state after
    the first (shared when only untallied marks differ) is the answer carrying the action out on
    the second gives, state, queue, story, events and tags."""
    from critcore_battletech import actions as U

    met = _met(bt_registry, mech if unit == "mech" else quad, location, amount)
    assert met
    picks = flips.draw(st.lists(st.integers(min_value=0, max_value=len(met) - 1), min_size=1, max_size=12))
    for n in picks:
        res, overlay, action = met[n]
        other = _remarked(res, overlay, flips)
        acts: dict[Any, Any] = {}
        assert res._unmarked(acts, overlay, action) == res.acted(action, overlay)
        assert res._unmarked(acts, other, action) == res.acted(action, other)  # shared when a Delta was kept
        assert all(v.__class__ is U.Delta or v is False for v in acts.values())


def test_acts_are_shared_across_marks_in_exact_odds(bt_registry: Any, mech: dict[str, Any]) -> None:
    """The shared answers are taken: exact odds of damage that sets off a cascade of criticals
    find acts (explosions, settling) answered from another state with other marks."""
    from critcore.testing import Engine, exact_odds
    from critcore_battletech import actions as U

    taken: list[Any] = []
    real = U.applied

    def spy(*args: Any) -> Any:
        taken.append(args)
        return real(*args)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(U, "applied", spy)
        exact_odds(Engine("battletech", registry=bt_registry), "damage", {"location": "LT", "amount": 27},
                   copy.deepcopy(mech))
    assert taken


# the fixtures are only read
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(location=st.sampled_from(["LT", "RT", "CT", "RA", "LL"]), amount=st.integers(min_value=10, max_value=40))
def test_odds_with_acts_shared_across_marks_are_those_carried_out(bt_registry: Any, mech: dict[str, Any],
                                                                  location: str, amount: int) -> None:
    """Damage anywhere, of any amount that reaches the structure: the same outcomes with the same
    fractions, each act's answer shared across marks or carried out on every state."""
    from critcore_battletech.resolver import Resolver

    def odds() -> dict[str, Any]:
        return odds_by_outcome(bt_registry, mech, "damage", {"location": location, "amount": amount})

    shared = odds()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(Resolver, "_unmarked", lambda self, acts, overlay, action: self.acted(action, overlay))
        anew = odds()
    assert shared == anew


def test_a_location_key_reads_the_tallied_marks_alone(mech: dict[str, Any]) -> None:
    """Two records of a location that differ only in the marks of slots no action reads have one
    key; a mark on an engine slot, or another entry, makes another."""
    from critcore.plugin import freeze

    from critcore_battletech.damage import TALLIED
    from critcore_battletech.actions import loc_key

    loc = freeze(mech)["locations"]["LT"]
    slots = loc["slots"]
    engine = next(i for i, s in enumerate(slots) if s["kind"] in TALLIED)
    other = next(i for i, s in enumerate(slots) if s["kind"] not in TALLIED)

    def marked(i: int) -> Any:
        return loc.replace(slots=tuple(s.replace(destroyed=True) if n == i else s for n, s in enumerate(slots)))

    kept: dict[Any, Any] = {}
    assert loc_key(marked(other), TALLIED, kept) == loc_key(loc, TALLIED, kept)
    assert loc_key(marked(engine), TALLIED, kept) != loc_key(loc, TALLIED, kept)
    assert loc_key(loc.replace(structure=1), TALLIED, kept) != loc_key(loc, TALLIED, kept)


def test_an_answer_that_changes_slots_is_not_shared(mech: dict[str, Any]) -> None:
    """An answer whose state changed a location's slots, or took an entry away, cannot be told as
    entries set on another state's record: it is never shared (worked out on every state)."""
    from critcore.plugin import freeze

    from critcore_battletech.actions import delta

    base = freeze(mech)["locations"]
    before = (Data(), Data(), Data())
    lt = base["LT"]
    resloted = lt.replace(slots=tuple(s.replace(destroyed=True) for s in lt["slots"]))
    assert delta(base, before, ((Data(), Data(LT=resloted), Data()), (), (), (), (), frozenset())) is None
    fewer = Data({k: v for k, v in lt.items() if k != "armor"})
    assert delta(base, before, ((Data(), Data(LT=fewer), Data()), (), (), (), (), frozenset())) is None
    hit = lt.replace(structure=0, destroyed=True)
    found = delta(base, before, ((Data(), Data(LT=hit), Data()), (), (), (), (), frozenset()))
    assert found is not None and [code for code, _ in found.locs] == ["LT"]
    assert dict(found.locs[0][1]) == {"structure": 0, "destroyed": True}


# the fixture is only read
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.tuples(st.sampled_from(["LT", "RT", "CT"]),
                                  st.fixed_dictionaries({"structure": st.integers(min_value=0, max_value=12)},
                                                        optional={"armor": st.integers(min_value=0, max_value=16),
                                                                  "destroyed": st.booleans()})),
                        min_size=1, max_size=6), on_changed=st.booleans())
def test_an_applied_delta_sets_its_own_entries(mech: dict[str, Any], changes: list[tuple[str, dict[str, Any]]],
                                               on_changed: bool) -> None:
    """Deltas applied to a state, one after another and again (the record each makes of a
    location's record kept by both, ``actions.applied``): each location takes that Delta's own
    entries on that state's own record, whatever other Delta was applied to the same record
    before."""
    from critcore.plugin import freeze
    from critcore.testing import Engine

    from critcore_battletech.actions import Delta, applied
    from critcore_battletech.damage import NO_TAGS
    from critcore_battletech.unitmemo import UnitMemo

    state = freeze(mech)
    base = state["locations"]
    memo = UnitMemo(state, Engine("battletech").tables["components"])
    locs = Data(LT=base["LT"].replace(armor=1)) if on_changed else Data()
    overlay = (Data(), locs, Data())
    for code, fields in changes + changes:
        d = Delta(((code, tuple(fields.items())),), Data(), Data(), ((), (), (), (), NO_TAGS))
        now = applied(memo, base, overlay, d)[0]
        old = locs.get(code, base[code])
        assert now[1][code] == old.replace(**fields)
        assert all(now[1][c] == r for c, r in locs.items() if c != code)
