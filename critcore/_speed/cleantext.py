"""Private: a change's text tidied without splitting it into words when it has nothing to fold.

:mod:`critcore.report.severity` tidies each change a system ranks (``critcore_changes``): its
words joined by single spaces (``" ".join(text.split())``), a trailing full stop or semicolon
dropped, the first letter a capital (``severity._clean``). A system's own lines mostly come
tidy already (GURPS's seven or eight a hit do), and :func:`tidy` splits and joins only a text
that has something to fold: every whitespace character ``str.split`` splits on but the space is
unprintable, so a printable text with no double space and no space at either end is one that
splitting and joining leave as it is. ``crit serve``'s stateless resolve ranks them at every
request (docs/architecture.md, "Speed machinery"). ``tests/test_core_severity.py`` holds it to
``_clean`` (hypothesis).

May import: the standard library only.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=4096)
def tidy(text: str) -> str:
    """``severity._clean(text)``: the words joined by single spaces, without a trailing full
    stop or semicolon, the first letter a capital."""
    if not text.isprintable() or "  " in text or text[:1] == " " or text[-1:] == " ":
        text = " ".join(text.split())
    text = text.rstrip(".;")
    first = text[:1]
    return text if first == first.upper() else first.upper() + text[1:]
