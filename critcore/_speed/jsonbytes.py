"""Private: ``crit serve``'s JSON answers as UTF-8 bytes, by orjson when it is installed.

The answer to a resolve through the API is about 4 KB of JSON: the standard library's encoder
takes about 24 us for it, orjson about 2 us, of a request that costs a few hundred
(docs/architecture.md, "Speed machinery"). orjson is in the ``web`` extra but optional: without
it, and for every value orjson does not encode as :func:`json.dumps` would (an integer beyond 64
bits, a key that is not a string, a string that is not valid Unicode, a type json refuses), the
answer is json's own, so a value gives the same JSON either way, or json's error.

One difference is kept on purpose: a float NaN or infinity, which json refuses (``allow_nan``
is off, as in Starlette's ``JSONResponse``) and orjson writes as ``null``. critcore checks every
number it is given to be finite, so neither reaches an answer.

``tests/test_core_jsonbytes.py`` holds the two to the same values on generated data (hypothesis).

May import: the standard library only (and orjson, when installed).
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

_dumps: Callable[..., bytes] | None
_loads: Callable[[bytes], Any] | None
try:
    from orjson import OPT_PASSTHROUGH_DATACLASS, OPT_PASSTHROUGH_DATETIME
    from orjson import dumps as _dumps
    from orjson import loads as _loads

    # orjson encodes dataclasses and dates itself; json refuses them: so do we (the fallback says why)
    _OPTIONS = OPT_PASSTHROUGH_DATACLASS | OPT_PASSTHROUGH_DATETIME
except ImportError:  # the web extra without orjson: json alone
    _dumps = _loads = None
    _OPTIONS = 0


def _refuse(value: Any) -> Any:
    raise TypeError  # a type orjson does not know: json's own answer (or error) below


def json_dumps(value: Any) -> bytes:
    """``value`` as compact JSON in UTF-8 (``json.dumps(value, ensure_ascii=False,
    allow_nan=False, separators=(",", ":"))``, encoded), by orjson when it can."""
    if _dumps is not None:
        try:
            return _dumps(value, default=_refuse, option=_OPTIONS)
        except TypeError:  # orjson's JSONEncodeError is one: json answers, or says why not
            pass
    return json_dumps_plain(value)


def json_dumps_plain(value: Any) -> bytes:
    """The standard library's encoding of ``value``: what :func:`json_dumps` stands for."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode("utf-8")


NOT_READ = object()
"""What :func:`json_loads` answers when orjson is not there or does not read the text."""


def json_loads(data: bytes) -> Any:
    """The JSON value of ``data`` (UTF-8 text whose first character is not a byte-order mark) as
    orjson reads it, about 0.4 us for a request's body against 2 us through json's decoder with
    critcore's hooks; or :data:`NOT_READ`, and the caller reads it the standard way
    (:func:`critcore.files.reading.load_json`), which gives the same value or says what is
    wrong. orjson reads a text json reads as the same value, except that it refuses what json
    reads and critcore's hooks or checks refuse or change: NaN and Infinity, a number that is
    infinite as a float, a string holding a lone surrogate; and it reads an integer beyond 64
    bits as a float, so a text with a run of 19 digits or more (any such integer has one) is
    left to the standard way too. What json reads and orjson reads too, a caller checks the
    same way after either (:func:`critcore.files.reading.check_data`: depth, digits, finite
    numbers)."""
    if _loads is None or _LONG_RUN.search(data) is not None:
        return NOT_READ
    try:
        return _loads(data)
    except ValueError:  # orjson's JSONDecodeError is one
        return NOT_READ


_LONG_RUN = re.compile(rb"[0-9]{19}")  # the digits of an integer orjson would read as a float


def fast() -> bool:
    """Whether orjson is there to do the work."""
    return _dumps is not None
