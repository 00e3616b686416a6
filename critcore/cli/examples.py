"""``crit examples [SYSTEM ...]``: put the example targets the installed systems ship (a GURPS
fighter, a Shadowrun runner, an original BattleTech 'Mech), and the house-rule files of installed
rule packages, into the current folder, so the README's tour and every doc command run in an
empty folder.

Every file is checked before any is written: an existing file stops the command (exit 2,
nothing written) unless ``--force``; a name with a folder in it is refused.
"""

from __future__ import annotations

import os
from typing import Any

import click

from critcore.cli.errors import Command, guarded, registry


def collect(ctx: click.Context, systems: tuple[str, ...]) -> list[tuple[str, Any]]:
    """``(system, Example)`` for the named systems (all installed ones if none is named)."""
    from critcore.engine.runner import Engine
    from critcore.errors import InputError, PluginError
    from critcore.stages.loader import unknown_message

    reg = registry(ctx)
    names = list(systems) or sorted(reg.systems) + sorted(reg.rules)
    for name in names:
        if name not in reg.systems and name not in reg.rules:
            raise InputError(unknown_message("system or house rule", name, sorted(reg.systems) + sorted(reg.rules)))
    found: list[tuple[str, Any]] = []
    packages_seen: set[str] = set()
    for name in names:
        if name in reg.systems:
            examples = Engine(name, registry=reg).pm.hook.critcore_examples() or ()
            who = name
        else:  # a house-rule package: the files of its `examples` subpackage, once per package
            package, who = _rule_package(reg.rules[name])
            if package is None or package in packages_seen:
                continue
            packages_seen.add(package)
            from critcore.stages.examples import package_examples

            examples = package_examples(package)
        for example in examples:
            file_name = str(example[0])
            if not file_name or os.path.basename(file_name) != file_name or file_name in (".", ".."):
                raise PluginError(f"{who}: example file name {file_name!r} is not a plain file name")
            found.append((who, example))
    return found


def _rule_package(spec: Any) -> tuple[str | None, str]:
    """``(TOP.examples, distribution)`` for a house-rule plugin whose package ships an
    ``examples`` subpackage (house-rule TOML files), else ``(None, ...)``. Rule plugins are not
    asked through ``critcore_examples``: enabled, their answer would compete with the system's."""
    from importlib.util import find_spec

    top = (spec.value or "").split(":")[0].split(".")[0]
    if not top:
        return None, spec.dist or spec.name
    try:
        found = find_spec(top + ".examples")
    except (ImportError, ValueError):
        found = None
    return (top + ".examples" if found is not None else None), spec.dist or spec.name


def _complete_systems(ctx: click.Context, param: click.Parameter, incomplete: str) -> Any:
    from critcore.cli.complete import systems as complete

    return complete(ctx, param, incomplete)


@click.command("examples", cls=Command)
@click.argument("systems", nargs=-1, shell_complete=_complete_systems)
@click.option("--to", "folder", default=".", show_default=True, type=click.Path(file_okay=False),
              help="Folder to write the examples into (made if missing).")
@click.option("--force", is_flag=True, help="Overwrite example files that already exist there.")
@click.option("--list", "list_only", is_flag=True, help="Only list the examples; write nothing.")
@click.pass_context
@guarded
def examples(ctx: click.Context, systems: tuple[str, ...], folder: str, force: bool, list_only: bool) -> None:
    """Write the example characters, units and house-rule files of what is installed into this folder."""
    from critcore.errors import InputError

    found = collect(ctx, systems)
    if not found:
        click.echo("The installed systems ship no examples.")
        return
    if list_only:
        for system, ex in found:
            about = f"  {ex[2]}" if len(ex) > 2 and ex[2] else ""
            click.echo(f"{system}: {ex[0]}{about}")
        return
    paths = [(system, ex, ex[0] if folder == "." else os.path.join(folder, ex[0])) for system, ex in found]
    taken = [p for _, _, p in paths if os.path.exists(p)]
    if taken and not force:
        raise InputError(f"{taken[0]} already exists (nothing was written; --force overwrites the examples)")
    os.makedirs(folder, exist_ok=True)
    from critcore.targets.state import write_atomic

    for system, ex, path in paths:
        write_atomic(path, ex[1])
        about = f": {ex[2]}" if len(ex) > 2 and ex[2] else ""
        click.echo(f"wrote {path} ({system}{about})")

