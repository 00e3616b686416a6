"""Shell completion for what click cannot know by itself: installed systems, a system's tables,
and the values a system suggests for a free-text parameter (``Param.suggest``: GURPS locations).

Each function is a click ``shell_complete`` callback; it runs only when the shell asks
(``_CRIT_COMPLETE=bash_complete crit ...``), never on an ordinary command, and a broken plugin
gives no suggestions rather than an error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

import click

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem


def _matching(values: Iterable[str], incomplete: str) -> list[CompletionItem]:
    from click.shell_completion import CompletionItem  # only when the shell asks

    return [CompletionItem(v) for v in sorted(set(values)) if v.startswith(incomplete)]


def systems(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Installed system names (entry points only: nothing is imported)."""
    from critcore.cli.errors import registry

    try:
        names = list(registry(ctx).systems)
    except Exception:  # completion must never fail loudly
        return []
    return _matching(names, incomplete)


def tables(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The table names of the system already on the command line."""
    from critcore.cli.errors import registry

    system = ctx.params.get("system")
    if not system:
        return []
    try:
        from critcore.engine.runner import Engine

        names = list(Engine(system, registry=registry(ctx)).tables.names())
    except Exception:
        return []
    return _matching(names, incomplete)


def suggested(values: tuple[str, ...]) -> Any:
    """A callback offering ``values`` (a parameter's ``suggest``)."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        return _matching(values, incomplete)

    return complete
