"""``crit resolve|treat|odds|simulate SYSTEM PROCEDURE``: commands built from what a system
declares. Each installed system is a subcommand group; each of its procedures a command whose
options are the procedure's parameters plus the options of the verb.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import click

from critcore.cli.errors import FILE, BadInput, Command, Group, ParamType, guarded, out, registry, resume_gc, warn

LEVEL_NAMES = ("determine", "locate", "effect", "apply")


def _run_options() -> list[click.Option]:
    return [
        click.Option(["--seed"], help="Seed for random dice: the same seed gives the same outcome."),
        click.Option(["--dice"], help="Faces you rolled, in the order rolled, e.g. 6,6,5 "
                                      "(an exploding die's extra face right after it). Faces left over are refused."),
        click.Option(["--allow-extra-dice"], is_flag=True,
                     help="With --dice: faces left over only warn (they are otherwise refused, nothing saved)."),
        click.Option(["--prompt"], is_flag=True, help="Ask for each roll by its label (roll real dice)."),
        click.Option(["--json", "json_out"], is_flag=True, help="Print one JSON object (see docs/cli.md)."),
        click.Option(["--explain"], is_flag=True, help="Say why, in detail: every roll, row, option and note."),
        click.Option(["--view"], type=click.Choice(["gm", "player"]), default="gm", show_default=True,
                     help="Who reads the report: the game master (everything) or the player."),
        click.Option(["--color/--no-color", "color"], default=None,
                     help="Colour the report (default: on a terminal, unless NO_COLOR is set)."),
        *_target_options(),
        click.Option(["--save"], is_flag=True, help="Write the new state back to the --target file (atomically)."),
        click.Option(["--preview"], is_flag=True,
                     help="Change nothing: show what would happen to the target (a campaign target is otherwise "
                          "changed and logged at once)."),
        click.Option(["--save-to"], type=FILE, help="Write the new state to this file instead."),
        *_rule_options(),
    ]


def _target_options() -> list[click.Option]:
    return [click.Option(["--target"], type=FILE,
                         help="Character or unit file (TOML, JSON or the system's own format), "
                              "or @NAME: a target of the campaign."),
            click.Option(["--campaign"], type=FILE,
                         help="Campaign file (default: $CRITCORE_CAMPAIGN, or critcore.db here or in a parent).")]


def _rule_options() -> list[click.Option]:
    return [
        click.Option(["--rule"], multiple=True, help="Enable a house rule (plugin name or .toml file); repeatable."),
        click.Option(["--config"], type=FILE, help="Config file instead of ./critcore.toml."),
    ]


def _odds_options() -> list[click.Option]:
    return [
        click.Option(["--json", "json_out"], is_flag=True, help="Print one JSON object (see docs/odds.md)."),
        click.Option(["--depth"], type=click.IntRange(1, 4), default=4, show_default=True,
                     help="Levels of grouping: 1 determination, 2 + location, 3 + effect, 4 + result."),
        click.Option(["--compare"], is_flag=True,
                     help="Each event with and without the enabled house rules, side by side, with the difference."),
        click.Option(["--against"], multiple=True,
                     help="With --compare: the other side's house rule (instead of none); repeatable."),
        click.Option(["--chart/--no-chart"], default=None,
                     help="Bars beside the events and the main outcomes (default: on in a terminal, off when piped)."),
        click.Option(["--progress/--no-progress"], default=None,
                     help="Progress on stderr for runs longer than a second (default: when stderr is a terminal)."),
        *_target_options(),
        *_rule_options(),
    ]


def _simulate_options() -> list[click.Option]:
    return [
        click.Option(["-n", "--runs"], type=click.IntRange(1, 10**9), default=100_000, show_default=True,
                     help="How many resolutions to simulate (Ctrl-C stops early and prints the estimate so far)."),
        click.Option(["--seed"], default="0", show_default=True, help="Seed: the same seed gives the same counts."),
        *_odds_options(),
    ]


OPTIONS: dict[str, Callable[[], list[click.Option]]] = {
    "resolve": _run_options, "treat": _run_options, "odds": _odds_options, "simulate": _simulate_options,
}
RESERVED = {"seed", "dice", "allow_extra_dice", "prompt", "json_out", "explain", "view", "target", "save", "save_to", "rule",
            "campaign", "preview",
            "config", "depth", "runs", "progress", "target_alias", "color",
            "compare", "against", "chart"}


if TYPE_CHECKING:
    from critcore.dice.dice import Roller

class CheckedParam(ParamType):
    """A procedure parameter's type on the command line: the value is read and range-checked by
    the engine's ``coerce_param`` (one parser for the CLI and the Python API), and a bad value is
    one line naming the option."""

    def __init__(self, param: Any) -> None:
        self.param = param
        self.name = param.type

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        from critcore.engine.params import coerce_param
        from critcore.errors import ParamError

        try:
            return coerce_param(self.param, value)
        except ParamError as exc:
            raise BadInput(str(exc)) from None


def param_option(param: Any) -> click.Option:
    """A procedure parameter as a click option; a number's range shows in its help."""
    kind = param.type
    help_text = param.help
    if param.required:  # the engine checks it (with the target's values too); help says so
        help_text += "  [required]"
    if param.default not in (None, False):
        help_text += f"  [default: {param.default}]"
    if kind == "bool":
        return click.Option([param.flag, param.name], is_flag=True, default=None, help=help_text)
    if kind == "choice":
        ptype: Any = click.Choice(list(param.choices))
    elif kind in ("int", "float"):
        from critcore.engine.params import describe_range

        help_text += f"  [range: {describe_range(param)}]"
        ptype = CheckedParam(param)
    else:
        ptype = click.STRING
    extra: dict[str, Any] = {}
    if getattr(param, "suggest", ()):
        from critcore.cli.complete import suggested

        extra["shell_complete"] = suggested(tuple(param.suggest))
    return click.Option([param.flag, param.name], type=ptype, default=None, required=False,
                        help=help_text, metavar=kind.upper() if kind in ("int", "float", "dice") else None, **extra)


def make_roller(seed: str | None, dice: str | None, prompt: bool) -> Roller:
    """The roller for --seed / --dice / --prompt (a prompt asks on the terminal, on stderr)."""
    from critcore.dice.rollers import make_roller as roller_for

    ask = (_ask, warn) if prompt else None
    return roller_for(seed=seed, faces=dice, prompt=ask)


def _ask(text: str) -> str:
    """One answer at --prompt. The end of input (or Ctrl-C) stops the command with one line and
    exit code 1 (critcore.errors.Aborted: nothing is saved), not click's bare "Aborted!"."""
    try:
        answer: str = click.prompt(text, type=str, err=True)  # typed Any before click 8.5
        return answer
    except click.Abort:
        raise EOFError from None


def _target_path(common: dict[str, Any]) -> str | None:
    from critcore.errors import InputError

    alias = common.get("target_alias")
    if alias and common.get("target"):
        raise InputError("give the target once (--target or its alias)")
    return common.get("target") or alias


def _campaign(ctx: click.Context, common: dict[str, Any], path: str | None, name: str | None) -> Any:
    """The campaign this command uses: named by --campaign or CRITCORE_CAMPAIGN, or found (the
    working folder or a parent) when the target is a campaign's (``name``, from ``@NAME``);
    None when the command uses none."""
    import os

    named = common.get("campaign") or os.environ.get("CRITCORE_CAMPAIGN")
    if not named and name is None:
        return None
    from critcore.campaign.campaign import Campaign, find_campaign
    from critcore.errors import CampaignError

    where = named or find_campaign()
    if where is None:
        raise CampaignError(f"{path} names a campaign target, but no campaign was found here or in a parent folder: "
                            "make one with `crit campaign new`, or name it with --campaign FILE")
    campaign = Campaign(where, registry=registry(ctx))
    # closed when the command ends, however it ends: an exit may not collect a forgotten connection
    # (cli.main), and closing the last one checkpoints the write-ahead log into the campaign file
    ctx.call_on_close(campaign.close)
    return campaign


def _engine(ctx: click.Context, system: str, common: dict[str, Any], campaign: Any) -> Any:
    """The command's one engine, built when everything that decides it is known: the config's,
    the campaign's and --rule's house rules and options."""
    from critcore.config.settings import load_config
    from critcore.engine.runner import Engine

    config = load_config(common.get("config"))
    from critcore.config.settings import check_systems

    check_systems(config, registry(ctx).systems)  # a [systems.NAME] for no installed system is refused
    rules = list(config.rules)
    options = config.system_options(system)
    sources = {n: w for (s, n), w in config.option_source.items() if s == system}
    if campaign is not None:
        campaign_rules, campaign_options = campaign.settings(system)
        rules += campaign_rules
        for name, value in campaign_options.items():
            options[name] = value
            sources[name] = f"{campaign.path} (campaign option)"
    rules += list(common.get("rule") or ())
    return Engine(system, rules=rules, registry=registry(ctx), options=options, option_sources=sources,
                  plugin_manager=ctx.meta.pop(_LOADED + system, None))


_LOADED = "critcore.loaded."  # ctx.meta key: the plugin manager ProcedureGroup.info loaded, by system


def _campaign_target(path: str | None) -> str | None:
    """``@NAME`` -> ``NAME``: the target is the campaign's; None for a file or no target
    (``targets.campaign_name``, imported only when there is a target)."""
    if not path:
        return None
    from critcore.targets.sessions import campaign_name

    return campaign_name(path)


def _load(ctx: click.Context, system: str, common: dict[str, Any]) -> tuple[Any, Any]:
    """The engine and the target's state (None without a target), for odds and simulate."""
    path = _target_path(common)
    name = _campaign_target(path)
    campaign = _campaign(ctx, common, path, name)
    engine = _engine(ctx, system, common, campaign)
    if path is None:
        return engine, (None, None)
    if name is not None:
        with campaign.session(name, engine=engine, preview=True) as session:
            return engine, (path, (session.state, "campaign"))
    from critcore.targets.sessions import file_session

    with file_session(path, engine) as session:
        return engine, (path, (session.state, "file"))


def _session(ctx: click.Context, system: str, common: dict[str, Any]) -> tuple[Any, Any]:
    """The engine and an open target session (a file, a campaign target, or none) for resolve/treat."""
    from contextlib import nullcontext

    from critcore.errors import InputError

    path = _target_path(common)
    save, save_to, preview = common["save"], common["save_to"], common.get("preview")
    if (save or save_to) and not path:
        raise InputError("--save needs --target FILE (the file to update)")
    if save and save_to:
        raise InputError("use --save or --save-to, not both")
    if preview and not path:
        raise InputError("--preview needs a target: --target FILE or --target @NAME")
    name = _campaign_target(path)
    if name is not None and (save or save_to):
        raise InputError(f"{path} is a campaign target: a resolution on it is applied and logged without --save "
                         "(--preview changes nothing)")
    if preview and (save or save_to):
        raise InputError("--preview changes nothing: leave out --save and --save-to")
    campaign = _campaign(ctx, common, path, name)
    engine = _engine(ctx, system, common, campaign)
    if not path:
        return engine, nullcontext(None)
    if name is not None:
        return engine, campaign.session(name, engine=engine, preview=bool(preview), hold_lock=not common["prompt"])
    from critcore.targets.sessions import file_session

    return engine, file_session(path, engine, save=bool(save), save_to=save_to)


def common_options(values: dict[str, Any]) -> dict[str, Any]:
    """Take critcore's own options (--seed, --json, --target, ...) out of a command's values,
    leaving the procedure's parameters."""
    return {k: values.pop(k) for k in list(values) if k in RESERVED}


def run_procedure(ctx: click.Context, system: str, procedure: str, verb: str, values: dict[str, Any]) -> None:
    """``crit resolve`` and ``crit treat``: read the target, run the stages, keep the new state, report."""
    common = common_options(values)
    engine, opened = _session(ctx, system, common)
    proc = engine.procedure(procedure, verb)
    roller = make_roller(common["seed"], common["dice"], common["prompt"])
    params = {k: v for k, v in values.items() if v is not None}
    with opened as session:
        outcome = engine.run_session(proc.name, params, roller, session)  # the session checked its target
        _check_unused_faces(roller, bool(common["allow_extra_dice"]))  # before anything is saved
        saved = session.commit(outcome) if session is not None else None
    if common["json_out"]:
        print_outcome_json(outcome, engine, common, saved, getattr(session, "entry_id", None))
    else:
        print_outcome_report(outcome, engine, common, saved, session)


def _check_unused_faces(roller: Any, allowed: bool) -> None:
    """--dice gave more faces than the procedure rolled: refused (a face in the wrong place would
    go unnoticed), or with --allow-extra-dice only a warning naming them."""
    unused = roller.unused  # every roller says (the Roller protocol): scripted faces never rolled
    if not unused:
        return
    faces = f"{len(unused)} dice face(s) not used: {','.join(map(str, unused))}"
    if not allowed:
        raise BadInput(f"--dice: {faces} (nothing saved; --allow-extra-dice accepts them)")
    warn(f"warning: {faces}")


def print_outcome_json(outcome: Any, engine: Any, common: dict[str, Any], saved: str | None,
                       logged: int | None) -> None:
    """--json: the outcome's JSON (the player's view: only the player's report), with where the
    new state went."""
    import json

    if common["view"] == "player":
        from critcore.model import OUTCOME_FORMAT
        from critcore.report.render import render

        # the player's view carries only what the player's report says: no rolls, rows or state
        data = {"format": OUTCOME_FORMAT, "system": outcome.system, "procedure": outcome.procedure, "view": "player",
                "report": render(outcome, view="player", pm=engine.pm).splitlines()}
    else:
        from critcore.report.render import judge

        data = outcome.to_dict()
        data.update(judge(outcome, "gm", engine.pm).to_json())  # severity, summary, ranked changes
    if saved:
        data["saved"] = saved
    if logged:
        data["log"] = logged
    if common.get("preview"):
        data["preview"] = True
    click.echo(json.dumps(data, ensure_ascii=False))


def print_outcome_report(outcome: Any, engine: Any, common: dict[str, Any], saved: str | None, session: Any) -> None:
    """The report in plain words (coloured on a terminal), then where the new state went."""
    import sys

    from critcore.report.render import report_lines
    from critcore.report.style import paint, use_color

    colour = use_color(common.get("color"), sys.stdout)
    click.echo(paint(report_lines(outcome, explain=common["explain"], view=common["view"], pm=engine.pm), colour),
               color=colour)
    logged = getattr(session, "entry_id", None)
    if logged:
        out(f"saved: {saved} (log #{logged}; crit campaign undo {session.row.name} takes it back)")
    elif common.get("preview") and session is not None:
        click.echo("preview: nothing was written")
    elif saved:
        out(f"saved: {saved}")


def run_odds(ctx: click.Context, system: str, procedure: str, mode: str, values: dict[str, Any]) -> None:
    """``crit odds`` (exact) and ``crit simulate`` (Monte Carlo): events first, then the outcomes;
    ``--compare`` puts each event with and without the house rules side by side."""
    import json
    import sys

    resume_gc()  # these can run long and allocate much

    from critcore.errors import InputError
    from critcore.chance.exact import LEVELS

    common = common_options(values)
    if common["against"] and not common["compare"]:
        raise InputError("--against names the other side of a comparison: add --compare")
    engine, (_, loaded) = _load(ctx, system, common)
    params = {k: v for k, v in values.items() if v is not None}
    state = loaded[0] if loaded else None
    levels = LEVELS[: common["depth"]]
    chart = not common["json_out"] and (common["chart"] if common["chart"] is not None else sys.stdout.isatty())
    show = common["progress"] if common["progress"] is not None else sys.stderr.isatty()
    other = None
    if common["compare"]:
        other = _other_side(ctx, system, common, engine)
    from critcore._speed.quickexit import keep_until_exit

    results = [_odds_run(engine, procedure, params, state, mode, common, show)]
    keep_until_exit(engine, other, results)  # freed by the process's end, not one by one before it
    if other is not None:
        first = results[0]
        if getattr(first, "partial", False):  # stopped early: the other side runs as many, to compare like with like
            common = dict(common, runs=first.n)
        results.append(_odds_run(other, procedure, params, state, mode, common, show))
    result = results[0]
    if other is not None:
        from critcore.chance.view import comparison, comparison_json, comparison_lines

        rows = comparison(results[0], results[1])
        if common["json_out"]:
            click.echo(json.dumps(comparison_json(rows, results[0], results[1]), ensure_ascii=False))
            return
        mine = ", ".join(map(_rule_name, results[0].rules)) or "no house rules"
        theirs = ", ".join(map(_rule_name, results[1].rules)) or "no house rules"
        how = "exact" if mode == "odds" else f"estimates from {results[0].n:,} and {results[1].n:,} runs, 95% intervals"
        head = f"{system} {procedure}: each event with {mine} against {theirs} ({how})"
        out("\n".join(comparison_lines(rows, head, ("with " + mine, "with " + theirs), chart)))
        if any(getattr(r, "partial", False) for r in results):
            click.echo("partial: stopped early (Ctrl-C); the estimates are from the runs done")
        return
    if common["json_out"]:
        click.echo(json.dumps(result.to_json(levels), ensure_ascii=False))
        return
    from critcore.chance.view import report_lines

    if mode == "odds":
        head = f"{system} {procedure}: exact odds of {len(result.branches)} distinct outcomes"
        if result.exact:
            tail = "exact: every outcome accounted for"
        else:
            r = result.remainder
            tail = (f"not exact: {float(r) * 100:.6f}% ({r.numerator}/{r.denominator}) left unaccounted "
                    "where dice roll without end")
    else:
        if result.partial:
            head = (f"{system} {procedure}: PARTIAL, stopped after {result.n:,} of {common['runs']:,} "
                    f"simulated resolutions (seed {result.seed})")
        else:
            head = f"{system} {procedure}: {result.n:,} simulated resolutions (seed {result.seed})"
        tail = ("partial estimates (Ctrl-C): frequencies of the runs done, with their 95% intervals"
                if result.partial else "frequencies; each event with its 95% interval (--json: every interval)")
    out("\n".join(report_lines(result, head, tail, levels, chart)))


def _rule_name(rule: str) -> str:
    """A rule as people call it: a house-rule file by its name without folder or .toml."""
    import os

    return os.path.basename(rule)[:-5] if rule.endswith(".toml") else rule


def _other_side(ctx: click.Context, system: str, common: dict[str, Any], engine: Any) -> Any:
    """The engine a --compare runs against: the same options without the house rules, or with
    the --against rules instead."""
    from critcore.config.settings import load_config
    from critcore.engine.runner import Engine
    from critcore.errors import InputError

    against = list(common["against"] or ())
    if not engine.rules and not against:
        raise InputError("--compare: no house rule is enabled (use --rule NAME, a rules list in critcore.toml, "
                         "or --against NAME for the other side)")
    config = load_config(common.get("config"))
    options = config.system_options(system)
    return Engine(system, rules=against, registry=registry(ctx), options=options,
                  option_sources={n: w for (s, n), w in config.option_source.items() if s == system})


def _odds_processes() -> int:
    """How many processes a long exact-odds question may use (``CRITCORE_ODDS_PROCESSES``: 1, or
    2 by default; see docs/odds.md)."""
    import os

    from critcore.errors import InputError

    text = os.environ.get("CRITCORE_ODDS_PROCESSES", "").strip() or "2"
    if text not in ("1", "2"):
        raise InputError(f"CRITCORE_ODDS_PROCESSES: {text[:40]!r} is not 1 or 2 (the processes a long exact-odds "
                         "question may use)")
    return int(text)


def _odds_run(engine: Any, procedure: str, params: dict[str, Any], state: Any, mode: str, common: dict[str, Any],
              show: bool) -> Any:
    """One exact-odds or simulation run, with progress on stderr when it is long."""
    import sys

    from critcore.cli.progress import Progress

    side = f" ({', '.join(map(_rule_name, engine.rules)) or 'no house rules'})" if common["compare"] else ""
    if mode == "odds":
        from critcore._speed.twocores import use
        from critcore.chance.exact import exact_odds

        use(_odds_processes())
        bar = Progress("exact odds" + side, "branches", sys.stderr, show)
        try:
            return exact_odds(engine, procedure, params, target=state, progress=bar)
        finally:
            bar.close()
    from critcore.dice.rollers import parse_seed
    from critcore.chance.montecarlo import simulate

    n = common["runs"]
    bar = Progress("simulating" + side, "runs", sys.stderr, show)
    try:
        return simulate(engine, procedure, params, n, parse_seed(common["seed"]), target=state,
                        progress=lambda done: bar(done, n), stop_ok=True)
    finally:
        bar.close()


class ProcedureGroup(Group):
    """``crit VERB SYSTEM``: one subcommand per procedure the system declares."""

    def __init__(self, system: str, verb: str, **kwargs: Any) -> None:
        super().__init__(name=system, invoke_without_command=True, callback=self.when_alone, **kwargs)
        self.system = system
        self.verb = verb
        self._info: Any = None

    def info(self, ctx: click.Context) -> Any:
        """The system's description (procedures and their parameters): no engine is built until
        the command runs and its rules and options are known."""
        if self._info is None:
            from critcore.engine.runner import load_system

            pm, self._info = guarded(lambda: load_system(self.system, registry(ctx)))()
            ctx.meta[_LOADED + self.system] = pm  # for the command's engine (_engine)
        return self._info

    def _accepts(self, proc: Any) -> bool:
        return self.verb in ("odds", "simulate") or proc.verb == self.verb

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [p.name for p in self.info(ctx).procedures if self._accepts(p)]

    def when_alone(self) -> None:
        """``crit resolve SYSTEM`` with no procedure: list them (or say why there are none)."""
        ctx = click.get_current_context()
        if ctx.invoked_subcommand is not None:
            return
        info = self.info(ctx)
        if not self.list_commands(ctx) and info.treat_note:
            out(f"{info.name} has no {self.verb} procedures: {info.treat_note}")
            return
        click.echo(ctx.get_help())

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        from critcore.stages.loader import unknown_message

        info = self.info(ctx)
        proc = info.procedure(name)
        if proc is None or not self._accepts(proc):
            names = self.list_commands(ctx)
            if not names and info.treat_note:
                raise BadInput(f"{info.name} has nothing to {self.verb}: {info.treat_note}")
            raise BadInput(unknown_message(f"{info.name} {self.verb} procedure", name, names))
        system, verb = self.system, self.verb

        @guarded
        def callback(**values: Any) -> None:
            here = click.get_current_context()
            if verb in ("resolve", "treat"):
                run_procedure(here, system, name, verb, values)
            else:
                run_odds(here, system, name, verb, values)

        params: list[click.Parameter] = []
        for p in proc.params:
            if p.name in RESERVED:
                raise click.ClickException(f"{info.name} procedure {name!r} declares a parameter named {p.name!r}, "
                                           "which critcore reserves")
            params.append(param_option(p))
        params.extend(OPTIONS[verb]())
        if info.target_noun and info.target_noun != "target":
            params.append(click.Option([f"--{info.target_noun}", "target_alias"], type=FILE,
                                       help=f"Same as --target: the {info.target_noun} file."))
        return Command(name, callback=callback, params=params, help=proc.help,
                             short_help=proc.help.split(". ")[0])


class SystemsGroup(Group):
    """``crit VERB``: one subcommand per installed system (nothing imported to list them)."""

    def __init__(self, verb: str, **kwargs: Any) -> None:
        super().__init__(name=verb, **kwargs)
        self.verb = verb

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(registry(ctx).systems)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        from critcore.stages.loader import unknown_message

        reg = registry(ctx)
        if name not in reg.systems:
            hint = "" if reg.systems else " (install a system, e.g. pip install critcore-gurps)"
            raise BadInput(unknown_message("system", name, reg.systems) + hint)
        return ProcedureGroup(name, self.verb, help=f"{self.verb.capitalize()}: procedures of the {name} system.")
