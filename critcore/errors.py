"""Typed exceptions raised inside critcore.

The CLI turns :class:`InputError` into exit code 2 (bad usage or bad input) and any other
:class:`CritcoreError` into exit code 1. Anything else escaping is a bug.
"""

from __future__ import annotations


class CritcoreError(Exception):
    """Base class of every error critcore raises on purpose."""


class InputError(CritcoreError):
    """Something the user gave us is wrong: an option, a dice expression, a file.

    The message is one line that says what is wrong, where, and if possible how to fix it.
    """


class DiceError(InputError):
    """A dice expression does not parse, is absurdly large, or scripted faces do not fit."""


class TableError(InputError):
    """A roll-range table (shipped or from a house rule) is malformed."""


class ConfigError(InputError):
    """A ``critcore.toml`` or user config file is malformed."""


class StateError(InputError):
    """A target state file (a character, a unit) cannot be read or does not fit the system."""


class ParamError(InputError):
    """A procedure parameter is missing, of the wrong type or out of range."""


class UnknownNameError(InputError):
    """An unknown system, procedure, table or rule was asked for."""


class TooMuchWork(InputError):
    """An exact computation would exceed its limit (too many results of one roll, too many
    runs): refused at once, suggesting an estimate (``crit simulate``) instead."""


class PluginError(CritcoreError):
    """A plugin is installed but broken (fails to import or declares nonsense)."""


class Aborted(CritcoreError):
    """The user stopped an interactive prompt."""


class CampaignError(InputError):
    """A campaign cannot be opened or does not hold what was asked (an unknown target, a
    name already taken, nothing to undo)."""


class BusyError(CritcoreError):
    """Another process held a campaign's or a target file's lock for longer than the busy timeout."""


class DiskError(CritcoreError):
    """The disk refused a read or a write (full, read-only, a file-size limit, an I/O error):
    one line naming the file and the cause; what was on disk before is unchanged."""


_CAUSES = {
    "ENOSPC": "the disk is full",
    "EDQUOT": "the disk quota is used up",
    "EFBIG": "the file would be larger than the system allows (a file-size limit, ulimit -f)",
    "EROFS": "the disk is read-only",
    "EIO": "a disk input/output error",
}
_BAD_PLACES = frozenset(("ENOENT", "ENOTDIR", "EISDIR", "EACCES", "EPERM", "EINVAL", "ENAMETOOLONG", "ELOOP",
                         "ENXIO", "EEXIST"))


def os_error(exc: OSError, where: str, unchanged: str) -> CritcoreError:
    """The one-line error for an ``OSError`` met writing ``where``: the disk's fault
    (:class:`DiskError`, exit 1) or a place that cannot be written (:class:`StateError`, exit 2).
    ``unchanged`` says what stayed as it was ("the old file is unchanged")."""
    import errno

    name = errno.errorcode.get(exc.errno or 0, "")
    cause = _CAUSES.get(name) or exc.strerror or str(exc)
    line = f"{where}: cannot write it: {cause}; {unchanged}"
    return StateError(line) if name in _BAD_PLACES else DiskError(line)
