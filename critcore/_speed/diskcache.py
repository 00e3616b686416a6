"""Private: the disk cache of parsed data between commands (one seam with the rest of ``_speed``).

A system's tables and data files are parsed on every ``crit`` command. Parsing TOML (and
importing the parser) costs milliseconds of a start-up budget of a few tens, so the parsed data
is kept in the platform's cache folder (:func:`cache_dir`) in :mod:`marshal` form, one entry per
file, used only when the content hashes of the file and of the entry match. A cache that cannot
be read or written is simply not used; ``CRITCORE_CACHE=0`` turns it off. Only the ``crit``
command writes entries (:func:`cache_writes`). What it saves, measured: docs/architecture.md,
"Speed machinery"; ``tests/test_core_cache.py`` holds it to parsing the file afresh.
"""

from __future__ import annotations

import marshal
import os
import sys
from typing import Any, Callable

CACHE_FORMAT = 3  # 3: entries are made only from tables whose rows passed their row schema


_WRITES = [False]


def cache_writes(enabled: bool = True) -> None:
    """Let :func:`cached` (so :func:`load_toml`) write cache entries (the ``crit`` command turns
    this on; the Python API reads entries but writes none unless asked:
    ``critcore._speed.diskcache.cache_writes()``)."""
    _WRITES[0] = enabled


def writes_enabled() -> bool:
    """Whether this process writes cache entries (see :func:`cache_writes`); a plugin keeping
    its own entries in :func:`cache_dir` follows the same rule."""
    return _WRITES[0]


def cache_dir() -> str | None:
    """The platform's cache folder for critcore, or None when ``CRITCORE_CACHE=0``.

    ``$XDG_CACHE_HOME/critcore`` (else ``~/.cache/critcore``) on Linux and other Unixes,
    ``~/Library/Caches/critcore`` on macOS, ``%LOCALAPPDATA%\\critcore\\Cache`` on Windows: the
    folders ``platformdirs.user_cache_dir("critcore")`` names, worked out here because
    importing platformdirs costs about 3 ms of every start-up (docs/architecture.md).
    """
    if os.environ.get("CRITCORE_CACHE", "1") == "0":
        return None
    if sys.platform.startswith("win"):
        base = os.environ.get("LOCALAPPDATA") or os.path.join(os.path.expanduser("~"), "AppData", "Local")
        return os.path.join(base, "critcore", "Cache")
    if sys.platform == "darwin":
        return os.path.join(os.path.expanduser("~"), "Library", "Caches", "critcore")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "critcore")


def digest(data: bytes) -> bytes:
    """BLAKE2b hash (20 bytes) of ``data``: the content hash cache entries are checked with."""
    try:
        from _blake2 import blake2b  # the C module behind hashlib.blake2b, without hashlib's 2 ms import
    except ImportError:  # pragma: no cover - other Pythons
        from hashlib import blake2b
    return blake2b(data, digest_size=20).digest()


def _cache_file(folder: str, name: str) -> str:
    # one entry per name, its file named by FNV-1a (64 bits) of the name (zlib/hashlib cost start-up)
    h = 0xCBF29CE484222325
    for byte in name.encode("utf-8", "surrogatepass"):
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return os.path.join(folder, f"{h:016x}.marshal")


def cached(name: str, key: bytes, build: Callable[[], dict[str, Any]],
           fmt: int = CACHE_FORMAT) -> dict[str, Any]:
    """A dict kept in the cache folder between commands: the entry's data when it is valid, else
    ``build()`` (kept for the next command when this process writes entries).

    ``name`` names the entry (its file is named by a hash of it; include whatever should give a
    separate entry, e.g. the caller's format and the source's absolute path). ``key`` is a hash
    of everything the data depends on (see :func:`digest`). An entry holds ``(fmt, key, hash of
    the data, data)`` in :mod:`marshal` form and is used only when its format and key match and
    its data hashes to the stored hash, so a stale, edited or damaged entry is never trusted; a
    cache that cannot be read or written is not used. An exception from ``build`` propagates and
    nothing is kept. Entries are written only when :func:`writes_enabled` (the ``crit``
    command), atomically (a temporary file, then :func:`os.replace`). With the cache off
    (:func:`cache_dir` is None) this is ``build()``.
    """
    folder = cache_dir()
    if folder is None:
        return build()
    found = read_entry(name, key, fmt)
    if found is not None:
        return found
    data = build()
    store(name, key, data, fmt)
    return data


def read_entry(name: str, key: bytes, fmt: int = CACHE_FORMAT) -> dict[str, Any] | None:
    """The data of the cache entry ``name`` when its format, key and data hash match (see
    :func:`cached`), else None (no entry, a stale or damaged one, or the cache off)."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        with open(_cache_file(folder, name), "rb") as fh:
            stored = marshal.loads(fh.read())  # one read: marshal.load(fh) reads piecemeal, 4x slower
        stored_fmt, stored_key, data_hash, blob = stored
        if stored_fmt == fmt and stored_key == key and digest(blob) == data_hash:
            data = marshal.loads(blob)
            if isinstance(data, dict):
                return data
    except (OSError, ValueError, EOFError, TypeError):
        pass
    return None


def store(name: str, key: bytes, data: dict[str, Any], fmt: int = CACHE_FORMAT) -> None:
    """Keep ``data`` as the cache entry ``name`` (see :func:`cached`) when this process writes
    entries; atomically, and silently not at all when the folder cannot be written."""
    folder = cache_dir()
    if folder is None or not _WRITES[0]:
        return
    entry = _cache_file(folder, name)
    try:
        os.makedirs(folder, exist_ok=True)
        blob = marshal.dumps(data)
        tmp = f"{entry}.{os.getpid()}.tmp"
        with open(tmp, "wb") as fh:
            fh.write(marshal.dumps((fmt, key, digest(blob), blob)))
        os.replace(tmp, entry)
    except (OSError, ValueError):
        pass
