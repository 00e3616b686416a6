"""Reading TOML data shipped inside a package, quickly.

A system's tables and data files are parsed on every ``crit`` command. Parsing TOML (and
importing the parser) costs several milliseconds of a start-up budget of a few tens, so the
parsed data is kept in a small cache (``~/.cache/critcore``, or ``$XDG_CACHE_HOME/critcore``) in
:mod:`marshal` form, keyed by the file's path, size and modification time. A cache that cannot be
read or written is simply not used; ``CRITCORE_CACHE=0`` turns it off.

Files are found beside the package's ``__init__.py`` (no :mod:`importlib.resources`, which pulls
in zipfile, pathlib and more); packages that are not plain folders fall back to it.
"""

from __future__ import annotations

import marshal
import os
import sys
from typing import Any

_CACHE_FORMAT = 1


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


def _cache_dir() -> str | None:
    if os.environ.get("CRITCORE_CACHE", "1") == "0":
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "critcore")


def _cache_key(location: str) -> str | None:
    try:
        st = os.stat(location)
    except OSError:
        return None
    return f"{_CACHE_FORMAT}\0{os.path.abspath(location)}\0{st.st_size}\0{st.st_mtime_ns}"


def _cache_file(folder: str, key: str) -> str:
    # FNV-1a (64 bits) of the key: a stable name without importing zlib or hashlib at start-up
    h = 0xCBF29CE484222325
    for byte in key.encode():
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return os.path.join(folder, f"{h:016x}.marshal")


def load_toml(location: str, source: str, text: str | None = None) -> dict[str, Any]:
    """Parsed TOML of a shipped file (cached); syntax errors raise TableError naming ``source``."""
    folder = _cache_dir()
    key = _cache_key(location) if folder else None
    if folder and key:
        try:
            with open(_cache_file(folder, key), "rb") as fh:
                stored_key, data = marshal.loads(fh.read())  # one read: marshal.load(fh) reads piecemeal, 4x slower
            if stored_key == key and isinstance(data, dict):
                return data
        except (OSError, ValueError, EOFError, TypeError):
            pass
    from .tables import load_toml_text

    data = load_toml_text(read_text(location) if text is None else text, source)
    if folder and key:
        try:
            os.makedirs(folder, exist_ok=True)
            blob = marshal.dumps((key, data))
            dest = _cache_file(folder, key)
            tmp = f"{dest}.{os.getpid()}.tmp"
            with open(tmp, "wb") as fh:
                fh.write(blob)
            os.replace(tmp, dest)
        except (OSError, ValueError):
            pass
    return data


def load_data(package: str, name: str) -> dict[str, Any]:
    """A TOML data file shipped in ``package`` (e.g. ``load_data("critcore_gurps.data", "locations.toml")``)."""
    folder = package_dir(package)
    location = os.path.join(folder, name) if folder is not None else f"{package}:{name}"
    return load_toml(location, f"{package}/{name}")
