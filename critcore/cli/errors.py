"""What every ``crit`` command shares: the error edge, the plugin registry, its help option and
its file-name parameters."""

from __future__ import annotations

import functools
import gc
import os
import stat
from typing import TYPE_CHECKING, Any, Callable

import click


class BadInput(click.ClickException):
    """Bad usage or bad input: one line, exit code 2, nothing written.

    The message is made one safe line of reasonable length (:func:`critcore.report.textsafe.error_line`:
    control characters escaped, a long value shortened with an ellipsis).
    """

    exit_code = 2

    def __init__(self, message: str) -> None:
        from critcore.report.textsafe import error_line

        super().__init__(error_line(message))


class Failed(click.ClickException):
    """Any other error critcore raises on purpose: one safe line, exit code 1."""

    def __init__(self, message: str) -> None:
        from critcore.report.textsafe import error_line

        super().__init__(error_line(message))


def out(text: str, err: bool = False) -> None:
    """Print human output: every control character in it shown escaped (line breaks stay).

    Text from files and arguments (names, table rows, paths) passes through here or through
    :func:`critcore.report.textsafe.printable` before reaching a terminal; ``--json`` output does not.
    """
    from critcore.report.textsafe import printable

    click.echo(printable(text, newlines=True), err=err)


def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn critcore's typed errors into click errors at the edge (exit 2 for bad input)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from critcore.errors import CritcoreError, InputError

        try:
            return fn(*args, **kwargs)
        except InputError as exc:
            raise BadInput(str(exc)) from None
        except CritcoreError as exc:
            raise Failed(str(exc)) from None
        except (click.exceptions.Exit, click.Abort, click.ClickException):
            raise
        except OSError as exc:
            line = _disk_line(exc)
            if line is None:
                raise  # not the disk's doing: critcore's own bug, with its traceback
            raise Failed(line) from None
        except (Exception, SystemExit) as exc:
            blamed = _blame_plugin(exc)
            if blamed is None:
                raise  # critcore's own bug: its traceback is what a report needs
            raise Failed(blamed) from None

    return wrapper


_DISK_FAULTS = ("ENOSPC", "EDQUOT", "EFBIG", "EROFS", "EIO")


def _disk_line(exc: OSError) -> str | None:
    """The disk refused a read or a write that no critcore code turned into a line of its own
    (a full disk under a cache or lock file, say): one line naming the file and the cause."""
    import errno

    from critcore.errors import os_error

    if errno.errorcode.get(exc.errno or 0) not in _DISK_FAULTS:
        return None
    return str(os_error(exc, str(exc.filename or "a file critcore needed"), "nothing was changed"))


def _blame_plugin(exc: BaseException) -> str | None:
    """One line naming the plugin whose code raised ``exc`` (and the hook), or None if critcore
    itself did. ``CRITCORE_DEBUG=1`` keeps the traceback for a plugin author."""
    import os

    if os.environ.get("CRITCORE_DEBUG"):
        return None
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return None
    from critcore.stages.loader import Registry, plugin_at_fault

    reg = ctx.find_root().obj
    return plugin_at_fault(exc, reg if isinstance(reg, Registry) else None)


def registry(ctx: click.Context) -> Any:
    """The plugins available to this invocation (``obj`` of the root context, for tests)."""
    root = ctx.find_root()
    if root.obj is None:
        from critcore.stages.loader import Registry

        root.obj = Registry.installed()
    return root.obj


_GC_PAUSED = [False]


def pause_gc(enabled: bool | None = None) -> None:
    """Turn the cyclic garbage collector off for a ``crit`` process's start-up (see cli.main).
    ``enabled``: whether it was on before the caller turned it off itself (the console script
    does, before click is imported: cli.console), so that :func:`resume_gc` turns it back on."""
    if enabled is None:
        enabled = gc.isenabled()
    if enabled:
        gc.disable()
        _GC_PAUSED[0] = True


def resume_gc() -> None:
    """Turn it back on, if :func:`pause_gc` turned it off, before work that may run long."""
    if _GC_PAUSED[0]:
        gc.enable()
        _GC_PAUSED[0] = False


def warn(message: str) -> None:
    """A warning or a question on stderr, made safe like every line of output."""
    from critcore.report.textsafe import printable

    click.echo(printable(message, newlines=True), err=True)


if TYPE_CHECKING:  # a mixin for click commands: type checkers see the command it is mixed into
    _Command = click.Command
else:
    _Command = object


# click passes the text of its help option and its path types' names through gettext, and
# gettext's first call imports ``locale`` (0.6 ms of every command) to find translations that
# click does not ship: critcore's commands make both with their text as it is.
HELP = "Show this message and exit."


def _show_help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


if TYPE_CHECKING:  # newer click types ParamType as generic; click 8.1 (still supported) cannot subscript it
    ParamType = click.ParamType[Any]
else:
    ParamType = click.ParamType


class FileName(ParamType):
    """A file's name, as ``click.Path(dir_okay=False)`` takes it (a folder or an unreadable file
    is refused, a file that does not exist yet is taken), made without gettext."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            mode = os.stat(value).st_mode
        except (OSError, ValueError):  # not there (yet): the command decides
            return value
        if stat.S_ISDIR(mode):
            self.fail(f"File {click.format_filename(value)!r} is a directory.", param, ctx)
        if not os.access(value, os.R_OK):
            self.fail(f"File {click.format_filename(value)!r} is not readable.", param, ctx)
        return value

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(incomplete, type="file")]


FILE = FileName()


class OneLineErrors(_Command):
    """Mixin for click commands: click's own usage errors (a bad choice, a number out of range,
    a missing argument) become one line and exit code 2, like every other bad input; and the
    help option is made without gettext (above)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            path = ctx.command_path
            raise BadInput(f"{exc.format_message()} (see {path} --help)") from None

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        names = self.get_help_option_names(ctx)
        if not names or not self.add_help_option:
            return None
        made: click.Option | None = self.__dict__.get("_critcore_help")
        if made is None or made.opts != list(names):  # one option object per command, as click keeps it
            made = click.Option([*names, "critcore_help"], is_flag=True, expose_value=False, is_eager=True,
                                help=HELP, callback=_show_help)
            self.__dict__["_critcore_help"] = made
        return made


class Command(OneLineErrors, click.Command):
    """A click command whose usage errors are one line."""


class Group(OneLineErrors, click.Group):
    """A click group whose usage errors are one line. Called with nothing at all (bare ``crit``,
    ``crit resolve``) it prints its help and exits 0, as click 8.1 did: click 8.2 made that a
    usage error (exit 2), so the group decides it here, the same on every click version."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            click.echo(ctx.get_help(), color=ctx.color)
            ctx.exit(0)
        return super().parse_args(ctx, args)
