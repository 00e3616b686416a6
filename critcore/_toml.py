"""``tomllib`` on Python 3.11+, the ``tomli`` backport before that."""

import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = ["tomllib"]


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


def decode_error(exc: Exception) -> str:
    """tomllib's message, e.g. 'Expected '=' after a key in a key/value pair (at line 3, column 5)'."""
    return str(exc)
