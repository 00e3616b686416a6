"""The cyclic garbage collector paused while exact odds work, while their JSON is made, and
while a simulation runs (speed only; issue 25).

Exact odds of a long cascade keep hundreds of thousands of small containers alive until the
question is answered (the sub-enumerations remembered, a plugin's per-target memo of unit
states), and each full collection walks every one of them only to find them all still in use:
a third of the CPU time of the longest BattleTech questions (a simulation keeps fewer, but
collects as often: `crit simulate` of 1,000,000 Shadowrun wounds took 27.0 s with the collector
and 16.1 s without, in the same memory). While :func:`paused` is entered in
the main thread (``crit odds``, a program asking its own question), automatic collection is off;
it is on again when the outermost block ends, if it was on when it began (``crit``'s start-up
turns it off itself, ``crit odds`` turns it back on). In any other thread nothing is paused:
questions there may overlap without end, and the collector is the whole process's, so pausing it
there could keep it off for good. The one exception is a block whose caller bounds its time
(``bounded=True``: ``crit serve``'s long work, each request stopped at its deadline). Such a block
pauses the collector only when no other block is inside, in any thread; one that begins while
another is inside runs with the collector as that one leaves it. So the collector is never off
for longer than one bounded block, however many campaigns a hosted server runs long work for at
once.
Reference counting still frees everything that is not in a cycle; what is waits for the next
collection after, as the memo of a finished question already did (its engine holds it in a cycle).

When the collector comes back on, what the question made is put straight into the oldest
generation (``gc.freeze`` then ``gc.unfreeze``, nothing left frozen), where it would have gone
anyway: it is what the question keeps (the memo's states, the outcomes), all still in use, and the
young collection that would otherwise follow at once walked every object of it to find that out
(0.26 s of the Daishi X's right torso, issue 25's eighth round). Cycles made during the question
wait for the next full collection instead (a question makes none that the young collection after
it found). Only when nothing is frozen already: objects a program froze on purpose (``crit
serve``'s start-up) stay frozen.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

_INSIDE = [0, False]  # blocks entered, and whether the collector was on when the first began
_LOCK = threading.Lock()  # a bounded block may begin or end in a worker thread while another ends


@contextmanager
def paused(bounded: bool = False) -> Iterator[None]:
    """No automatic cyclic garbage collection within this block when it runs in the main thread
    (nested blocks: on again when the outermost ends, if it was on before), or, with ``bounded``
    (the caller ends it within a time limit), in any thread when no other block is inside.
    Elsewhere nothing."""
    main = threading.current_thread() is threading.main_thread()
    if not bounded and not main:
        yield
        return
    with _LOCK:
        if bounded and not main and _INSIDE[0]:
            entered = False  # another block holds the pause: it must not last past that one's end
        else:
            entered = True
            if not _INSIDE[0]:
                _INSIDE[1] = gc.isenabled()
                gc.disable()
            _INSIDE[0] += 1
    if not entered:
        yield
        return
    try:
        yield
    finally:
        with _LOCK:
            _INSIDE[0] -= 1
            if not _INSIDE[0] and _INSIDE[1]:
                if not gc.get_freeze_count():  # into the oldest generation, unwalked (above)
                    gc.freeze()
                    gc.unfreeze()
                gc.enable()
