"""The derived numbers an outcome carries are those of the state it leaves, although the plugin
remembers them by what derive() reads (derived.read_key) and works a resolution's key out from
its changes: checked against derive() of the whole state over long runs of criticals and damage."""

from __future__ import annotations

from typing import Any

import pytest
from critcore.testing import RandomRoller
from critcore.testing import Engine
from critcore.plugin import Data

from critcore_battletech.derived import derive
from critcore_battletech.unitmemo import KEY, UnitMemo


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_derived_numbers_follow_the_state_through_a_campaign_of_hits(bt_registry: Any, mech: dict[str, Any],
                                                                   quad: dict[str, Any], seed: int) -> None:
    """Criticals in every location in turn and 9 damage to each in turn, 120 resolutions on each
    unit, each on the state the one before left: every outcome's derived numbers equal derive()
    of its new state (hips, actuators, heat sinks, jump jets, engine and gyro hits, lost
    locations, a dead MechWarrior all come up on the way)."""
    engine = Engine("battletech", registry=bt_registry)
    roller = RandomRoller(seed)
    comp = engine.tables["components"]
    for unit in (mech, quad):
        state: Any = unit
        codes = list(unit["locations"])
        for i in range(120):
            code = codes[i % len(codes)]
            if i % 2:
                out = engine.run("critical", {"location": code}, roller=roller, target=state)
            else:
                out = engine.run("damage", {"location": code, "amount": 9}, roller=roller, target=state)
            assert out.applied.data["derived"] == Data(derive(out.target, comp)), (unit["chassis"], i)
            state = out.target


def test_derived_numbers_stay_right_when_the_numbering_of_key_parts_starts_over(
        bt_registry: Any, mech: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The parts of a key are numbered (derived._part) and the numbering starts over when it is
    full: an equal part then gets a new number, which may miss a cache but never hits a wrong
    entry. With room for only 3 parts it starts over all the time, and every outcome's derived
    numbers are still derive() of its new state."""
    from critcore_battletech import derived

    monkeypatch.setattr(derived, "PARTS", 3)
    engine = Engine("battletech", registry=bt_registry)
    roller = RandomRoller(5)
    comp = engine.tables["components"]
    state: Any = mech
    codes = list(mech["locations"])
    for i in range(60):
        out = engine.run("critical", {"location": codes[i % len(codes)]}, roller=roller, target=state)
        assert out.applied.data["derived"] == Data(derive(out.target, comp)), i
        state = out.target
    assert engine.memos is not None
    last: UnitMemo = engine.memos.current[1][KEY]  # the memo of the unit the last run resolved on
    assert len(last.numbering.parts) <= 3


def test_derive_reads_no_top_level_entry_beyond_read_keys(bt_registry: Any, mech: dict[str, Any]) -> None:
    """The derived numbers are remembered by what derive() reads (READ_KEYS): were it to read one
    more top-level entry, a remembered answer could be stale without a word. Here every entry it
    asks for is recorded."""
    from collections.abc import Mapping

    from critcore_battletech.derived import READ_KEYS

    asked: set[str] = set()

    class Recording(Mapping[str, Any]):
        def __init__(self, data: Mapping[str, Any]) -> None:
            self.data = data

        def __getitem__(self, key: str) -> Any:
            asked.add(key)
            return self.data[key]

        def __iter__(self) -> Any:
            raise AssertionError("derive() walks every entry: it would read them all")

        def __len__(self) -> int:
            return len(self.data)

    comp = Engine("battletech", registry=bt_registry).tables["components"]
    assert derive(Recording(mech), comp) == derive(mech, comp)
    assert asked and asked <= READ_KEYS
