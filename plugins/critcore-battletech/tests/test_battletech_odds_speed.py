"""What keeps BattleTech's exact odds fast (docs/performance-log.md, "Exact odds budgets"): a
cascade's start and the numbers of its end kept per unit state, and the acts that only tell left
out of a cascade's merged queue. Each test fails without its mechanism; the answers themselves are
held by the other odds tests."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest


def _odds(bt_registry: Any, unit: Any, code: str = "LT") -> Any:
    from critcore.testing import Engine, exact_odds

    return exact_odds(Engine("battletech", registry=bt_registry), "critical", {"location": code}, unit)


def _count(monkeypatch: Any, name: str) -> list[int]:
    from critcore_battletech.resolver import Resolver

    calls = [0]
    original = getattr(Resolver, name)

    def counted(self: Any, *args: Any) -> Any:
        calls[0] += 1
        return original(self, *args)

    monkeypatch.setattr(Resolver, name, counted)
    return calls


def test_a_cascades_start_and_end_are_worked_out_once_per_distinct_one(bt_registry: Any, mech: Any,
                                                                       monkeypatch: Any) -> None:
    """Exact odds run the apply stage once per outcome; the actions before the first roll
    (Resolver.until_rolled) and the counters of the end (count_up) are worked out once per
    distinct start and end, not once per outcome."""
    starts, ends = _count(monkeypatch, "until_rolled"), _count(monkeypatch, "count_up")
    odds = _odds(bt_registry, mech)
    struck = [b for b in odds.branches if b.determination.data["criticals"]]
    assert odds.remainder == 0 and sum((b.probability for b in odds.branches), Fraction(0)) == 1
    assert 0 < starts[0] < len(struck) and 0 < ends[0] < len(struck)


def test_untold_drops_the_acts_that_only_tell_and_repeated_settling() -> None:
    from critcore.plugin import Effect

    from critcore_battletech.cascadeodds import untold

    def act(code: str) -> tuple[Any, ...]:
        return ("act", Effect("components", code, code, code), True)

    check = ("check", "LT")
    queue = (check, act("absorbed"), act("ammo-explosion"), ("settle",), act("engine"), ("settle",), act("hip"))
    assert untold(queue) == (check, act("ammo-explosion"), ("settle",), act("hip"))
    assert untold((check, act("hip"))) is not None and untold((check,)) == (check,)
    assert untold((act("engine"), act("engine"))) == (act("engine"),)  # the first action always stays


def test_leaving_out_the_acts_that_only_tell_merges_more_cascades(bt_registry: Any, monkeypatch: Any) -> None:
    """The superheavy fixture's left torso: the same odds with fewer cascade steps than with a
    queue kept whole."""
    from critcore_battletech import cascadeodds

    from pathlib import Path

    from critcore_battletech.units import unit_from_mtf

    path = Path(__file__).parent / "fixtures" / "superheavy-fs5x.mtf"
    unit = unit_from_mtf(path.read_text(encoding="utf-8"), str(path))
    steps = _count(monkeypatch, "_step_closed")  # asked once for every cascade step exact odds take
    short = _odds(bt_registry, unit)
    fewer = steps[0]
    monkeypatch.setattr(cascadeodds, "untold", lambda queue: queue)
    steps[0] = 0
    whole = _odds(bt_registry, unit)  # worked out afresh: nothing outlives a question (enumeration.forget)

    def outcomes(odds: Any) -> set[Any]:
        return {(b.effects, b.applied.summary, b.applied.tags, b.applied.data, b.probability) for b in odds.branches}

    assert outcomes(short) == outcomes(whole)
    assert fewer < steps[0] * 3 // 4


def test_an_act_that_changes_the_unit_left_out_is_caught(bt_registry: Any, mech: Any, monkeypatch: Any) -> None:
    """ACTING names the rows whose act changes the unit; one missing (an ammunition explosion)
    would drop real work from the queue, and check_odds_agree's checks of the merge catch it."""
    from critcore.plugin import PluginError
    from critcore.testing import checking_keys

    from critcore_battletech import cascadeodds

    with checking_keys():
        _odds(bt_registry, mech)
    monkeypatch.setattr(cascadeodds, "ACTING", cascadeodds.ACTING - {"ammo-explosion", "disabled"})
    with checking_keys(), pytest.raises(PluginError, match="cascade"):
        _odds(bt_registry, mech)
