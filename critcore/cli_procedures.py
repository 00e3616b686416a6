"""``crit resolve|treat|odds|simulate SYSTEM PROCEDURE``: commands built from what a system
declares. Each installed system is a subcommand group; each of its procedures a command whose
options are the procedure's parameters plus the options of the verb.
"""

from __future__ import annotations

from typing import Any, Callable

import click

from .cli_errors import BadInput, Command, Group, guarded, registry, resume_gc, warn

LEVEL_NAMES = ("determine", "locate", "effect", "apply")
_ENGINE_KEY = "critcore.engine:"  # ctx.meta key of the engine a system's commands were listed with


def _run_options() -> list[click.Option]:
    return [
        click.Option(["--seed"], help="Seed for random dice: the same seed gives the same outcome."),
        click.Option(["--dice"], help="Faces you rolled, in the order rolled, e.g. 6,6,5 "
                                      "(an exploding die's extra face right after it)."),
        click.Option(["--prompt"], is_flag=True, help="Ask for each roll by its label (roll real dice)."),
        click.Option(["--json", "json_out"], is_flag=True, help="Print one JSON object (see docs/cli.md)."),
        click.Option(["--explain"], is_flag=True, help="Say why, in detail: every roll, row, option and note."),
        click.Option(["--view"], type=click.Choice(["gm", "player"]), default="gm", show_default=True,
                     help="Who reads the report: the game master (everything) or the player."),
        *_target_options(),
        click.Option(["--save"], is_flag=True, help="Write the new state back to the --target file (atomically)."),
        click.Option(["--save-to"], type=click.Path(dir_okay=False), help="Write the new state to this file instead."),
        *_rule_options(),
    ]


def _target_options() -> list[click.Option]:
    return [click.Option(["--target"], type=click.Path(dir_okay=False),
                         help="Character or unit file (TOML, JSON or the system's own format).")]


def _rule_options() -> list[click.Option]:
    return [
        click.Option(["--rule"], multiple=True, help="Enable a house rule (plugin name or .toml file); repeatable."),
        click.Option(["--config"], type=click.Path(dir_okay=False), help="Config file instead of ./critcore.toml."),
    ]


def _odds_options() -> list[click.Option]:
    return [
        click.Option(["--json", "json_out"], is_flag=True, help="Print one JSON object."),
        click.Option(["--depth"], type=click.IntRange(1, 4), default=4, show_default=True,
                     help="Levels of grouping: 1 determination, 2 + location, 3 + effect, 4 + result."),
        *_target_options(),
        *_rule_options(),
    ]


def _simulate_options() -> list[click.Option]:
    return [
        click.Option(["-n", "--runs"], type=click.IntRange(1, 10**9), default=100_000, show_default=True,
                     help="How many resolutions to simulate."),
        click.Option(["--seed"], default="0", show_default=True, help="Seed: the same seed gives the same counts."),
        click.Option(["--progress/--no-progress"], default=None, show_default=False,
                     help="Show a progress bar (default: on long runs in a terminal)."),
        *_odds_options(),
    ]


OPTIONS: dict[str, Callable[[], list[click.Option]]] = {
    "resolve": _run_options, "treat": _run_options, "odds": _odds_options, "simulate": _simulate_options,
}
RESERVED = {"seed", "dice", "prompt", "json_out", "explain", "view", "target", "save", "save_to", "rule",
            "config", "depth", "runs", "progress", "target_alias"}


def param_option(param: Any) -> click.Option:
    """A procedure parameter as a click option (types checked again by the engine)."""
    kind = param.type
    help_text = param.help
    if param.default not in (None, False):
        help_text += f"  [default: {param.default}]"
    if kind == "bool":
        return click.Option([param.flag, param.name], is_flag=True, default=None, help=help_text)
    if kind == "choice":
        ptype: Any = click.Choice(list(param.choices))
    elif kind == "int":
        ptype = click.INT if param.min is None and param.max is None else click.IntRange(
            None if param.min is None else int(param.min), None if param.max is None else int(param.max))
    elif kind == "float":
        ptype = click.FLOAT if param.min is None and param.max is None else click.FloatRange(param.min, param.max)
    else:
        ptype = click.STRING
    return click.Option([param.flag, param.name], type=ptype, default=None, required=False,
                        help=help_text, metavar=kind.upper() if kind in ("int", "float", "dice") else None)


def make_roller(seed: str | None, dice: str | None, prompt: bool) -> Any:
    """The roller for --seed / --dice / --prompt (a prompt asks on the terminal, on stderr)."""
    from .dice import make_roller as roller_for

    ask = (lambda text: click.prompt(text, type=str, err=True), warn) if prompt else None
    return roller_for(seed=seed, faces=dice, prompt=ask)


def _load(ctx: click.Context, system: str, common: dict[str, Any]) -> tuple[Any, Any]:
    """The engine with config and --rule applied, and the target (state, format) if given."""
    from .config import load_config
    from .engine import Engine
    from .errors import InputError

    alias = common.get("target_alias")
    if alias and common.get("target"):
        raise InputError("give the target once (--target or its alias)")
    path = common.get("target") or alias
    config = load_config(common.get("config"))
    rules = list(config.rules) + list(common.get("rule") or ())
    options = config.system_options(system)
    engine = ctx.meta.get(_ENGINE_KEY + system)  # the one that listed the procedures, if it will do
    if engine is None or rules or options:
        engine = Engine(system, rules=rules, registry=registry(ctx), options=options,
                        option_sources={n: w for (s, n), w in config.option_source.items() if s == system})
    target = None
    if path:
        from .state import read_target

        target = read_target(path, lambda p, t: engine.pm.hook.critcore_read_target(path=p, text=t))
    return engine, (path, target)


def run_procedure(ctx: click.Context, system: str, procedure: str, verb: str, values: dict[str, Any]) -> None:
    """``crit resolve`` and ``crit treat``."""
    from .errors import InputError
    from .render import render

    common = {k: values.pop(k) for k in list(values) if k in RESERVED}
    if (common["save"] or common["save_to"]) and not (common["target"] or common.get("target_alias")):
        raise InputError("--save needs --target FILE (the file to update)")
    if common["save"] and common["save_to"]:
        raise InputError("use --save or --save-to, not both")
    engine, (path, loaded) = _load(ctx, system, common)
    proc = engine.procedure(procedure, verb)
    roller = make_roller(common["seed"], common["dice"], common["prompt"])
    state, fmt = loaded if loaded else (None, "json")
    outcome = engine.run(proc.name, {k: v for k, v in values.items() if v is not None}, roller=roller, target=state)
    unused = getattr(roller, "unused", [])
    if unused:
        warn(f"warning: {len(unused)} dice face(s) not used: {','.join(map(str, unused))}")
    saved = None
    if path and (common["save"] or common["save_to"]) and outcome.target is not None:
        from .model import thaw
        from .state import save_target

        if common["save_to"]:
            dest = common["save_to"]
            saved = save_target(dest, thaw(outcome.target), "toml" if dest.endswith(".toml") else "json")
        else:
            saved = save_target(path, thaw(outcome.target), fmt)
    if common["json_out"]:
        import json

        if common["view"] == "player":
            # the player's view carries only what the player's report says: no rolls, rows or state
            data = {"system": outcome.system, "procedure": outcome.procedure, "view": "player",
                    "report": render(outcome, view="player", pm=engine.pm).splitlines()}
        else:
            data = outcome.to_json()
        if saved:
            data["saved"] = saved
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    click.echo(render(outcome, explain=common["explain"], view=common["view"], pm=engine.pm))
    if saved:
        click.echo(f"saved: {saved}")


def run_odds(ctx: click.Context, system: str, procedure: str, mode: str, values: dict[str, Any]) -> None:
    """``crit odds`` (exact) and ``crit simulate`` (Monte Carlo)."""
    import json
    import sys

    resume_gc()  # these can run long and allocate much

    from .exact import LEVELS, exact_odds, render_groups

    common = {k: values.pop(k) for k in list(values) if k in RESERVED}
    engine, (_, loaded) = _load(ctx, system, common)
    params = {k: v for k, v in values.items() if v is not None}
    state = loaded[0] if loaded else None
    levels = LEVELS[: common["depth"]]
    if mode == "odds":
        result: Any = exact_odds(engine, procedure, params, target=state)
        head = f"{system} {procedure}: exact odds of {len(result.branches)} distinct outcomes"
        if result.exact:
            tail = "exact: every outcome accounted for"
        else:
            r = result.remainder
            tail = (f"not exact: {float(r) * 100:.6f}% ({r.numerator}/{r.denominator}) left unaccounted "
                    "where dice roll without end")
    else:
        from .montecarlo import simulate

        n = common["runs"]
        show = common["progress"] if common["progress"] is not None else (n >= 200_000 and sys.stderr.isatty())
        from .dice import parse_seed

        seed = parse_seed(common["seed"])
        if show:
            with click.progressbar(length=n, label="simulating", file=sys.stderr) as bar:
                last = [0]

                def progress(done: int) -> None:
                    bar.update(done - last[0])
                    last[0] = done

                result = simulate(engine, procedure, params, n, seed, target=state, progress=progress)
        else:
            result = simulate(engine, procedure, params, n, seed, target=state)
        head = f"{system} {procedure}: {n:,} simulated resolutions (seed {seed})"
        tail = "frequencies, each within its 95% interval (see --json for the intervals)"
    if common["json_out"]:
        click.echo(json.dumps(result.to_json(levels), ensure_ascii=False))
        return
    click.echo(head)
    click.echo("\n".join(render_groups(result.groups(levels), indent=1)))
    click.echo(tail)


class ProcedureGroup(Group):
    """``crit VERB SYSTEM``: one subcommand per procedure the system declares."""

    def __init__(self, system: str, verb: str, **kwargs: Any) -> None:
        super().__init__(name=system, invoke_without_command=True, callback=self.when_alone, **kwargs)
        self.system = system
        self.verb = verb
        self._info: Any = None

    def info(self, ctx: click.Context) -> Any:
        if self._info is None:
            from .engine import Engine

            engine = guarded(lambda: Engine(self.system, registry=registry(ctx)))()
            ctx.meta[_ENGINE_KEY + self.system] = engine  # run_procedure reuses it when no rule or option is set
            self._info = engine.info
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
            click.echo(f"{info.name} has no {self.verb} procedures: {info.treat_note}")
            return
        click.echo(ctx.get_help())

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        from .plugins import unknown_message

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
            params.append(click.Option([f"--{info.target_noun}", "target_alias"], type=click.Path(dir_okay=False),
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
        from .plugins import unknown_message

        reg = registry(ctx)
        if name not in reg.systems:
            hint = "" if reg.systems else " (install a system, e.g. pip install critcore-gurps)"
            raise BadInput(unknown_message("system", name, reg.systems) + hint)
        return ProcedureGroup(name, self.verb, help=f"{self.verb.capitalize()}: procedures of the {name} system.")
