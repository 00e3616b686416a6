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
from typing import Any, Callable

_dumps: Callable[..., bytes] | None
try:
    from orjson import OPT_PASSTHROUGH_DATACLASS, OPT_PASSTHROUGH_DATETIME
    from orjson import dumps as _dumps

    # orjson encodes dataclasses and dates itself; json refuses them: so do we (the fallback says why)
    _OPTIONS = OPT_PASSTHROUGH_DATACLASS | OPT_PASSTHROUGH_DATETIME
except ImportError:  # the web extra without orjson: json alone
    _dumps = None
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


def fast() -> bool:
    """Whether orjson is there to do the work."""
    return _dumps is not None
