"""Private: the ``crit`` process ends without Python's teardown (one seam with the rest of ``_speed``).

When a script ends, Python finishes what must be finished (it waits for the threads that are not
daemons, calls the ``atexit`` functions, flushes standard output and error) and then tears the
interpreter down: every module's namespace cleared, every object freed one by one, only for the
process to give all its memory back at once a moment later. That teardown is 6-7 M instructions
of a ``crit resolve`` (about 1.5 ms; more after a BattleTech unit's import, which leaves more
objects), nothing a command's output or files depend on: critcore's commands write and close
their files and close their campaign before they return (``cli.main``'s docstring).

:func:`run` does the finishing steps in Python's order and then ends the process with
:func:`os._exit`, for the ``crit`` console script only (``critcore.cli.console``; never a
caller's process: the Python API and ``cli.main`` itself end as they always did). Whenever the
normal ending could differ it is taken instead: another thread still running, an exit status that
is not a number (Python prints it), an exception (Python prints its traceback), standard output
or error that cannot be flushed (Python reports it and ends with status 120). What it saves,
measured: docs/architecture.md, "Speed machinery"; ``tests/test_core_quickexit.py`` holds it to
the normal ending (the same output, status and atexit calls).

:func:`keep_until_exit` lets a command leave what it made to that ending: the objects handed to it
are held until the process ends, so they are never freed one by one either (``crit odds`` on a
long cascade: the engine's memo of unit states, about 50 ms to free). It holds them only while
:func:`run` runs the command; elsewhere (the Python API, ``cli.main`` called by a program, the
tests) it does nothing, and the objects go as they always did.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, NoReturn


_HELD: list[Any] = []  # what keep_until_exit holds while run runs a command
_RUNNING = [False]


def keep_until_exit(*objects: Any) -> None:
    """Hold ``objects`` until the process ends, when :func:`run` is running the command (its
    ending frees nothing one by one); otherwise nothing."""
    if _RUNNING[0]:
        _HELD.extend(objects)


def in_own_process() -> bool:
    """Whether :func:`run` is running the command: the ``crit`` process, not a caller's."""
    return _RUNNING[0]


def run(main: Callable[[], Any]) -> NoReturn:
    """Call ``main()`` (a click command in standalone mode ends by :class:`SystemExit`) and end
    the process with its status, without the interpreter's teardown when nothing else is left to
    finish (see above); otherwise as Python would have ended it."""
    _RUNNING[0] = True
    try:
        main()
        code: Any = 0
    except SystemExit as exc:
        code = exc.code
    if code is None:
        code = 0
    if type(code) is not int or not -2**31 <= code < 2**31 or not _alone():
        raise SystemExit(code)
    import atexit

    atexit._run_exitfuncs()  # what Python calls at exit; it runs each function once
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except Exception:  # e.g. a closed pipe: Python's own ending reports it as it always did
            raise SystemExit(code) from None
    os._exit(code)


def _alone() -> bool:
    """Whether the main thread is the only one (Python would wait for the others)."""
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() <= 1
