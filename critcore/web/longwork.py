"""Long work on ``crit serve`` (exact odds, simulations): a bounded number at a time, each with a
time limit, so that it cannot hold up the other requests (issue 25).

- At most ``slots`` long requests run at once, each in a worker thread; one more is refused at
  once with 503 and a line saying why (:class:`~critcore.errors.BusyError`), rather than queued
  behind work that may take minutes.
- Each gets ``seconds`` of wall time: the run checks the clock at each progress report (a
  simulation every 1% of its runs, exact odds after each branch of their last stage) and stops
  with :class:`~critcore.errors.TooMuchWork` (400) when time is up; the command line has no
  such limit.

The worker thread shares the GIL with the event loop: what that costs the other requests is
measured in ``bench/bench_web.py`` and written in docs/performance-log.md.
"""

from __future__ import annotations

import threading
import time
from typing import Awaitable, Callable, TypeVar

from critcore.errors import BusyError, TooMuchWork

_T = TypeVar("_T")

SLOTS = 1
"""Long requests at once (a second core stays for everything else)."""

SECONDS = 30.0
"""Wall time a long request may take before it is stopped."""


class Deadline:
    """The time a long request must end by; call :meth:`check` (or pass it as a progress
    callback: it takes any arguments) to stop the run once it is past."""

    def __init__(self, what: str, seconds: float) -> None:
        self.what = what
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def check(self, *progress: object) -> None:
        if time.monotonic() > self.end:
            raise TooMuchWork(f"{self.what} took over {self.seconds:g} s and was stopped: ask for less (fewer runs, "
                              "a smaller question), or use the command line, which has no time limit")


class LongWork:
    """A bounded pool for long requests (see the module's docstring)."""

    def __init__(self, slots: int = SLOTS, seconds: float = SECONDS) -> None:
        self.slots = slots
        self.seconds = seconds
        self._free = threading.BoundedSemaphore(slots)
        self.running = 0

    async def run(self, what: str, fn: Callable[[Deadline], _T]) -> _T:
        """``fn(deadline)`` in a worker thread, or :class:`BusyError` at once when every slot is taken."""
        from starlette.concurrency import run_in_threadpool

        if not self._free.acquire(blocking=False):
            raise BusyError(f"the server is busy with long work ({self.slots} odds or simulate request"
                            f"{'s' if self.slots != 1 else ''} at a time, each up to {self.seconds:g} s): "
                            "try again in a moment")
        self.running += 1
        try:
            done: Awaitable[_T] = run_in_threadpool(self._call, fn, Deadline(what, self.seconds))
            return await done
        finally:
            self.running -= 1
            self._free.release()

    @staticmethod
    def _call(fn: Callable[[Deadline], _T], deadline: Deadline) -> _T:
        """``fn(deadline)`` with the cyclic garbage collector paused: it ends by its deadline, and
        a request that begins while another holds the pause does not extend it
        (:func:`critcore._speed.gcpause.paused`; the Daishi X's right torso through ``/api/odds``:
        docs/performance-log.md)."""
        from critcore._speed.gcpause import paused

        with paused(bounded=True):
            return fn(deadline)
