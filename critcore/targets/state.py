"""Target state files: read a character or unit (TOML, JSON, or a system's own format) and
write the new state back atomically (temporary file, flush, fsync, rename), so an interrupted
write leaves the old file intact.
"""

from __future__ import annotations

import math
import os
from typing import Any, Callable, Mapping

from critcore.errors import StateError
from critcore.files.timeouts import busy_timeout


def read_target(path: str, reader: Callable[[str, str], Mapping[str, Any] | None] | None = None) -> tuple[dict[str, Any], str]:
    """Read a target file. Returns (state, format) where format is ``json``, ``toml`` or ``other``.

    ``reader(path, text)`` is the system's ``critcore_read_target`` hook, tried first.
    """
    from critcore.files.reading import check_data, load_json, load_toml, read_text

    if path == STDIN:
        return _read_stdin(reader)
    suffix = os.path.splitext(path)[1].lower()
    try:
        text = read_text(path, "target file", StateError)  # size-limited; devices and FIFOs refused
    except StateError as exc:
        if reader is None or suffix in (".json", ".toml") or "not a text file" not in str(exc):
            raise
        # a system's own format may carry stray bytes in free text (a unit description in
        # cp1252, say): its reader gets them as surrogate escapes and decides what they are
        from critcore.files.reading import read_bytes

        raw = read_bytes(path, "target file", StateError).decode("utf-8", "surrogateescape")
        data = reader(path, raw)
        if data is None:
            raise
        check_data(data, path, StateError)
        return dict(data), "other"
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


STDIN = "-"
"""``--target -``: the target is read from standard input (JSON, TOML, or the system's format)."""


def _read_stdin(reader: Callable[[str, str], Mapping[str, Any] | None] | None) -> tuple[dict[str, Any], str]:
    import sys

    from critcore.files.reading import check_data, load_json, load_toml, max_bytes

    where = "standard input"
    limit = max_bytes()
    # a text stream without a buffer (a test runner's): read characters, at most the limit's worth
    raw = sys.stdin.buffer.read(limit + 1) if hasattr(sys.stdin, "buffer") else sys.stdin.read(limit + 1).encode()
    if len(raw) > limit:
        raise StateError(f"{where}: more than {limit:,} bytes (set CRITCORE_MAX_FILE_BYTES to raise it)")
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise StateError(f"{where}: not text ({exc.reason} at byte {exc.start})") from None
    if not text.strip():
        raise StateError(f"{where}: empty (--target - reads the target from standard input)")
    if text.lstrip().startswith("{"):
        data = load_json(text, where, StateError)
        if not isinstance(data, dict):
            raise StateError(f"{where}: a target must be a JSON object, not {type(data).__name__}")
        return data, "json"
    if reader is not None:
        found = reader(where, text)
        if found is not None:
            check_data(found, where, StateError)
            return dict(found), "other"
    return load_toml(text, where, StateError), "toml"


def save_path(path: str, fmt: str = "") -> str:
    """Where ``--save`` writes: the file itself if it is ``.json`` or ``.toml``, else NAME.json
    beside it (a unit in a system's own format is never overwritten with JSON)."""
    root, suffix = os.path.splitext(path)
    if suffix.lower() in (".json", ".toml"):
        return path
    return root + ".json"


def dumps(state: Mapping[str, Any], fmt: str) -> str:
    if fmt == "toml":
        return to_toml(state)
    import json  # only when a state is written: reading a target (a .mtf unit) does not need it (1 ms)

    return json.dumps(state, indent=2, ensure_ascii=False) + "\n"


def _temp_prefix(path: str) -> str:
    return "." + os.path.basename(path) + ".crit-"


def write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash mid-write leaves the old file as it was.

    A symbolic link is followed: the file it points to is replaced, the link stays. A new file
    gets the user's usual permissions (the umask); an existing one keeps its own.

    Any ``OSError`` on the way (a full disk, a file-size limit, a read-only disk, an I/O error
    at a write or at the fsync) removes the temporary file and becomes one line
    (:func:`critcore.errors.os_error`): the old file is unchanged.
    """
    import secrets

    from critcore.errors import os_error

    real = os.path.realpath(path)
    folder = os.path.dirname(real)
    tmp = os.path.join(folder, f"{_temp_prefix(real)}{secrets.token_hex(4)}.tmp")
    data = text.encode("utf-8")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # 0o666 less the umask
    except OSError as exc:
        raise os_error(exc, path, "nothing was written") from None
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.chmod(tmp, os.stat(real).st_mode & 0o7777)
        except FileNotFoundError:
            pass
        os.replace(tmp, real)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise os_error(exc, path, "the old file is unchanged" if os.path.exists(real)
                           else "nothing was written") from None
        raise
    _fsync_folder(folder)


def _fsync_folder(folder: str) -> None:
    """Make the rename itself durable (where the platform allows opening a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_leftovers(path: str) -> None:
    """Delete temporary files a killed save of ``path`` left behind (call under the file's lock)."""
    real = os.path.realpath(path)
    folder, prefix = os.path.dirname(real), _temp_prefix(real)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name.startswith(prefix) and name.endswith(".tmp"):
            try:
                os.unlink(os.path.join(folder, name))
            except OSError:
                pass


def check_writable(dest: str, source: str | None = None) -> None:
    """Refuse, before any die is rolled, a save that cannot happen or must not.

    ``source`` is the target file when ``dest`` is where ``--save`` converts it to (a unit in
    a system's own format saved as JSON): an existing ``dest`` is then refused, since it holds
    the state of an earlier session that the pristine unit would replace.
    """
    real = os.path.realpath(dest)
    folder = os.path.dirname(real) or "."
    if not os.path.isdir(folder):
        raise StateError(f"{dest}: cannot save there: the folder {os.path.dirname(dest) or folder} does not exist "
                         "(nothing was rolled)")
    if os.path.isdir(real):
        raise StateError(f"{dest}: is a folder, not a file to save to (nothing was rolled)")
    if os.path.exists(real):
        if source is not None:
            raise StateError(f"{dest} already holds a saved state of this unit; continue it with --target {dest}, "
                             "or save elsewhere with --save-to FILE (nothing was rolled)")
        if not os.stat(real).st_mode & 0o200:
            raise StateError(f"{dest}: the file is read-only; make it writable or save elsewhere with --save-to FILE "
                             "(nothing was rolled)")
    if not os.access(folder, os.W_OK | os.X_OK):
        if _read_only_disk(folder):
            from critcore.errors import DiskError

            raise DiskError(f"{dest}: cannot save there: the disk is read-only (nothing was rolled)")
        raise StateError(f"{dest}: cannot save there: no permission to write in {folder} (nothing was rolled)")


def _read_only_disk(folder: str) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows)
        return False


def lock_for(path: str) -> Any:
    """A lock around one target file's read-modify-write (:mod:`critcore.files.locks`): a hidden
    ``.NAME.lock`` beside the real file, which stays there (deleting a lock file while another
    process waits on it would let two writers in)."""
    from critcore.files.locks import FileLock

    real = os.path.realpath(path)
    lock_path = os.path.join(os.path.dirname(real), "." + os.path.basename(real) + ".lock")
    return FileLock(lock_path, timeout=busy_timeout())


def toml_keeping_layout(original: str, state: Mapping[str, Any]) -> str:
    """The TOML of ``state``, written into the user's ``original`` text so that comments and layout
    stay (``tomlkit``); plain :func:`to_toml` if the result would not read back as ``state``."""
    import tomlkit

    from critcore.files.toml import parser

    expected = _without_nulls(state)
    try:
        doc = tomlkit.parse(original)
        _merge(doc, expected)
        text = tomlkit.dumps(doc)
        if parser().loads(text) == expected:
            return text
    except Exception:  # noqa: BLE001 - any trouble keeping the layout: write it plainly instead
        pass
    return to_toml(state)


def _without_nulls(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_without_nulls(v) for v in value]
    return value


def _merge(doc: Any, state: Mapping[str, Any]) -> None:
    """Make the tomlkit table ``doc`` hold ``state``, changing only what differs."""
    for key in [k for k in doc if k not in state]:
        del doc[key]
    for key, value in state.items():
        old = doc.get(key)
        if isinstance(value, Mapping) and isinstance(old, Mapping) and hasattr(old, "items"):
            _merge(old, value)
        elif key not in doc or _plain(old) != value:
            doc[key] = value


def _plain(value: Any) -> Any:
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if unwrap is not None else value


def save_target(path: str, state: Mapping[str, Any], fmt: str = "", original: str | None = None) -> str:
    """Write ``state`` where ``--save`` puts it (see :func:`save_path`); returns the file written.

    ``original`` is the TOML file's text as read: its comments and layout are kept.
    """
    dest = save_path(path, fmt)
    if dest.lower().endswith(".toml"):
        text = toml_keeping_layout(original, state) if original is not None else to_toml(state)
    else:
        text = dumps(state, "json")
    write_atomic(dest, text)
    return dest


# --- a small TOML writer for plain JSON-like state ------------------------------------------

_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")  # a TOML bare key's letters


def _key(k: str) -> str:
    if k and _BARE.issuperset(k):
        return k
    import json

    return json.dumps(k, ensure_ascii=False)


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
        import json

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
