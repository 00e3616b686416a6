"""Work.overlay, the snapshot of a unit state exact odds key their kept answers by, keeps each of
its three parts (top-level entries, locations, items) while that part does not change (docs/
performance-log.md, "Exact odds budgets", fifth round): after any changes, in any order, it must equal
the snapshot made afresh from what the Work holds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from critcore.plugin import Data, freeze

from critcore_battletech.unitview import Work

UNIT = Path(__file__).resolve().parent / "units" / "testmech-tm1.json"

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies

CODES = ("LT", "RT", "CT", "LA")

OPS = st.lists(st.one_of(
    st.tuples(st.just("armor"), st.sampled_from(CODES), st.integers(0, 9)),
    st.tuples(st.just("slots"), st.sampled_from(CODES), st.lists(st.integers(0, 11), min_size=1, max_size=3)),
    st.tuples(st.just("item"), st.sampled_from(("LT-0", "RT-3", "CT-3", "LA-2", "none"))),
    st.tuples(st.just("pilot"), st.integers(0, 6)),
    st.tuples(st.just("set"), st.sampled_from(("destroyed", "turn")), st.integers(0, 3)),
    st.tuples(st.just("reset"), st.sampled_from(CODES)),
    st.tuples(st.just("snapshot")),
    st.tuples(st.just("adopt"), st.integers(0, 5)),
), max_size=25)


def _apply(w: Work, op: tuple[Any, ...], taken: list[tuple[Data, Data, Data]],
           snapshot: Callable[[Work], tuple[Data, Data, Data]]) -> None:
    """Make one generated change to ``w``; a snapshot taken is added to ``taken`` (an adopt takes
    one of them back)."""
    kind = op[0]
    if kind == "armor":
        w.set_loc(op[1], armor=op[2])
    elif kind == "slots":
        size = len(w.loc(op[1])["slots"])
        w.set_slots(op[1], sorted({i % size for i in op[2]}), destroyed=True, hit_batch=1)
    elif kind == "item":
        w.set_item(op[1], disabled=True)
    elif kind == "pilot":
        w.set_sub("pilot", hits=op[1])
    elif kind == "set":
        w.set(op[1], op[2])
    elif kind == "reset":
        w.reset(op[1])
    elif kind == "snapshot":
        taken.append(snapshot(w))
    else:
        w.adopt(taken[op[1] % len(taken)])


@hypothesis.settings(max_examples=150, derandomize=True, deadline=None)
@hypothesis.given(ops=OPS)
def test_the_overlay_equals_the_snapshot_made_afresh(ops: list[tuple[Any, ...]]) -> None:
    unit = freeze(json.loads(UNIT.read_text(encoding="utf-8")))
    w = Work(unit)
    taken: list[tuple[Data, Data, Data]] = [w.overlay()]
    for op in ops:
        _apply(w, op, taken, Work.overlay)
        assert w.overlay() == (Data(w.top), Data(w.locs), Data(w.items_w))
        assert hash(w.overlay()) == hash((Data(w.top), Data(w.locs), Data(w.items_w)))


@hypothesis.settings(max_examples=100, derandomize=True, deadline=None)
@hypothesis.given(ops=OPS)
def test_a_state_found_by_its_parts_identities_is_the_one_kept_by_value(ops: list[tuple[Any, ...]]) -> None:
    """UnitMemo.state_of finds a Work's state by the identities of its parts and of their values
    (one object per value), before any snapshot is hashed: whatever the changes, it equals the
    snapshot made afresh and is the one object UnitMemo.interned keeps for it, and a second Work
    making the same changes (other objects of the same values) is given the same object."""
    from critcore_battletech.unitmemo import UnitMemo

    unit = freeze(json.loads(UNIT.read_text(encoding="utf-8")))
    memo = UnitMemo(unit, None)  # type: ignore[arg-type]  # no derived numbers asked
    works = [Work(unit), Work(unit)]
    taken: list[tuple[Data, Data, Data]] = [memo.state_of(works[0])]
    for op in ops:
        for w in works:
            _apply(w, op, taken, memo.state_of)
        first, second = (memo.state_of(w) for w in works)
        fresh = (Data(works[1].top), Data(works[1].locs), Data(works[1].items_w))
        assert first is second is memo.interned(fresh)
        assert first == fresh
