"""Units imported from .mtf files, kept between commands.

Importing a unit means importing the reader and its equipment catalog and working through the
file: several milliseconds of a ``crit`` command's start-up, spent again on every command that
names the same file. The unit an import gives is plain data, a function of the file's text,
its name and the importer (its code and data files), so it is kept in critcore's cache folder
(:func:`critcore.tables.resources.cache_dir`) by :func:`critcore.tables.resources.cached`, the function the
core keeps parsed tables with:

- an entry is named by the file's path and holds a BLAKE2b hash of everything the import
  depends on (the text, the name, the plugin's version and the size and modification time of
  every importer module and data file) and a hash of the unit it holds: it is used only when
  both match, so an edited unit file, an edited importer or a damaged entry is imported again;
- only the ``crit`` command writes entries (:func:`critcore.tables.resources.cache_writes`);
  ``CRITCORE_CACHE=0`` turns the cache off; a cache that cannot be read or written is not used;
- a file that does not import is never kept: its error is raised again on every command.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from critcore.plugin import diskcache

from . import __version__

_FORMAT = 1
_HERE = os.path.dirname(os.path.abspath(__file__))
# what the importer is made of: a change to any of these (or to any data file) makes every entry stale
# the entry of the catalog's frame: one per install of the plugin (two installs side by side do
# not take turns at it)
FRAME_ENTRY = f"battletech-catalog\0{_FORMAT}\0{_HERE}"
_MODULES = ("units.py", "mtf.py", "records.py", "needs.py", os.path.join("data", "catalog.py"),
            os.path.join("data", "frame.py"))


def _fingerprint() -> bytes:
    parts = [f"{_FORMAT}\0{__version__}"]
    data = os.path.join(_HERE, "data")
    try:
        tables = sorted(os.path.join("data", n) for n in os.listdir(data) if n.endswith(".toml"))
    except OSError:
        tables = []
    for name in (*_MODULES, *tables):
        try:
            st = os.stat(os.path.join(_HERE, name))
            parts.append(f"{name}\0{st.st_size}\0{st.st_mtime_ns}")
        except OSError:
            parts.append(f"{name}\0-")
    return "\0".join(parts).encode()


def fingerprint() -> bytes | None:
    """What the importer is made of (see above), or None with the cache off (no need to look at
    the importer's files then). Worked out once a unit (a dozen stats) and handed to
    :func:`cached_import` and :func:`kept_frame`."""
    return None if diskcache.cache_dir() is None else _fingerprint()


def cached_import(text: str, source: str, build: Callable[[str, str], dict[str, Any]],
                  importer: bytes | None = None) -> dict[str, Any]:
    """The unit of an .mtf file's ``text``: from the cache when an entry matches, else
    ``build(text, source)`` (which raises on a bad file), kept for the next command.
    ``importer``: :func:`fingerprint`'s answer, when the caller has it."""
    if diskcache.cache_dir() is None:
        return build(text, source)
    if importer is None:
        importer = _fingerprint()
    key = diskcache.digest(b"\0".join([importer, source.encode("utf-8", "surrogatepass"),
                             text.encode("utf-8", "surrogatepass")]))
    # one entry per unit file, named by its absolute path
    name = f"battletech-unit\0{_FORMAT}\0{os.path.abspath(source)}"
    return diskcache.cached(name, key, lambda: build(text, source), fmt=_FORMAT)


# the frame shipped in the package (tools/battletech_frame.py writes it): what it was made of, by path
SHIPPED_FRAME = os.path.join("data", "frame.marshal")
SHIPPED_FORMAT = 1  # (this format, {source path: its bytes}, the frame) in marshal form


def shipped_frame() -> dict[str, Any] | None:
    """The catalog's frame shipped in the package (``data/frame.marshal``), when every file it was
    made of (the data files read and the modules that read them, kept in it byte for byte) is
    the same on disk, byte for byte; else None (an edited data file or module, a damaged or
    missing file, a Python whose :mod:`marshal` cannot read it): the frame is then kept or made
    as :func:`kept_frame` does. The first unit after an install reads it instead of reading and
    indexing the data files (26 M instructions: docs/architecture.md, "Speed machinery")."""
    import marshal

    try:
        with open(os.path.join(_HERE, SHIPPED_FRAME), "rb") as fh:
            fmt, sources, frame = marshal.loads(fh.read())
        if fmt != SHIPPED_FORMAT or type(sources) is not dict or type(frame) is not dict or not sources:
            return None
        for name, kept in sources.items():
            with open(os.path.join(_HERE, name), "rb") as fh:
                if fh.read() != kept:
                    return None
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return frame


def frame_of(build: Callable[[], dict[str, Any]], importer: bytes | None = None) -> dict[str, Any]:
    """The importer's catalog frame: the shipped one (:func:`shipped_frame`) when it is up to
    date, else :func:`kept_frame`'s."""
    shipped = shipped_frame()
    return shipped if shipped is not None else kept_frame(build, importer)


def kept_frame(build: Callable[[], dict[str, Any]], importer: bytes | None = None) -> dict[str, Any]:
    """The importer's catalog frame (:func:`critcore_battletech.data.catalog.frame`: the data files
    read, checked and indexed): from the cache when its entry was made by the same importer (the
    fingerprint above: the size and modification time of every module and data file of it), else
    ``build()``, kept for the next command. The same rules as for units: a damaged or stale entry
    is built afresh, a cache that cannot be read or written is not used, only ``crit`` writes.
    ``importer``: :func:`fingerprint`'s answer, when the caller has it."""
    if diskcache.cache_dir() is None:
        return build()
    key = diskcache.digest(b"catalog\0" + (importer or _fingerprint()))
    return diskcache.cached(FRAME_ENTRY, key, build, fmt=_FORMAT)
