"""JSON text for the campaign store and target files, read and written by the C code :mod:`json`
itself runs on.

``import json`` costs a resolution on a campaign target (``--target @NAME``) or a JSON target
file about 1.1 ms of its start-up, nearly all of it spent compiling the six regular expressions of json's
pure-Python fallbacks, which CPython never uses: ``json.loads`` and ``json.dumps`` hand the work to the scanner and encoder of its ``_json``
accelerator. :func:`loads` and :func:`dumps` make that same scanner and encoder directly, so
they give exactly what ``json.loads(text)`` and ``json.dumps(value, ensure_ascii=False,
separators=(",", ":"), allow_nan=False)`` give (a property-based test holds them to it). A
malformed text is handed to ``json.loads`` itself, for its own error; a Python without
``_json`` uses :mod:`json` throughout. See docs/architecture.md, "Start-up".
"""

from __future__ import annotations

from typing import Any, Callable, cast

Hook = Callable[[str], Any]  # parse_int / parse_constant: the text of a number or constant to a value

_WHITESPACE = " \t\n\r"  # what JSON allows around a value
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}


class _Reading:
    """The settings the C scanner reads from a ``json.JSONDecoder`` (all json.loads' defaults)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__


def _unencodable(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


try:
    from _json import encode_basestring, make_encoder, make_scanner
except ImportError:  # a Python without the accelerator: json itself
    import json

    def loads(text: str, *, parse_int: Hook | None = None, parse_constant: Hook | None = None) -> Any:
        return json.loads(text, parse_int=parse_int, parse_constant=parse_constant)

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)

else:
    _scan = make_scanner(cast(Any, _Reading()))  # typeshed wants a JSONDecoder: it reads these six fields

    def _scanner(parse_int: Hook | None, parse_constant: Hook | None) -> Any:
        if parse_int is None and parse_constant is None:
            return _scan
        reading = _Reading()
        if parse_int is not None:
            reading.parse_int = parse_int  # type: ignore[assignment]
        if parse_constant is not None:
            reading.parse_constant = parse_constant  # type: ignore[method-assign]
        return make_scanner(cast(Any, reading))

    def loads(text: str, *, parse_int: Hook | None = None, parse_constant: Hook | None = None) -> Any:
        """``json.loads(text, parse_int=parse_int, parse_constant=parse_constant)``: what a hook
        raises comes out as it is."""
        if isinstance(text, str) and not text.startswith("\ufeff"):
            start = len(text) - len(text.lstrip(_WHITESPACE))
            try:
                value, end = _scanner(parse_int, parse_constant)(text, start)
            except StopIteration:  # no value there: json says where, below
                pass
            else:
                if end == len(text) or not text[end:].strip(_WHITESPACE):
                    return value
        import json  # a malformed text (or not text at all): json's own error

        return json.loads(text, parse_int=parse_int, parse_constant=parse_constant)

    def dumps(value: Any) -> str:
        """``json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)``."""
        # a new encoder each time, as json makes one: its record of the containers being written
        # (to refuse a cycle) must start empty, even after an error left it half full
        encode = make_encoder({}, _unencodable, encode_basestring, None, ":", ",", False, False, False)
        return "".join(encode(value, 0))
