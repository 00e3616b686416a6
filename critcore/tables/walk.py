"""One check's walk over a value, shared by target schemas (:mod:`critcore.tables.schema`) and row
schemas (:mod:`critcore.tables.rowschema`): the failure (:class:`Bad`) and the key path it names,
how a value and a path are shown in the one error line, and the checker for plain JSON
(:func:`plain`), which a system without a declared schema gets for its targets.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Callable

from critcore.errors import StateError
from critcore.model import Data, _wrap

Checker = Callable[[Any, "Walk"], Any]

LIMIT = 2**53  # default bound of every number: what JSON readers keep exactly
MAX_DEPTH = 64  # deepest nesting an ``any`` value (or an unknown kept key) may have


class Bad(Exception):
    """A value does not fit; ``parts`` is its key path, innermost first (filled in on the way out).

    The walk keeps no path while all is well: each container adds its key only when a failure
    passes through it, so checking a large unit costs no list operations per value.
    """

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what
        self.parts: list[Any] = []

    def error(self, source: str) -> StateError:
        where = path_text(self.parts[::-1])
        return StateError(f"{source}: {where}: {self.what}" if where else f"{source}: {self.what}")


class Walk:
    """One check in progress: the whole value (for references between parts) and their keys."""

    __slots__ = ("root", "keys")

    def __init__(self, root: Any) -> None:
        self.root = root
        self.keys: dict[str, Any] = {}

    def ref_keys(self, ref: str) -> Any:
        """The keys of the table at dotted path ``ref`` of the value being checked (None if absent)."""
        found = self.keys.get(ref, self)
        if found is self:
            where: Any = self.root
            for part in ref.split("."):
                where = where.get(part) if isinstance(where, Mapping) else None
            found = self.keys[ref] = where if isinstance(where, Mapping) else None
        return found


def path_text(path: list[Any] | tuple[Any, ...]) -> str:
    """``["statuses", 1, "check"]`` -> ``statuses[1].check``; odd keys in brackets: ``items["LT-1"]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isidentifier():
            out += ("." if out else "") + part
        else:
            out += "[" + _quote(part) + "]"
    return out


def _quote(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def show(value: Any) -> str:
    """A value as the error line shows it: short, JSON-like, never a whole table."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        text = str(value) if abs(value) < 10**30 else f"a {len(str(abs(value)))}-digit number"
        return text
    if isinstance(value, str):
        text = _quote(value)
        return text if len(text) <= 40 else text[:36] + '..."'
    if isinstance(value, Mapping):
        return "a table" if value else "an empty table"
    if isinstance(value, (list, tuple)):
        return "a list" if value else "an empty list"
    return f"a {type(value).__name__}"


def did_you_mean(name: str, known: list[str]) -> str:
    """`` (did you mean 'dr'?)``: the same key in another case first, then a close spelling."""
    low = name.lower()
    for k in known:
        if k.lower() == low:
            return f" (did you mean {k!r}?)"
    import difflib

    close = difflib.get_close_matches(low, {k.lower(): k for k in known}, n=1, cutoff=0.6)
    if close:
        original = {k.lower(): k for k in known}[close[0]]
        return f" (did you mean {original!r}?)"
    return ""


# --- checkers for plain JSON ------------------------------------------------------------------


def plain(value: Any, walk: Walk, depth: int = 0) -> Any:
    """Any JSON value: finite numbers, text keys, bounded depth. Returned frozen."""
    t = type(value)
    if t is str or t is bool or value is None:
        return value
    if t is int:
        if -LIMIT <= value <= LIMIT:
            return value
        raise Bad(f"{show(value)} is too large (at most {LIMIT:,} either way)")
    if t is float:
        if value - value == 0.0:  # finite (inf - inf and NaN - NaN are NaN)
            return value
        raise Bad(f"{show(value)} is not a number critcore can use (it must be finite)")
    if depth >= MAX_DEPTH:
        raise Bad(f"nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if type(k) is not str:
                raise Bad(f"key {show(k)} must be text")
            try:
                out[k] = plain(v, walk, depth + 1)
            except Bad as bad:
                bad.parts.append(k)
                raise
        return _wrap(out)
    if isinstance(value, (list, tuple)):
        items = []
        for i, v in enumerate(value, 1):
            try:
                items.append(plain(v, walk, depth + 1))
            except Bad as bad:
                bad.parts.append(i)
                raise
        return tuple(items)
    if isinstance(value, int) and not isinstance(value, bool):  # an int subclass
        return plain(int(value), walk, depth)
    if isinstance(value, float):
        return plain(float(value), walk, depth)
    raise Bad(f"{show(value)} is not a JSON value")


def check_plain(state: Any, source: str) -> Data:
    """A target of a system that declares no schema: a table of JSON values."""
    if not isinstance(state, Mapping):
        raise StateError(f"{source}: a target must be a table of keys, not {show(state)}")
    try:
        checked: Data = plain(state, Walk(state))
        return checked
    except Bad as bad:
        raise bad.error(source) from None
