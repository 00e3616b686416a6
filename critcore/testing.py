"""What a plugin author needs to test a system (or a house-rule plugin), and what the systems in
``plugins/`` use for their own tests:

* scripted dice: :func:`run` resolves a procedure with the faces you give, on a registry holding
  only your plugin (:func:`registry`), and :func:`faces_for` writes the faces of a wanted total;
* :func:`check_tables_reachable`: every row of every table can come up on the table's dice;
* :func:`check_hooks_documented`: every hook a plugin implements is one of critcore's documented
  hooks, with arguments the hook has (pluggy's own validation), and nothing named like a hook is
  left unmarked;
* :func:`check_odds_agree`: ``critcore.odds`` and ``critcore.simulate`` agree on every outcome
  (and every ``key=`` the plugin hands the dice names all its function reads, and every
  ``merge=`` of ``Dice.iterate`` leaves out nothing a later step reads);
* edited saved states: :func:`edited_state` makes one named edit of a saved state,
  :func:`mutated_states` is a hypothesis strategy that edits a saved target
  state at random (keys deleted or inserted, values replaced by other types, NaN, infinities,
  huge numbers, wrapped in a list), and :func:`check_edited_state` holds one edited state to
  "a clean one-line StateError naming the source, or a correct result".

Each check raises :class:`AssertionError` with a message naming what is wrong, so it works as a
plain ``assert`` under pytest or any other runner. Nothing here is imported by ``import
critcore`` or by the ``crit`` command, and pytest is not needed (hypothesis only when
:func:`mutated_states` is called).

    from critcore import testing
    import critcore_d20.plugin as d20

    def test_confirmed_threat():
        out = testing.run(d20, "attack", dice="19,12,5,6", ac=15, bonus=5, threat=19)
        assert out.effects[0].id == "double-bleed"
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Mapping, Sequence

if TYPE_CHECKING:
    from critcore.campaign.campaign import Campaign as Campaign
    from critcore.chance.enumeration import checking_keys as checking_keys
    from critcore.chance.exact import Branch, exact_odds as exact_odds
    from critcore.chance.montecarlo import simulate as simulate
    from critcore.cli.main import cli as cli
    from critcore.dice.rollers import RandomRoller as RandomRoller, ScriptedRoller as ScriptedRoller
    from critcore.stages.loader import Registry as Registry, scan_entry_points as scan_entry_points
    from critcore.model import Outcome, SystemInfo
    from critcore.engine.runner import Engine as Engine
    from critcore.engine.params import check_params as check_params
    from critcore.report.render import render as render
    from critcore.tables.tableset import Table
    from critcore.targets.state import read_target as read_target

__all__ = [
    "Agreement",
    "check_edited_state",
    "check_hooks_documented",
    "check_odds_agree",
    "check_tables_reachable",
    "edited_state",
    "faces_for",
    "hooks_of",
    "mutated_states",
    "registry",
    "run",
    "system_info",
    "unreachable_rows",
]

Rules = Mapping[str, Any] | Sequence[Any]

# What a plugin's own tests drive besides the helpers below, so that they import nothing of the
# core but ``critcore``, ``critcore.plugin`` and this module (tests/test_core_plugin_face.py).
# Loaded on first use, like the plugin face.
_DRIVERS: dict[str, tuple[str, str]] = {
    "Engine": ("critcore.engine.runner", "Engine"),
    "check_params": ("critcore.engine.params", "check_params"),
    "Registry": ("critcore.stages.loader", "Registry"),
    "scan_entry_points": ("critcore.stages.loader", "scan_entry_points"),
    "cli": ("critcore.cli.main", "cli"),
    "RandomRoller": ("critcore.dice.rollers", "RandomRoller"),
    "ScriptedRoller": ("critcore.dice.rollers", "ScriptedRoller"),
    "exact_odds": ("critcore.chance.exact", "exact_odds"),
    "checking_keys": ("critcore.chance.enumeration", "checking_keys"),
    "simulate": ("critcore.chance.montecarlo", "simulate"),
    "read_target": ("critcore.targets.state", "read_target"),
    "render": ("critcore.report.render", "render"),
    "Campaign": ("critcore.campaign.campaign", "Campaign"),
}
__all__ += list(_DRIVERS)


def __getattr__(name: str) -> Any:
    if name in _DRIVERS:
        from importlib import import_module

        module, attr = _DRIVERS[name]
        value = getattr(import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'critcore.testing' has no attribute {name!r}")


# --- a registry holding just the plugin -------------------------------------------------------


def system_info(plugin: Any) -> SystemInfo:
    """The :class:`~critcore.model.SystemInfo` a system plugin describes itself with (its
    ``critcore_system`` hook), after pluggy has checked the plugin's hooks."""
    pm = _plugin_manager(plugin)
    info: SystemInfo | None = pm.hook.critcore_system()  # pluggy's hook calls return Any
    if info is None:
        raise AssertionError(f"{_name(plugin)} answers no critcore_system(): it is not a system plugin")
    return info


def _rule_items(rules: Rules) -> list[tuple[str, Any]]:
    """(name, plugin) for each rule; a text (a TOML rule file's path) has no plugin (None)."""
    if isinstance(rules, Mapping):
        return list(rules.items())
    out: list[tuple[str, Any]] = []
    for i, obj in enumerate(rules):
        if isinstance(obj, str):
            out.append((obj, None))
            continue
        from critcore.stages.loader import rule_info

        info = rule_info(obj)
        out.append((info.name if info is not None and info.name else f"rule-{i + 1}", obj))
    return out


def registry(plugin: Any, rules: Rules = ()) -> Registry:
    """A registry holding only ``plugin`` (under the name its ``critcore_system`` gives) and the
    rule plugins in ``rules`` (a mapping name -> plugin, or a list of plugins whose ``critcore_rule``
    names them and of TOML rule files' paths): what is installed beside it does not matter."""
    from critcore.stages.loader import Registry

    return Registry.installed(extra_systems={system_info(plugin).name: plugin},
                              extra_rules={name: obj for name, obj in _rule_items(rules) if obj is not None},
                              discover=False)


def run(plugin: Any, procedure: str, dice: str | Sequence[int] | None = None, *,
        target: Mapping[str, Any] | None = None, options: Mapping[str, Any] | None = None, rules: Rules = (),
        seed: int | str | None = None, all_dice_used: bool = True, **params: Any) -> Outcome:
    """Run ``procedure`` of the system ``plugin`` with scripted ``dice`` (``"20,6,8"`` or a list of
    faces, in the order they are rolled) and return the :class:`~critcore.model.Outcome`.

    ``params`` are the procedure's parameters; ``rules`` rule plugins enabled for the run (see
    :func:`registry`); the procedure's verb (resolve or treat) is the one it declares. With
    ``all_dice_used`` (the default) a face left over is an error: the test scripted a roll that
    never happened. ``dice=None`` rolls randomly from ``seed``.
    """
    from critcore.dice.rollers import ScriptedRoller, make_roller
    from critcore.engine.runner import Engine

    reg = registry(plugin, rules)
    name = next(iter(reg.systems))
    engine = Engine(name, rules=[n for n, _ in _rule_items(rules)], options=options, registry=reg)
    scripted = ScriptedRoller(dice) if dice is not None else None
    out = engine.run(procedure, params, roller=scripted or make_roller(seed=seed), target=target)
    if scripted is not None and all_dice_used and scripted.unused:
        raise AssertionError(f"{name} {procedure}: faces {scripted.unused} were never rolled "
                             f"(rolled: {', '.join(f'{r.label} {r.total}' for r in out.rolls) or 'nothing'})")
    return out


def faces_for(notation: str, total: int) -> list[int]:
    """Faces that make ``notation`` (``"3d6"``, ``"2d6+1"``) come to ``total``, highest first:
    ``faces_for("3d6", 10) == [6, 3, 1]``. A total the dice cannot show is a ValueError."""
    from critcore.dice.notation import parse

    expr = parse(notation)
    if expr.times != 1 or expr.divide != 1:
        raise ValueError(f"faces_for: {notation} is not a sum of dice plus a number")
    if not expr.minimum <= total <= expr.maximum:
        raise ValueError(f"faces_for: {notation} cannot come to {total} ({expr.minimum} to {expr.maximum})")
    need = total - expr.plus
    out = []
    for left in range(expr.count - 1, -1, -1):  # each die as high as the dice after it allow
        face = min(expr.sides, need - left)
        out.append(face)
        need -= face
    return out


# --- every table row can come up --------------------------------------------------------------


def unreachable_rows(table: Table, modifiers: tuple[int, int] = (0, 0)) -> list[str]:
    """``table``'s rows (id and rolls) that no total of its dice selects, each total shifted by any
    modifier from ``modifiers[0]`` to ``modifiers[1]``."""
    from critcore.dice.notation import parse

    totals = {value for value, _ in parse(table.dice).distribution()}
    can = {t + m for t in totals for m in range(modifiers[0], modifiers[1] + 1)}
    return [f"{row.id} ({row.roll_text})" for row in table.rows if not can.intersection(row.covers())]


def check_tables_reachable(plugin: Any, *, looked_up: Iterable[str] = (),
                           modifiers: Mapping[str, tuple[int, int]] | None = None,
                           options: Mapping[str, Any] | None = None) -> list[str]:
    """Every row of every table of the system ``plugin`` is selected by some total of the dice the
    table declares (``dice = "3d6"``), so no row is dead text.

    A table rolled with a modifier names its range in ``modifiers`` (``{"location": (-2, 4)}``:
    every total shifted by -2 to +4); a table read by a value instead of a roll (successes, a
    rating) is named in ``looked_up`` and held only to its declared ``range``, which the loader
    already checks row by row. Returns the names of the tables checked against their dice.
    """
    from critcore.engine.runner import Engine

    reg = registry(plugin)
    engine = Engine(next(iter(reg.systems)), options=options, registry=reg)
    names = list(engine.tables.names())
    shifts = dict(modifiers or {})
    skip = set(looked_up)
    strays = sorted((skip | set(shifts)) - set(names))
    if strays:
        raise AssertionError(f"no table named {', '.join(strays)} (the tables: {', '.join(names)})")
    problems = []
    for name in names:
        if name in skip:
            continue
        table = engine.tables[name]
        shift = shifts.get(name, (0, 0))
        said = f"{table.dice}{shift[0]:+d} to {shift[1]:+d}" if name in shifts else table.dice
        for row in unreachable_rows(table, shift):
            problems.append(f"{table.source or name}: row {row} never comes up on {said}")
    if problems:
        raise AssertionError("unreachable table rows:\n" + "\n".join(problems))
    return [n for n in names if n not in skip]


# --- every hook is one critcore knows and documents -------------------------------------------


def _name(plugin: Any) -> str:
    return str(getattr(plugin, "__name__", None) or type(plugin).__name__)


def _plugin_manager(plugin: Any) -> Any:
    """A plugin manager holding ``plugin`` alone, registered and checked as critcore does
    (:func:`critcore.stages.loader._register`); a plugin pluggy refuses is an AssertionError."""
    from critcore.errors import PluginError
    from critcore.stages.loader import RULES_GROUP, SYSTEMS_GROUP, PluginSpec, _register, new_plugin_manager

    group = SYSTEMS_GROUP if hasattr(plugin, "critcore_system") else RULES_GROUP
    pm = new_plugin_manager()
    try:
        _register(pm, PluginSpec(_name(plugin), group, obj=plugin), plugin, _name(plugin))
    except PluginError as exc:
        raise AssertionError(str(exc)) from None
    return pm


def hooks_of(plugin: Any) -> list[str]:
    """The hooks ``plugin`` implements, validated by pluggy against critcore's hook specifications
    (an unknown hook, or an argument its hook does not have, is an AssertionError), sorted."""
    pm = _plugin_manager(plugin)
    found = sorted(name for name, caller in vars(pm.hook).items()
                   if not name.startswith("_") and any(impl.plugin is plugin for impl in caller.get_hookimpls()))
    marked = set(found)
    unmarked = sorted(n for n in dir(plugin) if n.startswith("critcore_") and n not in marked
                      and callable(getattr(plugin, n, None)))
    if unmarked:
        raise AssertionError(f"{_name(plugin)}: {', '.join(unmarked)} named like a hook but not marked "
                             "@hookimpl (critcore never calls it)")
    return found


def check_hooks_documented(plugin: Any = None, doc: str | Path | None = None) -> list[str]:
    """Every hook ``plugin`` implements is one of critcore's hooks (see :func:`hooks_of`), and, with
    ``doc`` (the path or text of critcore's ``docs/hooks.md``), has its ``### `name(`` heading there.

    Without ``plugin`` every hook critcore specifies is held to ``doc``. Returns the hooks checked.
    """
    from critcore.stages import hookspecs

    names = hooks_of(plugin) if plugin is not None else sorted(n for n in dir(hookspecs) if n.startswith("critcore_"))
    if doc is not None:
        text = doc.read_text(encoding="utf-8") if isinstance(doc, Path) else doc
        missing = [n for n in names if f"### `{n}(" not in text]
        if missing:
            raise AssertionError(f"hooks with no '### `name(' heading in the hook documentation: {', '.join(missing)}")
    return names


# --- exact odds and simulation agree ----------------------------------------------------------


def outcome_key(branch: Branch) -> Hashable:
    """The whole outcome: determination, location, effects and what was applied."""
    return (branch.determination, branch.location, branch.effects, branch.applied)


@dataclass(frozen=True)
class Agreement:
    """What :func:`check_odds_agree` compared: outcomes checked one by one, rare ones pooled."""

    n: int
    outcomes: int  # distinct outcomes the exact odds found (by the key)
    checked: int  # of them, compared one by one (expected at least 5 times in n runs)
    pooled: int  # the rest, compared as one pool
    worst: float  # the largest deviation seen, in standard deviations


def check_odds_agree(plugin: Any, procedure: str, *, n: int = 20_000, seed: int | str = 0, sigmas: float = 5.0,
                     key: Callable[[Branch], Hashable] = outcome_key, target: Mapping[str, Any] | None = None,
                     options: Mapping[str, Any] | None = None, rules: Rules = (), **params: Any) -> Agreement:
    """Run ``critcore.odds`` and ``critcore.simulate`` (``n`` runs from ``seed``) for ``procedure``
    of the system ``plugin`` and check that every outcome's simulated count lies within ``sigmas``
    standard deviations (plus one count) of ``n`` times its exact probability.

    Outcomes are told apart by ``key`` (default: the whole outcome; pass e.g.
    ``lambda b: b.determination.kind`` to compare coarser groups). Outcomes expected fewer than
    5 times are pooled and compared as one. An outcome the simulation met that the exact odds
    call impossible fails, unless the exact odds stopped early (an unbounded procedure) and the
    pool of such outcomes fits the probability they left unexplored.

    The exact odds run under :func:`critcore.chance.enumeration.checking_keys`: a ``key=`` handed to
    ``Dice.until``/``branch``/``iterate``/``fold`` that does not name everything its function
    depends on is a :class:`~critcore.errors.PluginError` naming the label, and so is a
    ``merge=`` handed to ``Dice.iterate`` that leaves out something a later step reads.
    """
    from critcore.api import odds, simulate
    from critcore.chance.enumeration import checking_keys

    reg = registry(plugin, rules)
    name = next(iter(reg.systems))
    enabled = [rule for rule, _ in _rule_items(rules)]
    with checking_keys():  # a key= that leaves something out fails here, not in a user's odds
        exact = odds(name, procedure, target=target, rules=enabled, options=options, registry=reg, **params)
    sim = simulate(name, procedure, n=n, seed=seed, target=target, rules=enabled, options=options, registry=reg,
                   **params)
    n = sim.n
    expected: dict[Hashable, float] = {}
    labels: dict[Hashable, str] = {}
    for b in exact.branches:
        k = key(b)
        expected[k] = expected.get(k, 0.0) + float(b.probability)
        labels.setdefault(k, _label(b))
    seen: dict[Hashable, int] = {}
    for b in sim.branches:
        k = key(b)
        seen[k] = seen.get(k, 0) + round(float(b.probability) * n)
        labels.setdefault(k, _label(b))
    unknown = {k: c for k, c in seen.items() if k not in expected}
    problems: list[str] = []
    if unknown and exact.exact:
        for k, c in sorted(unknown.items(), key=lambda kc: -kc[1])[:10]:
            problems.append(f"{labels[k]}: met {c} times in {n} runs, but the exact odds call it impossible")
    worst = 0.0
    checked = 0
    pool_p, pool_c, pooled = float(exact.remainder) if unknown else 0.0, sum(unknown.values()), 0
    for k, p in expected.items():
        c = seen.get(k, 0)
        if n * p < 5:
            pool_p, pool_c, pooled = pool_p + p, pool_c + c, pooled + 1
            continue
        checked += 1
        dev = _deviation(c, p, n)
        worst = max(worst, dev)
        if dev > sigmas:
            problems.append(f"{labels[k]}: exact {p:.6f}, simulated {c / n:.6f} ({c} of {n}), {dev:.1f} sigma off")
    if pooled or pool_c:
        dev = _deviation(pool_c, min(pool_p, 1.0), n)
        worst = max(worst, dev)
        if dev > sigmas:
            problems.append(f"{pooled} rare outcomes together: exact {pool_p:.6f}, simulated {pool_c / n:.6f} "
                            f"({pool_c} of {n}), {dev:.1f} sigma off")
    if problems:
        raise AssertionError(f"{name} {procedure}: exact odds and simulation disagree:\n" + "\n".join(problems))
    return Agreement(n, len(expected), checked, pooled, worst)


def _deviation(count: int, p: float, n: int) -> float:
    """How far ``count`` is from ``n * p``, in standard deviations, after one count of slack."""
    sd = math.sqrt(n * p * (1 - p))
    off = max(0.0, abs(count - n * p) - 1)
    if off == 0:
        return 0.0
    return math.inf if sd == 0 else off / sd


def _label(b: Branch) -> str:
    from critcore.chance.exact import LEVELS

    return " / ".join(b.label(level) for level in LEVELS)


# --- an edited saved state: one clean line or a correct result --------------------------------


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``data`` (keys and list indexes), the whole (``()``) first."""
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, prefix + (i,))
    return out


def edited_state(state: Any, path: Sequence[Any], value: Any) -> Any:
    """A deep copy of ``state`` with ``value`` at ``path`` (keys and list indexes):
    ``edited_state(saved, ("dr", "torso"), "3")``. For a test of one named edit."""
    import copy

    out = copy.deepcopy(state)
    here = out
    for key in path[:-1]:
        here = here[key]
    here[path[-1]] = value
    return out


def mutated_states(state: Any, *, keys: Sequence[str] = (), values: Sequence[Any] = (),
                   edits: tuple[int, int] = (1, 3)) -> Any:
    """A hypothesis strategy: ``state`` (a saved target, left untouched) with ``edits[0]`` to
    ``edits[1]`` random edits, each at a random place in it: a key or list item deleted, a key
    (one of ``keys``, or any short text without them) or list item inserted, a value (or the
    whole state) replaced by garbage, a value wrapped in a list.

    The garbage is nested lists and tables of None, booleans, integers up to 10**40, floats with
    NaN and infinities, short text, and ``values`` (give the names and numbers of your system:
    near-miss keys in ``keys``, a location or a limit plus one in ``values``). Needs hypothesis,
    imported here, not when this module is.
    """
    import copy

    import hypothesis.strategies as st

    scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(10**40), max_value=10**40),
                        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                        st.sampled_from([math.nan, math.inf, -math.inf, -1, 0, 10**18, "", *values]))
    garbage = st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)), max_leaves=10)
    new_key = st.sampled_from(list(keys)) if keys else st.text(max_size=10)

    @st.composite
    def edited(draw: Any) -> Any:
        data = copy.deepcopy(state)
        for _ in range(draw(st.integers(*edits))):
            path = draw(st.sampled_from(_paths(data)))
            op = draw(st.sampled_from(["delete", "insert", "replace", "replace", "nest"]))
            if not path:
                if op == "replace":
                    data = draw(garbage)
                elif op == "insert" and isinstance(data, dict):
                    data[draw(new_key)] = draw(garbage)
                continue
            parent: Any = data
            for step in path[:-1]:
                parent = parent[step]
            key = path[-1]
            if op == "delete":
                del parent[key]
            elif op == "replace":
                parent[key] = draw(garbage)
            elif op == "nest":
                parent[key] = [parent[key]]
            elif isinstance(parent[key], dict):
                parent[key][draw(new_key)] = draw(garbage)
            elif isinstance(parent[key], list):
                parent[key].insert(draw(st.integers(0, len(parent[key]))), draw(garbage))
        return data

    return edited()


def check_edited_state(system: Any, state: Any, procedure: str, params: Mapping[str, Any] | None = None, *,
                       source: str = "sheet.json", seed: int | str = 0, options: Mapping[str, Any] | None = None,
                       rules: Rules = ()) -> str:
    """Hold an edited saved ``state`` to critcore's promise for bad input: the system's target
    schema refuses it with one :class:`~critcore.errors.StateError` line starting with
    ``source``, or ``procedure`` runs on it (``seed``, ``params``) and either refuses in one
    line (an :class:`~critcore.errors.InputError`: a dead character, a location the unit lacks)
    or leaves a state the schema accepts again.

    ``system`` is the plugin (a registry of it alone is built each call) or an
    :class:`~critcore.engine.runner.Engine` for it. A message broken over lines is an AssertionError;
    any other exception, a traceback for the user, is left to propagate. Returns what happened:
    ``"refused by the schema"``, ``"refused by the procedure"`` or ``"resolved"`` (for
    ``hypothesis.event``).
    """
    from critcore.errors import InputError, StateError
    from critcore.model import thaw

    engine = system if hasattr(system, "check_target") else _engine(system, options, rules)
    try:
        checked = engine.check_target(state, source)
    except StateError as exc:
        message = str(exc)
        if not message.startswith(f"{source}: "):
            raise AssertionError(f"the schema's refusal does not start with the source {source!r}: {message!r}") from None
        if "\n" in message:
            raise AssertionError(f"the schema's refusal is more than one line: {message!r}") from None
        return "refused by the schema"
    try:
        out = engine.run(procedure, dict(params or {}), seed=seed, target=checked)
    except InputError as exc:
        if "\n" in str(exc):
            raise AssertionError(f"{procedure} refused the checked state in more than one line: {str(exc)!r}") from None
        return "refused by the procedure"
    if out.target is not None:
        try:
            engine.check_target(thaw(out.target), "after")
        except StateError as exc:
            raise AssertionError(f"{procedure} left a state its schema refuses: {exc}") from None
    return "resolved"


def _engine(plugin: Any, options: Mapping[str, Any] | None, rules: Rules) -> Any:
    from critcore.engine.runner import Engine

    reg = registry(plugin, rules)
    return Engine(next(iter(reg.systems)), rules=[n for n, _ in _rule_items(rules)], options=options, registry=reg)
