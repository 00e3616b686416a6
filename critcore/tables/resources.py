"""Reading TOML data shipped inside a package, quickly.

A system's tables and data files are parsed on every ``crit`` command; the parsed data is kept
between commands by the disk cache behind the speed seam (:mod:`critcore._speed.diskcache`).

Files are found beside the package's ``__init__.py`` (no :mod:`importlib.resources`, which pulls
in zipfile, pathlib and more); packages that are not plain folders fall back to it.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable

from critcore._speed.diskcache import CACHE_FORMAT, cached, digest


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


def load_toml(location: str, source: str, text: str | None = None,
              check: Callable[[dict[str, Any]], None] | None = None, depends: str = "",
              entry: str = "") -> dict[str, Any]:
    """Parsed TOML of a shipped file (cached); syntax errors raise TableError naming ``source``.

    ``check(data)`` runs whenever the file is parsed (not when a cache entry is used): an entry
    is made only from data that passed it, and the entry is used only while the file is the
    same, so a shipped table's rows are checked once, not at every start-up.

    A cache entry (:func:`cached`) holds the content hash (BLAKE2b) of the file it was made from
    and of the parsed data it holds: it is used only when both match, so an edited table file or
    an edited (or damaged) entry is parsed again from the file, never trusted. ``depends`` is
    the text of another file ``check`` reads (a system's row types): the entry is used only while
    it is unchanged too. ``entry`` names a separate entry for the same file (a reader whose
    ``check`` differs keeps its own, rather than taking turns at one with the plain reader).
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
    return cached(f"{CACHE_FORMAT}\0{os.path.abspath(location)}{entry}", digest(key), build)


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
