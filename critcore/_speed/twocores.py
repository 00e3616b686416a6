"""Private: a long exact-odds question shares its last stage with a second process (one seam with
the rest of ``_speed``).

Exact odds of a long cascade spend nearly all their time in the last stage: the apply stage,
enumerated once per effect-stage answer (the Daishi X's right torso: 156 answers, 17,544
outcomes). The answers are worked out independently of each other, so on a machine with two cores
:func:`each` shares the answers still to do with a child process (``os.fork``: the child starts
from the parent's memory, plugins and memos as they are, and costs no start-up): the parent takes
them from the front, the child from the back, each claiming its next in a shared page, and the
parent reads the child's answers, pickled, when its own are done. The answers come back in their
own order, so the outcomes are listed as before. The child's are equal objects, not the same ones,
except for the parts of the question's target, which come back as the parent's own (by reference:
``pickle``'s persistent ids), so the JSON, which finds each state's parts by identity first,
compares nothing more than for one process's answers.

It forks only where forking is safe and pays:

- in the ``crit`` process alone (``quickexit.in_own_process``: never a caller's program or a test
  runner), when the command asked for it (:func:`use`: ``crit odds``, unless
  ``CRITCORE_ODDS_PROCESSES=1``; ``crit serve`` never asks, and its questions run in threads);
- on Linux, with the main thread the only one (a fork copies no other thread) and at least two
  cores this process may run on (``os.sched_getaffinity``);
- after :data:`AFTER` seconds of the stage done alone, with at least two answers left that look
  like taking :data:`WORTH` seconds more: the median answer so far times the answers left. A
  fork costs about a tenth of a second in a process of a long question's size (the fork, the
  pages both processes then copy as they write, the child's answers pickled and read back), and
  saves about a fifth of what is left, so it pays from about half a second left. The answers'
  times are uneven (BattleTech's come three criticals first, one last, and one cascade can take
  most of the stage): the mean so far overestimated what was left by 2 to 27 times on the
  slowest corpus locations, and forked on questions with 0.06 s left; on the fourteen slowest,
  the median forks on every one with more than 0.45 s left and on none with less than 0.42 s.

Whatever goes wrong in the child (an error of a plugin, an answer that cannot be pickled, the
child killed), or a fork the system refuses, makes the parent work out the child's share itself, so the answers and errors are
the ones one process gives. The child ends by ``os._exit``: nothing of the parent's (its output
buffers, ``atexit`` functions, files) is flushed or run twice. The child never reports progress.

What it saves: docs/architecture.md, "Speed machinery"; ``tests/test_core_twocores.py`` holds it
to one process's answers.

May import: the standard library only (and ``quickexit``, this package's own).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Callable, Sequence, TypeVar

from critcore._speed.quickexit import in_own_process

T = TypeVar("T")
R = TypeVar("R")

AFTER = 0.25  # seconds of the stage worked out alone before the rest may be shared
WORTH = 1.0  # seconds the items left look like taking (the median item so far, times the items left)
_WANTED = [1]  # processes the command asked for (use)


def use(processes: int) -> None:
    """How many processes a question of this command may use: 1 or 2 (``crit odds``)."""
    _WANTED[0] = processes


def may_fork() -> bool:
    """Whether :func:`each` may fork here and now (see above): cheap when the command did not ask."""
    if _WANTED[0] < 2 or not in_own_process() or not sys.platform.startswith("linux"):
        return False
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return False
    try:
        return len(os.sched_getaffinity(0)) >= 2
    except (AttributeError, OSError):
        return False


def each(items: Sequence[T], work: Callable[[T], R], progress: Callable[[int, int], None] | None = None,
         after: float | None = None, held: Any = None) -> list[R]:
    """``[work(item) for item in items]``, ``progress(done, len(items))`` called before each item
    worked out here.

    When forking is allowed (above), the items so far took ``after`` seconds (:data:`AFTER`) and
    the rest look like taking :data:`WORTH` seconds more (with ``after`` nought, the fork comes
    before the first item, with nothing to look at), the items left are shared with a
    child process: this one takes them from the front, the child from the back, until they meet
    (neighbouring items meet the same states, so each process keeps to its end of the list, and
    neither waits long for the other). The parts of ``held``, which the caller holds until the
    answers are used, come back from the child as the parent's own objects, not as copies."""
    n = len(items)
    out: list[R] = []
    if not may_fork():
        for item in items:
            if progress is not None:
                progress(len(out), n)
            out.append(work(item))
        return out
    limit = AFTER if after is None else after
    start = now = time.perf_counter()
    took: list[float] = []  # each item's time
    while len(out) < n:
        if worth_sharing(took, n - len(out), now - start, limit):
            return out + _shared(items[len(out):], work, progress, len(out), n, held)
        if progress is not None:
            progress(len(out), n)
        out.append(work(items[len(out)]))
        before, now = now, time.perf_counter()
        took.append(now - before)
    return out


def worth_sharing(took: list[float], left: int, elapsed: float, after: float) -> bool:
    """Whether to share the ``left`` items still to do, the items so far having taken ``took``
    seconds each and ``elapsed`` in all: at least two left, ``after`` seconds gone, and (once an
    item is done) the median item's time times the items left at least :data:`WORTH`."""
    if left < 2 or elapsed < after:
        return False
    if not took:
        return True
    ordered = sorted(took)
    return ordered[len(ordered) // 2] * left >= WORTH


def _parts(held: Any) -> dict[int, Any]:
    """The containers (dicts, tuples, lists, frozensets) ``held`` is made of, by identity."""
    found: dict[int, Any] = {}
    todo = [held]
    while todo:
        value = todo.pop()
        if isinstance(value, (dict, tuple, list, frozenset)) and id(value) not in found:
            found[id(value)] = value
            todo.extend(value.values() if isinstance(value, dict) else value)
    return found


def _shared(rest: Sequence[T], work: Callable[[T], R], progress: Callable[[int, int], None] | None,
            done: int, total: int, held: Any) -> list[R]:
    """``rest`` worked out in two processes, this one from the front and a child from the back,
    each claiming its next item in a shared page (two 8-byte words: the next from the front, the
    next from the back); the last item may be worked out by both, which is harmless."""
    import io
    import mmap
    import pickle
    import struct

    last = len(rest) - 1
    # what the caller holds throughout (the question's target) is handed back by reference: the
    # child's answers share its unchanged parts with the parent's, as one process's answers do
    parts = _parts(held)
    ends: mmap.mmap | None = None
    try:
        ends = mmap.mmap(-1, 16)  # shared with the child (MAP_SHARED | MAP_ANONYMOUS)
        ends[:16] = struct.pack("qq", 0, last)
        read, write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read)
            os.close(write)
            raise
    except OSError:  # no page, pipe or process to be had (a limit on them): the items are worked out here
        if ends is not None:
            ends.close()
        alone: list[R] = []
        for j, item in enumerate(rest):
            if progress is not None:
                progress(done + j, total)
            alone.append(work(item))
        return alone
    if pid == 0:  # the child: from the back, its answers pickled into the pipe, then gone without a teardown
        os.close(read)
        try:
            try:
                theirs: dict[int, R] = {}
                while True:
                    back = struct.unpack_from("q", ends, 8)[0]
                    if back < struct.unpack_from("q", ends, 0)[0]:
                        break
                    struct.pack_into("q", ends, 8, back - 1)
                    theirs[back] = work(rest[back])
                buffer = io.BytesIO()
                pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
                pickler.persistent_id = (  # type: ignore[method-assign]
                    lambda value: id(value) if parts.get(id(value), parts) is value else None)
                pickler.dump(("ok", theirs))
                data = buffer.getvalue()
            except BaseException:  # the parent works the share out itself and meets the error there
                data = pickle.dumps(("failed", None))
            with os.fdopen(write, "wb") as out:
                out.write(data)
        finally:
            os._exit(0)
    os.close(write)
    pipe = os.fdopen(read, "rb")
    own: list[R] = []
    waited = False
    try:
        while True:
            back = struct.unpack_from("q", ends, 8)[0]
            front = len(own)
            if front > back:
                break
            struct.pack_into("q", ends, 0, front + 1)
            if progress is not None:
                progress(done + front + last - back, total)
            own.append(work(rest[front]))
        data = pipe.read()
        os.waitpid(pid, 0)
        waited = True
    finally:
        pipe.close()
        ends.close()
        if not waited:  # an error or an interrupt here: the child is not left running
            _end(pid)
    handed: Any = None
    try:
        unpickler = pickle.Unpickler(io.BytesIO(data))
        unpickler.persistent_load = parts.__getitem__  # type: ignore[method-assign]
        status, handed = unpickler.load()
    except Exception:  # the child died before it wrote all of its answers
        status = "failed"
    found = own
    for j in range(len(own), last + 1):
        if status == "ok" and isinstance(handed, dict) and j in handed:
            found.append(handed[j])
        else:  # the child's share, when it could not hand it over
            if progress is not None:
                progress(done + j, total)
            found.append(work(rest[j]))
    return found


def _end(pid: int) -> None:
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass
