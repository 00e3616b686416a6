"""A destroyed location's items and a batch's queued acts, kept by identity, are what they replace (issue 25, tenth round).

``damage.contents`` keeps the items held in a location's slots under the slots' ``id`` (in
``UnitMemo.marked``, the slots kept beside), where ``disable_contents`` read every slot of the
location each time; ``UnitMemo.act_of`` finds a batch's queued act (``("act", effect, record)``,
one object per value) first by the effect's ``id``, where it was interned by value each time.
``Damage.struck_counts`` sums the cockpit's and the engine's slots for settling, where it copied
the whole tally; ``Work.reset`` keeps a location put back under the record it was made from.
The rules they must keep: the same items in the same order, the same action (the very object
interning by value gives), the same sums, an equal location put back, whatever the location,
its marks or the unit; an entry is only taken for the very object it was made for.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from critcore.plugin import Data, freeze


def _read_every_slot(slots: Any) -> list[str]:
    """What ``disable_contents`` read before: every slot, its item (of a kind that holds one) then
    its second item."""
    from critcore_battletech import effects as E

    out = []
    for s in slots:
        for item_id in (s.get("item") if s["kind"] in E.ITEM_KINDS else None, s.get("item2")):
            if item_id is not None:
                out.append(item_id)
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # the fixtures are only read
@given(unit=st.sampled_from(["testmech-tm1", "testquad-tq1"]), data=st.data())
def test_contents_kept_are_the_items_read_slot_by_slot(bt: Any, unit: str, data: Any) -> None:
    """Any location of a unit, any of its slots marked: the items kept are those read slot by slot,
    in that order, the first time and when found kept; other slots (equal, another object) are
    read anew, and a kept entry whose slots are gone is not taken for new ones."""
    from critcore_battletech.damage import contents

    state = freeze(bt.load_unit(unit))
    code = data.draw(st.sampled_from(sorted(state["locations"])))
    slots = state["locations"][code]["slots"]
    hit = data.draw(st.sets(st.integers(min_value=0, max_value=len(slots) - 1)))
    slots = tuple(s.replace(destroyed=True) if i in hit else s for i, s in enumerate(slots))
    kept: dict[Any, Any] = {}
    expected = _read_every_slot(slots)
    assert list(contents(slots, kept)) == expected
    assert list(contents(slots, kept)) == expected  # found kept
    assert list(contents(slots, None)) == expected
    other = tuple(Data(s) for s in slots)  # equal, another object: read anew
    assert list(contents(other, kept)) == expected
    stale = (object(), ("not", "these"))  # an entry left under an id another object now has
    kept[("contents", id(other))] = stale
    assert list(contents(other, kept)) == expected


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # the fixtures are only read
@given(location=st.sampled_from(["LT", "RT", "CT", "RA", "LL"]), amount=st.integers(min_value=10, max_value=40))
def test_odds_with_contents_and_acts_kept_are_those_read_anew(bt_registry: Any, mech: dict[str, Any], location: str,
                                                             amount: int) -> None:
    """Damage anywhere, of any amount that reaches the structure: the same outcomes with the same
    fractions, a location's items and the queued acts kept by identity or worked out anew."""
    from critcore.testing import Engine, exact_odds

    from critcore_battletech import damage
    from critcore_battletech.unitmemo import UnitMemo

    def odds() -> dict[str, Any]:
        found = exact_odds(Engine("battletech", registry=bt_registry), "damage",
                           {"location": location, "amount": amount}, copy.deepcopy(mech))
        assert found.exact
        return {repr(sorted(b.to_json().items())): b.probability for b in found.branches}

    kept = odds()
    with pytest.MonkeyPatch.context() as m:
        real_contents = damage.contents
        m.setattr(damage, "contents", lambda slots, kept=None: real_contents(slots, None))
        m.setattr(UnitMemo, "act_of", lambda self, eff, record: self.interned(("act", eff, record)))
        anew = odds()
    assert kept == anew


def test_act_of_is_the_action_interned_by_value(mech: dict[str, Any]) -> None:
    """The act found by the effect's identity is the one object interning by value gives, for an
    effect met again and for an equal effect that is another object; a stale entry is not taken."""
    from critcore.plugin import Effect

    from critcore_battletech.unitmemo import UnitMemo

    memo = UnitMemo(freeze(mech), None)  # type: ignore[arg-type]  # the components table is not read here
    eff = Effect(table="components", id="ammo-explosion", code="ammo-explosion", text="x", data={"location": "LT", "slot": 3})
    twin = Effect(table="components", id="ammo-explosion", code="ammo-explosion", text="x", data={"location": "LT", "slot": 3})
    first = memo.act_of(eff, True)
    assert first == ("act", eff, True) and first is memo.interned(("act", eff, True))
    assert memo.act_of(eff, True) is first
    assert memo.act_of(twin, True) is first
    assert memo.act_of(eff, False) == ("act", eff, False) and memo.act_of(eff, False) is not first
    memo.overlays[("act of", id(twin), True)] = (object(), ("act", "stale", True))
    assert memo.act_of(twin, True) is first


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # the fixtures are only read
@given(location=st.sampled_from(["LT", "RT", "CT", "HD", "LL"]), amount=st.integers(min_value=10, max_value=40))
def test_struck_counts_are_the_tallys_sums(bt_registry: Any, mech: dict[str, Any], location: str, amount: int) -> None:
    """Settling reads the cockpit's and the engine's slots hit or lost (``Damage.struck_counts``):
    on every state it is asked on, the sums of the whole tally it replaces (``Damage.tally``)."""
    from critcore.testing import Engine, exact_odds

    from critcore_battletech.damage import Damage

    real = Damage.struck_counts
    asked = []

    def both(self: Damage) -> tuple[int, int]:
        hits, lost = self.tally()
        found = real(self)
        assert found == (hits.get("cockpit", 0) + lost.get("cockpit", 0), hits.get("engine", 0) + lost.get("engine", 0))
        asked.append(found)
        return found

    with pytest.MonkeyPatch.context() as m:
        m.setattr(Damage, "struck_counts", both)
        exact_odds(Engine("battletech", registry=bt_registry), "damage", {"location": location, "amount": amount},
                   copy.deepcopy(mech))
    assert asked


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # the fixtures are only read
@given(unit=st.sampled_from(["testmech-tm1", "testquad-tq1"]), data=st.data())
def test_reset_kept_puts_back_what_reset_anew_does(bt: Any, unit: str, data: Any) -> None:
    """A location marked and destroyed, put back (``Work.reset``) with the record kept by the
    record it is made from or made anew: equal locations and items; the same record object again
    for the same record, never for another."""
    from critcore_battletech.unitview import Work

    state = freeze(bt.load_unit(unit))
    code = data.draw(st.sampled_from(sorted(state["locations"])))
    n = len(state["locations"][code]["slots"])
    hit = sorted(data.draw(st.sets(st.integers(min_value=0, max_value=n - 1))))
    kept: dict[Any, Any] = {}
    made = []
    for store in (None, kept, kept):
        w = Work(state)
        w.set_slots(code, hit, destroyed=True)
        w.set_loc(code, destroyed=True, structure=0)
        marked = w.loc(code)
        w.reset(code, store)
        made.append((w.loc(code), w.overlay()))
    assert made[0][0] == made[1][0] and made[0][1] == made[1][1] == made[2][1]
    assert made[1][0] is not made[2][0]  # each marked record above is another object: made anew
    w = Work(state)
    w.put_loc(code, marked)
    w.reset(code, kept)
    again = w.loc(code)
    w = Work(state)
    w.put_loc(code, marked)
    w.reset(code, kept)
    assert w.loc(code) is again and again == made[0][0]
