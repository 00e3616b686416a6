"""What the cascade keeps for exact odds changes no probability (issue 25).

Exact odds of a long cascade keep, in the unit's memo, what each action that rolls no dice does
to a unit state (``UnitMemo.acts``), what the merge keeps of a state (``UnitMemo.merges``) and one
object per distinct unit state (``UnitMemo.interned``), work out the check a step starts with in
closed form once per unit state (``UnitMemo.checks``, with the actions its answers call for up to
the next roll), and take each step in closed form (``Resolver._step_odds``, in cascadeodds.py: the check's answers,
then the kept actions behind them, merged; handed to the cascade's ``Dice.iterate`` as its ``odds``
by ``Resolver._step_closed``, so no step is enumerated answer by answer); a check's answers share the effects of each slot on
its state, an act that only tells is kept by the act alone (``UnitMemo.tells``) and left out of
the step's closed form, and a slot marked by a critical is one object (``UnitMemo.marked``). Each case below is worked out twice: the plain
way (every action carried out again on every branch, the check and the step enumerated roll by
roll, the merge worked out each time, every slot marked and every item knocked out anew, as before any of this was kept) and the kept way, under
``checking_keys`` (every keyed sub-enumeration found is worked out again and compared; not for the
superheavy, where that takes minutes). Every outcome and its exact fraction must be the same.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cascade without anything kept: every action carried out where it is met."""
    from critcore_battletech import actions, cascadeodds, damage
    from critcore_battletech.resolver import Resolver

    def merged(self: Resolver, state: tuple[Any, ...]) -> tuple[Any, ...]:
        overlay, events, queue, tags, story = state
        kept, short = self._merged(overlay, queue)
        if kept is overlay and short is queue and story is cascadeodds.NO_STORY:
            return state
        return kept, events, short, tags, cascadeodds.NO_STORY

    def mark(self: Resolver, batch: list[Any]) -> None:  # every slot marked anew (no UnitMemo.marked)
        by_code: dict[str, list[int]] = {}
        for eff in batch:
            if "slot" in eff.data:
                by_code.setdefault(eff.data["location"], []).append(eff.data["slot"] - 1)
        for code, indexes in by_code.items():
            self.w.set_slots(code, indexes, destroyed=True, hit_turn=self.turn, hit_batch=self.batch)

    def disabled(item: Any, kept: Any = None) -> Any:  # every item knocked out anew (nothing kept)
        return real_disabled(item, None)

    def start_batch(self: Resolver, batch: tuple[Any, ...]) -> None:  # marked and started anew at every run
        self.apply_batch([e for e in batch if e.table == "components"], record=False)

    def contents(slots: Any, kept: Any = None) -> Any:  # a location's items read anew (nothing kept)
        return real_contents(slots, None)

    real_disabled, real_contents = damage.disabled, damage.contents
    monkeypatch.setattr(damage, "contents", contents)
    monkeypatch.setattr(Resolver, "start_batch", start_batch)
    monkeypatch.setattr(damage, "disabled", disabled)
    monkeypatch.setattr(actions, "disabled", disabled)
    monkeypatch.setattr(Resolver, "mark", mark)
    monkeypatch.setattr(Resolver, "carry_out", lambda self, queue: self._carry_out(queue))
    monkeypatch.setattr(Resolver, "_check", lambda self, queue: self._carry_out(queue))
    monkeypatch.setattr(Resolver, "_step", lambda self, dice, state: self._step_rolled(dice, state))
    monkeypatch.setattr(Resolver, "_step_closed", lambda self, state: None)  # every step enumerated
    monkeypatch.setattr(Resolver, "merged", merged)


def _odds(bt_registry: Any, procedure: str, params: dict[str, Any], unit: dict[str, Any],
          check: bool) -> dict[str, Any]:
    """Every outcome (its JSON, which names its stage results and end state) with its exact
    fraction, and whether the odds are exact; with ``check``, under ``checking_keys``."""
    from critcore.testing import Engine, checking_keys, exact_odds

    with checking_keys():  # starts and ends with nothing remembered
        if check:
            odds = exact_odds(Engine("battletech", registry=bt_registry), procedure, params, copy.deepcopy(unit))
    if not check:
        odds = exact_odds(Engine("battletech", registry=bt_registry), procedure, params, copy.deepcopy(unit))
    found: dict[str, Any] = {}
    for b in odds.branches:
        shown = b.to_json()
        probability = shown.pop("probability")["fraction"]
        key = json.dumps(shown, sort_keys=True, default=str)
        assert key not in found  # outcomes are distinct
        found[key] = probability
    return {"exact": odds.exact, "remainder": str(odds.remainder), "outcomes": found}


def _superheavy() -> dict[str, Any]:
    from critcore_battletech.units import unit_from_mtf

    path = FIXTURES / "superheavy-fs5x.mtf"
    return dict(unit_from_mtf(path.read_text(encoding="utf-8"), str(path)))


CASES = [
    ("critical", {"location": "LT"}, "testmech"),
    ("critical", {"location": "RT"}, "testmech"),
    ("critical", {"location": "CT"}, "testmech"),
    ("damage", {"location": "LT", "amount": 27}, "testmech"),
    ("damage", {"location": "RT", "amount": 27}, "testmech"),
    ("critical", {"location": "RA"}, "testmech"),  # an arm: a check that may blow it off
    # double slots, two items per critical (not checked: slow); 4 s, so only in .ci/run's long run
    # (CRITCORE_LONG=1, tests/runlength.py): the README's pytest must finish in 90 s on two cores
    pytest.param("critical", {"location": "LT"}, "superheavy",
                 marks=pytest.mark.skipif(not os.environ.get("CRITCORE_LONG"), reason="long run only (CRITCORE_LONG=1)")),
]


@pytest.mark.parametrize("procedure,params,which", CASES, ids=[f"{c[2]}-{c[0]}-{c[1]['location']}" for c in (getattr(c, "values", c) for c in CASES)])
def test_kept_cascade_gives_the_plain_enumerations_odds(bt_registry, mech, monkeypatch, procedure, params, which):
    """The same outcomes with the same fractions, kept or not (and the keys hold under
    checking_keys); the cases have cascades (ammunition explosions into the next location), so
    the kept actions and merges are met many times over."""
    unit = mech if which == "testmech" else _superheavy()
    kept = _odds(bt_registry, procedure, params, unit, check=which == "testmech")
    with monkeypatch.context() as m:
        _plain(m)
        plain = _odds(bt_registry, procedure, params, unit, check=False)
    assert kept["exact"] and plain["exact"]
    assert kept["remainder"] == plain["remainder"] == "0"
    assert len(kept["outcomes"]) == len(plain["outcomes"]) > 1
    assert kept["outcomes"] == plain["outcomes"]


def test_the_plain_way_really_carries_out_every_action(bt_registry, mech, monkeypatch):
    """The comparison above is only worth something if the plain way keeps nothing: with it, the
    unit's memo holds no kept action, merge or state after a cascade."""
    from critcore.testing import Engine, exact_odds
    from critcore_battletech.unitmemo import UnitMemo

    made: list[UnitMemo] = []
    real_init = UnitMemo.__init__

    def spy(self: UnitMemo, *args: Any, **kwargs: Any) -> None:
        real_init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(UnitMemo, "__init__", spy)
    exact_odds(Engine("battletech", registry=bt_registry), "damage", {"location": "LT", "amount": 27},
               copy.deepcopy(mech))
    assert any(m.acts for m in made) and any(m.merges for m in made)
    made.clear()
    _plain(monkeypatch)
    exact_odds(Engine("battletech", registry=bt_registry), "damage", {"location": "LT", "amount": 27},
               copy.deepcopy(mech))
    assert made and not any(m.acts or m.merges or m.tells or m.marked for m in made)
