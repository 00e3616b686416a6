"""Small building blocks of the .mtf importer, shared by the reader (:mod:`..mtf`) and the
catalog (:mod:`.data.catalog`): plain records, lazily compiled regular expressions, and the
look-up form of a name. This module imports nothing else of the plugin.
"""

from __future__ import annotations

import re
from typing import Any, Union

_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def norm(name: str) -> str:
    """A name compared without case, spaces or punctuation: ``"LRM-20"`` -> ``"lrm20"``."""
    return "".join(filter(_ALNUM.__contains__, name.lower()))  # no regular expression to compile at import


#: Slot kinds of the unit state contract (docs/systems/battletech.md).
SLOT_KINDS = frozenset({
    "empty", "roll-again", "engine", "gyro", "cockpit", "life-support", "sensors",
    "shoulder", "upper-arm-actuator", "lower-arm-actuator", "hand-actuator",
    "hip", "upper-leg-actuator", "lower-leg-actuator", "foot-actuator",
    "heat-sink", "jump-jet", "ammo", "weapon", "equipment",
})

#: Tech bases an item can belong to in equipment.toml / ammo.toml.
TECHS = ("is", "clan", "any")


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
    """A regular expression of the data, compiled the first time it is needed (a unit file uses
    a few of the hundred-odd patterns, and compiling them all would cost a resolve's start-up)
    and skipped without compiling when the text lacks every literal a match must contain. A
    pattern of plain words (``biped``, ``ammo``, ``heavygauss|hvgauss|hgauss``) is never
    compiled: on ASCII text the string methods answer it (:class:`Words`; each compile costs
    0.25 million instructions or more), tested to answer as :mod:`re` does."""

    __slots__ = ("text", "lower", "_filter", "_rx", "_lite")

    def __init__(self, text: str, ignore_case: bool = False, filter: Any = None) -> None:
        self.text = text
        self.lower = ignore_case
        # what a match needs (:meth:`_make_filter`): given (the catalog keeps it for its
        # patterns) or worked out on first use, like the matcher
        self._filter: Any = filter
        self._rx: re.Pattern[str] | None = None
        self._lite: Any = _UNSET

    def _compiled(self) -> re.Pattern[str]:
        rx = self._rx
        if rx is None:
            rx = self._rx = re.compile(self.text, re.IGNORECASE if self.lower else 0)
        return rx

    def _matcher(self, s: str) -> Words | TechPrefix | None:
        """The plain-words matcher for ``s`` (ASCII), or None when :mod:`re` must answer."""
        found = self._lite
        if found is _UNSET:
            found = self._lite = words(self.text, self.lower)
        return found if found is not None and s.isascii() else None

    def _hopeless(self, s: str) -> bool:
        """Whether ``s`` lacks, for every alternative of the pattern, a text it needs."""
        f = self._filter
        if f is None:
            f = self._filter = self._make_filter()
        quick, needs = f
        if not needs:
            return False
        if self.lower:
            s = s.lower()
        if quick:  # one text each alternative needs: most names have none of them
            for x in quick:
                if x in s:
                    break
            else:
                return True
        for alt in needs:
            for req in alt:
                for x in req:
                    if x in s:
                        break
                else:
                    break  # this alternative lacks a text it needs
            else:
                return False
        return True

    def _make_filter(self) -> tuple[tuple[str, ...], tuple[tuple[tuple[str, ...], ...], ...]]:
        """The filter (:func:`critcore_battletech.needs.filter_of`): the catalog gives its
        patterns theirs, worked out when its frame was made; a module's few work it out here."""
        from .needs import filter_of

        return filter_of(self.text, self.lower)

    def needs(self) -> tuple[tuple[tuple[str, ...], ...], ...]:
        """What a match needs (:func:`critcore_battletech.needs.needs`; () when nothing can be
        said): the catalog's patterns are given theirs, a module's few work it out here."""
        from .needs import needs

        return needs(self.text)

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




#: What a search answers: re's match or the plain words' (the same questions answered alike).
Found = Union["LiteMatch", "re.Match[str]"]

_UNSET = object()
# --- plain words --------------------------------------------------------------------------------

_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ")


class Words:
    r"""A pattern of plain words and little else, answered by the string methods with re's answers
    (the leftmost match; at one place, the first alternative) on ASCII text: ``biped``,
    ``heavygauss|hvgauss|hgauss``, a word followed by a number (``lrm(\d+)``,
    ``(?<![ng])(?:ac|autocannon)(\d+)``: the digits are group 1), a whole word or one at the start
    (``\bfusion\b|^\s*engine``) and the blank text (``single|^\s*$``)."""

    __slots__ = ("words", "forms", "lower", "digits", "behind", "blank")

    def __init__(self, words: tuple[str, ...], lower: bool, digits: bool = False, behind: tuple[str, ...] = (),
                 blank: bool = False, forms: tuple[str, ...] = ()) -> None:
        self.words = tuple(w.lower() for w in words) if lower else words
        self.forms = forms or ("",) * len(words)  # per word: "" anywhere, "b" \bword\b, "s" ^\s*word
        self.lower = lower
        self.digits = digits  # each word is followed by (\d+)
        # (?<!text) or (?<![chars]) before the words: the texts that may not stand just before
        self.behind = tuple(b.lower() for b in behind) if lower else behind
        self.blank = blank  # one more alternative, last: ^\s*$

    def search(self, s: str, anchored: bool = False) -> LiteMatch | None:
        text = s.lower() if self.lower else s
        best = -1
        found = (0, 0)
        for w, form in zip(self.words, self.forms):
            if form == "s":  # ^\s*word: at the start only, after any spaces
                ws = len(text) - len(text.lstrip())
                if text.startswith(w, ws) and best != 0:
                    best, found = 0, (ws + len(w), ws + len(w))
                continue
            at = text.find(w)
            while at >= 0 and (best < 0 or at < best):
                if form == "b" and ((at > 0 and _word(text[at - 1])) or
                                    (at + len(w) < len(text) and _word(text[at + len(w)]))):
                    if anchored:
                        break
                    at = text.find(w, at + 1)
                    continue
                end = self._end(text, at, w)
                if end >= 0 and (at == 0 or not anchored):
                    best, found = at, (at + len(w), end)
                    break
                if anchored:
                    break
                at = text.find(w, at + 1)
        if self.blank and (best != 0 or not self.words) and (s == "" or s.isspace()):
            return LiteMatch(s, [(0, len(s))])  # ^\s*$ at 0, where no word matched first
        if best < 0:
            return None
        if self.digits:
            return LiteMatch(s, [(best, found[1]), found])
        return LiteMatch(s, [(best, found[1])])

    def _end(self, text: str, at: int, w: str) -> int:
        """Where a match of ``w`` found at ``at`` ends, or -1 when it is not one."""
        if any(text[max(0, at - len(b)):at] == b for b in self.behind):
            return -1
        end = at + len(w)
        if self.digits:
            stop = end
            while stop < len(text) and "0" <= text[stop] <= "9":
                stop += 1
            return stop if stop > end else -1
        return end

    def sub(self, repl: str, s: str) -> str | None:
        """``s`` with every match replaced by ``repl``, or None when the string methods cannot
        say it alike (several words, digits, or case ignored on a text with capitals)."""
        if (len(self.words) != 1 or self.digits or self.behind or self.blank or self.forms[0]
                or (self.lower and s != s.lower())):
            return None
        return s.replace(self.words[0], repl)


_BLANK = r"^\s*$"
_DIGITS = r"(\d+)"


def words(pattern: str, ignore_case: bool = False) -> Words | TechPrefix | None:
    """The pattern as :class:`Words` (or the tech prefix's :class:`TechPrefix`), or None when it
    is more than those."""
    if pattern == TECH_PREFIX:
        return None if ignore_case else _TECH_PREFIX
    text = pattern
    behind: tuple[str, ...] = ()
    if text.startswith("(?<!"):
        close = text.find(")")
        inside = text[4:close]
        if len(inside) > 2 and inside[0] == "[" and inside[-1] == "]":  # (?<![ng]): one of the characters
            inside = inside[1:-1]
            behind = tuple(inside)
        else:
            behind = (inside,)
        if close < 0 or not inside or not _WORD_CHARS.issuperset(inside):
            return None
        text = text[close + 1:]
    digits = text.endswith(_DIGITS) and text.count("(") == 1 + text.startswith("(?:")
    if digits:
        text = text[:-len(_DIGITS)]
        if text.startswith("(?:") and text.endswith(")"):
            text = text[3:-1]
    alternatives = text.split("|")
    blank = not digits and len(alternatives) > 1 and alternatives[-1] == _BLANK
    if blank:
        alternatives.pop()
    if behind and not digits:
        return None
    forms = []
    for n, w in enumerate(alternatives):
        form = ""
        if not digits and len(w) > 4 and w.startswith("\\b") and w.endswith("\\b"):
            form, w = "b", w[2:-2]
        elif not digits and w.startswith("^\\s*"):
            form, w = "s", w[4:]
        if form and not (w.isascii() and w.isalnum()):
            return None
        forms.append(form)
        alternatives[n] = w
    if all(w and _WORD_CHARS.issuperset(w) for w in alternatives):
        return Words(tuple(alternatives), ignore_case, digits, behind, blank, tuple(forms))
    return None


#: ammo.toml's ``prefix_pattern``: the tech prefix MegaMek writes before a name ("IS", "CL",
#: "Clan "), as the data spells it (a different text is compiled by re as any other pattern)
TECH_PREFIX = r"^(?:(?i:clan)(?=[A-Z\s])\s*|CL(?=[A-Z0-9\s]|i[A-Z])|IS(?=[A-Z0-9\s]|i[A-Z]))"


class TechPrefix:
    """:data:`TECH_PREFIX` answered by the string methods on ASCII text, as re answers it: "clan" in
    any case before a capital letter or a blank, with the blanks after it; "CL" or "IS" before a
    capital letter, a digit, a blank, or "i" and a capital letter. Compiling it was the last
    regular expression a unit's import compiled (1.2 million instructions)."""

    __slots__ = ()

    def search(self, s: str, anchored: bool = False) -> LiteMatch | None:
        n = len(s)  # the pattern starts with ^: a search finds what a match at the start finds
        if n > 4 and s[:4].lower() == "clan":
            c = s[4]
            if "A" <= c <= "Z" or c.isspace():
                end = 4
                while end < n and s[end].isspace():
                    end += 1
                return LiteMatch(s, [(0, end)])
        if n > 2 and (s.startswith("CL") or s.startswith("IS")):
            c = s[2]
            if "A" <= c <= "Z" or "0" <= c <= "9" or c.isspace() or (c == "i" and n > 3 and "A" <= s[3] <= "Z"):
                return LiteMatch(s, [(0, 2)])
        return None

    def sub(self, repl: str, s: str) -> str | None:
        return None  # re does it (the importer never replaces a prefix this way)


_TECH_PREFIX = TechPrefix()


def _word(c: str) -> bool:
    """A character re's \\b counts as part of a word."""
    return c.isalnum() or c == "_"


class LiteMatch:
    """A match of plain words: the questions the importer asks of a :class:`re.Match`."""

    __slots__ = ("string", "spans")

    def __init__(self, string: str, spans: list[tuple[int, int]]) -> None:
        self.string = string
        self.spans = spans

    def group(self, n: int = 0, /) -> str | Any:
        start, end = self.spans[n]
        return self.string[start:end]

    def groups(self) -> tuple[str | Any, ...]:
        return tuple([self.string[a:b] for a, b in self.spans[1:]])

    def start(self, n: int = 0, /) -> int:
        return self.spans[n][0]

    def end(self, n: int = 0, /) -> int:
        return self.spans[n][1]
