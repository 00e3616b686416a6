"""The ``wound`` procedure: Body check, hit location, the critical itself, and its monitor.

This is the hot path of exact odds and of simulations, so it stays lean: the engine's prepare
step (:func:`prepare`, the ``critcore_prepare`` hook) works out the Body check once per set of
parameters and holds a :class:`WoundPlan`, in which constant stage results are built once per
table row and kept (found again by the row's identity, which costs less than hashing it); tables
are looked up by index, and raw rolls stay out of the results (only the time before death of a
Mortal critical, which the death clock needs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from critcore.plugin import ParamError, StateError
from critcore.plugin import Applied, Data, Determination, Effect, Location
from critcore.plugin import Row, Table, TableSet

from .events import DEAD_BEFORE_HELP, LETHALITY_TAGS, dies_before_help
from .info import SEVERITIES
from .words import clock_text

if TYPE_CHECKING:
    from critcore.plugin import Context

SEVERITY_ROW = {name: i for i, name in enumerate(SEVERITIES, 1)}
MAX_DICE = 200

AUTO_NONE = Determination(
    "none", False, "no check: with the gentle target numbers a light wound is never a critical",
    data=Data(lethality="none", critical=False, wound="", boxes=0, penalty=0, checked=False),
)


BODY_CHECK = "Body check (the GM rolls in secret)"
HIT_LOCATION = "hit location"

class WoundPlan:
    """What the wound procedure needs from one set of parameters and the engine's options and
    tables, made by :func:`prepare`: the Body check (dice, target number, the lethality table).

    (Until issue 24 it also kept the stage results it had built, by the identity of the rows
    they came from: about 2 ms saved on a ``crit odds shadowrun2 wound``, nothing a user feels,
    so they went with the core's kept outcomes.)
    """

    __slots__ = ("severity", "dice", "tn", "table")

    def __init__(self, severity: Row, dice: int | None, tn: Any, table: Table) -> None:
        self.severity = severity
        self.dice = dice  # Body + Combat Pool when --body is given; None: the character file's body
        self.tn = tn  # the target number, or "auto" (no check)
        self.table = table  # the lethality table the successes are read on


def prepare(params: Data, options: Data, tables: TableSet) -> WoundPlan:
    """The ``critcore_prepare`` hook for ``wound``: the severity, the Body check's dice (when
    --body is given), target number and lethality table; bad parameters are refused here,
    before any roll."""
    severity = params["severity"]
    index = SEVERITY_ROW.get(severity)
    if index is None:
        raise ParamError(f"--severity: {severity!r} is not a wound severity (light, moderate, serious or deadly)")
    row = tables["body-check"].lookup(index)
    body = params["body"]
    dice = None if body is None else _pool(int(body), params, options)
    if body is None:
        _pool(1, params, options)  # Combat Pool is checked now; Body comes from the character file
    tn = row.data["tn_gentle"] if options["tn_set"] == "gentle" else row.data["tn_recommended"]
    table = tables["lethality-no-critical" if options["no_critical_category"] else "lethality"]
    return WoundPlan(row, dice, tn, table)


def plan_of(ctx: Context) -> WoundPlan:
    """The context's plan (made by the engine; made here for a context built by hand)."""
    plan = ctx.prepared
    if plan is None:
        plan = prepare(ctx.params, ctx.options, ctx.tables)
    return plan  # type: ignore[no-any-return]


def lethality(ctx: Context, row: Row) -> Determination:
    """The determination a lethality row gives (house rules use it too)."""
    return Determination(row.id, bool(row.data["critical"]), row.text, data=row.data,
                         tags=LETHALITY_TAGS.get(row.id, frozenset()))


def _location(row: Row) -> Location:
    name = row.data["name"]
    return Location(row.id, str(name), f"struck the {name}", Data(list=row.data["list"]))


def _pool(body: int, params: Data, options: Data) -> int:
    """Body plus Combat Pool, checked."""
    if body < 1:
        raise ParamError(f"--body: {body} is not a Body rating (a character has Body 1 or more)")
    pool = params["combat_pool"]
    if pool:
        if pool < 0:
            raise ParamError(f"--combat-pool: {pool} dice is not possible (0 or more)")
        if not options["allow_combat_pool"]:
            raise ParamError("--combat-pool: Combat Pool on the Body check is off (set option allow_combat_pool)")
    dice = body + int(pool)
    if dice > MAX_DICE:
        raise ParamError(f"--body/--combat-pool: {dice} dice is more than critcore rolls ({MAX_DICE})")
    return dice


def body_dice(ctx: Context) -> int:
    """Body (from --body or the character file) plus Combat Pool, checked."""
    plan = plan_of(ctx)
    if plan.dice is not None:
        return plan.dice
    target = ctx.target
    if target is None or target.get("body") is None:
        raise ParamError("wound needs --body N (or a character file that has a body rating)")
    body = target["body"]
    if isinstance(body, bool) or not isinstance(body, int) or body < 1:
        raise StateError(f"character: body must be a whole number of 1 or more, not {body!r}")
    return _pool(body, ctx.params, ctx.options)


def severity_row(ctx: Context) -> Row:
    return plan_of(ctx).severity


def determine(ctx: Context) -> Determination:
    """The GM's Body check against the severity's TN; successes give the lethality."""
    plan = plan_of(ctx)
    dice = body_dice(ctx)  # --body, or the character file's
    if ctx.target is not None:
        from .character import alive, read_character

        alive(read_character(ctx.target))  # a broken or dead character is refused before any roll
    if plan.tn == "auto":
        return AUTO_NONE
    roll = ctx.dice.test(dice, plan.tn, BODY_CHECK)
    return lethality(ctx, plan.table.lookup(roll.total))


def locate(ctx: Context, determination: Determination | None) -> Location | None:
    if determination is None or not (determination.critical or ctx.options["locate_all_wounds"]):
        return None
    table = ctx.tables["hit-location"]
    return _location(table.lookup(ctx.dice.roll(table.dice, HIT_LOCATION).total))


def effect(ctx: Context, determination: Determination | None, location: Location | None) -> Sequence[Effect] | None:
    if determination is None or location is None or not determination.critical:
        return None
    table = ctx.tables["critical-" + location.data["list"]]
    roll = ctx.dice.roll(table.dice, "critical in the " + location.name).total
    return (table.lookup(roll).effect(table.id, roll),)


def death_in(ctx: Context, determination: Determination, eff: Effect | None) -> int | None:
    """Seconds before a Mortal critical kills: its time roll (``time_dice`` x ``time_unit_seconds``).

    Rolled while applying, the last stage, so that exact odds branch on it only once per part.
    """
    if eff is None or determination.kind != "mortal":
        return None
    data = eff.data
    return int(ctx.dice.roll(data["time_dice"], "time before death (" + data["time"] + ")").total
               * data["time_unit_seconds"])


def _critical_lines(determination: Determination, location: Location, eff: Effect,
                    death: int | None) -> list[str]:
    d, e = determination.data, eff.data
    where = location.name
    lines = [f"critical monitor: {d['wound']} wound, {d['boxes']} boxes, +{d['penalty']} to tests using the {where}"]
    if death is not None:
        lines.append(f"death clock: dies in {clock_text(death)} unless treated ({e['cause']})")
    elif determination.kind == "crippling":
        lines.append(f"the {e['part']} ({where}) is crippled")
    star = " (automatic for an open wound)" if e["auto_if_open"] else ""
    lines.append(f"diagnosis: Biotech TN {e['diagnosis_tn']}{star}")
    return lines


def apply(ctx: Context, determination: Determination | None, location: Location | None,
          effects: Sequence[Effect]) -> Applied | None:
    if determination is None:
        return None
    eff = effects[0] if determination.critical and location is not None and effects else None
    death = death_in(ctx, determination, eff)
    late = dies_before_help(death, ctx.params["help_minutes"])
    if ctx.target is None:
        return _bare_applied(determination, location, eff, death, late)
    return _apply_to_character(ctx, determination, location, eff, death, late)


def _summary(determination: Determination, location: Location | None, eff: Effect | None,
             death: int | None) -> str:
    if eff is None or location is None:
        return NO_CRITICAL if location is None else f"{NO_CRITICAL} (the wound struck the {location.name})"
    text = f"{determination.kind.capitalize()} critical in the {location.name}: {eff.text}"
    return text if death is None else f"{text[:-1]}; dies in {clock_text(death)} unless treated"


NO_CRITICAL = "no critical hit: the wound follows the ordinary rules"
NO_CRITICAL_APPLIED = Applied(NO_CRITICAL)


def _bare_applied(determination: Determination, location: Location | None, eff: Effect | None,
                  death: int | None, late: bool = False) -> Applied:
    """What the critical would do, without a character file."""
    if eff is None or location is None:
        return NO_CRITICAL_APPLIED if location is None else Applied(_summary(determination, location, None, None))
    data = Data() if death is None else Data(death_in=death)
    return Applied(_summary(determination, location, eff, death),
                   tuple(_critical_lines(determination, location, eff, death)), data=data,
                   tags=DEAD_BEFORE_HELP if late else frozenset())


def _apply_to_character(ctx: Context, determination: Determination, location: Location | None,
                        eff: Effect | None, death: int | None, late: bool = False) -> Applied:
    from dataclasses import replace

    from .character import Critical, alive, read_character
    from .monitors import level_name, modifiers

    summary = _summary(determination, location, eff, death)
    char = alive(read_character(ctx.target))
    tables = ctx.tables
    wound_boxes = int(severity_row(ctx).data["boxes"])
    changes: list[str] = []
    track = "stun" if ctx.params["stun"] else "physical"
    before = getattr(char, track)
    if not ctx.params["no_mark"]:
        after = min(10, before + wound_boxes)
        changes.append(f"{track.capitalize()} {before} -> {after} boxes ({level_name(tables, after)})")
        if before + wound_boxes > 10:
            changes.append(f"{track.capitalize()} track full: {before + wound_boxes - 10} boxes past it "
                           "(the ordinary SR2 rules take over)")
        char = replace(char, **{track: after})
    data: dict[str, Any] = {"lethality": determination.kind, "track": track, "boxes": [before, getattr(char, track)]}
    if eff is not None and location is not None:
        d, e = determination.data, eff.data
        death_at = None if death is None else char.clock + death
        crit = Critical(
            id=char.next_id(), lethality=determination.kind, boxes=int(d["boxes"]), location=location.id,
            location_name=location.name, area=str(location.data["list"]), part_id=eff.id, part=str(e["part"]),
            cause=str(e["cause"]), diagnosis_tn=int(e["diagnosis_tn"]), auto_if_open=bool(e["auto_if_open"]),
            open_wound=not ctx.params["closed"], death_at=death_at, wound=str(ctx.params["severity"]),
        )
        char = replace(char, criticals=char.criticals + (crit,))
        changes.append(f"new critical #{crit.id}: " + "; ".join(_critical_lines(determination, location, eff, death)))
        if death_at is not None:
            changes.append(f"death clock: dies at clock {clock_text(death_at)}")
        data.update(critical=crit.id, penalty=int(d["penalty"]))
        if death is not None:
            data["death_in"] = death
    mods = modifiers(tables, char)
    changes.append(mods.text())
    data["total_modifier"] = mods.total
    return Applied(summary, tuple(changes), Data(char.to_dict()), data=Data(data),
                   tags=DEAD_BEFORE_HELP if late else frozenset())
