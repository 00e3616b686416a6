"""Colour for a terminal: when to use it, and the styled report made safe, then coloured.

Colour is on only when the output is a terminal, ``NO_COLOR`` is not set (https://no-color.org)
and ``TERM`` is not ``dumb``; ``--color`` / ``--no-color`` decide outright. The text of each
line (which may come from a file: a character's name, a unit's chassis) is made safe first
(:func:`critcore.report.textsafe.printable` shows control characters escaped); the colour codes are
added after, so no text from a file can carry an escape sequence to the terminal.
"""

from __future__ import annotations

import os
from typing import IO, Iterable

from critcore.report.render import STAGE_WORDS, Line

RESET = "\x1b[0m"
STYLES = {
    # the headline by the outcome's severity (critcore.report.severity): a plain hit, a critical
    # miss and a mortal wound no longer look alike; the words say it too (colour is never the only sign)
    "headline": "\x1b[1;33m",              # bold yellow: a headline of no known severity (odds)
    "headline-none": "\x1b[1m",            # bold: nothing happened
    "headline-minor": "\x1b[1;32m",        # bold green: a plain hit, a clumsy miss
    "headline-serious": "\x1b[1;33m",      # bold yellow: a critical that costs something
    "headline-grave": "\x1b[1;31m",        # bold red: lasting harm
    "headline-deadly": "\x1b[1;97;41m",    # bold white on red: someone or something dies
    "title": "\x1b[1m",        # bold
    "stage": "\x1b[36m",       # cyan: the stage's words only
    "roll": "\x1b[2m",         # dim: the dice
    "note": "\x1b[35m",        # magenta
}
_STAGE_PREFIXES = tuple(sorted(set(STAGE_WORDS.values()), key=len, reverse=True))


def use_color(flag: bool | None, stream: IO[str] | None) -> bool:
    """Whether to colour: ``flag`` (``--color``/``--no-color``) if given, else only on a terminal
    without ``NO_COLOR`` and not ``TERM=dumb``."""
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def _safe(text: str) -> str:
    try:
        from critcore.report.textsafe import printable
    except ImportError:  # pragma: no cover - textsafe ships with the core
        return "".join(c if c.isprintable() or c == "\t" else repr(c)[1:-1] for c in text)
    return printable(text)


def _colour(style: str, text: str) -> str:
    if style == "stage":
        for prefix in _STAGE_PREFIXES:
            if text.startswith(prefix):
                return f"{STYLES['stage']}{prefix}{RESET}{text[len(prefix):]}"
        return text
    code = STYLES.get(style)
    return f"{code}{text}{RESET}" if code and text else text


def paint(lines: Iterable[Line], color: bool) -> str:
    """The report's lines as one text, each made safe, coloured when ``color``."""
    out = []
    for style, text in lines:
        safe = _safe(text)
        out.append(_colour(style, safe) if color else safe)
    return "\n".join(out)
