"""What every match of one of the importer's patterns needs: the texts that let a Pattern
(:mod:`critcore_battletech.records`) skip a name without compiling or running it. Worked out when
the catalog's frame is made (:mod:`critcore_battletech.data.frame`, kept between commands), and
on first use for a module's own few patterns. This module imports nothing else of the plugin.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

def needs(pattern: str) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """What every match of ``pattern`` contains, for a filter that skips hopeless texts without
    compiling: for each alternative, the texts it needs, each given as a choice (``("lrm",),
    ("p", "primitive")`` for ``lrm(\\d+)(?:p|primitive)$``: "lrm", and "p" or "primitive"); ()
    when some alternative needs nothing this can see. The catalog works these out once and keeps
    them with its frame."""
    if _PLAIN_OR_BAR.issuperset(pattern):  # plain words: each alternative needs itself
        words = pattern.split("|")
        return () if not all(words) else tuple(((w,),) for w in words)
    out = []
    for alt in _alternatives(pattern):
        found = _requires(alt)
        if not found:
            return ()
        out.append(tuple(found))
    return tuple(out)


Filter = tuple[tuple[str, ...], tuple[tuple[tuple[str, ...], ...], ...]]


def filter_of(pattern: str, lower: bool) -> Filter:
    """The filter a Pattern checks a text with: (one text each alternative needs, or () when some
    alternative needs only choices; all that each alternative needs, see :func:`needs`), in
    lower case when the case is ignored (``lower``)."""
    # with the case ignored, what the pattern in lower case needs (escapes and classes, where
    # case means something to re, only end literal runs here)
    found = needs(pattern.lower() if lower else pattern)
    quick = []
    for alt in found:
        single = [req[0] for req in alt if len(req) == 1]
        if not single:
            return (), found
        quick.append(max(single, key=len))
    return tuple(quick), found


def _skip_quantifier(a: str, i: int) -> int:
    """The index after a quantifier at ``i`` (and its lazy or possessive mark), or ``i``."""
    if i < len(a) and a[i] in "?*+":
        i += 1
    elif i < len(a) and a[i] == "{" and "}" in a[i:]:
        i = a.index("}", i) + 1
    else:
        return i
    return i + 1 if i < len(a) and a[i] in "?+" else i


def _requires(a: str) -> list[tuple[str, ...]]:
    """The texts one alternative (no ``|`` outside groups) needs, each a choice of texts: its
    runs of literal characters outside groups (a character that may be left out or repeated
    ends a run), and for each group that must match the literal starts of its alternatives."""
    reqs: list[tuple[str, ...]] = []
    run: list[str] = []

    def end_run() -> None:
        if run:
            reqs.append(("".join(run),))
            run.clear()

    i = 0
    while i < len(a):
        c = a[i]
        if c == "(":
            end_run()
            close = _close(a, i)
            if close < 0:
                break
            body = a[i:close + 1]
            j = close + 1
            if j < len(a) and a[j] in "?*{":
                i = _skip_quantifier(a, j)  # a group that may be left out needs nothing
                continue
            if body.startswith("(?:") or not body.startswith("(?"):
                inner = _literals(body[3:-1] if body.startswith("(?:") else body[1:-1])
                if inner:
                    reqs.append(inner)
            i = _skip_quantifier(a, j)  # lookarounds and flag groups: nothing needed
            continue
        if c == "\\" and i + 1 < len(a) and a[i + 1] in "()/-.'":
            ch, width = a[i + 1], 2
        elif c in _PLAIN:
            # a run of plain characters at once (one character at a time is slow in Python)
            found = _NOT_PLAIN.search(a, i)
            end = found.start() if found is not None else len(a)
            if end - i > 1:
                # all but the last; the last goes the one-character way below (it may be optional)
                run.append(a[i:end - 1])
                i = end - 1
            ch, width = a[i], 1
        else:  # a class, an escape, an anchor, "." ...: ends the run
            end_run()
            if c == "[":
                i = _class_end(a, i) + 1
            else:
                i += 2 if c == "\\" else 1
            i = _skip_quantifier(a, i)
            continue
        q = a[i + width] if i + width < len(a) else ""
        if q in ("?", "*", "{"):
            end_run()
            i = _skip_quantifier(a, i + width)
        elif q == "+":
            run.append(ch)
            end_run()
            i = _skip_quantifier(a, i + width)
        else:
            run.append(ch)
            i += width
    end_run()
    return reqs


_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -/'")
_PLAIN_OR_BAR = _PLAIN | {"|"}


def _literals(pattern: str) -> tuple[str, ...] | None:
    """Texts one of which every match of ``pattern`` contains, or None when that cannot be said:
    for each alternative its literal start, passing over what matches no text (``^``, ``\b``, a
    lookbehind) and any group that may be left out (``(?:ba)?advancedsrm`` gives
    ``advancedsrm``); an alternative starting with a group that must match gives the literals of
    the group's own alternatives."""
    out: list[str] = []
    for alt in _alternatives(pattern):
        found = _leading(alt)
        if found is None:
            return None
        out += [x for x in found if x not in out]
    return tuple(out)


def _leading(a: str) -> list[str] | None:
    while True:
        if a.startswith("^"):
            a = a[1:]
        elif a.startswith("\\b"):
            a = a[2:]
        elif a.startswith("(?<!") or a.startswith("(?<="):
            close = _close(a, 0)
            if close < 0:
                return None
            a = a[close + 1:]
        elif a.startswith("(") and (a.startswith("(?:") or not a.startswith("(?")):
            close = _close(a, 0)
            if close < 0:
                return None
            if a[close + 1:close + 2] in ("?", "*", "{"):
                a = a[close + 1:]
                a = a[a.index("}") + 1:] if a.startswith("{") and "}" in a else a[1:]
                if a.startswith("?") or a.startswith("+"):  # lazy or possessive
                    a = a[1:]
                continue  # the group may be left out: what follows it is certain
            inner = _literals(a[3 if a.startswith("(?:") else 1:close])
            return None if inner is None else list(inner)
        else:
            break
    lit = ""
    i = 0
    while i < len(a):
        found = _NOT_PLAIN.search(a, i)  # a run of plain characters at once
        end = found.start() if found is not None else len(a)
        lit += a[i:end]
        i = end
        if i + 1 < len(a) and a[i] == "\\" and a[i + 1] in "()/-":
            lit += a[i + 1]
            i += 2
            continue
        break
    if i < len(a) and a[i] in "?*{" and lit:
        lit = lit[:-1]  # an optional last character is not certain
    return [lit] if lit else None


def _structure(pattern: str, start: int = 0) -> Iterator[tuple[int, str, int]]:
    """Each ``(``, ``)`` and ``|`` outside escapes and classes from ``start`` on: its index, the
    character, and the group depth after it (an escaped character and a class are stepped over)."""
    depth = 0
    m = _STRUCTURE.search(pattern, start)
    while m is not None:
        i = m.start()
        c = pattern[i]
        if c == "\\":
            i += 1
        elif c == "[":
            i = _class_end(pattern, i)
        else:
            depth += 1 if c == "(" else -1 if c == ")" else 0
            yield i, c, depth
        m = _STRUCTURE.search(pattern, i + 1)


def _alternatives(pattern: str) -> list[str]:
    """The pattern split at each ``|`` outside groups and classes."""
    if "(" not in pattern and "[" not in pattern and "\\" not in pattern:
        return pattern.split("|")
    out = []
    start = 0
    for i, c, depth in _structure(pattern):
        if c == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
    out.append(pattern[start:])
    return out


def _class_end(pattern: str, i: int) -> int:
    """The index of the ``]`` closing the class opened at ``i``."""
    j = i + 1
    if j < len(pattern) and pattern[j] == "^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j


def _close(pattern: str, i: int) -> int:
    """The index of the ``)`` closing the group opened at ``i``, or -1."""
    return next((j for j, c, depth in _structure(pattern, i) if c == ")" and depth == 0), -1)


# where the structure of a pattern can change: the scans above jump from one to the next (this
# module is read only when the catalog's frame is made, so compiling these costs a unit nothing)
_STRUCTURE = re.compile(r"[\\\[()|]")
_NOT_PLAIN = re.compile(r"[^a-zA-Z0-9 \-/']")
