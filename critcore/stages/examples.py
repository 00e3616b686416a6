"""Example targets a system ships (a character, a unit): what ``critcore_examples`` returns and
how a plugin reads them from its package.

A system keeps its examples as package data, e.g. ``critcore_gurps/examples/bertram.json``, and
answers the hook with::

    @hookimpl
    def critcore_examples():
        from critcore.stages.examples import package_examples
        return package_examples("critcore_gurps.examples")

``crit examples`` writes them into the current folder, so the tour and the docs run anywhere.
"""

from __future__ import annotations

from typing import NamedTuple


class Example(NamedTuple):
    """One example file: its name (no folders), its text, and a line saying what it is."""

    name: str
    text: str
    about: str = ""


def package_examples(package: str, about: dict[str, str] | None = None) -> list[Example]:
    """Every file of ``package`` (a package holding only examples and its ``__init__.py``), sorted
    by name; ``about`` gives a line for a file by name."""
    from importlib.resources import files

    out = []
    for item in sorted(files(package).iterdir(), key=lambda i: i.name):
        if item.name.startswith(("_", ".")) or not item.is_file():
            continue
        out.append(Example(item.name, item.read_text(encoding="utf-8"), (about or {}).get(item.name, "")))
    return out
