"""Changing a few values of a JSON text and nothing else: every byte outside the changed values
stays as it was (a GCS character written back after an injury).

A :class:`Doc` finds where a value sits in the text (its span) without re-writing anything,
and collects edits; :meth:`Doc.text` applies them. New values are written as GCS's Go encoder
writes them: tab indentation, ``"key": value``, and ``<``, ``>``, ``&`` escaped.
"""

from __future__ import annotations

import json
from typing import Any

_DECODER = json.JSONDecoder()
_WS = " \t\n\r"


class SpanError(ValueError):
    """The text is not the JSON the edit expects."""


def _skip_ws(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in _WS:
        i += 1
    return i


def _value_end(text: str, i: int) -> int:
    try:
        _, end = _DECODER.raw_decode(text, i)
    except json.JSONDecodeError as exc:
        raise SpanError(f"not JSON at character {exc.pos}") from None
    return int(end)


class Member:
    """One ``"key": value`` of an object: where its key starts and its value starts and ends."""

    __slots__ = ("key", "key_start", "start", "end")

    def __init__(self, key: str, key_start: int, start: int, end: int) -> None:
        self.key, self.key_start, self.start, self.end = key, key_start, start, end


def members(text: str, i: int) -> tuple[list[Member], int]:
    """The members of the object starting at ``text[i]`` (``{``) and the index of its ``}``."""
    if text[i:i + 1] != "{":
        raise SpanError(f"expected an object at character {i}")
    out: list[Member] = []
    j = _skip_ws(text, i + 1)
    if text[j:j + 1] == "}":
        return out, j
    while True:
        if text[j:j + 1] != '"':
            raise SpanError(f"expected a key at character {j}")
        key, after = json.decoder.scanstring(text, j + 1)  # type: ignore[attr-defined]  # typeshed omits it
        k = _skip_ws(text, after)
        if text[k:k + 1] != ":":
            raise SpanError(f"expected ':' at character {k}")
        start = _skip_ws(text, k + 1)
        end = _value_end(text, start)
        out.append(Member(key, j, start, end))
        j = _skip_ws(text, end)
        if text[j:j + 1] == "}":
            return out, j
        if text[j:j + 1] != ",":
            raise SpanError(f"expected ',' or '}}' at character {j}")
        j = _skip_ws(text, j + 1)


def elements(text: str, i: int) -> tuple[list[tuple[int, int]], int]:
    """The (start, end) of each element of the array at ``text[i]`` (``[``), and its ``]``."""
    if text[i:i + 1] != "[":
        raise SpanError(f"expected an array at character {i}")
    out: list[tuple[int, int]] = []
    j = _skip_ws(text, i + 1)
    if text[j:j + 1] == "]":
        return out, j
    while True:
        end = _value_end(text, j)
        out.append((j, end))
        j = _skip_ws(text, end)
        if text[j:j + 1] == "]":
            return out, j
        if text[j:j + 1] != ",":
            raise SpanError(f"expected ',' or ']' at character {j}")
        j = _skip_ws(text, j + 1)


def indent_at(text: str, i: int) -> str:
    """The whitespace that starts the line holding ``text[i]``."""
    line = text.rfind("\n", 0, i) + 1
    k = line
    while k < i and text[k] in " \t":
        k += 1
    return text[line:k]


def go_json(value: Any, indent: str) -> str:
    """``value`` as GCS's encoder writes it, its inner lines indented from ``indent``."""
    out = json.dumps(value, ensure_ascii=False, indent="\t")
    out = out.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    out = out.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return out.replace("\n", "\n" + indent)


class Doc:
    """A JSON text and the edits to make to it (each a replaced span)."""

    def __init__(self, text: str) -> None:
        self.source = text
        self.edits: list[tuple[int, int, str]] = []

    def root(self) -> int:
        return _skip_ws(self.source, 0)

    def get(self, obj: int, key: str) -> Member | None:
        for m in members(self.source, obj)[0]:
            if m.key == key:
                return m
        return None

    def replace(self, start: int, end: int, new: str) -> None:
        if self.source[start:end] != new:
            self.edits.append((start, end, new))

    def set(self, obj: int, key: str, value: Any, after: str | None = None) -> None:
        """Give ``key`` of the object at ``obj`` the value ``value`` (added after the member
        ``after``, or last, when the object lacks it)."""
        text = self.source
        found, close = members(text, obj)
        for m in found:
            if m.key == key:
                self.replace(m.start, m.end, go_json(value, indent_at(text, m.key_start)))
                return
        if not found:
            outer = indent_at(text, obj)
            inner = outer + "\t"
            self.replace(obj, close + 1, "{\n" + inner + go_json(key, inner) + ": " + go_json(value, inner)
                         + "\n" + outer + "}")
            return
        anchor = next((m for m in found if m.key == after), found[-1])
        inner = indent_at(text, anchor.key_start)
        self.replace(anchor.end, anchor.end, ",\n" + inner + go_json(key, inner) + ": " + go_json(value, inner))

    def remove(self, obj: int, key: str) -> None:
        """Take ``key`` out of the object at ``obj`` (nothing when it lacks it)."""
        found, close = members(self.source, obj)
        for n, m in enumerate(found):
            if m.key != key:
                continue
            if len(found) == 1:
                self.replace(obj, close + 1, "{}")
            elif n > 0:
                self.replace(found[n - 1].end, m.end, "")
            else:
                self.replace(m.key_start, found[1].key_start, "")
            return

    def append(self, arr: int, value: Any) -> None:
        """Add ``value`` at the end of the array at ``arr``."""
        text = self.source
        found, close = elements(text, arr)
        if not found:
            outer = indent_at(text, arr)
            inner = outer + "\t"
            self.replace(arr, close + 1, "[\n" + inner + go_json(value, inner) + "\n" + outer + "]")
            return
        inner = indent_at(text, found[-1][0])
        self.replace(found[-1][1], found[-1][1], ",\n" + inner + go_json(value, inner))

    def drop(self, arr: int, index: int) -> None:
        """Take element ``index`` out of the array at ``arr``."""
        found, close = elements(self.source, arr)
        start, end = found[index]
        if len(found) == 1:
            self.replace(arr, close + 1, "[]")
        elif index > 0:
            self.replace(found[index - 1][1], end, "")
        else:
            self.replace(start, found[1][0], "")

    def text(self) -> str:
        """The source with every edit made (edits may not overlap)."""
        out = self.source
        last = len(out) + 1
        for start, end, new in sorted(self.edits, key=lambda e: (e[0], e[1]), reverse=True):
            if end > last:
                raise SpanError("overlapping edits")
            out = out[:start] + new + out[end:]
            last = start
        return out
