"""A tiny fake game system used by critcore's own tests (registered directly, never installed).

Rules of the fake game: an attack rolls 1d20; 20 is a critical, 1 a fumble, otherwise a hit
when the roll plus --bonus reaches --ac. A critical rolls 1d6 on the 'confirm' table for a
damage multiplier; --damage (dice) is rolled and multiplied, and the target's hp go down.
'rest' (treat) heals 1d4 hp.
"""

from __future__ import annotations

from critcore import hookimpl
from critcore.dice.notation import parse
from critcore.errors import ParamError
from critcore.stages.hookspecs import RollLookup
from critcore.model import Applied, Data, Determination, Event, Location, Option, Param, Procedure, SystemInfo

INFO = SystemInfo(
    name="fake",
    title="Fake d20",
    version="1.0",
    package="fake-system",
    tables_package="fake_tables",
    effect_codes=frozenset({"damage-multiplier"}),
    options=(Option("crit_on_19", "bool", False, "Critical on 19-20."),),
    target_noun="character",
    # the fake character: hp a whole number (the fuzzers of test_core_fuzz.py found None crashing rest)
    target_schema={"format": 1, "root": "character", "identify": {"noun": "character", "keys": ["hp"]},
                   "types": {"character": {
        "type": "table", "extra": "keep", "fields": {"hp": {"type": "int", "min": -1000, "max": 100000, "required": True}}}}},
    events=(Event("critical", "critical hit"), Event("fumble", "fumble"), Event("overkill", "10 damage or more")),
    procedures=(
        Procedure(
            "attack",
            "Roll 1d20 to hit; 20 is a critical.",
            (
                Param("ac", "int", "Armour class to reach.", default=10, min=1, max=40),
                Param("bonus", "int", "Attack bonus.", default=0),
                Param("damage", "dice", "Damage dice.", default="1d8"),
                Param("where", "choice", "Aimed location.", choices=("head", "body")),
            ),
        ),
        Procedure("rest", "Heal 1d4 hp.", verb="treat", target="required"),
    ),
)


@hookimpl
def critcore_system():
    return INFO


D20 = parse("1d20")
CRITICAL = Determination("critical", True, "natural critical", tags={"critical"})
FUMBLE = Determination("fumble", False, "a fumble: nothing else happens", final=True, tags={"fumble"})
HIT = Determination("hit", False, "an ordinary hit")
MISS = Determination("miss", False, "a miss", final=True)


@hookimpl
def critcore_prepare(procedure, params, options):
    """An attack's answer for each d20 total (index 0 unused) and its damage dice, worked out
    once per engine and parameters; refuses damage dice that can do no damage before any roll."""
    if procedure.name != "attack":
        return None
    damage = parse(params["damage"])
    if damage.maximum < 1:
        raise ParamError(f"--damage: {damage.notation} can never do any damage")
    threshold = 19 if options["crit_on_19"] else 20
    answers = tuple(
        None if roll == 0 else CRITICAL if roll >= threshold else FUMBLE if roll == 1
        else HIT if roll + params["bonus"] >= params["ac"] else MISS
        for roll in range(21)
    )
    return Data(answers=answers, damage=damage)


def _prepared(ctx):
    """ctx.prepared, or the same worked out now for a context made by hand (some tests do)."""
    if ctx.prepared is not None:
        return ctx.prepared
    return critcore_prepare(ctx.procedure, ctx.params, ctx.options)


@hookimpl
def critcore_determine(ctx):
    if ctx.procedure.name != "attack":
        return None
    return _prepared(ctx)["answers"][ctx.dice.roll(D20, "attack roll").total]


@hookimpl
def critcore_determine_lookup(ctx):
    """determine is exactly a look-up on the d20 total: simulations may draw it themselves."""
    if ctx.procedure.name != "attack":
        return None
    return RollLookup(D20, "attack roll", _prepared(ctx)["answers"])


@hookimpl
def critcore_locate(ctx, determination):
    if ctx.procedure.name != "attack":
        return None
    where = ctx.param("where") or "body"
    return Location(where, where.capitalize(), f"aimed at the {where}")


@hookimpl
def critcore_effect(ctx, determination, location):
    if determination is None or not determination.critical:
        return None
    return [ctx.tables["confirm"].roll_on(ctx.dice, "critical confirmation")]


@hookimpl
def critcore_effect_lookup(ctx, determination, location):
    """The effect stage is one roll on the confirmation table: exact odds may read it."""
    if determination is None or not determination.critical:
        return None
    t = ctx.tables["confirm"]
    rows = tuple((t.lookup(r).effect(t.id, r),) for r in range(t.low, t.high + 1))
    return RollLookup(t.dice, "critical confirmation", (None,) * t.low + rows)


@hookimpl
def critcore_apply(ctx, determination, location, effects):
    if determination is None:
        return None
    multiplier = effects[0].data["multiplier"] if effects else 1
    damage = ctx.dice.roll(_prepared(ctx)["damage"], "damage").total * multiplier
    tags = {"overkill"} if damage >= 10 else ()
    if ctx.target is None:
        return Applied(f"{damage} damage", data={"damage": damage}, tags=tags)
    hp = ctx.target["hp"]
    new = dict(ctx.target, hp=hp - damage)
    return Applied(f"{damage} damage", (f"hp {hp} -> {hp - damage}",), new, data={"damage": damage}, tags=tags)


@hookimpl
def critcore_treat(ctx):
    if ctx.procedure.name != "rest":
        return None
    healed = ctx.dice.roll("1d4", "rest").total
    hp = ctx.target["hp"]
    return Applied(f"rested, {healed} hp back", (f"hp {hp} -> {hp + healed}",), dict(ctx.target, hp=hp + healed))


@hookimpl
def critcore_show(ctx):
    return [f"hp: {ctx.target['hp']}"]


@hookimpl
def critcore_web_view(ctx):
    """The fake game's picture on crit serve's page: its HP as a bar."""
    hp = ctx.target.get("max_hp", max(ctx.target["hp"], 1))
    return [{"type": "meter", "label": "HP", "value": ctx.target["hp"], "max": hp}]


@hookimpl
def critcore_read_target(path, text):
    """The fake game's own character format: a file NAME.fake holding 'hp: N'."""
    if not path.endswith(".fake"):
        return None
    from critcore.errors import StateError

    key, _, value = text.partition(":")
    if key.strip() != "hp" or not value.strip().isdigit():
        raise StateError(f"{path}, line 1: expected 'hp: NUMBER'")
    return {"hp": int(value)}


@hookimpl
def critcore_write_target(path, state):
    """The fake game's own format written back ('hp: N'), so the core's tests cover the hook."""
    if not path.endswith(".fake"):
        return None
    return f"hp: {state.get('hp', 0)}\n"


@hookimpl
def critcore_examples():
    """One example character, as `crit examples` writes it."""
    from critcore.stages.examples import Example

    return [Example("hero.json", '{"hp": 12}\n', "a fake hero with 12 hp")]


@hookimpl
def critcore_report(outcome, view):
    """Players only learn whether it was a critical, never the table row."""
    if view != "player":
        return None
    det = outcome.determination
    return ["Something terrible happened!" if det and det.critical else "The attack is over."]


@hookimpl
def critcore_upgrade_state(state, version):
    """Versions before 1.0 of the fake game called hp 'hit_points'."""
    if version.startswith("0.") and "hit_points" in state:
        upgraded = {k: v for k, v in state.items() if k != "hit_points"}
        upgraded["hp"] = state["hit_points"]
        return upgraded
    return None


@hookimpl
def critcore_changes(outcome, view):
    """What an attack did: each change the apply stage lists, ``minor``, and a target brought to 0
    HP or below ``deadly`` (the fake's own ranking; nothing for the player's view)."""
    if outcome.system != "fake" or outcome.applied is None or view != "gm":
        return None if outcome.system != "fake" else []
    hp = (outcome.applied.target or {}).get("hp")
    return [("deadly" if isinstance(hp, int) and hp <= 0 and c.startswith("hp") else "minor", c)
            for c in outcome.applied.changes]
