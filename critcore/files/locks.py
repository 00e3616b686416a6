"""An exclusive lock on a lock file, held around one target file's read-modify-write.

The operating system's own advisory lock (``flock`` on POSIX, ``msvcrt.locking`` on Windows) on a
hidden lock file beside the target: released by the system when the process ends, however it
ends, so a killed ``crit`` never leaves a stale lock. Waiting is bounded by ``timeout``.

Why not the ``filelock`` package: it does the same, but importing it (4.x: logging, secrets,
pathlib, dataclasses, decimal...) took 18.5 ms of a ``crit ... --save`` that otherwise starts in
about 60 ms (measured with ``python -X importtime``, see docs/architecture.md); this is the part
of it critcore needs.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any


class LockTimeout(Exception):
    """The lock was not had within the timeout."""


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


class FileLock:
    """``with FileLock(path, timeout):`` holds an exclusive lock on ``path`` (made if missing).

    The lock file stays after release: deleting it while another process waits on it would let
    two writers in.
    """

    def __init__(self, path: str, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        deadline = time.monotonic() + self.timeout
        pause = 0.002
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                os.close(fd)
                raise LockTimeout(self.path)
            time.sleep(pause)
            pause = min(pause * 2, 0.05)
        self._fd = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                _unlock(fd)
            finally:
                os.close(fd)

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.release()
