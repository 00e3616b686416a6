"""The cyclic garbage collector paused while exact odds work (speed only; issue 25).

Exact odds of a long cascade keep hundreds of thousands of small containers alive until the
question is answered (the sub-enumerations remembered, a plugin's per-target memo of unit
states), and each full collection walks every one of them only to find them all still in use:
a third of the CPU time of the longest BattleTech questions. While :func:`paused` is entered,
in any thread, automatic collection is off; it is turned back on when the last thread leaves,
if it was on when the first entered (``crit``'s start-up turns it off itself, ``crit odds`` and
``crit serve`` turn it back on). Reference counting still frees everything that is not in a
cycle; what is waits for the next collection after, as the memo of a finished question already
did (its engine holds it in a cycle).
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

_LOCK = threading.Lock()
_INSIDE = [0, False]  # threads inside paused(), and whether the collector was on when the first entered


@contextmanager
def paused() -> Iterator[None]:
    """No automatic cyclic garbage collection within this block (nested and across threads: the
    collector is on again once every block has ended, if it was on before the first began)."""
    with _LOCK:
        if not _INSIDE[0]:
            _INSIDE[1] = gc.isenabled()
            gc.disable()
        _INSIDE[0] += 1
    try:
        yield
    finally:
        with _LOCK:
            _INSIDE[0] -= 1
            if not _INSIDE[0] and _INSIDE[1]:
                gc.enable()
