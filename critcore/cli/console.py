"""The ``crit`` console script (and ``python -m critcore``): :func:`critcore.cli.main.main` in a
process of its own.

Two things only a process of its own may do, both for start-up (docs/architecture.md, "Speed
machinery"): the cyclic garbage collector goes off before click and the commands are imported
(``cli.errors.pause_gc``; ``main`` turns it off only once they are), and the process ends
without Python's teardown (``critcore._speed.quickexit``). A program calling ``main`` or the
click group ends as it always did. This module imports nothing until it runs.
"""

from __future__ import annotations


def main() -> None:
    import gc

    enabled = gc.isenabled()
    gc.disable()  # from here, not from cli.main's import of click on
    from critcore._speed.quickexit import run
    from critcore.cli.errors import pause_gc
    from critcore.cli.main import main as crit

    pause_gc(enabled)  # what long commands turn back on (resume_gc)
    run(crit)
