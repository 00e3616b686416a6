"""Write src/critcore_battletech/data/frame.marshal: the importer's catalog frame, shipped built.

Usage: python tools/battletech_frame.py [--check]

The frame (``critcore_battletech.data.frame.frame``: the data files read, checked and indexed,
each pattern's filter worked out) is what the first unit after an install would otherwise build
(26 M instructions, docs/performance-log.md). The file holds, in :mod:`marshal` form, the format, the
bytes of every file the frame is made of (``frame.SOURCES``: the data files and the modules that
read them) and the frame; the plugin uses it only while every one of those files is the same on
disk (``unitcache.shipped_frame``), so an edited data file is never answered from it (the frame
is then made and kept in the cache as before), but the shipped file is stale until this script
runs again: run it after editing a data file or one of those modules, and commit the file.
``--check`` writes nothing and says whether the file on disk is up to date (the plugin's tests
run it: ``test_battletech_unitcache.py``). Run it with the plugin importable (an editable install
of this checkout).
"""

from __future__ import annotations

import marshal
import os
import sys
from typing import Any


def shipped() -> tuple[int, dict[str, bytes], dict[str, Any]]:
    """What ``data/frame.marshal`` holds: the format, the bytes of every file the frame is made
    of (``frame.SOURCES``, paths in the package), and the frame."""
    from critcore_battletech import unitcache
    from critcore_battletech.data.frame import SOURCES, frame

    sources = {}
    for name in SOURCES:
        with open(os.path.join(unitcache._HERE, name), "rb") as fh:
            sources[name] = fh.read()
    return unitcache.SHIPPED_FORMAT, sources, frame()


def main(argv: list[str]) -> int:
    if any(a != "--check" for a in argv):
        print("usage: python tools/battletech_frame.py [--check]", file=sys.stderr)
        return 2
    from critcore_battletech import unitcache

    path = os.path.join(unitcache._HERE, unitcache.SHIPPED_FRAME)
    made = shipped()
    if "--check" in argv:
        try:
            with open(path, "rb") as fh:
                found = marshal.loads(fh.read())
        except (OSError, ValueError, EOFError, TypeError):
            found = None
        if found != made:
            print(f"{path} is not up to date: run python tools/battletech_frame.py", file=sys.stderr)
            return 1
        print(f"{path} is up to date")
        return 0
    with open(path, "wb") as fh:
        fh.write(marshal.dumps(made))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
