"""Reading TOML data shipped inside a package, quickly.

A system's tables and data files are parsed on every ``crit`` command. Parsing TOML (and
importing the parser) costs several milliseconds of a start-up budget of a few tens, so the
parsed data is kept in a small cache in the platform's cache folder (:func:`cache_dir`) in
:mod:`marshal` form, one entry per file, used only when the content hashes of the file and of
the entry match. A cache that cannot be read or written is simply not used; ``CRITCORE_CACHE=0``
turns it off. Only the ``crit`` command writes entries (:func:`cache_writes`). :func:`cached`
keeps any other dict built from files the same way (BattleTech's imported units use it).

Files are found beside the package's ``__init__.py`` (no :mod:`importlib.resources`, which pulls
in zipfile, pathlib and more); packages that are not plain folders fall back to it.
"""

from __future__ import annotations

import marshal
import os
import sys
from typing import Any, Callable

_CACHE_FORMAT = 3  # 3: entries are made only from tables whose rows passed their row schema


def package_dir(package: str) -> str | None:
    """The folder of an importable package, or None if it does not live in a plain folder."""
    module = sys.modules.get(package)
    if module is None:
        from importlib import import_module

        module = import_module(package)
    path = getattr(module, "__file__", None)
    return os.path.dirname(path) if path else None


def list_files(package: str, suffix: str) -> dict[str, str]:
    """Files of ``package`` ending in ``suffix``, as {name without suffix: path or resource name}."""
    folder = package_dir(package)
    if folder is not None and os.path.isdir(folder):
        return {n[: -len(suffix)]: os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(suffix)}
    from importlib.resources import files

    return {p.name[: -len(suffix)]: f"{package}:{p.name}" for p in files(package).iterdir() if p.name.endswith(suffix)}


def read_text(location: str) -> str:
    """Text of a file path, or of a ``package:name`` resource."""
    if os.path.isabs(location) or os.path.exists(location):
        with open(location, encoding="utf-8") as fh:
            return fh.read()
    package, _, name = location.partition(":")
    from importlib.resources import files

    return files(package).joinpath(name).read_text(encoding="utf-8")


_WRITES = [False]


def cache_writes(enabled: bool = True) -> None:
    """Let :func:`cached` (so :func:`load_toml`) write cache entries (the ``crit`` command turns
    this on; the Python API reads entries but writes none unless asked:
    ``critcore.tables.resources.cache_writes()``)."""
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
           fmt: int = _CACHE_FORMAT) -> dict[str, Any]:
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


def read_entry(name: str, key: bytes, fmt: int = _CACHE_FORMAT) -> dict[str, Any] | None:
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


def store(name: str, key: bytes, data: dict[str, Any], fmt: int = _CACHE_FORMAT) -> None:
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


def load_toml(location: str, source: str, text: str | None = None,
              check: Callable[[dict[str, Any]], None] | None = None, depends: str = "") -> dict[str, Any]:
    """Parsed TOML of a shipped file (cached); syntax errors raise TableError naming ``source``.

    ``check(data)`` runs whenever the file is parsed (not when a cache entry is used): an entry
    is made only from data that passed it, and the entry is used only while the file is the
    same, so a shipped table's rows are checked once, not at every start-up.

    A cache entry (:func:`cached`) holds the content hash (BLAKE2b) of the file it was made from
    and of the parsed data it holds: it is used only when both match, so an edited table file or
    an edited (or damaged) entry is parsed again from the file, never trusted. ``depends`` is
    the text of another file ``check`` reads (a system's row types): the entry is used only while
    it is unchanged too.
    """
    if text is None:
        text = read_text(location)
    source_text = text

    def build() -> dict[str, Any]:
        data = load_toml_text(source_text, source)
        if check is not None:
            check(data)
        return data

    key = text.encode("utf-8") + (b"\0" + depends.encode("utf-8") if depends else b"")
    return cached(f"{_CACHE_FORMAT}\0{os.path.abspath(location)}", digest(key), build)


def load_toml_text(text: str, source: str) -> dict[str, Any]:
    """Parse TOML text; a syntax error is a :class:`~critcore.errors.TableError`, one line naming
    the file (``source``) and line."""
    from critcore.files.toml import decode_error, parser
    from critcore.errors import TableError

    tomllib = parser()
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TableError(decode_error(source, exc, text)) from None


def load_data(package: str, name: str) -> dict[str, Any]:
    """A TOML data file shipped in ``package`` (e.g. ``load_data("critcore_gurps.data", "locations.toml")``)."""
    folder = package_dir(package)
    location = os.path.join(folder, name) if folder is not None else f"{package}:{name}"
    return load_toml(location, f"{package}/{name}")
