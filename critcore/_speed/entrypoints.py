"""Private: installed entry points found without importing :mod:`importlib.metadata`.

``importlib.metadata`` imports email, zipfile, csv and pathlib on the way: several milliseconds
of every ``crit`` command, which must find the installed systems first. The installed
distributions' ``entry_points.txt`` files are read here directly: the ``*.dist-info`` and
``*.egg-info`` folders on each path entry, the first distribution of a name winning, as
``importlib.metadata`` does. What it saves is measured in docs/architecture.md ("Speed
machinery"); ``tests/test_core_entrypoints.py`` holds its answers to ``importlib.metadata``'s.
"""

from __future__ import annotations

import os
import sys
from typing import Iterable, Iterator

#: (group, name, value, distribution, version)
Found = tuple[str, str, str, str, str]


def _parse_entry_points(text: str) -> dict[str, list[tuple[str, str]]]:
    groups: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line[0] == "[" and line[-1] == "]" and len(line) > 2 and "]" not in line[1:-1]:  # [section]
            current = groups.setdefault(line[1:-1].strip(), [])
            continue
        if current is not None and "=" in line:
            name, _, value = line.partition("=")
            current.append((name.strip(), value.strip()))
    return groups


def _dist_name_version(dirname: str) -> tuple[str, str]:
    stem = dirname.rsplit(".", 1)[0]
    name, _, version = stem.partition("-")
    return name.replace("_", "-"), version


def installed_entry_points(groups: Iterable[str], paths: Iterable[str] | None = None) -> Iterator[Found]:
    """Every entry point of ``groups`` on ``paths`` (``sys.path``), in path order. A file that
    names none of the groups is not parsed (most installed distributions have nothing for us)."""
    wanted = set(groups)
    marks = [group.encode("utf-8") for group in wanted]
    seen: set[str] = set()
    for path in paths if paths is not None else sys.path:
        folder = path or "."
        try:
            names = os.listdir(folder)  # names only: cheaper than scandir's entries
        except OSError:
            continue
        for name in names:
            if not (name.endswith(".dist-info") or name.endswith(".egg-info")):
                continue
            dist, version = _dist_name_version(name)
            key = dist.lower()
            if key in seen:
                continue
            seen.add(key)
            file = folder + os.sep + name + os.sep + "entry_points.txt"
            if not os.access(file, os.R_OK):  # most have none: no failed open, no exception to make
                continue
            try:
                raw = _read_bytes(file)
            except OSError:
                continue
            if not any(mark in raw for mark in marks):
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                continue
            if not any(group in text for group in wanted):
                continue
            for group, items in _parse_entry_points(text).items():
                if group in wanted:
                    for ep_name, value in items:
                        yield group, ep_name, value, dist, version


def _read_bytes(file: str) -> bytes:
    """A small file's bytes, without a file object (io's objects cost more than the read)."""
    fd = os.open(file, os.O_RDONLY)
    try:
        chunks: list[bytes] = []
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)
