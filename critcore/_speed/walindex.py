"""Private: has any connection committed to a SQLite database in WAL mode since this one last
looked? Read off the WAL index's header in shared memory (the ``-shm`` file), with no system call.

``PRAGMA data_version``, which this stands before, takes and drops a read lock on the ``-shm``
file and stats the database file: three system calls, about 15 us of the server's CPU on each
request ``crit serve`` answers (docs/performance.md). The WAL index begins with two copies of its
header (48 bytes each), which every commit rewrites (its frame count, its checksums, its change
counter; a log started afresh changes its salts): the same 96 bytes as at the last look mean no
commit since, and the version read then still holds. Any other bytes (a commit, a header being
written, a log reset) mean asking SQLite, so the answer is always ``PRAGMA data_version``'s
(``tests/test_core_walindex.py`` holds the two together on generated sequences of commits,
checkpoints and reads from other connections).

The ``-shm`` file is opened once per process and file (its device and inode) and never closed:
closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's own
among them. An open connection keeps the file in place (SQLite truncates or removes it only when
no connection has it open), and the header is read only through an open connection's store.

May import: the standard library only.
"""

from __future__ import annotations

import mmap
import os
import threading

HEADER = 96
"""Bytes compared: the two copies of the WAL index header."""

_MAPS: dict[tuple[int, int], mmap.mmap] = {}
_KEPT: list[int] = []  # every descriptor opened here: never closed (see the module's docstring)
_LOCK = threading.Lock()


def header_map(database: str) -> mmap.mmap | None:
    """The first :data:`HEADER` bytes of ``database``'s WAL index, mapped read-only and shared
    (None: no ``-shm`` file, too short, or not a POSIX system)."""
    if os.name != "posix":
        return None
    shm = database + "-shm"
    try:
        st = os.stat(shm)
    except OSError:
        return None
    if st.st_size < HEADER:
        return None
    with _LOCK:
        found = _MAPS.get((st.st_dev, st.st_ino))
        if found is not None:
            return found
        try:
            fd = os.open(shm, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return None
        _KEPT.append(fd)
        try:
            st = os.fstat(fd)  # the file opened, whatever happened since the stat above
            found = _MAPS.get((st.st_dev, st.st_ino))
            if found is None and st.st_size >= HEADER:
                found = _MAPS[(st.st_dev, st.st_ino)] = mmap.mmap(fd, HEADER, mmap.MAP_SHARED, mmap.PROT_READ)
        except (OSError, ValueError):
            return None
        return found
