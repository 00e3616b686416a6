"""Target state files: read a character or unit (TOML, JSON, or a system's own format) and
write the new state back atomically (temporary file, flush, fsync, rename), so an interrupted
write leaves the old file intact.
"""

from __future__ import annotations

import json
import math
import os
import re
from typing import Any, Callable, Mapping

from .errors import StateError


def read_target(path: str, reader: Callable[[str, str], Mapping[str, Any] | None] | None = None) -> tuple[dict[str, Any], str]:
    """Read a target file. Returns (state, format) where format is ``json``, ``toml`` or ``other``.

    ``reader(path, text)`` is the system's ``critcore_read_target`` hook, tried first.
    """
    from .files import check_data, load_json, load_toml, read_text

    text = read_text(path, "target file", StateError)  # size-limited; devices and FIFOs refused
    suffix = os.path.splitext(path)[1].lower()
    if reader is not None and suffix not in (".json", ".toml"):
        data = reader(path, text)
        if data is not None:
            check_data(data, path, StateError)
            return dict(data), "other"
    if suffix == ".toml":
        return load_toml(text, path, StateError), "toml"
    if suffix == ".json" or text.lstrip().startswith("{"):
        data = load_json(text, path, StateError)
        if not isinstance(data, dict):
            raise StateError(f"{path}: a target must be a JSON object, not {type(data).__name__}")
        return data, "json"
    raise StateError(f"{path}: unknown target format (use a .json or .toml file)")


def save_path(path: str, fmt: str) -> str:
    """Where ``--save`` writes: the file itself, or NAME.json beside a file in a system's own format."""
    if fmt in ("json", "toml"):
        return path
    return os.path.splitext(path)[0] + ".json"


def dumps(state: Mapping[str, Any], fmt: str) -> str:
    if fmt == "toml":
        return to_toml(state)
    return json.dumps(state, indent=2, ensure_ascii=False) + "\n"


def write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash mid-write leaves the old file as it was."""
    import tempfile

    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".crit-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        except FileNotFoundError:
            pass
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def save_target(path: str, state: Mapping[str, Any], fmt: str) -> str:
    """Write ``state`` in ``fmt`` (``json``/``toml``; anything else goes to NAME.json)."""
    dest = save_path(path, fmt)
    write_atomic(dest, dumps(state, fmt if fmt in ("json", "toml") else "json"))
    return dest


# --- a small TOML writer for plain JSON-like state ------------------------------------------

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, Mapping):
        inner = ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items() if x is not None)
        return "{" + inner + "}" if inner else "{}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if v is None:
        raise StateError("TOML cannot hold an empty (null) value inside a list; save the target as JSON")
    raise StateError(f"cannot write {type(v).__name__} to TOML")


def to_toml(state: Mapping[str, Any]) -> str:
    """TOML text for JSON-like ``state``. Keys whose value is null are left out (TOML has no null)."""
    lines: list[str] = []
    _table(state, [], lines)
    return "\n".join(lines).lstrip("\n") + "\n"


def _table(data: Mapping[str, Any], path: list[str], lines: list[str]) -> None:
    subtables: list[tuple[str, Any]] = []
    for k, v in data.items():
        if v is None:
            continue
        if isinstance(v, Mapping) or (isinstance(v, (list, tuple)) and v and all(isinstance(x, Mapping) for x in v)):
            subtables.append((k, v))
        else:
            lines.append(f"{_key(k)} = {_value(v)}")
    for k, v in subtables:
        sub = path + [_key(k)]
        if isinstance(v, Mapping):
            lines.append("")
            lines.append("[" + ".".join(sub) + "]")
            _table(v, sub, lines)
        else:
            for item in v:
                lines.append("")
                lines.append("[[" + ".".join(sub) + "]]")
                _table(item, sub, lines)
