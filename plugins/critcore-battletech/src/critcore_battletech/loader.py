"""The public way to read a MegaMek ``.mtf`` unit file from Python.

    import critcore_battletech
    unit = critcore_battletech.load_mtf("Atlas AS7-D.mtf")
    outcome = critcore.resolve("battletech", "critical", location="LT", target=unit, seed=7)

The unit is the same plain data ``crit ... --unit FILE.mtf`` works on (and ``--save`` writes as
JSON). Reading is size-limited like every file critcore reads; a broken file raises
:class:`critcore.errors.StateError` naming the file and line.
"""

from __future__ import annotations

import os
from typing import Any


def load_mtf(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read the ``.mtf`` file at ``path`` and return the unit as critcore's plain unit data (the
    importer's catalog is built by the first call of a process and shared by the next)."""
    from critcore.plugin import StateError
    from critcore.plugin import read_bytes

    from .units import unit_from_mtf

    source = os.fspath(path)
    return unit_from_mtf(read_bytes(source, "unit file", StateError), source)


def loads_mtf(text: str | bytes, source: str = "<mtf text>") -> dict[str, Any]:
    """The unit in ``text`` (an ``.mtf`` file's content; bytes in UTF-8 or Windows-1252)."""
    from .units import unit_from_mtf

    return unit_from_mtf(text, source)
