"""Reading files that come from outside (targets, configs, house rules, unit files), with limits.

Every such file is read by :func:`read_text` (or :func:`read_bytes`), which

* refuses anything that is not a regular file (``/dev/zero``, a FIFO, a terminal) before
  reading a byte, so nothing can hang or fill memory;
* reads at most :func:`max_bytes` bytes (4 MB unless ``CRITCORE_MAX_FILE_BYTES`` says
  otherwise) and refuses a larger file, naming the limit and how to change it.

Parsed data goes through :func:`load_json` / :func:`load_toml`, which refuse data nested more
than :func:`max_depth` levels deep (``CRITCORE_MAX_DEPTH``, 100 by default) and whole numbers
of more than :func:`max_digits` digits (``CRITCORE_MAX_DIGITS``, 30 by default), and
:func:`check_data` does the same for data that arrives some other way (a system's own reader).
Each error is the ``error`` class the caller names (a :class:`~critcore.errors.StateError` for
a target, a :class:`~critcore.errors.ConfigError` for a config), one line naming the file.
"""

from __future__ import annotations

import os
import stat
from typing import Any

from critcore.errors import InputError

DEFAULT_MAX_BYTES = 4 * 1024 * 1024
DEFAULT_MAX_DEPTH = 100
DEFAULT_MAX_DIGITS = 30

LIMITS = {
    # env var: (default, what it limits)
    "CRITCORE_MAX_FILE_BYTES": (DEFAULT_MAX_BYTES, "size of a file critcore reads, in bytes"),
    "CRITCORE_MAX_DEPTH": (DEFAULT_MAX_DEPTH, "levels of nesting in a JSON or TOML file"),
    "CRITCORE_MAX_DIGITS": (DEFAULT_MAX_DIGITS, "digits of a whole number in a file"),
}


def _limit(var: str) -> int:
    default = LIMITS[var][0]
    text = os.environ.get(var)
    if not text:
        return default
    text = text.strip()
    scale = 1
    for suffix, factor in (("k", 1024), ("m", 1024**2), ("g", 1024**3)):
        if var == "CRITCORE_MAX_FILE_BYTES" and text.lower().endswith((suffix, suffix + "b")):
            scale = factor
            text = text.lower().removesuffix("b").removesuffix(suffix)
            break
    if not (text.isascii() and text.isdigit()) or len(text) > 12 or int(text) < 1:
        raise InputError(f"{var}={os.environ[var][:40]!r}: expected a whole number above 0 (the {LIMITS[var][1]})")
    return int(text) * scale


def max_bytes() -> int:
    """Largest file read, in bytes (``CRITCORE_MAX_FILE_BYTES``; ``512k``, ``8M`` work too)."""
    return _limit("CRITCORE_MAX_FILE_BYTES")


def max_depth() -> int:
    """Deepest nesting of lists and tables in a file (``CRITCORE_MAX_DEPTH``)."""
    return _limit("CRITCORE_MAX_DEPTH")


def max_digits() -> int:
    """Most digits of a whole number in a file (``CRITCORE_MAX_DIGITS``)."""
    return _limit("CRITCORE_MAX_DIGITS")


def _size(n: int) -> str:
    if n >= 1024**2 and n % 1024**2 == 0:
        return f"{n // 1024**2} MB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024} KB"
    return f"{n:,} bytes"


def read_bytes(path: str, what: str, error: type[InputError] = InputError) -> bytes:
    """The bytes of the regular file ``path``, at most :func:`max_bytes` of them.

    ``what`` names the file in errors ("target file", "config file"); a missing file, a folder,
    a device or FIFO, an unreadable file and a file over the limit each raise ``error``.
    """
    limit = max_bytes()
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)  # non-blocking: opening a FIFO with no writer must not wait
    except FileNotFoundError:
        raise error(f"{path}: {what} not found") from None
    except IsADirectoryError:
        raise error(f"{path}: is a folder, not a {what}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read the {what}: {exc.strerror}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise error(f"{path}: is a folder, not a {what}")
        if not stat.S_ISREG(st.st_mode):
            raise error(f"{path}: not a regular file (a device, pipe or socket); give a {what} saved on disk")
        if st.st_size > limit:
            raise error(f"{path}: the {what} is {_size(st.st_size)}, over the {_size(limit)} limit "
                        "(set CRITCORE_MAX_FILE_BYTES to raise it)")
        chunks: list[bytes] = []
        got = 0
        while got <= limit:  # the file may grow while we read: never more than the limit + 1
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise error(f"{path}: the {what} is over the {_size(limit)} limit "
                        "(set CRITCORE_MAX_FILE_BYTES to raise it)")
        return b"".join(chunks)
    except OSError as exc:
        raise error(f"{path}: cannot read the {what}: {exc.strerror}") from None
    finally:
        os.close(fd)


def read_text(path: str, what: str, error: type[InputError] = InputError, encoding: str = "utf-8") -> str:
    """The text of ``path`` (see :func:`read_bytes`); bytes that are not ``encoding`` raise ``error``."""
    data = read_bytes(path, what, error)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not a text file ({exc.reason} at byte {exc.start})") from None
    return text.removeprefix("\ufeff") if encoding.replace("-", "").lower() == "utf8" else text


# --- parsed data ---------------------------------------------------------------------------------


class _TooBig(Exception):
    pass


def _int_hook(limit: int) -> Any:
    def parse_int(text: str) -> int:
        digits = len(text.lstrip("-"))
        if digits > limit:
            raise _TooBig(f"a whole number of {digits:,} digits (the limit is {limit}; CRITCORE_MAX_DIGITS)")
        return int(text)

    return parse_int


def _not_finite(text: str) -> float:
    raise _TooBig(f"{text} is not a finite number")


def json_reader(digits: int) -> Any:
    """The JSON decoder :func:`load_json` reads with, for whole numbers of at most ``digits``
    digits: made once by a caller that reads many texts with the same limits (``crit serve``;
    ``json.loads`` with hooks makes a decoder, and its scanner, at every call)."""
    import json

    return json.JSONDecoder(parse_int=_int_hook(digits), parse_constant=_not_finite)


def load_json(text: str, source: str, error: type[InputError] = InputError,
              limits: tuple[int, int] | None = None, reader: Any = None) -> Any:
    """Parsed JSON of ``text`` (from ``source``), within the depth and digit limits (``limits``:
    :func:`max_depth` and :func:`max_digits` as the caller read them, e.g. once at a server's start;
    ``reader``: :func:`json_reader` of those digits, made by the caller once)."""
    import json

    depth, digits = limits if limits is not None else (max_depth(), max_digits())
    try:
        if reader is None:
            data = json.loads(text, parse_int=_int_hook(digits), parse_constant=_not_finite)
        else:  # what json.loads does with the same decoder: a byte-order mark refused, then decoded
            if text.startswith("\ufeff"):
                raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
            data = reader.decode(text)
    except ValueError as exc:
        if not isinstance(exc, json.JSONDecodeError):  # e.g. a number past Python's digit limit
            raise error(f"{source}: not valid JSON: {str(exc).split(';')[0]}") from None
        raise error(f"{source}, line {exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno})") from None
    except _TooBig as exc:
        raise error(f"{source}: {exc}") from None
    except RecursionError:
        raise error(f"{source}: nested deeper than {depth} levels (CRITCORE_MAX_DEPTH)") from None
    check_data(data, source, error, limits=(depth, digits))
    return data


def load_toml(text: str, source: str, error: type[InputError] = InputError) -> dict[str, Any]:
    """Parsed TOML of ``text`` (from ``source``), within the depth and digit limits."""
    from critcore.files.toml import decode_error, parser

    depth = max_depth()
    tomllib = parser()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(decode_error(source, exc, text)) from None
    except RecursionError:
        raise error(f"{source}: nested deeper than {depth} levels (CRITCORE_MAX_DEPTH)") from None
    except ValueError as exc:  # e.g. a whole number of over 4,300 digits
        raise error(f"{source}: not valid TOML: {str(exc).split(':')[0].split(';')[0]}") from None
    try:
        check_data(data, source, error)
    except InputError as exc:
        reported = str(exc)[len(source) + 2:]  # "inf is not a finite number"
        line = _non_finite_line(text, reported.split()[0]) if reported.endswith("not a finite number") else None
        if line is None:
            raise
        raise error(f"{source}, line {line}: {reported}") from None
    return data


def _non_finite_line(text: str, value: str) -> int | None:
    """The first line of a TOML text giving a key the value ``value`` (``nan`` or ``inf``, either
    sign), outside multi-line strings: the line of a refused non-finite number."""
    import re

    word = "nan" if "nan" in value else "inf"
    pattern = re.compile(r"""^[^#"']*[=,\[]\s*[+-]?""" + word + r"""\s*(?:[,\]}#]|$)""")
    inside: str | None = None  # the quotes of the multi-line string a line is in
    for number, line in enumerate(text.splitlines(), 1):
        if inside is not None:
            if line.count(inside) % 2:
                inside = None
            continue
        if pattern.search(line):
            return number
        inside = next((q for q in ('"""', "'''") if line.count(q) % 2), None)
    return None


def check_data(data: Any, source: str, error: type[InputError] = InputError,
               limits: tuple[int, int] | None = None) -> None:
    """Refuse data nested deeper than :func:`max_depth`, with a whole number of more than
    :func:`max_digits` digits, or with a number that is not finite (walked without recursion,
    one level at a time: a unit read from its own format holds a thousand values or more, and
    most are text, so the exact type of each is looked at once). ``limits``: the depth and the
    digits when the caller has just read them."""
    depth_limit, digits = limits if limits is not None else (max_depth(), max_digits())
    bits = int(digits * 3.3219280948873626) + 1  # a number of that many digits has at most these bits
    small = bits - 4  # an int of at most these bits has fewer digits than the limit (_check_scalar)
    level: list[Any] = [data]
    depth = 0
    while level:
        below: list[Any] = []
        for item in level:
            kind = type(item)
            if kind is str or kind is bool or item is None:
                continue
            # the exact types first (a unit's thousand values), each as the general case below
            if kind is int:
                if item.bit_length() > small:
                    _check_scalar(item, bits, digits, source, error)
                continue
            if kind is dict:
                values: Any = item.values()
            elif kind is list:
                values = item
            elif isinstance(item, dict):
                values = item.values()
            elif isinstance(item, (list, tuple)):
                values = item
            else:
                _check_scalar(item, bits, digits, source, error)
                continue
            if depth >= depth_limit:
                raise error(f"{source}: nested deeper than {depth_limit} levels (CRITCORE_MAX_DEPTH)")
            below.extend(values)
        level = below
        depth += 1


def _check_scalar(item: Any, bits: int, digits: int, source: str, error: type[InputError]) -> None:
    if isinstance(item, bool):
        return
    if isinstance(item, int):
        if item.bit_length() > bits - 4 and (item.bit_length() > bits or len(str(abs(item))) > digits):
            raise error(f"{source}: a whole number of more than {digits} digits "
                        f"(the limit is {digits}; CRITCORE_MAX_DIGITS)")
    elif isinstance(item, float):
        if item != item or item in (float("inf"), float("-inf")):
            raise error(f"{source}: {item} is not a finite number")
