"""Small building blocks of the .mtf importer, shared by the reader (:mod:`..mtf`) and the
catalog (:mod:`.data.catalog`): plain records, lazily compiled regular expressions, and the
look-up form of a name. This module imports nothing else of the plugin.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Optional, Union

_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def norm(name: str) -> str:
    """A name compared without case, spaces or punctuation: ``"LRM-20"`` -> ``"lrm20"``."""
    return "".join(filter(_ALNUM.__contains__, name.lower()))  # no regular expression to compile at import


class Fields:
    """A record of plain attributes given by keyword: unlike a named tuple or a dataclass, no
    code is generated when the class is defined, so defining the importer's classes costs its
    start-up nothing (the annotations list the fields; a default is a class attribute)."""

    def __init__(self, **fields: Any) -> None:
        declared = type(self).__dict__.get("__annotations__", {})
        unknown = [name for name in fields if name not in declared]
        if unknown:  # a misspelt field (one left out is read from the class, or made later: Catalog)
            raise TypeError(f"{type(self).__name__} has no field(s) {', '.join(unknown)}")
        self.__dict__.update(fields)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"


class Record:
    """A small value record of the importer (what a slot name is): its fields are its
    ``__slots__``, set by the subclass's ``__init__``; records of one class with equal fields are
    equal and hash alike, and :meth:`astuple` gives the fields as the plain tuple the kept answers
    hold (:mod:`critcore_battletech.unitcache`). Defining one generates no code, where each
    ``NamedTuple`` compiled its ``__new__`` at every start-up that imports a unit (0.7 M
    instructions a class, four classes)."""

    __slots__: tuple[str, ...] = ()

    def astuple(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__slots__])

    def __eq__(self, other: object) -> bool:
        return other is self or (type(other) is type(self) and isinstance(other, Record)
                                 and self.astuple() == other.astuple())

    def __hash__(self) -> int:
        return hash(self.astuple())

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self.astuple()!r}"


class Pattern:
    """A regular expression of the data, worked out the first time it is needed (a unit file uses
    a few of the hundred-odd patterns) and skipped without any work when the text lacks every
    literal a match must contain. A pattern in the small part of the syntax the data uses
    (:func:`lite`) is matched on ASCII text by a small matcher of its own, with no
    :func:`re.compile`: compiling costs 0.25-1 million instructions a pattern, a dozen of them
    a fifth of the start-up a unit file never imported adds (docs/architecture.md, "Speed
    machinery"); anything else (other syntax, other text) goes to :mod:`re`, whose answers the
    matcher's are tested against."""

    __slots__ = ("text", "lower", "_needs", "_rx", "_lite")

    def __init__(self, text: str, ignore_case: bool = False) -> None:
        self.text = text
        self.lower = ignore_case
        self._needs: Any = _UNSET  # worked out on first use, like the matcher
        self._rx: re.Pattern[str] | None = None
        self._lite: Any = _UNSET

    def _compiled(self) -> re.Pattern[str]:
        rx = self._rx
        if rx is None:
            rx = self._rx = re.compile(self.text, re.IGNORECASE if self.lower else 0)
        return rx

    def _matcher(self, s: str) -> Lite | None:
        """The small matcher for ``s`` (ASCII), or None when :mod:`re` must answer."""
        found = self._lite
        if found is _UNSET:
            found = self._lite = lite(self.text, self.lower)
        return found if found is not None and s.isascii() else None

    def _hopeless(self, s: str) -> bool:
        needs = self._needs
        if needs is _UNSET:
            needs = _literals(self.text)
            if needs is not None and self.lower:
                needs = tuple(x.lower() for x in needs)
            self._needs = needs
        if needs is None:
            return False
        if self.lower:
            s = s.lower()
        return not any(x in s for x in needs)

    def search(self, s: str) -> Found | None:
        if self._hopeless(s):
            return None
        m = self._matcher(s)
        return m.search(s) if m is not None else self._compiled().search(s)

    def match(self, s: str) -> Found | None:
        if self._hopeless(s):
            return None
        m = self._matcher(s)
        return m.search(s, anchored=True) if m is not None else self._compiled().match(s)

    def sub(self, repl: str, s: str) -> str:
        if self._hopeless(s):
            return s
        m = self._matcher(s)
        if m is not None and "\\" not in repl:
            done = m.sub(repl, s)
            if done is not None:
                return done
        return self._compiled().sub(repl, s)


_UNSET = object()
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -/'")


def _literals(pattern: str) -> tuple[str, ...] | None:
    """Texts one of which every match of ``pattern`` contains: the literal start of each
    alternative (split at every ``|``, so alternatives inside groups only add candidates), or
    None when an alternative starts with no certain literal text. A lookbehind at the start
    (``(?<!n)gauss``) matches no text and is passed over; a group that may be left out
    (``(?:ba)?srm``) is not certain, so its alternative gives none."""
    out = []
    for alt in pattern.split("|"):
        a = alt
        while True:
            if a.startswith("(?<!") or a.startswith("(?<="):
                close = a.find(")")
                if close < 0 or "(" in a[4:close]:
                    return None
                a = a[close + 1:]
            elif a.startswith("(?:"):
                a = a[3:]
            elif a.startswith("(") and not a.startswith("(?"):
                a = a[1:]
            elif a.startswith("^"):
                a = a[1:]
            elif a.startswith("\\b"):
                a = a[2:]
            else:
                break
        lit = []
        i = 0
        while i < len(a):
            c = a[i]
            if c == "\\" and i + 1 < len(a) and a[i + 1] in "()/-":
                lit.append(a[i + 1])
                i += 2
                continue
            if c not in _PLAIN:
                break
            lit.append(c)
            i += 1
        if i < len(a) and a[i] in "?*{" and lit:
            lit.pop()  # an optional last character is not certain
        elif i < len(a) and a[i] == ")" and i + 1 < len(a) and a[i + 1] in "?*{":
            return None  # the literal ends a group that may be left out: nothing in it is certain
        text = "".join(lit)
        if not text:
            return None
        out.append(text)
    return tuple(out)


# --- the small matcher ---------------------------------------------------------------------------
# A backtracking matcher for the part of the regular-expression syntax the importer's data uses:
# literal characters (and \( \) \. \/ \- \' escapes), . \d \s \w and [...] classes, groups
# ( ) (?: ) (?i: ), ? on anything, * and + on one character, alternatives |, anchors ^ $ \b,
# lookahead (?= ) (?! ) and a literal lookbehind (?<! ) (?<= ). Text is ASCII only (Unicode case
# and classes are re's business). Each node is a function (s, i, caps, k) -> end or None, trying
# its ways in re's order (alternatives left first, repeats longest first) and calling k, the rest
# of the pattern, at each, so that captures and the answers are those of re.

Cont = Callable[[int], Optional[int]]
Node = Callable[[str, int, list, Cont], Optional[int]]  # type: ignore[type-arg]  # caps: list of spans


class Unsupported(Exception):
    """The pattern uses syntax the small matcher leaves to :mod:`re`."""


class LiteMatch:
    """A match of the small matcher: the same questions as :class:`re.Match` answers."""

    __slots__ = ("string", "spans")

    def __init__(self, string: str, spans: list[tuple[int, int] | None]) -> None:
        self.string = string
        self.spans = spans  # group 0 first

    def group(self, n: int = 0, /) -> str | Any:
        span = self.spans[n]
        return None if span is None else self.string[span[0]:span[1]]

    def groups(self) -> tuple[str | Any, ...]:
        return tuple([self.group(n) for n in range(1, len(self.spans))])

    def start(self, n: int = 0, /) -> int:
        span = self.spans[n]
        return -1 if span is None else span[0]

    def end(self, n: int = 0, /) -> int:
        span = self.spans[n]
        return -1 if span is None else span[1]


#: What a search answers: re's match or the small matcher's (the same questions answered alike).
Found = Union["LiteMatch", "re.Match[str]"]


class Lite:
    """A pattern made into the small matcher's nodes (:func:`lite`)."""

    __slots__ = ("node", "groups")

    def __init__(self, node: Node, groups: int) -> None:
        self.node = node
        self.groups = groups

    def search(self, s: str, pos: int = 0, anchored: bool = False) -> LiteMatch | None:
        node = self.node
        for start in range(pos, pos + 1 if anchored else len(s) + 1):
            caps: list[tuple[int, int] | None] = [None] * (self.groups + 1)
            end = node(s, start, caps, _done)
            if end is not None:
                caps[0] = (start, end)
                return LiteMatch(s, caps)
        return None

    def sub(self, repl: str, s: str) -> str | None:
        """``s`` with every match replaced by ``repl`` (plain text), or None when a match is
        empty (re's rules for those are left to re)."""
        out = []
        pos = 0
        while pos <= len(s):
            m = self.search(s, pos)
            if m is None:
                break
            start, end = m.spans[0]  # type: ignore[misc]
            if start == end:
                return None
            out.append(s[pos:start])
            out.append(repl)
            pos = end
        out.append(s[pos:])
        return "".join(out)


def _done(i: int) -> int | None:
    return i


def lite(pattern: str, ignore_case: bool = False) -> Lite | None:
    """The small matcher of ``pattern``, or None when it uses syntax left to :mod:`re`."""
    try:
        parser = _Parser(pattern)
        node = parser.alternatives(ignore_case)
        if parser.i != len(pattern):
            raise Unsupported(pattern)
        return Lite(node, parser.groups)
    except Unsupported:
        return None


def _word(c: str) -> bool:
    return c.isalnum() or c == "_"


_CLASSES: dict[str, Callable[[str], bool]] = {
    "d": lambda c: "0" <= c <= "9", "s": str.isspace, "w": _word,
}
_LITERAL_ESCAPES = frozenset("()./-'[]?*+|^$\\ ")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.groups = 0

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def alternatives(self, icase: bool) -> Node:
        options = [self.sequence(icase)]
        while self.peek() == "|":
            self.i += 1
            options.append(self.sequence(icase))
        if len(options) == 1:
            return options[0]

        def either(s: str, i: int, caps: list, k: Cont) -> int | None:  # type: ignore[type-arg]
            for option in options:
                r = option(s, i, caps, k)
                if r is not None:
                    return r
            return None
        return either

    def sequence(self, icase: bool) -> Node:
        items: list[Node] = []
        while self.peek() not in ("", "|", ")"):
            items.append(self.quantified(icase))
        return _chain(items)

    def quantified(self, icase: bool) -> Node:
        start = self.i
        node, single = self.atom(icase)
        q = self.peek()
        if q == "{" or (q in ("*", "+") and not single):
            raise Unsupported(self.text)
        if q in ("?", "*", "+"):
            self.i += 1
            if self.peek() in ("?", "+"):  # lazy or possessive
                raise Unsupported(self.text)
            if self.text[start] in "^$" or self.text[start:start + 2] in ("\\b", "(?"):
                if not self.text[start:start + 3] in ("(?:", "(?i"):
                    raise Unsupported(self.text)  # a quantified assertion
            return _repeat(node, 0 if q != "+" else 1, 1 if q == "?" else None)
        return node

    def atom(self, icase: bool) -> tuple[Node, bool]:
        """(the node, whether it matches exactly one character)."""
        t = self.text
        c = self.peek()
        if c == "(":
            return self.group(icase), False
        if c in ("*", "+", "?", "{", "}", ")", "]", ""):
            raise Unsupported(t)
        self.i += 1
        if c == "^":
            return _at_start, False
        if c == "$":
            return _at_end, False
        if c == ".":
            return _one(lambda ch: ch != "\n"), True
        if c == "[":
            return _one(self.char_class(icase)), True
        if c == "\\":
            e = self.peek()
            self.i += 1
            if e == "b":
                return _boundary, False
            if e in _CLASSES:
                return _one(_CLASSES[e]), True
            if e in _LITERAL_ESCAPES:
                return _literal(e, icase), True
            raise Unsupported(t)
        return _literal(c, icase), True

    def group(self, icase: bool) -> Node:
        t = self.text
        self.i += 1
        if t.startswith("?:", self.i):
            self.i += 2
            inner = self.alternatives(icase)
            index = None
        elif t.startswith("?i:", self.i):
            self.i += 3
            inner = self.alternatives(True)
            index = None
        elif t.startswith("?=", self.i) or t.startswith("?!", self.i):
            negate = t[self.i + 1] == "!"
            self.i += 2
            inner = self.alternatives(icase)
            self.close()
            return _ahead(inner, negate)
        elif t.startswith("?<!", self.i) or t.startswith("?<=", self.i):
            negate = t[self.i + 2] == "!"
            self.i += 3
            end = t.find(")", self.i)
            text = t[self.i:end] if end >= 0 else ""
            if not text or any(not (ch.isalnum() or ch in " -") for ch in text):
                raise Unsupported(t)
            self.i = end + 1
            return _behind(text, icase, negate)
        elif t.startswith("?", self.i):
            raise Unsupported(t)
        else:
            self.groups += 1
            index = self.groups
            inner = self.alternatives(icase)
        self.close()
        return inner if index is None else _capture(inner, index)

    def close(self) -> None:
        if self.peek() != ")":
            raise Unsupported(self.text)
        self.i += 1

    def char_class(self, icase: bool) -> Callable[[str], bool]:
        t = self.text
        negate = self.peek() == "^"
        if negate:
            self.i += 1
        chars: set[str] = set()
        tests: list[Callable[[str], bool]] = []
        first = True
        while True:
            c = self.peek()
            if c == "":
                raise Unsupported(t)
            if c == "]" and not first:
                self.i += 1
                break
            first = False
            self.i += 1
            if c == "\\":
                e = self.peek()
                self.i += 1
                if e in _CLASSES:
                    tests.append(_CLASSES[e])
                    continue
                if e not in _LITERAL_ESCAPES:
                    raise Unsupported(t)
                c = e
            elif c == "[":
                raise Unsupported(t)
            if self.peek() == "-" and self.i + 1 < len(t) and t[self.i + 1] != "]":
                hi = t[self.i + 1]
                if hi == "\\" or hi == "[" or not (c.isalnum() and hi.isalnum() and c.isascii() and hi.isascii()):
                    raise Unsupported(t)
                self.i += 2
                chars.update(chr(x) for x in range(ord(c), ord(hi) + 1))
            else:
                chars.add(c)
        if icase:
            chars |= {x.lower() for x in chars} | {x.upper() for x in chars}
        members = frozenset(chars)

        def test(ch: str) -> bool:
            return (ch in members or any(f(ch) for f in tests)) != negate
        return test


def _chain(items: list[Node]) -> Node:
    if not items:
        return lambda s, i, caps, k: k(i)
    if len(items) == 1:
        return items[0]
    first, rest = items[0], _chain(items[1:])
    return lambda s, i, caps, k: first(s, i, caps, lambda j: rest(s, j, caps, k))


def _literal(c: str, icase: bool) -> Node:
    if icase and c.lower() != c.upper():
        low = c.lower()
        return lambda s, i, caps, k: k(i + 1) if i < len(s) and s[i].lower() == low else None
    return lambda s, i, caps, k: k(i + 1) if i < len(s) and s[i] == c else None


def _one(test: Callable[[str], bool]) -> Node:
    return lambda s, i, caps, k: k(i + 1) if i < len(s) and test(s[i]) else None


def _at_start(s: str, i: int, caps: list, k: Cont) -> int | None:  # type: ignore[type-arg]
    return k(i) if i == 0 else None


def _at_end(s: str, i: int, caps: list, k: Cont) -> int | None:  # type: ignore[type-arg]
    return k(i) if i == len(s) or (i == len(s) - 1 and s[i] == "\n") else None


def _boundary(s: str, i: int, caps: list, k: Cont) -> int | None:  # type: ignore[type-arg]
    before = i > 0 and _word(s[i - 1])
    after = i < len(s) and _word(s[i])
    return k(i) if before != after else None


def _ahead(inner: Node, negate: bool) -> Node:
    def look(s: str, i: int, caps: list, k: Cont) -> int | None:  # type: ignore[type-arg]
        kept = list(caps)
        found = inner(s, i, caps, _done) is not None
        if found == negate:
            caps[:] = kept
            return None
        if negate:
            caps[:] = kept
        r = k(i)
        if r is None:
            caps[:] = kept
        return r
    return look


def _behind(text: str, icase: bool, negate: bool) -> Node:
    n = len(text)
    want = text.lower() if icase else text

    def look(s: str, i: int, caps: list, k: Cont) -> int | None:  # type: ignore[type-arg]
        seen = s[i - n:i] if i >= n else None
        found = seen is not None and (seen.lower() if icase else seen) == want
        return k(i) if found != negate else None
    return look


def _capture(inner: Node, index: int) -> Node:
    def group(s: str, i: int, caps: list, k: Cont) -> int | None:  # type: ignore[type-arg]
        def after(j: int) -> int | None:
            old = caps[index]
            caps[index] = (i, j)
            r = k(j)
            if r is None:
                caps[index] = old
            return r
        return inner(s, i, caps, after)
    return group


def _repeat(inner: Node, least: int, most: int | None) -> Node:
    def rep(s: str, i: int, caps: list, k: Cont, count: int = 0) -> int | None:  # type: ignore[type-arg]
        if most is None or count < most:
            def again(j: int) -> int | None:
                if j == i and count >= least:  # an empty turn ends the repeat
                    return None
                return rep(s, j, caps, k, count + 1)
            r = inner(s, i, caps, again)
            if r is not None:
                return r
        return k(i) if count >= least else None
    return rep
