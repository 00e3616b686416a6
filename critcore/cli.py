"""The generic ``crit`` command line. It knows no game: systems declare their procedures and
parameters, and the options of ``crit resolve SYSTEM PROCEDURE`` are built from that.

Start-up is kept lean: only click is imported here; the engine, pluggy and the chosen system
are imported inside the command that needs them.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import click

from . import __version__

COMMON_NAMES = {"seed", "dice", "prompt", "json_out", "explain", "target", "save", "save_to", "rule", "config",
                "view", "target_alias"}


class BadInput(click.ClickException):
    """Bad usage or bad input: one line, exit code 2, nothing written."""

    exit_code = 2


def _registry(ctx: click.Context) -> Any:
    root = ctx.find_root()
    if root.obj is None:
        from .plugins import Registry

        root.obj = Registry.installed()
    return root.obj


def _warn(message: str) -> None:
    click.echo(message, err=True)


def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn critcore's typed errors into click errors at the edge (exit 2 for bad input)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from .errors import Aborted, CritcoreError, InputError

        try:
            return fn(*args, **kwargs)
        except InputError as exc:
            raise BadInput(str(exc)) from None
        except Aborted as exc:
            raise click.ClickException(str(exc)) from None
        except CritcoreError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper


def _load_info(ctx: click.Context, system: str) -> Any:
    """Load a system (no rules) to learn its procedures; errors become one line."""
    from .engine import Engine
    from .errors import CritcoreError, InputError

    try:
        return Engine(system, registry=_registry(ctx)).info
    except InputError as exc:
        raise BadInput(str(exc)) from None
    except CritcoreError as exc:
        raise click.ClickException(str(exc)) from None


# --- options shared by resolve and treat ----------------------------------------------------


def common_options(f: Callable[..., Any]) -> Callable[..., Any]:
    opts = [
        click.option("--seed", help="Seed for random dice: the same seed gives the same outcome."),
        click.option("--dice", help="Faces you rolled, in the order rolled, e.g. 6,6,5 (an exploding die's extra face right after it)."),
        click.option("--prompt", is_flag=True, help="Ask for each roll by its label (roll real dice)."),
        click.option("--json", "json_out", is_flag=True, help="Print one JSON object (see docs/cli.md)."),
        click.option("--explain", is_flag=True, help="Say why, in detail: every roll, row, option and note."),
        click.option("--view", type=click.Choice(["gm", "player"]), default="gm", show_default=True,
                     help="Who reads the report: the game master (everything) or the player."),
        click.option("--target", type=click.Path(dir_okay=False), help="Character or unit file (TOML, JSON or the system's own format)."),
        click.option("--save", is_flag=True, help="Write the new state back to the --target file (atomically)."),
        click.option("--save-to", type=click.Path(dir_okay=False), help="Write the new state to this file instead."),
        click.option("--rule", multiple=True, help="Enable a house rule (plugin name or .toml file); repeatable."),
        click.option("--config", type=click.Path(dir_okay=False), help="Config file instead of ./critcore.toml."),
    ]
    for opt in reversed(opts):
        f = opt(f)
    return f


def _param_option(param: Any) -> click.Option:
    kind = param.type
    help_text = param.help
    if param.default not in (None, False):
        help_text += f"  [default: {param.default}]"
    if kind == "bool":
        return click.Option([param.flag], param.name, is_flag=True, default=None, help=help_text)
    if kind == "choice":
        ptype: Any = click.Choice(list(param.choices))
    elif kind == "int":
        ptype = click.IntRange(
            None if param.min is None else int(param.min), None if param.max is None else int(param.max)
        )
    elif kind == "float":
        ptype = click.FloatRange(param.min, param.max)
    else:
        ptype = click.STRING
    return click.Option([param.flag], param.name, type=ptype, default=None, required=False, help=help_text,
                        metavar=kind.upper() if kind in ("int", "float", "dice") else None)


def _make_roller(seed: str | None, dice: str | None, prompt: bool) -> Any:
    from .dice import PromptRoller, RandomRoller, ScriptedRoller
    from .errors import InputError

    if sum(x is not None and x is not False for x in (seed, dice, prompt or None)) > 1:
        raise InputError("use only one of --seed, --dice and --prompt")
    if dice is not None:
        return ScriptedRoller(dice)
    if prompt:
        return PromptRoller(lambda text: click.prompt(text, type=str, err=True), _warn)
    return RandomRoller(None if seed is None else (int(seed) if seed.lstrip("-").isdigit() else seed))


def run_procedure(ctx: click.Context, system: str, procedure: str, verb: str, values: dict[str, Any]) -> None:
    """Shared body of ``crit resolve`` and ``crit treat``."""
    import json

    from .config import load_config
    from .engine import Engine
    from .errors import InputError
    from .render import render
    from .state import read_target, save_target

    common = {k: values.pop(k) for k in list(values) if k in COMMON_NAMES}
    alias = common.get("target_alias")
    if alias and common.get("target"):
        raise InputError("give the target once (--target or its alias)")
    target_path = common.get("target") or alias
    if (common["save"] or common["save_to"]) and not target_path:
        raise InputError("--save needs --target FILE (the file to update)")
    if common["save"] and common["save_to"]:
        raise InputError("use --save or --save-to, not both")
    config = load_config(common["config"])
    rules = list(config.rules) + list(common["rule"])
    engine = Engine(system, rules=rules, registry=_registry(ctx), options=config.system_options(system),
                    option_sources={n: w for (s, n), w in config.option_source.items() if s == system})
    proc = engine.procedure(procedure, verb)
    roller = _make_roller(common["seed"], common["dice"], common["prompt"])
    target = None
    fmt = "json"
    if target_path:
        target, fmt = read_target(target_path, lambda p, t: engine.pm.hook.critcore_read_target(path=p, text=t))
    outcome = engine.run(proc.name, {k: v for k, v in values.items() if v is not None}, roller=roller, target=target)
    unused = getattr(roller, "unused", [])
    if unused:
        _warn(f"warning: {len(unused)} dice face(s) not used: {','.join(map(str, unused))}")
    saved = None
    if target_path and (common["save"] or common["save_to"]) and outcome.target is not None:
        from .model import thaw

        if common["save_to"]:
            saved = save_target(common["save_to"], thaw(outcome.target), "toml" if common["save_to"].endswith(".toml") else "json")
        else:
            saved = save_target(target_path, thaw(outcome.target), fmt)
    if common["json_out"]:
        data = outcome.to_json()
        if saved:
            data["saved"] = saved
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    click.echo(render(outcome, explain=common["explain"], view=common["view"], pm=engine.pm))
    if saved:
        click.echo(f"saved: {saved}")


class ProcedureGroup(click.Group):
    """``crit resolve SYSTEM``: one subcommand per procedure the system declares."""

    def __init__(self, system: str, verb: str, **kwargs: Any) -> None:
        super().__init__(name=system, invoke_without_command=True, callback=self.when_alone, **kwargs)
        self.system = system
        self.verb = verb
        self._info: Any = None

    def info(self, ctx: click.Context) -> Any:
        if self._info is None:
            self._info = _load_info(ctx, self.system)
        return self._info

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [p.name for p in self.info(ctx).procedures if p.verb == self.verb]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        info = self.info(ctx)
        proc = info.procedure(name)
        if proc is None or proc.verb != self.verb:
            from .plugins import unknown_message

            names = self.list_commands(ctx)
            if not names and self.verb == "treat" and getattr(info, "treat_note", ""):
                raise BadInput(f"{info.name} has nothing to treat: {info.treat_note}")
            raise BadInput(unknown_message(f"{info.name} {self.verb} procedure", name, names))
        system, verb = self.system, self.verb

        @guarded
        def callback(**values: Any) -> None:
            run_procedure(click.get_current_context(), system, name, verb, values)

        params: list[click.Parameter] = []
        for p in proc.params:
            if p.name in COMMON_NAMES:
                raise click.ClickException(f"{info.name} procedure {name!r} declares a parameter named {p.name!r}, "
                                           "which critcore reserves")
            params.append(_param_option(p))
        cmd = click.Command(name, callback=callback, params=params, help=proc.help, short_help=proc.help.split(". ")[0])
        cmd = common_options(cmd)  # type: ignore[assignment]
        noun = getattr(info, "target_noun", "")
        if noun and noun != "target":
            cmd.params.append(click.Option([f"--{noun}", "target_alias"], type=click.Path(dir_okay=False),
                                           help=f"Same as --target: the {noun} file."))
        return cmd

    def when_alone(self) -> None:
        """``crit resolve SYSTEM`` with no procedure: list them (or say why there are none)."""
        ctx = click.get_current_context()
        if ctx.invoked_subcommand is not None:
            return
        info = self.info(ctx)
        if not self.list_commands(ctx) and getattr(info, "treat_note", ""):
            click.echo(f"{info.name} has no {self.verb} procedures: {info.treat_note}")
            return
        click.echo(ctx.get_help())


class SystemsGroup(click.Group):
    """``crit resolve`` / ``crit treat``: one subcommand per installed system."""

    def __init__(self, verb: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.verb = verb

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_registry(ctx).systems)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        reg = _registry(ctx)
        if name not in reg.systems:
            from .plugins import unknown_message

            raise BadInput(unknown_message("system", name, reg.systems) + _install_hint(reg))
        return ProcedureGroup(name, self.verb, help=f"{self.verb.capitalize()} procedures of the {name} system.")


def _install_hint(reg: Any) -> str:
    if reg.systems:
        return ""
    return " (install a system, e.g. pip install critcore-gurps)"


# --- the top level --------------------------------------------------------------------------


class LazyGroup(click.Group):
    """Top-level group: subcommands are defined in this module but their imports stay lazy."""


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="crit", message="%(prog)s (critcore) %(version)s")
def cli() -> None:
    """Resolve critical hits for tabletop games.

    Each game system is a plugin package; install the ones you play. Start with
    `crit systems`, then `crit resolve SYSTEM --help`.
    """


resolve = SystemsGroup("resolve", name="resolve",
                       help="Resolve a critical: crit resolve SYSTEM PROCEDURE [options].")
treat = SystemsGroup("treat", name="treat",
                     help="Treat, heal or recover: crit treat SYSTEM PROCEDURE [options].")
cli.add_command(resolve)
cli.add_command(treat)


@cli.command()
@click.option("--json", "json_out", is_flag=True, help="Print a JSON list.")
@click.option("--rule", multiple=True, help="Show this rule as enabled too.")
@click.option("--config", type=click.Path(dir_okay=False), help="Config file instead of ./critcore.toml.")
@click.pass_context
@guarded
def systems(ctx: click.Context, json_out: bool, rule: tuple[str, ...], config: str | None) -> None:
    """List installed game systems and house rules."""
    import json

    from .api import systems as list_systems
    from .config import load_config

    reg = _registry(ctx)
    entries = list_systems(reg)
    cfg = load_config(config)
    enabled = set(cfg.rules) | set(rule)
    rules = []
    for name, spec in sorted(reg.rules.items()):
        rules.append({"name": name, "package": spec.dist, "version": spec.version, "enabled": name in enabled})
    if json_out:
        out = []
        for e in entries:
            item: dict[str, Any] = {"name": e.name, "title": e.info.title if e.info else "", "version": e.version,
                                    "package": e.package,
                                    "procedures": [{"name": p.name, "verb": p.verb, "help": p.help} for p in e.info.procedures] if e.info else []}
            if e.error:
                item["error"] = e.error
            out.append(item)
        click.echo(json.dumps(out))
        return
    if not entries:
        click.echo("No game systems are installed.")
        click.echo("Install the ones you play, e.g.:  pip install critcore-gurps critcore-shadowrun2 critcore-battletech")
        click.echo("(from a checkout: pip install ./plugins/critcore-gurps)")
    for e in entries:
        if e.info is None:
            click.echo(f"{e.name}  BROKEN  {e.error}")
            continue
        click.echo(f"{e.name}  {e.info.title}  ({e.package} {e.version})")
        for verb in ("resolve", "treat"):
            names = [p.name for p in e.info.procedures if p.verb == verb]
            if names:
                click.echo(f"    crit {verb} {e.name}: {', '.join(names)}")
    if rules:
        click.echo("")
        click.echo("House rules installed (enable with --rule NAME or rules = [...] in critcore.toml):")
        for r in rules:
            mark = "enabled" if r["enabled"] else "not enabled"
            click.echo(f"  {r['name']}  ({r['package']} {r['version']})  {mark}")
    file_rules = [r for r in enabled if r not in reg.rules]
    if file_rules:
        click.echo("")
        click.echo("House-rule files enabled here: " + ", ".join(sorted(file_rules)))


@cli.command()
@click.argument("system")
@click.argument("table", required=False)
@click.option("--json", "json_out", is_flag=True, help="Print JSON.")
@click.option("--rule", multiple=True, help="Show the tables as this house rule changes them; repeatable.")
@click.option("--config", type=click.Path(dir_okay=False), help="Config file instead of ./critcore.toml.")
@click.pass_context
@guarded
def tables(ctx: click.Context, system: str, table: str | None, json_out: bool, rule: tuple[str, ...],
           config: str | None) -> None:
    """Print a system's tables (rows a house rule changed are marked with *)."""
    import json

    from .config import load_config
    from .engine import Engine
    from .errors import UnknownNameError
    from .plugins import unknown_message

    cfg = load_config(config)
    engine = Engine(system, rules=list(cfg.rules) + list(rule), registry=_registry(ctx),
                    options=cfg.system_options(system),
                    option_sources={n: w for (s, n), w in cfg.option_source.items() if s == system})
    names = list(engine.tables.names())
    if table is not None and table not in names:
        raise UnknownNameError(unknown_message(f"{system} table", table, names))
    chosen = [table] if table else names
    loaded = [engine.tables[n] for n in chosen]
    if json_out:
        click.echo(json.dumps([t.to_json() for t in loaded], ensure_ascii=False))
        return
    for i, t in enumerate(loaded):
        if i:
            click.echo("")
        click.echo(f"{t.title}  ({t.id}, roll {t.dice})")
        width = max(len(r.roll_text) for r in t.rows)
        for r in t.rows:
            mark = "*" if r.changed_by else " "
            numbers = ", ".join(f"{k}={v}" for k, v in r.data.items())
            extra = f"  [{r.code}{': ' + numbers if numbers else ''}]"
            by = f"  (changed by {r.changed_by})" if r.changed_by else ""
            click.echo(f"{mark} {r.roll_text:>{width}}  {r.id}: {r.text}{extra}{by}")


@cli.command()
@click.argument("system")
@click.option("--target", required=True, type=click.Path(dir_okay=False), help="Character or unit file.")
@click.option("--json", "json_out", is_flag=True, help="Print the state as JSON.")
@click.pass_context
@guarded
def show(ctx: click.Context, system: str, target: str, json_out: bool) -> None:
    """Show a character's or unit's current state in plain words."""
    import json

    from .dice import RandomRoller
    from .engine import Engine
    from .model import Procedure, thaw
    from .state import read_target

    engine = Engine(system, registry=_registry(ctx))
    state, _ = read_target(target, lambda p, t: engine.pm.hook.critcore_read_target(path=p, text=t))
    ctx_ = engine.context(Procedure("show", "show the target", verb="show"), engine.options, RandomRoller(0), state)
    if json_out:
        click.echo(json.dumps(thaw(ctx_.target), ensure_ascii=False, indent=2))
        return
    lines = engine.pm.hook.critcore_show(ctx=ctx_)
    if lines is None:
        click.echo(json.dumps(state, ensure_ascii=False, indent=2))
    else:
        click.echo("\n".join(lines))


def main() -> None:
    """Entry point of the ``crit`` console script."""
    cli(prog_name="crit")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
