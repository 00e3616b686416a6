"""A destroyed location's items, kept by identity, are what reading its slots gives (issue 25, tenth round).

``damage.contents`` keeps the items held in a location's slots under the slots' ``id`` (in
``UnitMemo.marked``, the slots kept beside), where ``disable_contents`` read every slot of the
location each time. The rules it must keep: the same items in the same order, whatever the
location, its marks or the unit; an entry is only taken for the very slots it was made for.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bt_shared import odds_by_outcome

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
def test_odds_with_contents_kept_are_those_read_anew(bt_registry: Any, mech: dict[str, Any], location: str,
                                                     amount: int) -> None:
    """Damage anywhere, of any amount that reaches the structure: the same outcomes with the same
    fractions, a location's items kept by identity or read anew."""
    from critcore_battletech import damage

    def odds() -> dict[str, Any]:
        return odds_by_outcome(bt_registry, mech, "damage", {"location": location, "amount": amount})

    kept = odds()
    with pytest.MonkeyPatch.context() as m:
        real_contents = damage.contents
        m.setattr(damage, "contents", lambda slots, kept=None: real_contents(slots, None))
        anew = odds()
    assert kept == anew
