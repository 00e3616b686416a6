"""Text from files and arguments made safe for a terminal, and values shortened for one-line errors.

A character name, a unit's chassis, a house-rule row or a file path may hold control characters
(ESC starts the sequences that clear a screen or set a window title). :func:`printable` shows
them escaped (``\\x1b``), the way Python's ``repr`` would, and leaves every other character,
accented letters and symbols included, as it is. The CLI calls it where human output and error
lines leave the program; ``--json`` output is exact and never goes through it. Code that adds
colour escapes the text first and colours it after.

>>> printable("Bob\\x1b]0;owned\\x07")
'Bob\\\\x1b]0;owned\\\\x07'
>>> printable("line one\\nline two", newlines=True)
'line one\\nline two'
>>> shorten("x" * 100, 20)
'xxxxxxxxxxxxxxxxxxx…'
"""

from __future__ import annotations

import re

# C0 controls (tab and newline are decided by the caller), DEL, C1 controls, and the Unicode
# format characters that reorder or hide text on a terminal (bidi overrides and isolates, zero
# width marks, line and paragraph separators).
_UNSAFE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
_PATTERNS: dict[bool, re.Pattern[str]] = {}  # compiled on first use: most text never needs them

MAX_VALUE = 60
"""Longest quoted value in an error line, in characters (longer ones are shortened with …)."""

MAX_LINE = 400
"""Longest error line, in characters."""


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    if c == "\n":
        return "\\n"
    if c == "\t":
        return "\\t"
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, newlines: bool = False) -> str:
    """``text`` with every control character shown escaped (``\\x1b``, ``\\u202e``).

    With ``newlines=True`` line breaks and tabs stay (multi-line human output); otherwise they
    are escaped too (one line).
    """
    if text.isprintable():  # the common case, answered in C: nothing to escape
        return text
    pattern = _PATTERNS.get(newlines)
    if pattern is None:
        pattern = _PATTERNS[newlines] = re.compile(f"[{_UNSAFE}]" if newlines else f"[\t\n{_UNSAFE}]")
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escape, text)


def shorten(text: str, limit: int = MAX_VALUE) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis when it is longer."""
    if len(text) <= limit:
        return text
    return text[: max(1, limit - 1)] + "…"


def quoted(value: object, limit: int = MAX_VALUE) -> str:
    """A value as an error line quotes it: ``repr`` of text, shortened, on one line; a huge
    whole number by its size (Python will not even turn one of over 4,300 digits into text)."""
    if isinstance(value, str):
        return repr(shorten(value, limit))
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 100:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    return shorten(printable(repr(value)), limit)


LONG_WORD = 160
"""A run of more characters than this without a space (a pasted value) is shortened in an error."""



def error_line(message: str) -> str:
    """An error message as one safe line of reasonable length.

    Control characters and line breaks are escaped, any single run of more than 160 characters
    without a space (a pasted value, a very long path) keeps its start and end around an
    ellipsis, and the whole line is cut at :data:`MAX_LINE` characters.
    """
    line = printable(message)
    if len(line) > LONG_WORD:
        line = re.sub(r"\S{%d,}" % (LONG_WORD + 1), lambda m: m.group()[:100] + "…" + m.group()[-40:], line)
    return shorten(line, MAX_LINE)
