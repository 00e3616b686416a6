"""Where a command's target lives, and how its new state gets back there.

``--target FILE`` names a file; ``--target @NAME`` a target of the campaign (a file whose name
starts with ``@`` is written with its folder, ``./@odd.json``, so the two never mix). Either
way a command opens a *session*: the state is read, the procedure runs, and what the session
is told to keep is written back, under the file's lock or inside the campaign's transaction.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, Iterator

from critcore.errors import StateError


def campaign_name(target: str | None) -> str | None:
    """``@NAME`` -> ``NAME`` (a campaign target); anything else -> None (a file, or no target)."""
    if target and target.startswith("@"):
        return target[1:]
    return None


class FileSession:
    """A target file read for one command; :meth:`commit` writes the new state back."""

    def __init__(self, path: str, state: Any, dest: str | None, original: str | None, engine: Any = None) -> None:
        self.engine = engine  # writes a system's own format (critcore_write_target)
        self.path = path
        self.where = path
        self.state = state
        self.dest = dest
        self.original = original

    def commit(self, outcome: Any) -> str | None:
        """Write the outcome's new state to the save destination (None if nothing is saved)."""
        if self.dest is None or outcome.target is None:
            return None
        from critcore.model import thaw
        from critcore.targets.state import dumps, toml_keeping_layout, write_atomic

        state = thaw(outcome.target)
        if self.engine is not None and self.engine.writes(self.dest):
            text = self.engine.write_target(self.dest, state)
        elif self.dest.lower().endswith(".toml"):
            same_file = os.path.realpath(self.dest) == os.path.realpath(self.path)
            text = toml_keeping_layout(self.original, state) if same_file and self.original is not None \
                else dumps(state, "toml")
        else:
            text = dumps(state, "json")
        write_atomic(self.dest, text)
        return self.dest


@contextmanager
def file_session(path: str, engine: Any, *, save: bool = False, save_to: str | None = None) -> Iterator[FileSession]:
    """Read ``path`` for a command that may save: the save is checked first (before any die is
    rolled), and the read, the run and the write happen under the destination's lock, so
    concurrent saves to one file lose nothing."""
    from critcore.targets.state import STDIN, check_writable, lock_for, remove_leftovers, save_path

    if save and path == STDIN:
        from critcore.errors import InputError

        raise InputError("--save: the target came from standard input (--target -); use --save-to FILE")
    dest = None
    if save_to:
        dest = save_to
        check_writable(dest)
    elif save:
        dest = path if engine.writes(path) else save_path(path)
        check_writable(dest, source=path if os.path.realpath(dest) != os.path.realpath(path) else None)
    if dest is None:
        yield _read(path, engine, None)
        return
    from critcore.files.locks import LockTimeout

    lock = lock_for(dest)
    try:
        lock.acquire()
    except LockTimeout:
        from critcore.errors import BusyError

        raise BusyError(f"{dest}: another crit held this file's lock for too long; nothing was changed, "
                        "try again") from None
    except OSError as exc:
        raise StateError(f"{dest}: cannot lock the file to save it: {exc.strerror}") from None
    try:
        remove_leftovers(dest)
        yield _read(path, engine, dest)
    finally:
        lock.release()


def _read(path: str, engine: Any, dest: str | None) -> FileSession:
    from critcore.targets.state import read_target

    state, fmt = read_target(path, engine.read_target)
    checked = engine.check_target(state, path)  # frozen; crit runs it by engine.run_session, not checked again
    original = None
    if fmt == "toml" and dest is not None:
        try:
            with open(path, encoding="utf-8") as fh:
                original = fh.read()
        except (OSError, UnicodeDecodeError):
            original = None
    return FileSession(path, checked, dest, original, engine)
