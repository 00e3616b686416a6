"""Small building blocks of the .mtf importer, shared by the reader (:mod:`..mtf`) and the
catalog (:mod:`.data.catalog`): plain records, lazily compiled regular expressions, and the
look-up form of a name. This module imports nothing else of the plugin.
"""

from __future__ import annotations

import re
from typing import Any

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
    """A regular expression of the data, compiled the first time it is needed (a unit file uses
    a few of the hundred-odd patterns, and compiling them all would cost a resolve's start-up)
    and skipped without compiling when the text lacks every literal a match must contain."""

    __slots__ = ("text", "lower", "_needs", "_rx")

    def __init__(self, text: str, ignore_case: bool = False) -> None:
        self.text = text
        self.lower = ignore_case
        self._needs: Any = _UNSET  # worked out on first use, like the compiled expression
        self._rx: re.Pattern[str] | None = None

    def _compiled(self) -> re.Pattern[str]:
        rx = self._rx
        if rx is None:
            rx = self._rx = re.compile(self.text, re.IGNORECASE if self.lower else 0)
        return rx

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

    def search(self, s: str) -> re.Match[str] | None:
        return None if self._hopeless(s) else self._compiled().search(s)

    def match(self, s: str) -> re.Match[str] | None:
        return None if self._hopeless(s) else self._compiled().match(s)

    def sub(self, repl: str, s: str) -> str:
        return s if self._hopeless(s) else self._compiled().sub(repl, s)


_UNSET = object()
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -/'")


def _literals(pattern: str) -> tuple[str, ...] | None:
    """Texts one of which every match of ``pattern`` contains: the literal start of each
    alternative (split at every ``|``, so alternatives inside groups only add candidates), or
    None when an alternative starts with no literal text."""
    out = []
    for alt in pattern.split("|"):
        a = alt
        while True:
            if a.startswith("(?:"):
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
        text = "".join(lit)
        if not text:
            return None
        out.append(text)
    return tuple(out)
