"""The BattleTech system plugin: hook implementations for critcore (entry point ``battletech``).

Procedures: ``hit-location`` (2d6 on the 'Mech hit location table), ``critical`` (Determining
Critical Hits and the slots struck, with every component effect and cascade) and ``damage``
(armor, internal structure, transfer inward, critical checks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from critcore import hookimpl
from critcore.plugin import ParamError
from critcore.plugin import Applied, Data, Determination, Effect, Location, Option, Outcome, Param, Procedure, SystemInfo


from . import __version__
from . import criticals as C
from . import locations as L
from .events import EVENTS, LOCATION_DESTROYED, unit_tags
from .prepared import Prepared, prepared_of
from .unitmemo import unit_memo
from .unitview import KIND, Work, check_unit, counted, unit_name

if TYPE_CHECKING:
    from .resolver import Resolver

# resolver.py (the resolver of criticals and damage on a unit, with damage.py, strikes.py, actions.py
# and cascadeodds.py) and status.py are imported where a unit is struck or shown: a hit-location roll
# or a critical without a unit needs neither

TREAT_NOTE = ("the BattleTech rules used here have no repair or healing procedure: damage and critical hits "
              "stay on the unit for the rest of the game (edit or re-import the unit file to start fresh).")

_TURN = Param("turn", "int", "The game turn, so the hip rule can tell earlier turns' hits apart "
              "(kept in the unit once given).", min=0)

INFO = SystemInfo(
    name="battletech",
    title="BattleTech ('Mech critical hits)",
    version=__version__,
    package="critcore-battletech",
    tables_package="critcore_battletech.tables",
    target_noun="unit",
    target_schema="critcore_battletech.data:target-schema.toml",  # the unit's keys, checked by critcore
    treat_note=TREAT_NOTE,
    events=EVENTS,  # the outcome tags the apply stage sets (events.py)
    target_memo=True,  # ctx.memo: the numbers of the unit state kept per target (unitmemo.py)
    effect_codes=frozenset({
        "hit-location", "through-armor-critical", "no-critical", "criticals", "blown-off-or-three", "slot-half",
        "roll-again", "engine", "gyro", "cockpit", "life-support", "sensors", "shoulder", "arm-actuator", "hip",
        "leg-actuator", "heat-sink", "jump-jet", "ammo-explosion", "disabled", "component-explosion",
        "absorbed", "blown-off", "nothing-to-hit", "slot-roll", "leg-destroyed",
    }),
    options=(
        Option("explosion_damage", "choice", "per-turn",
               "Ammunition explosion damage: one turn's worth of shots in the bin (per-turn, the rule document) "
               "or damage per shot times the shots left (total-warfare).", ("per-turn", "total-warfare")),
        Option("case", "bool", False,
               "CASE: explosion damage stops in a location holding CASE (every location of a Clan 'Mech) "
               "instead of passing inward."),
        Option("heavy_flamer_explosion", "choice", "weapon",
               "A heavy flamer bin's shot when it explodes: the weapon's damage, 4 (weapon, the rule document's "
               "Damage Value of one turn's shots) or what MegaMek's ammunition carries, 2 (ammunition).",
               ("weapon", "ammunition")),
        Option("slot_reroll", "choice", "slot",
               "When a critical lands on a slot that cannot take it: roll only the slot die again in the same "
               "half (slot) or both dice again (both).", ("slot", "both")),
        Option("head_hit_pilot_damage", "bool", True,
               "Total Warfare: every hit on the head (with the cockpit in it) deals the MechWarrior 1 damage. "
               "The rule document does not say so; false leaves it out."),
        Option("no_slot_left", "choice", "lost",
               "When nothing left in a location can take a critical: it is lost (lost) or passes to the next "
               "location inward (transfer).", ("lost", "transfer")),
    ),
    procedures=(
        Procedure("hit-location", "Roll 2d6 on the 'Mech hit location table for the side the attack comes from.",
                  (Param("side", "choice", "Where the attack comes from.", default="front",
                         choices=("front", "rear", "left", "right")),
                   Param("quad", "bool", "A four-legged 'Mech (taken from the unit when one is given).",
                         default=False))),
        Procedure("critical", "Roll Determining Critical Hits for a location and resolve every critical "
                  "(slot rolls, component effects, explosions) on the unit.",
                  (Param("location", "choice", "The location whose critical slots are rolled.",
                         required=True, choices=L.CODES), _TURN)),
        Procedure("damage", "Damage a location: armor, internal structure, transfer inward, critical checks.",
                  (Param("location", "choice", "The location hit.", required=True, choices=L.CODES),
                   Param("amount", "int", "Points of damage.", required=True, min=1, max=10_000),
                   Param("rear", "bool", "The hit strikes the rear armor (torsos).", default=False), _TURN),
                  target="required"),
    ),
)


@hookimpl
def critcore_system() -> SystemInfo:
    return INFO


@hookimpl
def critcore_prepare(procedure: Procedure, params: Data, options: Data, tables: Any) -> Prepared:
    """The rows' answers, the tables and the options' values, once per procedure and parameters
    on an engine (prepared.py)."""
    return Prepared(procedure.name, params, options, tables)


def _location(ctx: Any) -> str:
    code = str(ctx.params.get("location"))
    target = ctx.target
    if target is not None and (target.get("kind") != KIND or code not in target["locations"]):
        check_unit(target)
        raise ParamError(f"--location: {unit_name(target)} has no location {code} "
                         f"(it has: {', '.join(target['locations'])})")
    return code


# -- determine ------------------------------------------------------------------------------------

@hookimpl
def critcore_determine(ctx: Any) -> Determination | None:
    if ctx.procedure.name != "critical":
        return None
    code = _location(ctx)
    prep = prepared_of(ctx)
    total = ctx.dice.roll(prep.crit_dice, prep.check_label(code)).total
    return prep.determination(prep.crit_table.lookup(total), code, ctx.target is not None)


# -- locate ---------------------------------------------------------------------------------------

_SIDE_LABEL = {side: f"hit location ({side})" for side in ("front", "rear", "left", "right")}


@hookimpl
def critcore_locate(ctx: Any, determination: Determination | None) -> Location | None:
    proc = ctx.procedure.name
    if proc == "hit-location":
        side = str(ctx.param("side"))
        quad = bool(ctx.param("quad"))
        if ctx.target is not None:
            check_unit(ctx.target)
            quad = quad or L.is_quad(ctx.target.get("config"))
        table = ctx.tables["hit-location"]
        return prepared_of(ctx).hit_location(table.lookup(ctx.dice.roll(table.dice, _SIDE_LABEL[side]).total),
                                             side, quad)
    if proc in ("critical", "damage"):
        code = _location(ctx)
        if proc == "damage" and ctx.param("rear") and code not in L.TORSOS_WITH_REAR:
            raise ParamError(f"--rear: only the torsos (CT, LT, RT) have rear armor, not {code}")
        found = prepared_of(ctx).location
        return found if found is not None else Location(code, L.name(code))
    return None


# -- effect ---------------------------------------------------------------------------------------

@hookimpl
def critcore_effect(ctx: Any, determination: Determination | None,
                    location: Location | None) -> Sequence[Effect] | None:
    proc = ctx.procedure.name
    if proc == "hit-location" and location is not None:
        return prepared_of(ctx).hit_effects(location)
    if proc != "critical" or determination is None or location is None:
        return None
    prep = prepared_of(ctx)
    comp = prep.components
    code = location.id
    out = [prep.row_effect(determination.data["row"], code)]
    if determination.data["blown_off"]:
        out.append(comp.row(f"{L.kind(code)}-blown-off").effect(comp.id, None, location=code))
        return out
    count = int(determination.data["criticals"])
    if not count:
        return out
    if ctx.target is None:
        half = prep.half
        for n in range(1, count + 1):
            label = f"critical {n}" if count > 1 else "critical"
            slot, which = C.generic_slot(ctx.dice, half, code, label)
            extra = {"location": code, "slot": slot}
            if which:
                extra["half"] = which
            out.append(comp.row("slot-roll").effect(comp.id, None, **extra))
        return out
    from .resolver import Resolver

    res = Resolver(Work(ctx.target), ctx.dice, prep, unit_memo(ctx), cascade=False)
    out.extend(res.struck(code, res.picks(code, count, "critical")))
    return out


# -- apply ----------------------------------------------------------------------------------------

@hookimpl
def critcore_apply(ctx: Any, determination: Determination | None, location: Location | None,
                   effects: Sequence[Effect]) -> Applied | None:
    proc = ctx.procedure.name
    if proc == "hit-location":
        if location is None:
            return None
        through = bool(effects) and effects[0].code == "through-armor-critical"
        shared = prepared_of(ctx).hit_applied(location, through)
        if ctx.target is None:
            return shared
        derived = unit_memo(ctx).numbers()
        return Applied(shared.summary, data=shared.data.replace(derived=derived), tags=shared.tags)
    if proc == "critical":
        if location is None or determination is None:
            return None
        if ctx.target is None:
            return _apply_generic(determination, location, effects)
        turn = ctx.param("turn")
        if not determination.data["blown_off"] and not determination.data["criticals"]:
            return _no_critical(ctx, determination, turn)
        from .resolver import Resolver

        res = Resolver(Work(ctx.target), ctx.dice, prepared_of(ctx), unit_memo(ctx), turn)
        if determination.data["blown_off"]:
            if res.w.loc(location.id).get("destroyed"):
                res.change(f"The {location.name} was already gone: nothing more happens")
            res.destroy_location(location.id, "a 12 on Determining Critical Hits", blown_off=True)
        else:
            res.start_batch(tuple(effects))
        return _finish(ctx, res, determination.summary)
    if proc == "damage":
        if location is None or ctx.target is None:
            return None
        from .resolver import Resolver

        res = Resolver(Work(ctx.target), ctx.dice, prepared_of(ctx), unit_memo(ctx), ctx.param("turn"))
        amount = int(ctx.param("amount"))
        rear = bool(ctx.param("rear"))
        res.damage(location.id, amount, rear=rear)
        side = " (rear)" if rear else ""
        return _finish(ctx, res, f"{amount} damage to the {location.name}{side}")
    return None


def _finish(ctx: Any, res: Resolver, summary: str) -> Applied:
    """The cascade carried out, the damage counters and PSRs brought up to date, and the new
    state with its derived numbers and events."""
    state, data, tags = res.finish(res.drain())
    if not (ctx.target.get("damage") or {}).get("resolutions") and ctx.target.get("import_warnings"):
        # the first resolution after an import repeats what the import could not read
        data = data.replace(warnings=tuple(ctx.target["import_warnings"]))
    if state.get("destroyed") and not ctx.target.get("destroyed"):
        summary += f"; the 'Mech is destroyed ({state.get('destroyed_reason')})"
    # the story (changes told, rows rolled) is what real dice keep; exact odds left it out of
    # the cascade's merged states (Resolver.merged), so their outcomes have none
    return Applied(summary, tuple(res.changes), state, tuple(res.effects), data, tags=tags)


def _no_critical(ctx: Any, determination: Determination, turn: int | None) -> Applied:
    """No critical on a unit (most rolls): nothing is struck, only the resolution is counted (and
    the turn kept); the new state's derived numbers are those of the state before (nothing
    derive() reads changed)."""
    target = ctx.target
    data = unit_memo(ctx).quiet()
    if not (target.get("damage") or {}).get("resolutions") and target.get("import_warnings"):
        data = data.replace(warnings=tuple(target["import_warnings"]))
    return Applied(determination.summary, (), counted(target, turn), (), data)  # nothing struck: no event


def _apply_generic(determination: Determination, location: Location, effects: Sequence[Effect]) -> Applied:
    changes = []
    for e in effects:
        if e.code == "slot-roll":
            half = f" ({e.data['half']} half)" if "half" in e.data else ""
            changes.append(f"mark slot {e.data['slot']}{half} of the {location.name} on the record sheet; if it is "
                           "empty, 'roll again' or already destroyed, roll that critical again")
        elif e.code == "blown-off":
            changes.append(e.text)
    blown = bool(determination.data["blown_off"])  # without a unit only a limb or head blown off is certain
    return Applied(determination.summary, tuple(changes), tags=LOCATION_DESTROYED if blown else frozenset())


# -- treat, files, show, report -------------------------------------------------------------------

@hookimpl
def critcore_read_target(path: str, text: str, memo: dict[str, Any]) -> Mapping[str, Any] | None:
    if not path.lower().endswith(".mtf"):
        return None
    from .unitcache import cached_import, fingerprint

    # the importer's catalog is kept in the engine's reader memo: the units one engine reads after
    # the first (a campaign's, a server's) do not build it again
    importer = fingerprint()
    return cached_import(text, path, lambda t, p: _import_mtf(t, p, memo, importer), importer)


_CATALOG_KEY = "critcore_battletech.catalog"


def _import_mtf(text: str, path: str, memo: dict[str, Any], importer: bytes | None = None) -> dict[str, Any]:
    from .data.catalog import Catalog, catalog  # the importer is only imported when the cache has no entry
    from .units import unit_from_mtf
    from .unitcache import frame_of

    cat = memo.get(_CATALOG_KEY)
    if not isinstance(cat, Catalog):  # its frame shipped, or kept between commands (unitcache.frame_of)
        cat = memo[_CATALOG_KEY] = catalog(lambda build: frame_of(build, importer))
    return unit_from_mtf(text, path, cat)


@hookimpl
def critcore_show(ctx: Any) -> Sequence[str] | None:
    if ctx.target is None:
        return None
    check_unit(ctx.target)
    from .derived import derive
    from .status import show_lines

    return show_lines(ctx.target, derive(ctx.target, ctx.tables["components"]))


@hookimpl
def critcore_report(outcome: Outcome, view: str) -> Sequence[str] | None:
    if outcome.system != INFO.name:
        return None
    from .report import report_lines

    return report_lines(outcome, view)


@hookimpl
def critcore_examples() -> Sequence[Any]:
    """The examples `crit examples` writes: Quillback QBK-3, an original 45-ton 'Mech in MegaMek's .mtf format."""
    from critcore.plugin import package_examples

    return package_examples("critcore_battletech.examples", {"quillback.mtf": "Quillback QBK-3, an original 45-ton 'Mech in MegaMek's .mtf format"})


@hookimpl
def critcore_web_view(ctx: Any) -> Any:
    """The unit on ``crit serve``'s page (webview.py, imported only when a page asks)."""
    from .webview import critcore_web_view as view

    return view(ctx)


@hookimpl
def critcore_changes(outcome: Outcome, view: str) -> Sequence[tuple[str, str]] | None:
    """What an outcome did, most serious first (report.py)."""
    if outcome.system != INFO.name:
        return None
    from .report import changes

    return changes(outcome, view)
