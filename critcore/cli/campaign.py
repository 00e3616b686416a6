"""``crit campaign ...``: a campaign's targets, log, undo and settings.

Resolving and treating a campaign target goes through ``crit resolve``/``crit treat`` with
``--target @NAME``; this group holds everything else.
"""

from __future__ import annotations

import json
from typing import Any

import click

from critcore.cli.errors import FILE, Command, Group, guarded, out, registry


class _Where:
    """The campaign file the group was given (None: find it)."""

    def __init__(self, path: str | None) -> None:
        self.path = path


_WHERE = "critcore.campaign.campaign.where"  # its key in ctx.meta (click's meta is keyed by strings)


@click.group(cls=Group)
@click.option("--campaign", "path", type=FILE,
              help="Campaign file (default: $CRITCORE_CAMPAIGN, or critcore.db here or in a parent folder).")
@click.pass_context
def campaign(ctx: click.Context, path: str | None) -> None:
    """A campaign: named targets of any system, their history, the log and undo, in one file.

    Resolve and treat its targets with --target @NAME, e.g.
    crit resolve battletech critical --target @atlas --location LT.
    """
    ctx.meta[_WHERE] = _Where(path)  # meta is shared with the subcommand's context


def _where(ctx: click.Context) -> Any:
    from critcore.campaign.campaign import Campaign, find_campaign
    from critcore.errors import CampaignError

    path = ctx.meta[_WHERE].path or find_campaign()
    if path is None:
        raise CampaignError("no campaign here or in a parent folder: make one with `crit campaign new`, "
                            "or name it with --campaign FILE")
    campaign = Campaign(path, registry=registry(ctx))
    ctx.call_on_close(campaign.close)  # however the command ends (see cli_procedures._campaign)
    return campaign


@campaign.command(cls=Command)
@click.argument("file", required=False, type=FILE)
@click.pass_context
@guarded
def new(ctx: click.Context, file: str | None) -> None:
    """Make a new, empty campaign (FILE, or critcore.db in this folder)."""
    from critcore.campaign.campaign import CAMPAIGN_FILE, Campaign

    path = file or ctx.meta[_WHERE].path or CAMPAIGN_FILE
    with Campaign.new(path) as camp:
        out(f"made {camp.path}: add targets with crit campaign add SYSTEM NAME FILE")
        made = getattr(camp.store, "secrets", None)
        if made:  # a campaign of a database: its own keys for crit serve (shown once, kept as digests)
            out(f"game master's token: {made[0]}")
            out(f"players' key: {made[1]}")


@campaign.command(cls=Command)
@click.pass_context
@guarded
def keys(ctx: click.Context) -> None:
    """Make the campaign a new game master's token and players' key for crit serve.

    They are printed once and kept only as digests; the old ones are refused from the next
    request on, by every server of the campaign. A campaign file keeps no keys until this is run
    (crit serve makes some at each start); after it, crit serve uses the campaign's own.
    """
    with _where(ctx) as camp:
        token, key = camp.store.new_secrets()
        out(f"new keys for {camp.path} (shown this once; the old ones no longer work):")
        out(f"game master's token: {token}")
        out(f"players' key: {key}")


@campaign.command(cls=Command)
@click.argument("source", type=FILE)
@click.argument("dest")
@guarded
def copy(source: str, dest: str) -> None:
    """Copy a campaign to a new one, exactly: states, log and undo history (SQLite <-> PostgreSQL).

    SOURCE and DEST are campaign files or postgresql://USER@HOST/DB#NAME; DEST must not exist.
    """
    from critcore.campaign.copy import copy_campaign

    shown, made, targets, entries = copy_campaign(source, dest)
    out(f"copied {shown} to {made}: {targets} target(s), {entries} log entries")


@campaign.command(cls=Command)
@click.argument("system")
@click.argument("name")
@click.argument("file", type=FILE)
@click.pass_context
@guarded
def add(ctx: click.Context, system: str, name: str, file: str) -> None:
    """Add a target of SYSTEM under NAME, from any FILE the system reads (.mtf, JSON, TOML)."""
    with _where(ctx) as camp:
        camp.add(system, name, file)
        out(f"added {name} ({system}) to {camp.path}: use it with --target @{name}")


@campaign.command("list", cls=Command)
@click.option("--json", "json_out", is_flag=True, help="Print a JSON list.")
@click.pass_context
@guarded
def list_(ctx: click.Context, json_out: bool) -> None:
    """List the campaign's targets (or, given a database, its campaigns)."""
    from critcore.campaign.campaign import is_database

    where = ctx.meta[_WHERE].path or ""
    if is_database(where) and "#" not in where:
        _list_campaigns(where, json_out)
        return
    with _where(ctx) as camp:
        targets = camp.targets()
        if json_out:
            click.echo(json.dumps([t.to_dict() for t in targets], ensure_ascii=False))
            return
        if not targets:
            out(f"{camp.path} has no targets yet: crit campaign add SYSTEM NAME FILE")
            return
        width = max(len(t.name) for t in targets)
        for t in targets:
            missing = "" if t.installed else "  (system not installed: kept as it is)"
            out(f"{t.name:<{width}}  {t.system:<11} {t.changes:>3} log entries, last {t.updated}{missing}")


def _list_campaigns(where: str, json_out: bool) -> None:
    from critcore.campaign.postgres import campaigns, parse

    found = campaigns(where)
    if json_out:
        click.echo(json.dumps([{"name": n, "format": f, "created": c} for n, f, c in found]))
        return
    shown = parse(where)[2]
    if not found:
        out(f"{shown} holds no campaigns yet: crit campaign new {shown}#NAME")
    for name, _, created in found:
        out(f"{shown}#{name}  made {created}")


@campaign.command(cls=Command)
@click.argument("name")
@click.option("--json", "json_out", is_flag=True, help="Print the state as JSON.")
@click.pass_context
@guarded
def show(ctx: click.Context, name: str, json_out: bool) -> None:
    """Show a target as it stands now."""
    with _where(ctx) as camp:
        system = camp.system_of(name)
        state = camp.state(name)
        if json_out:
            click.echo(json.dumps(state, ensure_ascii=False, indent=2))
            return
        from critcore.cli.main import show_lines

        out("\n".join(show_lines(camp.engine(system), state)))


@campaign.command(cls=Command)
@click.argument("name", required=False)
@click.option("-n", "--last", type=click.IntRange(1, 1_000_000), help="Only the last N entries.")
@click.option("--json", "json_out", is_flag=True, help="Print a JSON list (each entry with its outcome).")
@click.pass_context
@guarded
def log(ctx: click.Context, name: str | None, last: int | None, json_out: bool) -> None:
    """The log: every change to every target (or to NAME), oldest first."""
    with _where(ctx) as camp:
        entries = camp.log(name, last, outcomes=json_out)  # the lines need no outcome: none is read
        if json_out:
            click.echo(json.dumps([e.to_dict() for e in entries], ensure_ascii=False))
            return
        if not entries:
            out("the log is empty")
        for e in entries:
            undone = "  (undone)" if e.undone else ""
            what = f"{e.kind} {e.procedure}".strip() if e.kind in ("resolve", "treat") else e.kind
            who = f"{e.name}: " if e.name else ""
            out(f"#{e.id}  {e.at}  {e.who}  {what}  {who}{e.summary}{undone}")


def _undo_or_redo(verb: str, help_text: str) -> None:
    @campaign.command(verb, cls=Command, help=help_text)
    @click.argument("name")
    @click.pass_context
    @guarded
    def command(ctx: click.Context, name: str) -> None:
        with _where(ctx) as camp:
            entry = getattr(camp, verb)(name)
            out(f"#{entry.id}  {name}: {entry.summary}")


_undo_or_redo("undo", "Take back the latest change to a target (redo brings it back).")
_undo_or_redo("redo", "Bring back the change the latest undo took back.")


@campaign.command(cls=Command)
@click.argument("name")
@click.argument("file", type=FILE)
@click.option("--overwrite", is_flag=True, help="Replace FILE if it exists.")
@click.pass_context
@guarded
def export(ctx: click.Context, name: str, file: str, overwrite: bool) -> None:
    """Write a target's current state to a .json or .toml FILE."""
    with _where(ctx) as camp:
        out(f"wrote {camp.export(name, file, overwrite=overwrite)}")


@campaign.command(cls=Command)
@click.argument("name")
@click.pass_context
@guarded
def remove(ctx: click.Context, name: str) -> None:
    """Take a target out of the campaign (its log stays; undo brings it back)."""
    with _where(ctx) as camp:
        entry = camp.remove(name)
        out(f"#{entry.id}  removed {name} (crit campaign undo {name} brings it back)")


@campaign.command(cls=Command)
@click.option("--json", "json_out", is_flag=True, help="Print JSON.")
@click.pass_context
@guarded
def settings(ctx: click.Context, json_out: bool) -> None:
    """The house rules and options the campaign enables."""
    with _where(ctx) as camp:
        rules, options = camp.rules(), camp.options()
        if json_out:
            click.echo(json.dumps({"rules": rules, "options": options}, ensure_ascii=False))
            return
        out("house rules: " + (", ".join(rules) or "none"))
        for system, values in sorted(options.items()):
            for name, value in sorted(values.items()):
                out(f"{system} option {name} = {json.dumps(value)}")


def _rule_switch(verb: str, help_text: str) -> None:
    @campaign.command(verb, cls=Command, help=help_text)
    @click.argument("rule")
    @click.pass_context
    @guarded
    def command(ctx: click.Context, rule: str) -> None:
        with _where(ctx) as camp:
            getattr(camp, f"{verb}_rule")(rule)
            out(f"{verb}d {rule} in {camp.path}")


_rule_switch("enable", "Enable a house rule (plugin name or .toml file) for every command on this campaign.")
_rule_switch("disable", "Disable a house rule the campaign enables.")


@campaign.command("set", cls=Command)
@click.argument("system")
@click.argument("option")
@click.argument("value")
@click.pass_context
@guarded
def set_(ctx: click.Context, system: str, option: str, value: str) -> None:
    """Set an option of SYSTEM for the campaign (as in [systems.SYSTEM] of critcore.toml)."""
    with _where(ctx) as camp:
        camp.set_option(system, option, value)
        out(f"set {system} option {option} = {value} in {camp.path}")


@campaign.command("add-examples", cls=Command)
@click.argument("systems", nargs=-1)
@click.pass_context
@guarded
def add_examples(ctx: click.Context, systems: tuple[str, ...]) -> None:
    """Add the example targets the installed systems ship (or those of SYSTEMS), each under its
    file's name: bertram, runner, quillback..."""
    import os

    from critcore.campaign.campaign import check_name
    from critcore.cli.examples import collect
    from critcore.errors import CampaignError

    reg = registry(ctx)
    found = [(system, ex) for system, ex in collect(ctx, systems) if system in reg.systems]
    if not found:
        raise CampaignError("the installed systems ship no example targets")
    with _where(ctx) as camp:
        taken = {t.name for t in camp.targets()}
        for system, ex in found:  # every name checked before any is added
            file_name = ex[0]
            name = os.path.splitext(file_name)[0]
            check_name(name)
            if name in taken:
                raise CampaignError(f"{camp.path}: a target named {name!r} exists already, or two examples "
                                    f"share it ({file_name}); nothing was added")
            taken.add(name)
        for system, ex in found:
            file_name, name = ex[0], os.path.splitext(ex[0])[0]
            camp.add_text(system, name, file_name, ex[1], origin=f"the {system} example {file_name}")
            out(f"added {name} ({system}) to {camp.path}: use it with --target @{name}")


@campaign.command(cls=Command)
@click.option("--repair", is_flag=True,
              help="Move the damaged rows aside (their text saved beside the campaign first), touching nothing else.")
@click.pass_context
@guarded
def check(ctx: click.Context, repair: bool) -> None:
    """Check the campaign: the file's integrity, and every row critcore reads (settings, states,
    log entries, each target through its system's checks). Exit code 1 while something is damaged."""
    from critcore.campaign.check import check as run_check, repair as run_repair
    from critcore.errors import CritcoreError

    with _where(ctx) as camp:
        found, counts = run_check(camp)
        installed = camp.registry.systems
        for t in camp.targets():
            if not t.installed and t.system not in installed:
                out(f"kept: {t.name} is a {t.system} target, and {t.system} is not installed")
        for f in found:
            out(f.line())
        set_aside = any(f.kind == "aside" for f in found)
        found = [f for f in found if f.kind != "aside"]
        sizes = ", ".join(f"{n} {what}" for what, n in counts.items())
        if not found:
            out(f"{camp.path}: whole ({sizes}); nothing {'else ' if set_aside else ''}is damaged")
            return
        if repair:
            aside = run_repair(camp, found)
            left = [f for f in found if not f.repair]
            if aside is not None:
                out(f"moved {len(found) - len(left)} damaged row(s) aside; their text is in {aside}")
            if left:
                raise CritcoreError(f"{camp.path}: {len(left)} damaged thing(s) --repair cannot mend: "
                                    "restore the campaign from a backup")
            return
        mendable = sum(1 for f in found if f.repair)
        hint = "; crit campaign check --repair moves them aside" if mendable else ""
        raise CritcoreError(f"{camp.path}: {len(found)} damaged row(s) among {sizes}{hint}")
