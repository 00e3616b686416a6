"""Every option of the GURPS plugin, with its default and its other setting.

The defaults follow the document where it speaks and the Basic Set where it is silent; the other
settings are the alternatives listed under "Where the rules are silent" in docs/systems/gurps.md.
"""

from __future__ import annotations

from typing import Any

import pytest
from critcore.testing import Engine
from critcore.plugin import Outcome

from gurps_testkit import REG, faces




def run(proc: str, dice: list[int], options: dict[str, Any] | None = None, target: dict[str, Any] | None = None,
        **params: Any) -> Outcome:
    return Engine("gurps", registry=REG, options=options).run(proc, params, dice=dice, target=target)


def ids(out: Outcome) -> list[str]:
    return [s["id"] for s in (out.target or {}).get("statuses", []) if s["id"] != "shock"]


def test_spell_margin_critical() -> None:
    """Skill 5, roll 15 misses by 10: critical by default, an ordinary failure with the option off."""
    assert run("spell", faces(15) + faces(10), skill=5).determination.kind == "critical-failure"
    off = run("spell", faces(15), {"spell_margin_critical": False}, skill=5)
    assert off.determination.kind == "failure"


def test_crippling_is_major_wound() -> None:
    """HP 12, hand: 5 injury cripples (over 4) but is not over HP/2 = 6."""
    on = run("critical-hit", faces(10) + [5], target={"hp": 12}, damage="1d cr", location="hand")
    assert on.applied.data["major"] and on.target["owed_rolls"]
    off = run("critical-hit", faces(10) + [5], {"crippling_is_major_wound": False}, target={"hp": 12},
              damage="1d cr", location="hand")
    assert off.applied.data["crippled"] and not off.applied.data["major"] and off.target["owed_rolls"] == ()


def test_cheap_breaks_when_dropped() -> None:
    """A cheap weapon thrust on 14: as 9, so it breaks; with the option off it is only dropped."""
    on = run("critical-miss", faces(14), target={}, cheap=True, attack_kind="thrust")
    assert ids(on) == ["weapon-broken"]
    off = run("critical-miss", faces(14), {"cheap_breaks_when_dropped": False}, target={}, cheap=True,
              attack_kind="thrust")
    assert ids(off) == ["dropped-weapon"]


def test_footing_on_every_fall() -> None:
    on = run("critical-miss", faces(16), target={}, footing="flying")
    assert ids(on) == ["awkward-position"]
    off = run("critical-miss", faces(16), {"footing_on_every_fall": False}, target={}, footing="flying")
    assert ids(off) == ["prone"]
    unarmed = run("unarmed-miss", faces(8), {"footing_on_every_fall": False}, target={}, footing="flying")
    assert ids(unarmed) == ["awkward-position"]  # the unarmed table's own rule always applies


@pytest.mark.parametrize("rounding,dr,injury", [("down", 2, 4), ("up", 3, 3)])
def test_divided_dr_rounding(rounding: str, dr: int, injury: int) -> None:
    """DR 5 with divisor 2 is 2.5: 2 (down) or 3 (up); 1d cr rolled 6."""
    out = run("critical-hit", faces(10) + [6], {"divided_dr_rounding": rounding}, damage="1d (2) cr", dr=5)
    assert out.applied.data["dr"] == dr and out.applied.data["injury"] == injury


@pytest.mark.parametrize("rounding,injury", [("down", 2), ("up", 3)])
def test_half_damage_rounding(rounding: str, injury: int) -> None:
    """Unarmed 6, half of thrust 1d cr rolled 5: 2.5 -> 2 (down) or 3 (up), to the arm."""
    out = run("unarmed-miss", faces(6) + [5], {"half_damage_rounding": rounding}, target={"hp": 10}, damage="1d cr")
    assert out.applied.data["injury"] == injury


def test_default_hp_and_ht() -> None:
    """No HP given: 10 by default (6 injury is a major wound); default_hp 20 (it is not).
    Funny bone lasts 16 - HT: 6 s with HT 10, 4 s with default_ht 12."""
    out = run("critical-hit", faces(10) + [6], damage="1d cr")
    assert out.applied.data["major"]
    assert not run("critical-hit", faces(10) + [6], {"default_hp": 20}, damage="1d cr").applied.data["major"]
    numb = run("critical-hit", faces(8) + [1], damage="1d cr", location="hand")
    assert numb.applied.data["funny_bone_seconds"] == 6
    numb12 = run("critical-hit", faces(8) + [1], {"default_ht": 12}, damage="1d cr", location="hand")
    assert numb12.applied.data["funny_bone_seconds"] == 4


def test_month_days() -> None:
    """A lasting crippling of 2 months (1d rolled 2) with 28-day months: 56 days."""
    hurt = run("critical-hit", faces(10) + [4, 4], target={"hp": 10, "ht": 10}, damage="2d cr", location="left-arm")
    out = Engine("gurps", registry=REG, options={"month_days": 28}).run("after-fight", {}, dice=faces(13) + [2],
                                                                          target=dict(hurt.target))
    crippled = [s for s in out.target["statuses"] if s["id"] == "crippled"][0]
    assert crippled["until"] == 2 * 28 * 86400
