"""The shipped plugins' sources, for the tests that scan every module a plugin wheel ships
(``test_core_no_roller_checks``, ``test_core_no_module_caches``)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

PLUGINS = Path(__file__).resolve().parent.parent / "plugins"


def scan_shipped(scan: Callable[[str], list[tuple[int, str]]]) -> list[str]:
    """``FILE:LINE: what`` for every finding of ``scan`` in every module of every plugin package
    under plugins/ (its src/, what a wheel ships); skipped when the plugins are not beside the
    core (an installed core alone)."""
    sources = sorted(PLUGINS.glob("*/src/**/*.py"))
    if not sources:
        pytest.skip("no plugin sources beside the core (an installed core alone)")
    assert {p.relative_to(PLUGINS).parts[0] for p in sources} >= {"critcore-battletech", "critcore-gurps",
                                                                    "critcore-shadowrun2"}
    return [f"{p.relative_to(PLUGINS)}:{line}: {what}" for p in sources
            for line, what in scan(p.read_text(encoding="utf-8"))]
