"""The JSON API's request bodies, declared: one schema per route, checked before anything runs.

A body is a JSON object; each route lists the fields it takes and what each may hold. A field
of the wrong type, an unknown field, a required field missing: a 400 naming the field, before
the campaign is opened or a die is rolled. The service checks what only it can know (a system,
a procedure, a parameter's range) after this.

Kinds of field:

- ``str``: a string (no NUL or other control character, at most 4 MB, what a file may hold);
  ``name``: a short one-line string (a target, a system, a procedure; at most 200 characters);
- ``int``: a whole number (not a boolean); ``id``: one of 1 or more; ``bool``: true or false;
- ``object``: a JSON object; ``params``: an object of a procedure's parameter values, each a
  string, a number, true, false or null;
- ``faces``: dice faces, a string (``"6,6,5"``) or a list of whole numbers;
- ``seed``: a whole number or a string; ``view``: ``"gm"`` or ``"player"``.

Every field may be null (or left out), which means the route's default, unless it is required.
"""

from __future__ import annotations

from typing import Any, Mapping

from critcore.errors import InputError

Schema = Mapping[str, tuple[str, bool]]  # field -> (kind, required)

_RUN: dict[str, tuple[str, bool]] = {
    "system": ("name", False), "procedure": ("name", True), "target": ("name", False), "params": ("params", False),
    "seed": ("seed", False), "dice": ("faces", False), "view": ("view", False), "preview": ("bool", False),
    "explain": ("bool", False)}
_STEP = {**_RUN, "faces": ("faces", False), "head": ("id", False)}
_ODDS: dict[str, tuple[str, bool]] = {
    "system": ("name", False), "procedure": ("name", True), "target": ("name", False), "params": ("params", False),
    "depth": ("int", False), "runs": ("int", False), "seed": ("seed", False)}
_ADD: dict[str, tuple[str, bool]] = {
    "system": ("name", True), "name": ("name", True), "state": ("object", False), "file": ("name", False),
    "text": ("str", False), "example": ("name", False)}

SCHEMAS: dict[str, Schema] = {
    "add a target": _ADD,
    "resolve request": _RUN, "treat request": _RUN,
    "resolve step": _STEP, "treat step": _STEP,
    "odds request": _ODDS, "simulate request": _ODDS,
    "undo request": {}, "redo request": {}, "remove request": {},
}
"""Each body-taking route's schema, by the words its errors begin with."""

MAX_NAME = 200
MAX_TEXT = 4 * 1024 * 1024 + 64 * 1024


def _control(text: str) -> bool:
    if text.isprintable():  # no control character at all: the usual case, at C speed
        return False
    return any(ord(c) < 32 and c not in "\t\r\n" for c in text) or "\x7f" in text


def _bad(what: str, field: str, expected: str, value: Any) -> InputError:
    shown = type(value).__name__ if not isinstance(value, (str, int, float, bool)) or isinstance(value, str) \
        and len(value) > 40 else repr(value)
    kind = {"dict": "an object", "list": "a list", "NoneType": "null", "str": "a string"}.get(shown, shown)
    return InputError(f"{what}: {field!r} must be {expected} (got {kind})")


def check_value(what: str, field: str, kind: str, value: Any) -> None:
    """Raise a 400's :class:`InputError` naming ``field`` unless ``value`` is of ``kind``."""
    if kind in ("str", "name"):
        if not isinstance(value, str):
            raise _bad(what, field, "a string", value)
        if kind == "name" and (len(value) > MAX_NAME or "\n" in value or "\r" in value or "\t" in value):
            raise InputError(f"{what}: {field!r} must be one short line (at most {MAX_NAME} characters)")
        if len(value) > MAX_TEXT:
            raise InputError(f"{what}: {field!r} is too long")
        if _control(value):
            raise InputError(f"{what}: {field!r} holds a control character (a NUL byte?)")
    elif kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad(what, field, "a whole number", value)
    elif kind == "id":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise _bad(what, field, "the whole number a previous step answered (1 or more)", value)
    elif kind == "bool":
        if not isinstance(value, bool):
            raise _bad(what, field, "true or false", value)
    elif kind == "object":
        if not isinstance(value, dict):
            raise _bad(what, field, "a JSON object", value)
    elif kind == "params":
        if not isinstance(value, dict):
            raise _bad(what, field, "a JSON object of parameter values", value)
        for key, item in value.items():
            if item is not None and not isinstance(item, (str, int, float, bool)):
                raise _bad(what, f"{field}.{str(key)[:40]}", "a string, a number, true, false or null", item)
            if isinstance(item, str):
                check_value(what, f"{field}.{str(key)[:40]}", "str", item)
    elif kind == "faces":
        if isinstance(value, str):
            if len(value) > 10_000:
                raise InputError(f"{what}: {field!r} is too long")
            check_value(what, field, "str", value)
        elif not (isinstance(value, list) and all(type(f) is int for f in value)):
            raise _bad(what, field, 'a list of whole numbers or a string such as "6,6,5"', value)
    elif kind == "seed":
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise _bad(what, field, "a whole number or a string", value)
        if isinstance(value, str):
            check_value(what, field, "name", value)
    elif kind == "view":
        if value not in ("gm", "player"):
            raise InputError(f'{what}: {field!r} must be "gm" or "player"')
    else:  # pragma: no cover - a schema above names a kind this function does not know
        raise AssertionError(kind)


def check_body(what: str, body: Any) -> dict[str, Any]:
    """The body, checked against the schema of the route ``what`` names (see :data:`SCHEMAS`)."""
    schema = SCHEMAS[what]
    if not isinstance(body, dict):
        raise InputError(f"{what}: the request body must be a JSON object")
    unknown = [k for k in body if k not in schema]
    if unknown:
        from critcore.stages.loader import did_you_mean

        key = str(unknown[0])[:40]
        fields = ", ".join(schema) or "none: send {}"
        raise InputError(f"{what}: unknown field {key!r}{did_you_mean(key, list(schema))} (fields: {fields})")
    for field, (kind, required) in schema.items():
        value = body.get(field)
        if value is None:
            if required:
                raise InputError(f"{what}: {field!r} is required")
            continue
        check_value(what, field, kind, value)
    return body
