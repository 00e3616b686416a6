"""Rules that depend on how a 'Mech is built (issue 12), with scripted dice on units we wrote
(tests/fixtures/legacy-biped-fb1l.mtf and variants of it): a torso-mounted cockpit, MechWarrior
damage from head hits (Total Warfare), compact heat sinks, heavy-duty gyros, and CASE when the
location is already gone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from critcore_battletech.units import unit_from_mtf
from bt_shared import kept_catalog

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BASE = (FIXTURES / "legacy-biped-fb1l.mtf").read_text(encoding="utf-8")


def unit(*changes: tuple[str, str]) -> dict[str, Any]:
    text = BASE
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return unit_from_mtf(text, "fb1l.mtf", kept_catalog())


TORSO_COCKPIT = (("myomer:Standard", "myomer:Standard\ncockpit:Torso-Mounted Cockpit"),
                 ("Cockpit\nSmall Laser", "Sensors\nSmall Laser"),
                 ("IS Gauss Ammo\nMachine Gun (R)", "IS Gauss Ammo\nCockpit"))


# --- torso-mounted cockpit -----------------------------------------------------------------------

def test_a_head_blown_off_does_not_end_a_mech_with_a_torso_mounted_cockpit(run: Any) -> None:
    out = run("critical", "6,6", unit=unit(*TORSO_COCKPIT), location="HD")  # 12: the head is blown off
    assert out.target["locations"]["HD"]["destroyed"] is True
    assert out.target["destroyed"] is False and out.target["pilot"]["dead"] is False


def test_a_head_blown_off_ends_a_mech_with_the_cockpit_in_the_head(run: Any) -> None:
    out = run("critical", "6,6", unit=unit(), location="HD")
    assert out.target["destroyed"] is True and out.target["pilot"]["dead"] is True


def test_the_torso_mounted_cockpit_critical_kills_the_mechwarrior(run: Any) -> None:
    """Rule document, cockpit: the hit kills the MechWarrior and destroys the 'Mech."""
    out = run("critical", "4,4,4,6", unit=unit(*TORSO_COCKPIT), location="CT")  # slot 12: the cockpit
    assert out.target["pilot"]["dead"] is True and out.target["destroyed"] is True


# --- MechWarrior damage from head hits -------------------------------------------------------------

def test_a_hit_on_the_head_deals_the_mechwarrior_one_damage(run: Any) -> None:
    """Total Warfare: each hit on the head deals the MechWarrior 1 damage (armor holds here)."""
    out = run("damage", None, unit=unit(), location="HD", amount=5)
    assert out.target["locations"]["HD"]["armor"] == 4
    assert out.target["pilot"]["hits"] == 1


def test_the_option_leaves_head_hit_damage_out(run: Any) -> None:
    out = run("damage", None, unit=unit(), options={"head_hit_pilot_damage": False}, location="HD", amount=5)
    assert out.target["pilot"]["hits"] == 0


def test_a_torso_mounted_cockpit_spares_the_mechwarrior_head_hits(run: Any) -> None:
    out = run("damage", None, unit=unit(*TORSO_COCKPIT), location="HD", amount=5)
    assert out.target["pilot"]["hits"] == 0


# --- compact heat sinks ---------------------------------------------------------------------------

def test_a_compact_heat_sink_slot_holds_two_and_a_critical_costs_both(run: Any) -> None:
    u = unit(("heat sinks:12 Single", "heat sinks:12 Compact"),
             ("Foot Actuator\nHeat Sink\nIS Endo Steel", "Foot Actuator\nIS2 Compact Heat Sinks\nIS Endo Steel"))
    sink = u["items"][u["locations"]["LL"]["slots"][4]["item"]]
    assert (sink["kind"], sink["heat_sinks"]) == ("heat-sink", 2)
    out = run("critical", "4,4,5", unit=u, location="LL")  # 8: one critical, slot 5: the compact pair
    assert out.target["damage"]["heat_sinks_destroyed"] == 2
    assert out.applied.data["derived"]["dissipation"] == 12 - 2


# --- heavy-duty gyros -----------------------------------------------------------------------------

def test_two_gyro_hits_destroy_a_standard_gyro(run: Any) -> None:
    out = run("critical", "5,5,1,4,1,5", unit=unit(), location="CT")  # 10: two criticals, slots 4 and 5
    d = out.applied.data["derived"]
    assert d["gyro_destroyed"] is True and d["psr"] == 6


def test_a_heavy_duty_gyro_survives_two_hits(run: Any) -> None:
    """Tactical Operations: a heavy-duty gyro takes three hits; +1 after the first, +3 after the second
    (MegaMek's Mek.addEntityBonuses: "HD Gyro damaged once" +1, "twice" +3)."""
    u = unit(("myomer:Standard", "myomer:Standard\ngyro:Heavy Duty Gyro"))
    one = run("critical", "4,4,1,4", unit=u, location="CT")
    assert one.applied.data["derived"]["psr"] == 1 and not one.applied.data["derived"]["gyro_destroyed"]
    two = run("critical", "5,5,1,4,1,5", unit=u, location="CT")
    assert two.applied.data["derived"]["psr"] == 3 and not two.applied.data["derived"]["gyro_destroyed"]


def test_a_heavy_duty_gyros_first_hit_calls_for_no_psr_and_its_second_does(run: Any) -> None:
    """Tactical Operations errata, as MegaMek resolves it (TWGameManagerTest, issue #3651): the first
    hit on a heavy-duty gyro needs no PSR right away; the second hit does, like a standard gyro's first."""
    u = unit(("myomer:Standard", "myomer:Standard\ngyro:Heavy Duty Gyro"))
    one = run("critical", "4,4,1,4", unit=u, location="CT")
    assert not [e for e in one.applied.data["psr_now"] if "gyro" in e]
    two = run("critical", "4,4,1,5", unit=one.target, location="CT")
    assert "PSR now (gyro damaged)" in two.applied.data["psr_now"]
    assert two.applied.data["derived"]["psr"] == 3
    three = run("critical", "6,6,1,4,1,5,1,6", unit=u, location="CT")  # 12 in a torso: three criticals
    assert three.applied.data["derived"]["gyro_destroyed"] is True


# --- CASE -----------------------------------------------------------------------------------------

def test_ammo_in_a_location_already_destroyed_does_not_explode_through_case(run: Any) -> None:
    """Two criticals strike both AC/20 bins of the right torso (13 structure, CASE): the first bin's
    20 destroys the torso and CASE vents the rest; the second bin is lost with the torso, so
    nothing reaches the centre torso and the MechWarrior takes 2, not 4."""
    out = run("critical", "5,5,4,1,4,2", unit=unit(), options={"case": True}, location="RT")
    assert [e.data["slot"] for e in out.effects if e.code == "ammo-explosion"] == [7, 8]
    assert out.target["locations"]["RT"]["destroyed"] is True
    assert out.target["locations"]["CT"]["structure"] == 18
    assert out.target["pilot"]["hits"] == 2
