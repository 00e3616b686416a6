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

A unit file no command has imported yet still needs the importer, but mostly not its catalog:
the slot names of one unit come back in the next (``Medium Laser``, ``ISAmmo AC/20``), and
classifying a name is what needs the equipment data and its regular expressions. So the answers
are kept too, in one entry of the catalog's answers (:func:`known_answers`: slot names, and the
configuration, engine and heat sink texts), under the same hash of the importer, so the
catalog's name data is read, and its regular expressions compiled, only for a text no command
has met. Those answers, once read, live in the engine's reader memo
(:class:`~critcore_battletech.importmemo.ImportMemo`), never in a module global.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, MutableMapping

from critcore._speed.diskcache import cache_dir, cached, digest, read_entry, store, writes_enabled

from . import __version__

if TYPE_CHECKING:
    from .importmemo import ImportMemo

_FORMAT = 1
_HERE = os.path.dirname(os.path.abspath(__file__))
# what the importer is made of: a change to any of these (or to any data file) makes every entry stale
_MODULES = ("units.py", "mtf.py", os.path.join("data", "catalog.py"))


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


def cached_import(text: str, source: str, memo: MutableMapping[str, Any],
                  build: Callable[[str, str, MutableMapping[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """The unit of an .mtf file's ``text``: from the cache when an entry matches, else
    ``build(text, source, memo)`` (which raises on a bad file), kept for the next command.
    ``memo`` is the reader memo the import keeps what it learns in (:mod:`.importmemo`)."""
    if cache_dir() is None:  # the cache off: no need to look at the importer's files
        return build(text, source, memo)
    importer = _fingerprint()  # worked out once a command (a dozen stats: 0.3 M instructions)
    key = digest(b"\0".join([importer, source.encode("utf-8", "surrogatepass"),
                             text.encode("utf-8", "surrogatepass")]))
    # one entry per unit file, named by its absolute path
    name = f"battletech-unit\0{_FORMAT}\0{os.path.abspath(source)}"
    return cached(name, key, lambda: _build(build, text, source, memo, importer), fmt=_FORMAT)


def _build(build: Callable[[str, str, MutableMapping[str, Any]], dict[str, Any]], text: str, source: str,
           memo: MutableMapping[str, Any], importer: bytes) -> dict[str, Any]:
    from .importmemo import import_memo  # only when the unit is not in the cache

    scope = import_memo(memo)
    known_answers(scope, importer)  # read under the importer's hash just worked out
    unit = build(text, source, memo)
    keep_answers(scope)
    return unit


# -- the catalog's answers -----------------------------------------------------------------------

_NAMES_ENTRY = f"battletech-catalog-answers\0{_FORMAT}"
_MOST_NAMES = 20_000  # an entry past this size starts again (MegaMek knows a few thousand names)


def known_answers(scope: ImportMemo, importer: bytes | None = None) -> dict[str, Any]:
    """The catalog's answers given to earlier commands and through this memo: ``{question:
    answer}`` in plain data (see ``units._classify`` and ``units._asked``). Read from the cache
    folder once per memo (:class:`~critcore_battletech.importmemo.ImportMemo`, an engine's); an
    entry made by another importer, or damaged, is not used. ``importer``: the importer's
    fingerprint when the caller has it already (else it is worked out)."""
    found = scope.answers
    if found is None:
        key = digest(importer if importer is not None else _fingerprint())
        kept = read_entry(_NAMES_ENTRY, key, fmt=_FORMAT)
        found = kept if kept is not None and len(kept) < _MOST_NAMES else {}
        scope.answers_key = key
        scope.answers = found
    return found


def kept_data(scope: ImportMemo, name: str, read: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """``read(name)``: one of the catalog's small data files, parsed, kept among the answers, so a
    unit file never imported reads this one entry instead of one entry per file (configurations,
    structure, engines, heat sinks: 1.5 M instructions less). A kept value that is not a table is
    read again."""
    question = f"data\0{name}"
    found = known_answers(scope).get(question)
    if type(found) is dict:
        return found
    data = read(name)
    add_answer(scope, question, data)
    return data


def add_answer(scope: ImportMemo, key: str, answer: Any) -> None:
    """Remember an answer worked out through this memo (kept by :func:`keep_answers`)."""
    names = known_answers(scope)
    if len(names) >= _MOST_NAMES:
        names.clear()
    names[key] = answer
    scope.added = True


def keep_answers(scope: ImportMemo) -> None:
    """Write the answers when some were added through this memo (and this process writes cache
    entries), under the hash of the importer they were read with."""
    if scope.added and scope.answers is not None and writes_enabled():
        store(_NAMES_ENTRY, scope.answers_key, scope.answers, fmt=_FORMAT)
        scope.added = False
