"""The engine: runs one system's procedure through the stages and keeps the record.

>>> engine = Engine("gurps")                                # doctest: +SKIP
>>> outcome = engine.run("attack", {"skill": 14}, seed=7)   # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence

from critcore.engine.context import Context
from critcore.dice.dice import Dice, RandomRoller, Roller, make_roller
from critcore.errors import ParamError, PluginError, UnknownNameError
from critcore.engine.model import (
    Applied,
    Data,
    Determination,
    Effect,
    Location,
    Note,
    Outcome,
    Param,
    Procedure,
    Step,
    SystemInfo,
    freeze,
)
from critcore.engine.loader import Registry, get_plugin_manager, unknown_message
from critcore.tables.tableset import TableSet

if TYPE_CHECKING:
    from pluggy import HookCaller

    from critcore.engine.replay import Replays
    from critcore.engine.targetmemo import TargetMemo

STAGES = ("determine", "locate", "effect", "apply")


UNDECLARED_LIMIT = 10**9
"""A number parameter that declares no range of its own stays within plus or minus this."""

_REAL_CHARS = frozenset("0123456789+-.eE")


def _parse_int(text: str) -> int:
    """A whole number written in ASCII digits with an optional sign (no ``_``, no ``²``, no
    float notation, at most 30 digits, so a huge one is never converted)."""
    t = text.strip()
    body = t[1:] if t[:1] in ("+", "-") else t
    if not (body.isascii() and body.isdigit()):
        raise ValueError
    if len(body) > 30:
        raise OverflowError
    return int(t)


def _parse_real(text: str) -> float:
    """A finite decimal number (``2``, ``0.5``, ``1e-3``); ``nan``, ``inf`` and ``1e999`` are refused."""
    t = text.strip()
    if not t or len(t) > 40 or not _REAL_CHARS.issuperset(t):
        raise ValueError
    value = float(t)
    if value != value or value in (float("inf"), float("-inf")):
        raise OverflowError
    return value


def param_range(param: Param) -> tuple[float, float]:
    """The lowest and highest value a number parameter accepts (its own; +-UNDECLARED_LIMIT for
    a side it does not declare)."""
    return (-UNDECLARED_LIMIT if param.min is None else param.min,
            UNDECLARED_LIMIT if param.max is None else param.max)


def describe_range(param: Param) -> str:
    """The accepted range in words, for ``--help`` and errors: ``0 to 12``, ``0.1 to 100``."""
    low, high = param_range(param)

    def show(x: float) -> str:
        return f"{x:,g}" if isinstance(x, float) and not x.is_integer() else f"{int(x):,}"

    return f"{show(low)} to {show(high)}"


def coerce_param(param: Param, value: Any) -> Any:
    """Check and convert one parameter value (from the CLI as text, or from Python).

    A whole number is read as one (never through a float), a real number must be finite, and
    either must lie in the parameter's declared range (:func:`param_range`).
    """
    if value is None:
        return None
    flag = param.flag
    kind = param.type
    try:
        if kind == "int":
            if isinstance(value, str):
                value = _parse_int(value)
            elif isinstance(value, float) and value.is_integer() and abs(value) <= 2**53:
                value = int(value)  # 3.0 from Python: exactly 3 (a larger float is no exact count)
            elif isinstance(value, bool) or not isinstance(value, int):
                raise ValueError
        elif kind == "float":
            if isinstance(value, str):
                value = _parse_real(value)
            elif isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError
            else:
                value = float(value)  # an int beyond a float's range raises OverflowError
                if value != value or value in (float("inf"), float("-inf")):
                    raise OverflowError
        elif kind == "bool":
            if isinstance(value, str):
                word = value.lower()
                if word not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                    raise ValueError
                value = word in ("true", "yes", "1", "on")
            elif not isinstance(value, bool):
                raise ValueError
        elif kind in ("str", "choice", "dice"):
            if not isinstance(value, str):
                raise ValueError
    except OverflowError:
        from critcore.report.textsafe import quoted

        raise ParamError(f"{flag}: {quoted(value)} is out of range (allowed: {describe_range(param)})") from None
    except (TypeError, ValueError):
        from critcore.report.textsafe import quoted

        what = {"int": "whole number", "float": "finite number"}.get(kind, kind)
        raise ParamError(f"{flag}: {quoted(value)} is not a valid {what}") from None
    if param.choices and value not in param.choices:
        from critcore.engine.loader import did_you_mean
        from critcore.report.textsafe import quoted

        raise ParamError(
            f"{flag}: {quoted(value)} is not one of {', '.join(param.choices)}{did_you_mean(str(value)[:100], param.choices)}"
        )
    if kind in ("int", "float"):
        low, high = param_range(param)
        from critcore.report.textsafe import quoted

        if not low <= value <= high:
            raise ParamError(f"{flag}: {quoted(value)} is out of range (allowed: {describe_range(param)})")
    if kind == "dice":
        from critcore.dice.dice import parse
        from critcore.errors import DiceError

        try:
            parse(value.split()[0] if value.strip() else value)
        except DiceError as exc:
            raise ParamError(f"{flag}: {exc}") from None
    return value


_PARAMS_SEEN: dict[Any, tuple[Procedure, Data, tuple[type, ...] | None]] = {}


def check_params(procedure: Procedure, given: Mapping[str, Any]) -> Data:
    """Every declared parameter checked, defaults filled in, unknown names refused.

    The same parameters for the same procedure give the same (shared) ``Data``, so a bot or a
    simulation asking for the same thing again skips the checks and systems' per-parameter
    caches hit by identity. Values of other types than text and None are found again only with
    the same types (``True`` equals ``1``): their types are kept beside the answer and compared.
    """
    try:
        key = (id(procedure), *given.items())
        found = _PARAMS_SEEN.get(key)
    except TypeError:  # an unhashable value: check it the long way
        key, found = None, None
    if found is not None and found[0] is procedure and (found[2] is None or found[2] == _types(given)):
        return found[1]
    checked = _check_params(procedure, given)
    if key is not None:
        if len(_PARAMS_SEEN) > 1024:
            _PARAMS_SEEN.clear()
        text_only = all(v.__class__ is str or v is None for v in given.values())  # nothing else equals them
        _PARAMS_SEEN[key] = (procedure, checked, None if text_only else _types(given))
    return checked


def _types(given: Mapping[str, Any]) -> tuple[type, ...]:
    return tuple(map(type, given.values()))


def _check_params(procedure: Procedure, given: Mapping[str, Any]) -> Data:
    known = {p.name for p in procedure.params}
    for name in given:
        if name not in known and given[name] is not None:
            from critcore.engine.loader import did_you_mean

            raise ParamError(
                f"{procedure.name} takes no parameter {name!r}{did_you_mean(name, known)}"
                f" (it takes: {', '.join(sorted(known)) or 'none'})"
            )
    values: dict[str, Any] = {}
    for p in procedure.params:
        value = coerce_param(p, given.get(p.name))
        if value is None:
            if p.required:
                raise ParamError(f"{procedure.name} needs {p.flag}" + (f" ({p.help})" if p.help else ""))
            value = p.default
        values[p.name] = value
    return Data(values)


def check_options(info: SystemInfo, given: Mapping[str, Any], where: str = "options",
                  sources: Mapping[str, str] | None = None) -> dict[str, Any]:
    """A system's options with defaults, updated by ``given`` (checked against the declaration).

    ``sources`` maps an option to where it was set ("critcore.toml, line 3") for the error.
    """
    from critcore.errors import ConfigError

    out = {o.name: o.default for o in info.options}
    for name, value in given.items():
        opt = info.option(name)
        at = (sources or {}).get(name, where)
        if opt is None:
            from critcore.engine.loader import did_you_mean

            known = [o.name for o in info.options]
            raise ConfigError(
                f"{at}: {info.name} has no option {name!r}{did_you_mean(name, known)}"
                f" (options: {', '.join(known) or 'none'})"
            )
        try:
            value = coerce_param(Param(name, opt.type, choices=opt.choices, min=opt.min, max=opt.max), value)
        except ParamError as exc:
            why = str(exc).split(": ", 1)[-1]
            raise ConfigError(f"{at}: option {name}: {why}") from None
        out[name] = value
    return out


_STEPS: dict[tuple[str, str, int, int], Step] = {}
_SCHEMA_CHECK: list[Any] = [None]  # critcore.targets.schema.check_target, once imported


def make_step(stage: str, summary: str, before: int, after: int) -> Step:
    """The record of a stage that made rolls ``before`` to ``after - 1``.

    Steps are immutable and the same few recur (a stage's summary is mostly a constant), so
    equal steps are shared: a dictionary look-up instead of a new object per stage.
    """
    key = (stage, summary, before, after)
    found = _STEPS.get(key)
    if found is None:
        if len(_STEPS) > 4096:
            _STEPS.clear()
        found = _STEPS[key] = Step(stage, summary, tuple(range(before, after)))
    return found


def _no_answer(*args: Any) -> None:
    return None


def direct_caller(caller: HookCaller, names: Sequence[str]) -> Callable[..., Any]:
    """Call a firstresult stage hook without pluggy's per-call overhead: the system's function
    itself when it is the stage's only implementation, else :mod:`critcore.engine.stagecalls` (imported
    only then: a house rule touches the stage, or an implementation takes some of the hook's
    arguments but not the first ones)."""
    impls = caller.get_hookimpls()
    if not impls:  # no implementation (a system without a treat stage): a firstresult hook's None
        return _no_answer
    if len(impls) == 1 and not impls[0].hookwrapper and not impls[0].wrapper:
        fn, have = impls[0].function, tuple(impls[0].argnames)
        if have == tuple(names):
            return fn
        if have == tuple(names[:len(have)]):  # the first few of the hook's arguments, as pluggy allows
            return lambda *args: fn(*args[:len(have)])
    from critcore.engine.stagecalls import stage_caller

    return stage_caller(caller, names)


def _trim(trusted: dict[int, Any]) -> None:
    """Forget the older half of the checked targets (the ones used again lately stay)."""
    for key in list(trusted)[: len(trusted) // 2]:
        del trusted[key]


def system_info(pm: Any, system: str) -> SystemInfo:
    """What the system plugin in ``pm`` says about itself (its procedures, options, tables)."""
    info = pm.hook.critcore_system()
    if not isinstance(info, SystemInfo):
        raise PluginError(f"system plugin {system!r} did not describe itself (critcore_system returned {info!r})")
    return info


def describe_system(system: str, registry: Registry | None = None) -> SystemInfo:
    """A system's description, without an engine (no tables, rules or options): what ``crit``
    needs to list a system's procedures and build their options before it knows the rules."""
    return load_system(system, registry)[1]


def load_system(system: str, registry: Registry | None = None) -> tuple[Any, SystemInfo]:
    """The plugin manager holding the system alone, and its description. ``crit`` hands the
    manager on to the command's :class:`Engine` (``plugin_manager=``) when no rule plugin joins,
    which would otherwise load the same one again (0.4 ms)."""
    pm = get_plugin_manager(registry, system, ())
    return pm, system_info(pm, system)


class Engine:
    """One system, loaded with its enabled rules, ready to run procedures many times.

    ``rules`` names rule plugins (entry points in ``critcore.rules``) and house-rule TOML
    files; ``options`` sets system options. Both are applied in the order given.
    """

    def __init__(
        self,
        system: str,
        rules: Iterable[str] = (),
        options: Mapping[str, Any] | None = None,
        registry: Registry | None = None,
        option_sources: Mapping[str, str] | None = None,
        plugin_manager: Any = None,
    ) -> None:
        self.registry = registry if registry is not None else Registry.installed()
        rules = tuple(dict.fromkeys(rules))  # a rule enabled twice (config and --rule) counts once
        plugin_rules: list[str] = []
        rule_files: list[str] = []
        if rules:  # the house-rule machinery is imported only when a rule is enabled
            from critcore.config.houserules import split_rules

            plugin_rules, rule_files = split_rules(rules)
        # a manager from load_system holds the system alone: enough unless a rule plugin joins
        self.pm = plugin_manager if plugin_manager is not None and not plugin_rules \
            else get_plugin_manager(self.registry, system, plugin_rules)
        info = self.info = system_info(self.pm, system)
        self.rules = rules
        tables = TableSet(info.tables_package, info.effect_codes or None)
        merged: dict[str, Any] = dict(options or {})
        sources = dict(option_sources or {})
        self.rule_notes: list[Note] = []
        if rule_files:
            from critcore.errors import ConfigError
            from critcore.config.houserules import apply_rule_files

            tables, file_options, self.rule_notes, file_sources = apply_rule_files(info, tables, rule_files)
            for name, value in file_options.items():
                if name in merged and merged[name] != value:
                    set_at = sources.get(name, "the options given")
                    raise ConfigError(f"{file_sources[name]}: option {name!r} is also set in {set_at}; "
                                      "set it in one place only")
            merged.update(file_options)
            sources.update(file_sources)
        self.tables = tables
        self.options = Data(check_options(info, merged, sources=sources))
        hook = self.pm.hook
        self._stages = (
            direct_caller(hook.critcore_determine, ("ctx",)),
            direct_caller(hook.critcore_locate, ("ctx", "determination")),
            direct_caller(hook.critcore_effect, ("ctx", "determination", "location")),
            direct_caller(hook.critcore_apply, ("ctx", "determination", "location", "effects")),
        )
        self._treat = direct_caller(hook.critcore_treat, ("ctx",))
        self._prepare = (direct_caller(hook.critcore_prepare, ("procedure", "params", "options", "tables"))
                         if hook.critcore_prepare.get_hookimpls() else None)
        self._prepared: dict[tuple[str, Data], Any] = {}  # critcore_prepare's answers, by procedure and params
        self._last_prepared: tuple[Any, Any, Any] = (None, None, None)  # (procedure, params, answer)
        self._procedures: dict[str, Procedure] = {}
        self._trusted: dict[int, Any] = {}  # id -> target checked or produced here (kept alive, so ids stay unique)
        self.memos: TargetMemo | None = None  # ctx.memo, per target (targetmemo.py), for a system that asks
        if info.target_memo:
            from critcore.engine.targetmemo import TargetMemo

            self.memos = TargetMemo()
        self.reader_memo: dict[str, Any] = {}  # critcore_read_target's memo, kept for this engine's life
        self.keep_outcomes = True  # run() with random dice hands back kept outcomes (replay.py); False: never
        self._replays: Replays | None = None  # made at the second run with random dice (replay.py)
        self._first_random: tuple[Procedure, Data, Data | None] | None = None  # the first such run's question
        for proc in info.procedures:
            self._procedures.setdefault(proc.name, proc)

    def other_systems(self) -> Iterator[SystemInfo]:
        """The description of every other installed system, by name (a target given to the wrong
        system is named by the one it fits). One that fails to load is left out: it says so
        when it is used (whatever it raises: it is someone else's code, asked only for a hint)."""
        for name in sorted(self.registry.systems):
            if name == self.info.name:
                continue
            try:
                info = get_plugin_manager(self.registry, name, ()).hook.critcore_system()
            except (Exception, SystemExit):
                continue
            if isinstance(info, SystemInfo):
                yield info

    def procedure(self, name: str, verb: str | None = None) -> Procedure:
        proc = self._procedures.get(name)
        if proc is None or (verb is not None and proc.verb != verb):
            names = [p.name for p in self.info.procedures if verb is None or p.verb == verb]
            raise UnknownNameError(unknown_message(f"{self.info.name} procedure", name, names))
        return proc

    def context(self, procedure: Procedure, params: Data, roller: Roller | None, target: Any = None,
                dice: Dice | None = None) -> Context:
        """The context of one run: ``target`` checked (once), the procedure's preparation, the
        target's memo; the dice roll with ``roller``, or are ``dice`` (a simulation's)."""
        return self._context(procedure, params, roller, None if target is None else self._checked(target), dice)

    def _checked(self, target: Any) -> Data | None:
        """``target`` checked, or as it is when this engine checked or produced it before."""
        trusted = self._trusted
        tid = id(target)
        if trusted.get(tid) is target:  # used again: kept longest when the cache is trimmed
            del trusted[tid]
            trusted[tid] = target
            return target
        return self.check_target(target)

    def _context(self, procedure: Procedure, params: Data, roller: Roller | None, target: Data | None,
                 dice: Dice | None = None) -> Context:
        last = self._last_prepared  # the same procedure and parameters as last time: no hashing
        prepared = last[2] if last[1] is params and last[0] is procedure else self.prepare(procedure, params)
        memos = self.memos
        if dice is None:
            if roller is None:
                raise TypeError("Engine.context needs a roller or dice")
            dice = Dice(roller)
        return Context(self.info, procedure, params, self.options, self.tables, dice,
                       target, self.rules, list(self.rule_notes), [""], prepared,
                       None if memos is None else memos.of(target), memos)

    def prepare(self, procedure: Procedure, params: Data) -> Any:
        """What the system's ``critcore_prepare`` builds for ``procedure`` and ``params``: made
        the first time they are asked for (a bad combination of parameters is refused there,
        before any roll) and kept while this engine lives; None without such a hook, and for a
        procedure the system does not declare (``crit show``'s)."""
        if self._prepare is None or self._procedures.get(procedure.name) is not procedure:
            return None
        key = (procedure.name, params)
        prepared = self._prepared
        found = prepared.get(key, prepared)  # the dict itself: not prepared yet (None is an answer)
        if found is prepared:
            found = self._prepare(procedure, params, self.options, self.tables)
            if len(prepared) >= 1024:  # a long-lived engine (a bot) asked for many different things
                prepared.clear()
            prepared[key] = found
        self._last_prepared = (procedure, params, found)
        return found

    def read_target(self, path: str, text: str) -> Mapping[str, Any] | None:
        """The system's answer to ``critcore_read_target`` for a file's text (None: not a format
        of its own), handed this engine's reader memo (the same dict for every file it reads)."""
        found: Mapping[str, Any] | None = self.pm.hook.critcore_read_target(path=path, text=text,
                                                                         memo=self.reader_memo)
        return found

    def write_target(self, path: str, state: Mapping[str, Any]) -> str:
        """The text of ``state`` in the system's own format for ``path`` (``critcore_write_target``);
        a :class:`~critcore.errors.StateError` when the system does not write that format."""
        text: str | None = self.pm.hook.critcore_write_target(path=path, state=state)
        if text is None:
            from critcore.errors import StateError

            raise StateError(f"{path}: {self.info.name} cannot write this format (save to .json or .toml)")
        return text

    def writes(self, path: str) -> bool:
        """Whether ``path`` has a suffix the system writes back in its own format."""
        import os

        return os.path.splitext(path)[1].lower() in self.info.writes

    def check_target(self, state: Any, where: str = "target") -> Data | None:
        """``state`` checked against the system's declared target schema, returned frozen.

        Raises :class:`~critcore.errors.StateError`, one line naming ``where`` (a file path, a
        campaign target's name), the key path and the value. A state this engine produced or
        checked before (the same frozen object) is returned as it is, without a second walk.
        Every stage may rely on a checked target having the declared shape.
        """
        if state is None:
            return None
        if self._trusted.get(id(state)) is state:
            return state
        check = _SCHEMA_CHECK[0]
        if check is None:  # critcore.targets.schema is imported when the first target is checked
            from critcore.targets.schema import check_target as check

            _SCHEMA_CHECK[0] = check
        frozen: Data = check(self, state, where)
        if type(state) is Data:
            frozen = state  # already frozen: keep the caller's object, so passing it again is free
        self.trust(frozen)
        return frozen

    def trust(self, state: Data) -> None:
        """Remember ``state`` (frozen) as checked: passed in again, it is not walked again."""
        trusted = self._trusted
        if len(trusted) >= 256:
            _trim(trusted)
        trusted[id(state)] = state

    def run(
        self,
        procedure: str,
        params: Mapping[str, Any] | None = None,
        *,
        roller: Roller | None = None,
        seed: int | str | None = None,
        dice: str | Sequence[int] | None = None,
        target: Mapping[str, Any] | None = None,
    ) -> Outcome:
        """Run one procedure (``resolve`` or ``treat``, as the procedure declares)."""
        proc = self._procedures.get(procedure) or self.procedure(procedure)
        checked = check_params(proc, params or {})
        if roller is None:
            roller = make_roller(seed=seed, faces=dice)
        if proc.target == "required" and target is None:
            raise ParamError(f"{self.info.name} {proc.name} needs a target (--target FILE)")
        if target is None or proc.target == "none":
            state, known = None, True
        else:  # a target this engine knew before the run (not one read afresh each time) is asked about again
            known = self._trusted.get(id(target)) is target
            state = self._checked(target)
        if roller.__class__ is RandomRoller and self.keep_outcomes and known:
            replays = self._replays
            if replays is None:
                if self._first_random is None:  # a command runs once: its one run imports nothing more
                    self._first_random = (proc, checked, state)
                    return self._run_stages(proc, checked, roller, state)
                from critcore.engine.replay import Replays

                replays = self._replays = Replays(self._run_stages, self._new_target, self._first_random)
                self._first_random = None
            return replays.run(proc, checked, roller, state)
        return self._run_stages(proc, checked, roller, state)

    def _run_stages(self, procedure: Procedure, params: Data, roller: Roller, target: Data | None) -> Outcome:
        return self.run_context(self._context(procedure, params, roller, target))

    def run_context(self, ctx: Context) -> Outcome:
        """Call the stages for a prepared context and assemble the outcome (``ctx.stage`` names
        the stage running: a failing plugin's error names it, see ``plugins._hook_of``)."""
        det: Determination | None = None
        loc: Location | None = None
        effects: tuple[Effect, ...] = ()
        applied: Applied | None
        if ctx.procedure.verb == "treat":
            applied, steps = self._treat_stage(ctx)
        else:
            det, loc, effects, applied, steps = self._resolve_stages(ctx)
        target = ctx.target if applied is None or applied.target is None else self._new_target(applied.target)
        return Outcome(self.info.name, ctx.procedure.name, ctx.params, tuple(ctx.dice.rolls), tuple(steps),
                       det, loc, effects, applied, target,
                       tuple(ctx.notes) if not self.rules else self._notes(ctx, effects, applied), self.rules,
                       self.options)

    def _treat_stage(self, ctx: Context) -> tuple[Applied, list[Step]]:
        """``critcore_treat`` alone, and its step."""
        before = len(ctx.dice.rolls)
        ctx.stage[0] = "treat"
        applied: Applied | None = self._treat(ctx)
        if applied is None:
            raise PluginError(f"{self.info.name} did not handle treat procedure {ctx.procedure.name!r}")
        return applied, [make_step("treat", applied.summary, before, len(ctx.dice.rolls))]

    def _resolve_stages(self, ctx: Context) -> tuple[Determination | None, Location | None, tuple[Effect, ...],
                                                     Applied | None, list[Step]]:
        """determine, locate, effect and apply in turn, each seeing the earlier answers, and the
        step of each stage that answered (the rolls it made); a final determination ends the run."""
        determine, locate, effect, apply = self._stages
        rolls = ctx.dice.rolls
        stage = ctx.stage
        answered: list[Step] = []  # the step of each stage that answered (equal steps shared: _STEPS)
        before = len(rolls)
        stage[0] = "determine"
        det: Determination | None = determine(ctx)
        if det is not None:
            key = ("determine", det.summary, before, len(rolls))
            answered.append(_STEPS.get(key) or make_step(*key))
            if det.final:
                return det, None, (), None, answered
        before = len(rolls)
        stage[0] = "locate"
        loc: Location | None = locate(ctx, det)
        if loc is not None:
            key = ("locate", loc.summary or loc.name, before, len(rolls))
            answered.append(_STEPS.get(key) or make_step(*key))
        before = len(rolls)
        stage[0] = "effect"
        found: Sequence[Effect] | None = effect(ctx, det, loc)
        effects = () if found is None else tuple(found)
        if found is not None:
            text = effects[0].text if len(effects) == 1 else "; ".join([e.text for e in effects])
            key = ("effect", text or "no effect", before, len(rolls))
            answered.append(_STEPS.get(key) or make_step(*key))
        before = len(rolls)
        stage[0] = "apply"
        applied: Applied | None = apply(ctx, det, loc, effects)
        if applied is not None:
            key = ("apply", applied.summary, before, len(rolls))
            answered.append(_STEPS.get(key) or make_step(*key))
        return det, loc, effects, applied, answered

    @staticmethod
    def _notes(ctx: Context, effects: tuple[Effect, ...], applied: Applied | None) -> tuple[Note, ...]:
        """With house rules enabled: what the stages noted, and a note for each row that is a
        house rule's version."""
        notes = ctx.notes
        for eff in (effects + applied.effects) if applied is not None else effects:
            by = eff.data.get("changed_by")
            if by:
                notes.append(Note(f"{eff.table} row {eff.id!r} is the house rule's version", by, "effect"))
        return tuple(notes)

    def _new_target(self, state: Any) -> Data:
        """apply's new state, frozen and trusted (passed back in, it is not checked again)."""
        if state.__class__ is Data:  # frozen already (a system's own, or a kept answer's): kept as it is
            if self._trusted.get(id(state)) is not state:
                self.trust(state)
            return state  # a memo handed on to it is its own
        target: Data = freeze(state)
        self.trust(target)
        if self.memos is not None:
            self.memos.frozen_as(state, target)
        return target
