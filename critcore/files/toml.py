"""TOML helpers. ``parser()`` imports ``tomllib`` (3.11+) or the ``tomli`` backport only when a
file really has to be parsed: most commands read cached tables and never need it."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import Protocol

    class TomlParser(Protocol):
        """What the core uses of ``tomllib`` (or ``tomli``)."""

        @property
        def TOMLDecodeError(self) -> type[ValueError]: ...

        def loads(self, s: str, /) -> dict[str, Any]: ...


def parser() -> TomlParser:
    """The tomllib module (imported on first use)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    return tomllib


def key_line(text: str, key: str, section: str | None = None) -> int | None:
    """The 1-based line where ``key = ...`` is set (inside ``[section]`` if given), or None.

    tomllib does not report positions of values, so errors about a value's meaning find the
    line this way to point the user at it.
    """
    import re

    in_section = section is None
    header = re.compile(r"^\s*\[+\s*([^\]]+?)\s*\]+")
    key_re = re.compile(r"^\s*[\"']?" + re.escape(key) + r"[\"']?\s*=")
    for number, line in enumerate(text.splitlines(), 1):
        m = header.match(line)
        if m:
            in_section = section is not None and m[1].replace('"', "").replace("'", "") == section
            if section is None:
                in_section = False
            continue
        if in_section and key_re.match(line):
            return number
    return None


def header_line(text: str, section: str) -> int | None:
    """The line (1-based) of the header ``[section]`` (or ``[[section]]``) in a TOML text."""
    for number, line in enumerate(text.splitlines(), 1):
        rest = line.strip()
        if rest.startswith("[") and "]" in rest:
            name = rest.lstrip("[").split("]", 1)[0]
            if ".".join(p.strip().strip("\"'") for p in name.split(".")) == section:
                return number
    return None


def at(source: str, text: str | None, key: str | None, section: str | None = None) -> str:
    """``"FILE, line N"`` for an error: the line of ``key = ...`` in ``[section]`` (the top of the
    file with None), else of the header ``[section.key]``, else of ``[section]``; just ``FILE``
    when none is found (or there is no text)."""
    line = None
    if text is not None:
        if key is not None:
            line = key_line(text, key, section) or header_line(text, f"{section}.{key}" if section else key)
        if not line and section is not None:
            line = header_line(text, section)
    return f"{source}, line {line}" if line else source


def decode_error(source: str, exc: Exception, text: str) -> str:
    """One line for a TOML syntax error: ``FILE, line N: not valid TOML: what (column C)``."""
    import re

    message = str(exc)
    m = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if m:
        return f"{source}, line {m[1]}: not valid TOML: {message[: m.start()]} (column {m[2]})"
    if message.endswith("(at end of document)"):
        line = max(1, len(text.splitlines()))
        return f"{source}, line {line}: not valid TOML: {message[: -len(' (at end of document)')]} (at the end)"
    return f"{source}: not valid TOML: {message}"


def __getattr__(name: str) -> Any:
    if name == "tomllib":  # ``from critcore.files.toml import tomllib`` still works
        return parser()
    raise AttributeError(f"module 'critcore.files.toml' has no attribute {name!r}")
