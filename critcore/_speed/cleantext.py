"""Private: a change's words that are clean already, only capitalised.

:mod:`critcore.report.severity` cleans each change a system ranks (``critcore_changes``): its
words joined by single spaces (``" ".join(text.split())``), a trailing full stop or semicolon
dropped, the first letter a capital. A system's own lines are clean already (GURPS's seven or
eight a hit are), and :func:`clean_capitalised` answers those with the capital alone, without
splitting and joining: a request of ``crit serve`` ranks them once (docs/architecture.md, "Speed
machinery"). Every whitespace character ``str.split`` splits on but the space is unprintable,
so a printable text with no double space, not starting with a space and not ending with a
space, a full stop or a semicolon is one that splitting, joining and stripping leave as it is.
``tests/test_core_severity.py`` holds the two to the same answers (hypothesis).

May import: the standard library only.
"""

from __future__ import annotations


def clean_capitalised(text: str) -> str | None:
    """``text`` with its first letter a capital when cleaning would change nothing else; None
    when it would (the caller cleans it then)."""
    if text[-1:] not in " .;" and text[0] != " " and "  " not in text and text.isprintable():
        return text[0].upper() + text[1:]
    return None  # empty, spaces to collapse, a stop to drop or a character split on
