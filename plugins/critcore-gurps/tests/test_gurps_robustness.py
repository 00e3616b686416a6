"""Any combination of parameters either resolves or is refused as bad input (never a crash),
and every outcome is frozen, hashable and survives a JSON round trip; a character can go
through a whole fight and its recovery. Seeded, so every run checks the same cases."""

from __future__ import annotations

import json
import random
from typing import Any

import critcore
import pytest
from critcore.testing import Engine
from critcore.plugin import InputError
from critcore.plugin import Outcome, thaw
from critcore.testing import Registry

import critcore_gurps.plugin as gurps

REG = Registry.installed(extra_systems={"gurps": gurps}, discover=False)
ENGINE = Engine("gurps", registry=REG)

FLAGS = ["unarmed", "ranged", "male", "eye_impossible", "two_weapons", "cheap", "fine", "magic", "solid_crushing",
         "firearm", "natural_weapon", "foe_impaling", "kick", "parrying", "bare_handed", "attacker_unarmed", "harmful"]
CHOICES = {
    "location": ["skull", "face", "eye", "neck", "torso", "vitals", "groin", "right-arm", "left-leg", "hand", "foot",
                 "random", "elbow"],
    "damage": ["2d+1 cut", "1d-1 cr", "1d+2 imp", "3d (2) pi", "1d pi-", "2d pi++", "1d burn", "1d cor", "1d tox",
               "nonsense"],
    "attack_kind": ["swing", "thrust"], "footing": ["standing", "cannot-fall", "flying", "swimming"],
    "unarmed_with": ["limb", "head"], "defense": ["dodge", "parry", "block"],
}
NUMBERS = {"skill": (-2, 40), "dr": (0, 12), "hp": (1, 30), "ht": (5, 16), "dx": (5, 16), "iq": (2, 14),
           "armor_divisor": (1, 5), "technique_penalty": (-8, 0)}


def _random_params(rng: random.Random, proc: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in proc.params:
        if p.required or rng.random() < 0.4:
            if p.name in CHOICES:
                out[p.name] = rng.choice(CHOICES[p.name])
            elif p.name in NUMBERS:
                out[p.name] = rng.randint(*NUMBERS[p.name])
            elif p.type == "bool":
                out[p.name] = rng.random() < 0.5
            elif p.name == "spell":
                out[p.name] = "Fireball"
    return out


def _check(out: Outcome) -> None:
    hash(out.determination), hash(out.location), hash(out.effects), hash(out.applied)
    again = Outcome.from_json(json.loads(json.dumps(out.to_json())))
    assert again.to_json() == out.to_json()


def test_random_parameters_never_crash() -> None:
    rng = random.Random(20261129)
    procs = [p for p in ENGINE.info.procedures if p.verb == "resolve"]
    resolved = refused = 0
    for i in range(3000):
        proc = rng.choice(procs)
        params = _random_params(rng, proc)
        target = {"hp": rng.randint(5, 20), "ht": rng.randint(8, 14), "iq": rng.randint(3, 13),
                  "dr": {"all": rng.randint(0, 4)}} if proc.target != "none" and rng.random() < 0.7 else None
        try:
            out = ENGINE.run(proc.name, params, seed=i, target=target)
        except InputError:
            refused += 1
            continue
        resolved += 1
        _check(out)
    assert resolved > 2000 and refused > 100


def test_a_whole_fight_and_its_recovery() -> None:
    """200 random blows, fumbles and treatments on one hero; when he dies, a corpse is refused
    and the next hero steps in."""
    rng = random.Random(7)
    fresh: dict[str, Any] = {"name": "Hero", "hp": 14, "ht": 12, "iq": 11, "dx": 12, "dr": {"torso": 3, "all": 1}}
    hero = dict(fresh)
    heroes = 1
    for i in range(200):
        if any(s["id"] == "dead" for s in hero.get("statuses", [])):
            with pytest.raises(InputError, match="is dead"):
                critcore.resolve("gurps", "critical-hit", seed=i, target=hero, registry=REG, damage="1d cr")
            hero, heroes = dict(fresh), heroes + 1
        proc = rng.choice(["attack", "critical-hit", "head-blow", "critical-miss", "unarmed-miss", "spell-failure",
                           "defense"])
        params: dict[str, Any] = {"damage": rng.choice(CHOICES["damage"][:-1])}
        if proc == "attack":
            params.update(skill=rng.randint(3, 20), location=rng.choice(CHOICES["location"][:-1]))
            if params["location"] in ("eye", "vitals"):
                params["damage"] = "1d+1 imp"
        if proc == "head-blow" and params["damage"].endswith(" tox"):
            params["damage"] = "1d cr"  # toxic damage never uses the head-blow table (B399)
        if proc == "defense":
            params = {"skill": rng.randint(3, 14), "defense": rng.choice(CHOICES["defense"])}
        if proc == "spell-failure":
            params = {"spell": "Light"}
        hero = thaw(critcore.resolve("gurps", proc, seed=i, target=hero, registry=REG, **params).target)
        if any(s["id"] == "dead" for s in hero["statuses"]):
            continue
        for treat, kw in (("knockdown", {}), ("wait", {"seconds": rng.randint(1, 4000)})):
            hero = thaw(critcore.treat("gurps", treat, seed=i, target=hero, registry=REG, **kw).target)
        if rng.random() < 0.1:
            hero = thaw(critcore.treat("gurps", "after-fight", seed=i, target=hero, registry=REG, physician_tl=7).target)
            hero = thaw(critcore.treat("gurps", "heal", target=hero, registry=REG, hp=40).target)
        for status in hero["statuses"]:
            if "ends_by" in status:
                hero = thaw(critcore.treat("gurps", "recover", seed=i, target=hero, registry=REG,
                                           status=status["id"]).target)
                break
        json.dumps(hero)
    assert hero["clock"] > 0 and hero["injuries"] and heroes < 50
