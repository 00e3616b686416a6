"""The treat procedures: recoveries the tables create, with scripted dice.

Rules checked: knocked out by an unarmed fumble wakes on an HT roll made every 30 minutes;
a strained limb or shoulder is useless for 30 minutes; a funny-bone limb for (16 - HT) seconds,
at least 2; a forgotten spell comes back on an IQ roll after a week and each week after; a
mental stun ends on an IQ roll each turn; after the fight each crippled part rolls HT: success
temporary (heals at full HP), failure lasting (1d months, less with a physician: -1 at TL5, -2
at TL6, -3 at TL7+, at least 1), critical failure permanent; deafness heals the same way.
"""

from __future__ import annotations

from typing import Any

import critcore
import pytest
from critcore.plugin import ParamError, StateError
from critcore.plugin import Outcome, thaw

from gurps_testkit import REG, faces

MINUTE = 60
WEEK = 7 * 24 * 3600
MONTH = 30 * 24 * 3600



def resolve(proc: str, dice: list[int], target: dict[str, Any], **params: Any) -> dict[str, Any]:
    return thaw(critcore.resolve("gurps", proc, dice=dice, target=target, registry=REG, **params).target)


def treat(proc: str, dice: list[int], target: dict[str, Any], **params: Any) -> Outcome:
    return critcore.treat("gurps", proc, dice=dice, target=target, registry=REG, **params)


def ids(state: Any) -> list[str]:
    """Status ids, leaving out the one-turn shock penalty every injury brings."""
    return [s["id"] for s in thaw(state)["statuses"] if s["id"] != "shock"]


def status(state: Any, status_id: str) -> dict[str, Any]:
    return [s for s in thaw(state)["statuses"] if s["id"] == status_id][0]


HERO = {"name": "Hero", "hp": 10, "ht": 11, "iq": 12, "dx": 12}


def test_knocked_out_rolls_ht_every_30_minutes_until_awake() -> None:
    """HT 11: 29 minutes pass with no roll; at 30 a 14 fails; at 60 a 9 succeeds."""
    state = resolve("unarmed-miss", faces(3), dict(HERO))
    assert ids(state) == ["knocked-out"]
    early = treat("wait", [], state, minutes=29)
    assert early.rolls == () and ids(early.target) == ["knocked-out"]
    out = treat("wait", faces(14) + faces(9), state, minutes=60)
    assert [r.label for r in out.rolls] == ["HT roll to recover from knocked-out"] * 2
    assert ids(out.target) == [] and out.target["clock"] == 3600


def test_knocked_out_recover_now() -> None:
    state = resolve("unarmed-miss", faces(18), dict(HERO))
    failed = treat("recover", faces(12), state, status="knocked-out")
    assert ids(failed.target) == ["knocked-out"]
    assert ids(treat("recover", faces(12), state, status="knocked-out", modifier=1).target) == []


def test_strained_shoulder_lasts_30_minutes() -> None:
    state = resolve("critical-miss", faces(15), dict(HERO))
    assert ids(treat("wait", [], state, minutes=29).target) == ["strained"]
    assert ids(treat("wait", [], state, minutes=30).target) == []


def test_strained_limb_from_an_unarmed_fumble_lasts_30_minutes() -> None:
    state = resolve("unarmed-miss", faces(4), dict(HERO))
    assert state["current_hp"] == 9 and ids(state) == ["strained"]
    assert ids(treat("wait", [], state, seconds=30 * MINUTE).target) == []


def test_pulled_muscle_hurts_20_minus_ht_minutes() -> None:
    """Bite: 20 - 11 = 9 minutes of moderate pain."""
    state = resolve("unarmed-miss", faces(4), dict(HERO), unarmed_with="head")
    assert state["statuses"][0]["until"] == 9 * MINUTE
    tough = resolve("unarmed-miss", faces(4), dict(HERO, ht=20), unarmed_with="head")
    assert tough["statuses"][0]["until"] == 1 * MINUTE  # at least one minute


def test_funny_bone_wears_off_after_16_minus_ht_seconds() -> None:
    """HT 11: 5 seconds."""
    state = resolve("critical-hit", [2, 3, 3, 1], dict(HERO), damage="1d cr", location="right-arm")
    numb = [s for s in state["statuses"] if s["id"] == "funny-bone"][0]
    assert numb["until"] == 5
    assert "funny-bone" in ids(treat("wait", [], state, seconds=4).target)
    assert "funny-bone" not in ids(treat("wait", [], state, seconds=5).target)


def test_forgotten_spell_comes_back_on_a_weekly_iq_roll() -> None:
    """IQ 12: after one week a 13 fails; after the second week an 11 succeeds."""
    state = resolve("spell-failure", faces(17), dict(HERO), spell="Fireball")
    six_days = treat("wait", [], state, days=6)
    assert six_days.rolls == ()
    out = treat("wait", faces(13) + faces(11), state, weeks=2)
    assert [r.label for r in out.rolls] == ["IQ roll to recover from forgot-spell (Fireball)"] * 2
    assert ids(out.target) == []


def test_mental_stun_ends_on_an_iq_roll() -> None:
    state = resolve("spell-failure", faces(9), dict(HERO))
    out = treat("wait", faces(13) + faces(12), state, seconds=2)
    assert ids(out.target) == [] and len(out.rolls) == 2


def _crippled(hero: dict[str, Any]) -> dict[str, Any]:
    """2d cr rolled 4+4 = 8 to the left arm of a 10-HP hero: crippled (over 5), capped at 6,
    not destroyed (that takes 2 x 6 = 12)."""
    return resolve("critical-hit", faces(10) + [4, 4], hero, damage="2d cr", location="left-arm")


def test_after_fight_success_is_temporary_and_heals_at_full_hp() -> None:
    state = _crippled(dict(HERO))
    out = treat("after-fight", faces(10), state)
    assert status(out.target, "crippled")["duration"] == "temporary"
    half = treat("heal", [], out.target, hp=5)
    assert "crippled" in ids(half.target) and half.target["current_hp"] == 9
    full = treat("heal", [], out.target, hp=6)
    assert "crippled" not in ids(full.target) and full.target["current_hp"] == 10


@pytest.mark.parametrize("tl,months", [(None, 5), (5, 4), (6, 3), (7, 2), (8, 2)])
def test_after_fight_failure_is_lasting_1d_months(tl: int | None, months: int) -> None:
    """HT 11, roll 13 fails: 1d months rolled 5, less 1/2/3 with a physician at TL5/6/7+."""
    state = _crippled(dict(HERO))
    out = treat("after-fight", faces(13) + [5], state, physician_tl=tl)
    crippled = status(out.target, "crippled")
    assert crippled["duration"] == "lasting" and crippled["until"] == months * MONTH
    still = treat("wait", [], out.target, days=months * 30 - 1)
    assert "crippled" in ids(still.target)
    assert "crippled" not in ids(treat("wait", [], out.target, days=months * 30).target)


def test_after_fight_lasting_is_at_least_a_month() -> None:
    state = _crippled(dict(HERO))
    out = treat("after-fight", faces(13) + [2], state, physician_tl=8)
    assert status(out.target, "crippled")["until"] == MONTH


def test_after_fight_critical_failure_is_permanent() -> None:
    state = _crippled(dict(HERO))
    out = treat("after-fight", faces(17), state)
    assert status(out.target, "crippled")["duration"] == "permanent"


def test_deafness_gets_the_same_roll() -> None:
    state = resolve("head-blow", faces(12) + [3, 3], dict(HERO, hp=30), damage="2d cr")
    assert "deafened" in ids(state)
    out = treat("after-fight", faces(18), state)
    deaf = [s for s in out.target["statuses"] if s["id"] == "deafened"][0]
    assert deaf["duration"] == "permanent"


def test_knockdown_roll_success_failure_and_knockout() -> None:
    """2d cr rolled 12 to the face of a 20-HP hero: 12 is over 20/2, a major wound to the face,
    so the roll is at HT 11 - 5 = 6: 6 stays up; 8 fails by 2 (stunned, prone, drops what he
    holds); 11 fails by 5 (knocked out; with 8 HP left he wakes by himself in 15 minutes)."""
    state = resolve("critical-hit", faces(10) + [6, 6], dict(HERO, hp=20), damage="2d cr", location="face")
    assert state["owed_rolls"] == [{"roll": "ht", "kind": "knockdown", "modifier": -5, "why": "major wound to the face"}]
    up = treat("knockdown", faces(6), state)
    assert "stunned" not in ids(up.target) and up.target["owed_rolls"] == ()
    stunned = treat("knockdown", faces(8), state)
    assert {"stunned", "prone", "dropped-held"} <= set(ids(stunned.target))
    out = treat("knockdown", faces(11), state)
    assert status(out.target, "unconscious")["until"] == 15 * MINUTE
    recovered = treat("recover", faces(10), stunned.target, status="stunned")
    assert "stunned" not in ids(recovered.target)


def test_recover_by_maneuver_and_refusals() -> None:
    state = resolve("critical-miss", faces(16), dict(HERO))
    assert ids(treat("recover", [], state, status="prone").target) == []
    state = resolve("critical-miss", faces(15), dict(HERO))
    with pytest.raises(ParamError, match="wears off by itself"):
        treat("recover", [], state, status="strained")
    with pytest.raises(ParamError, match="no status"):
        treat("recover", [], state, status="stunned")
    with pytest.raises(ParamError, match="needs some time"):
        treat("wait", [], state)


def test_treat_needs_a_target_and_reads_it_carefully() -> None:
    with pytest.raises(ParamError):
        treat("wait", [], None, seconds=1)  # type: ignore[arg-type]
    with pytest.raises(StateError, match="statuses"):
        treat("wait", [], {"statuses": "none"}, seconds=1)
