"""The engine: runs one system's procedure through the stages and keeps the record.

>>> engine = Engine("gurps")                                # doctest: +SKIP
>>> outcome = engine.run("attack", {"skill": 14}, seed=7)   # doctest: +SKIP

Each stage's answer is checked at the boundary (:mod:`critcore.engine.answers`): a plugin that
answers the wrong type is one line naming the plugin, the hook and what it returned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

from critcore._speed.stagecall import stage_function
from critcore.dice.dice import Dice, Roller
from critcore.dice.rollers import make_roller
from critcore.engine.answers import checked_answer
from critcore.engine.params import ParamPlan, check_options, check_params
from critcore.errors import ParamError, PluginError, UnknownNameError
from critcore.model import (
    Applied,
    Data,
    Determination,
    Effect,
    Location,
    Note,
    Outcome,
    Procedure,
    Step,
    SystemInfo,
    freeze,
)
from critcore.stages.context import Context
from critcore.stages.loader import Registry, get_plugin_manager, unknown_message
from critcore.tables.tableset import TableSet

if TYPE_CHECKING:
    from critcore.stages.targetmemo import TargetMemo

__all__ = ["Engine", "check_params", "describe_system", "load_system", "system_info"]


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


_MISSING = object()  # no prepared answer yet (a system's prepare may answer None)


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
            from critcore.config.houserules import apply_rule_files
            from critcore.errors import ConfigError

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
            stage_function(hook.critcore_determine, ("ctx",)),
            stage_function(hook.critcore_locate, ("ctx", "determination")),
            stage_function(hook.critcore_effect, ("ctx", "determination", "location")),
            stage_function(hook.critcore_apply, ("ctx", "determination", "location", "effects")),
        )
        self._treat = stage_function(hook.critcore_treat, ("ctx",))
        self._prepare = (stage_function(hook.critcore_prepare, ("procedure", "params", "options", "tables", "memo"))
                         if hook.critcore_prepare.get_hookimpls() else None)
        # critcore_prepare's answers by procedure and parameters: exact odds and simulations run
        # one question thousands of times and prepare it once (a bot's long-lived engine too)
        self._prepared: dict[tuple[str, Data], Any] = {}
        # critcore_prepare's memo: what the tables and options decide for any parameters (face 1.3)
        self._prepare_memo: dict[str, Any] = {}
        self._procedures: dict[str, Procedure] = {}
        self._plans: dict[str, ParamPlan] = {}  # how each procedure's parameters are checked, made once
        self.memos: TargetMemo | None = None  # ctx.memo, per target, for a system that declares target_memo
        if info.target_memo:
            from critcore.stages.targetmemo import TargetMemo

            self.memos = TargetMemo()
        self.reader_memo: dict[str, Any] = {}  # critcore_read_target's memo, kept for this engine's life
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
        """The context of one run: ``target`` checked, the procedure's preparation, the target's
        memo; the dice roll with ``roller``, or are ``dice`` (a simulation's)."""
        return self._context(procedure, params, roller, self.check_target(target), dice)

    def _context(self, procedure: Procedure, params: Data, roller: Roller | None, target: Data | None,
                 dice: Dice | None = None) -> Context:
        memos = self.memos
        if dice is None:
            if roller is None:
                raise TypeError("Engine.context needs a roller or dice")
            dice = Dice(roller)
        return Context(self.info, procedure, params, self.options, self.tables, dice,
                       target, self.rules, list(self.rule_notes), [""], self.prepare(procedure, params),
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
        found = prepared.get(key, _MISSING)  # one look-up: each compares the 26 parameters of a GURPS attack
        if found is _MISSING:
            if len(prepared) >= 1024:  # a long-lived engine (a bot) asked for many different things
                prepared.clear()
            found = prepared[key] = self._prepare(procedure, params, self.options, self.tables, self._prepare_memo)
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
        campaign target's name), the key path and the value. Every stage may rely on a checked
        target having the declared shape.
        """
        if state is None:
            return None
        from critcore.tables.targetcheck import check_target

        frozen: Data = check_target(self, state, where)
        return state if type(state) is Data else frozen

    def question(self, procedure: str, params: Mapping[str, Any] | None,
                 target: Mapping[str, Any] | None) -> tuple[Procedure, Data]:
        """The procedure and its checked parameters, refusing a run without the target the
        procedure needs: what a run, exact odds and a simulation all check first."""
        proc = self._procedures.get(procedure) or self.procedure(procedure)
        plan = self._plans.get(proc.name)
        if plan is None or plan.procedure is not proc:
            plan = self._plans[proc.name] = ParamPlan(proc)
        checked = plan.check(params or {})
        if proc.target == "required" and target is None:
            raise ParamError(f"{self.info.name} {proc.name} needs a target (--target FILE)")
        return proc, checked

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
        proc, checked = self.question(procedure, params, target)
        if roller is None:
            roller = make_roller(seed=seed, faces=dice)
        state = None if target is None or proc.target == "none" else self.check_target(target)
        return self.run_context(self._context(proc, checked, roller, state))

    def run_session(self, procedure: str, params: Mapping[str, Any] | None, roller: Roller,
                    session: Any) -> Outcome:
        """:meth:`run` on a session's target (a file's or a campaign target's: ``session.state``,
        None without one), which the session checked with :meth:`check_target` when it read it,
        naming the file or the campaign target in its errors: a ``crit`` command's target is
        walked once, not again here (a BattleTech unit: 1.6-2.7 M instructions, about 0.5 ms;
        docs/architecture.md, "Speed machinery"). Anything else goes through :meth:`run`."""
        state = None if session is None else session.state
        if state is not None and type(state) is not Data:  # only what check_target hands back
            raise TypeError(f"run_session: the session's state is not checked ({type(state).__name__})")
        proc, checked = self.question(procedure, params, state)
        return self.run_context(self._context(proc, checked, roller, None if proc.target == "none" else state))

    def run_context(self, ctx: Context) -> Outcome:
        """Call the stages for a prepared context and assemble the outcome (``ctx.stage`` names
        the stage running: a failing plugin's error names it, see ``loader._hook_of``)."""
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

    def _answer(self, stage: str, answer: Any) -> Any:
        return checked_answer(self.pm, stage, answer)

    def _treat_stage(self, ctx: Context) -> tuple[Applied, list[Step]]:
        """``critcore_treat`` alone, and its step."""
        before = len(ctx.dice.rolls)
        ctx.stage[0] = "treat"
        applied: Applied | None = self._answer("treat", self._treat(ctx))
        if applied is None:
            raise PluginError(f"{self.info.name} did not handle treat procedure {ctx.procedure.name!r}")
        return applied, [Step("treat", applied.summary, tuple(range(before, len(ctx.dice.rolls))))]

    def _resolve_stages(self, ctx: Context) -> tuple[Determination | None, Location | None, tuple[Effect, ...],
                                                     Applied | None, list[Step]]:
        """determine, locate, effect and apply in turn, each seeing the earlier answers, and the
        step of each stage that answered (the rolls it made); a final determination ends the run."""
        determine, locate, effect, apply = self._stages
        rolls = ctx.dice.rolls
        stage = ctx.stage
        answered: list[Step] = []

        def step(name: str, summary: str, before: int) -> None:
            answered.append(Step(name, summary, tuple(range(before, len(rolls)))))

        before = len(rolls)
        stage[0] = "determine"
        det: Determination | None = self._answer("determine", determine(ctx))
        if det is not None:
            step("determine", det.summary, before)
            if det.final:
                return det, None, (), None, answered
        before = len(rolls)
        stage[0] = "locate"
        loc: Location | None = self._answer("locate", locate(ctx, det))
        if loc is not None:
            step("locate", loc.summary or loc.name, before)
        before = len(rolls)
        stage[0] = "effect"
        found: Sequence[Effect] | None = self._answer("effect", effect(ctx, det, loc))
        effects = () if found is None else tuple(found)
        if found is not None:
            text = effects[0].text if len(effects) == 1 else "; ".join([e.text for e in effects])
            step("effect", text or "no effect", before)
        before = len(rolls)
        stage[0] = "apply"
        applied: Applied | None = self._answer("apply", apply(ctx, det, loc, effects))
        if applied is not None:
            step("apply", applied.summary, before)
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
        """apply's new state, frozen (a memo handed on to it goes with it)."""
        if state.__class__ is Data:  # frozen already (a system's own): kept as it is
            return state
        target: Data = freeze(state)
        if self.memos is not None:
            self.memos.frozen_as(state, target)
        return target
