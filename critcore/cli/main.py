"""The generic ``crit`` command line. It knows no game: systems declare their procedures and
parameters, and the options of ``crit resolve SYSTEM PROCEDURE`` are built from that.

Start-up is kept lean: only click is imported here; the engine, pluggy and the chosen system
are imported inside the command that needs them.
"""

from __future__ import annotations

from typing import Any

import click

from critcore import __version__
from critcore.cli import complete
from critcore.cli.errors import FILE, Command, Group, guarded, out, pause_gc, registry
from critcore.cli.procedures import SystemsGroup


# --- the top level --------------------------------------------------------------------------


class RootGroup(Group):
    """The ``crit`` group: commands in modules of their own are imported only when used."""

    LAZY = {"campaign": ("critcore.cli.campaign", "campaign"), "examples": ("critcore.cli.examples", "examples"),
            "serve": ("critcore.cli.serve", "serve")}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.LAZY])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.LAZY:
            from importlib import import_module

            module, attr = self.LAZY[name]
            command: click.Command = getattr(import_module(module), attr)
            return command
        return super().get_command(ctx, name)


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    # not click.version_option, which passes its help text through gettext (see cli_errors)
    if value and not ctx.resilient_parsing:
        click.echo(f"crit (critcore) {__version__}", color=ctx.color)
        ctx.exit()


@click.group(cls=RootGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show the version and exit.")
def cli() -> None:
    """Resolve critical hits for tabletop games.

    Each game system is a plugin package; install the ones you play. Start with
    `crit systems`, then `crit resolve SYSTEM --help`.
    """


for _verb, _help in (
    ("resolve", "Resolve a critical: crit resolve SYSTEM PROCEDURE [options]."),
    ("treat", "Treat, heal or recover: crit treat SYSTEM PROCEDURE [options]."),
    ("odds", "Exact probability of every outcome: crit odds SYSTEM PROCEDURE [options]."),
    ("simulate", "Monte Carlo with seeded dice: crit simulate SYSTEM PROCEDURE -n N [options]."),
):
    cli.add_command(SystemsGroup(_verb, help=_help))


@cli.command(cls=Command)
@click.option("--json", "json_out", is_flag=True, help="Print a JSON list.")
@click.option("--rule", multiple=True, help="Show this rule as enabled too.")
@click.option("--config", type=FILE, help="Config file instead of ./critcore.toml.")
@click.pass_context
@guarded
def systems(ctx: click.Context, json_out: bool, rule: tuple[str, ...], config: str | None) -> None:
    """List installed game systems and house rules."""
    import json

    from critcore.api import systems as installed
    from critcore.config.settings import load_config

    cfg = load_config(config)
    found = installed(registry(ctx), [*cfg.rules, *rule])
    if json_out:
        click.echo(json.dumps(found.to_json()))
        return
    if not found.systems:
        out("No game systems are installed.")
        out("Install the ones you play, e.g.:  pip install critcore-gurps critcore-shadowrun2 critcore-battletech")
        out("(from a checkout: pip install ./plugins/critcore-gurps)")
    for e in found.systems:
        if e.info is None:
            out(f"{e.name}  BROKEN  {e.error}")
            continue
        out(f"{e.name}  {e.info.title}  ({e.package} {e.version})")
        for verb in ("resolve", "treat"):
            names = [p.name for p in e.info.procedures if p.verb == verb]
            if names:
                out(f"    crit {verb} {e.name}: {', '.join(names)}")
    if found.rules:
        out("")
        out("House rules installed (enable with --rule NAME or rules = [...] in critcore.toml):")
        for r in found.rules:
            mark = "enabled here" if r["enabled"] else "not enabled"
            if r.get("error"):
                out(f"  {r['name']}  BROKEN  {r['error']}")
                continue
            for_system = f" [{r['system']}]" if r["system"] else ""
            out(f"  {r['name']}{for_system}  {mark}  ({r['package']} {r['version']})")
            if r["summary"]:
                out(f"      {r['summary']}")
    if found.rule_files:
        out("")
        out("House-rule files enabled here: " + ", ".join(found.rule_files))


@cli.command(cls=Command)
@click.argument("system", shell_complete=complete.systems)
@click.argument("table", required=False, shell_complete=complete.tables)
@click.option("--json", "json_out", is_flag=True, help="Print JSON.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "foundry", "roll20", "csv"]), default=None,
              help="text (default), json (= --json), foundry (a Foundry VTT RollTable document: give TABLE), "
                   "roll20 (a Roll20 rollable table: give TABLE) or csv.")
@click.option("--foundry-version", type=click.Choice(["12", "13"]), default="13", show_default=True,
              help="With --format foundry: 13 for Foundry VTT v13 and later, 12 for the versions before.")
@click.option("--rule", multiple=True, help="Show the tables as this house rule changes them; repeatable.")
@click.option("--config", type=FILE, help="Config file instead of ./critcore.toml.")
@click.pass_context
@guarded
def tables(ctx: click.Context, system: str, table: str | None, json_out: bool, rule: tuple[str, ...],
           config: str | None, fmt: str | None = None, foundry_version: str = "13") -> None:
    """Print a system's tables (rows a house rule changed are marked with *)."""
    import json

    from critcore.config.settings import load_config
    from critcore.engine.runner import Engine
    from critcore.errors import UnknownNameError
    from critcore.stages.loader import unknown_message

    cfg = load_config(config)
    from critcore.config.settings import check_systems

    check_systems(cfg, registry(ctx).systems)
    engine = Engine(system, rules=list(cfg.rules) + list(rule), registry=registry(ctx),
                    options=cfg.system_options(system),
                    option_sources={n: w for (s, n), w in cfg.option_source.items() if s == system})
    names = list(engine.tables.names())
    if table is not None and table not in names:
        raise UnknownNameError(unknown_message(f"{system} table", table, names))
    chosen = [table] if table else names
    loaded = [engine.tables[n] for n in chosen]
    if fmt in ("foundry", "roll20", "csv"):
        from critcore.report.export import csv_text, foundry_table, roll20_table

        if fmt == "csv":
            click.echo(csv_text(loaded), nl=False)
        elif table is None:
            from critcore.errors import InputError

            what = "one RollTable" if fmt == "foundry" else "one rollable table"
            raise InputError(f"--format {fmt} writes {what}: name the table (crit tables {system} TABLE; "
                             f"tables: {', '.join(names)})")
        elif fmt == "foundry":
            click.echo(json.dumps(foundry_table(loaded[0], system, int(foundry_version)), ensure_ascii=False, indent=2))
        else:
            click.echo(json.dumps(roll20_table(loaded[0], system), ensure_ascii=False, indent=2))
        return
    if json_out or fmt == "json":
        click.echo(json.dumps([t.to_json() for t in loaded], ensure_ascii=False))
        return
    changes = [n for n in engine.rule_notes if n.text.startswith(("option", "table"))]
    for i, t in enumerate(loaded):
        if i:
            out("")
        out(f"{t.title}  ({t.id}, roll {t.dice})")
        width = max(len(r.roll_text) for r in t.rows)
        for r in t.rows:
            mark = "*" if r.changed_by else " "
            numbers = ", ".join(f"{k}={v}" for k, v in r.data.items())
            extra = f"  [{r.code}{': ' + numbers if numbers else ''}]"
            by = f"  (changed by {r.changed_by})" if r.changed_by else ""
            out(f"{mark} {r.roll_text:>{width}}  {r.id}: {r.text}{extra}{by}")
    if changes:
        out("")
        out("House-rule changes:")
        for n in changes:
            out(f"  {n.text}  (by {n.by})")


@cli.command(cls=Command)
@click.argument("system", shell_complete=complete.systems)
@click.option("--target", required=True, type=FILE,
              help="Character or unit file, or @NAME: a target of the campaign.")
@click.option("--campaign", type=FILE, help="Campaign file (for --target @NAME).")
@click.option("--json", "json_out", is_flag=True, help="Print the state as JSON.")
@click.pass_context
@guarded
def show(ctx: click.Context, system: str, target: str, campaign: str | None, json_out: bool) -> None:
    """Show a character's or unit's current state in plain words."""
    import json

    from critcore.cli.procedures import _load
    from critcore.model import thaw

    engine, (_, loaded) = _load(ctx, system, {"target": target, "campaign": campaign})
    state = loaded[0]
    if json_out:
        click.echo(json.dumps(thaw(state), ensure_ascii=False, indent=2))
        return
    out("\n".join(show_lines(engine, state)))


def show_lines(engine: Any, state: Any) -> list[str]:
    """A target's state in plain words (the system's ``critcore_show``), or as JSON data."""
    import json

    from critcore.dice.rollers import RandomRoller
    from critcore.model import Procedure

    ctx_ = engine.context(Procedure("show", "show the target", verb="show"), engine.options, RandomRoller(0), state)
    lines = engine.pm.hook.critcore_show(ctx=ctx_)
    if lines is None:
        from critcore.model import thaw

        return json.dumps(thaw(state), ensure_ascii=False, indent=2).splitlines()
    return list(lines)


def main() -> None:
    """The ``crit`` command, as the console script runs it (``critcore.cli.console``, which also
    turns the collector off before click is imported and ends the process without Python's
    teardown; a program calling this function ends as it always did).

    The cyclic garbage collector is off for the command: start-up allocates mostly long-lived
    objects (modules, commands, tables) and collecting them again and again cost about a tenth
    of a ``crit resolve``. Commands that run long (odds, simulate) turn it back on.

    Nor does it run when the process ends: Python's last collection at exit walks every object
    the command made (all of them, as none was collected), only for the process to free its
    memory at once: 15 M of a resolve's 240 M instructions, 3-7 ms (docs/architecture.md).
    ``gc.freeze`` at exit puts them out of its reach; what must be finished at exit is finished
    explicitly (files are written and closed by the commands, a campaign is closed when its
    command ends).
    """
    import atexit
    import gc

    pause_gc()
    atexit.register(gc.freeze)
    from critcore._speed.diskcache import cache_writes

    cache_writes()  # the command keeps parsed tables in the cache; the Python API only reads it
    cli(prog_name="crit")


if __name__ == "__main__":  # pragma: no cover
    main()  # click exits with the command's status
