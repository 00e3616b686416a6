"""Shared helpers for the BattleTech rules-engine tests: the plugin registered directly (no
other system needed), the units we wrote (tests/units/*.json) and a runner with scripted dice."""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

# this folder's helper modules (bt_shared: where ../shared is) importable under pytest's importlib mode
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from bt_shared import load_unit  # noqa: E402 (the units we wrote)


@pytest.fixture
def bt_registry() -> Any:
    from critcore import testing

    import critcore_battletech.plugin as plugin

    return testing.registry(plugin)


@pytest.fixture
def mech() -> dict[str, Any]:
    """Testmech TM-1: a 50-ton biped with an XL engine, ammunition, a Gauss rifle, jump jets."""
    return load_unit("testmech-tm1")


@pytest.fixture
def quad() -> dict[str, Any]:
    """Testquad TQ-1: a 40-ton four-legged 'Mech with double heat sinks."""
    return load_unit("testquad-tq1")


@pytest.fixture
def run(bt_registry: Any) -> Callable[..., Any]:
    """run(procedure, dice, unit=None, options=None, **params) -> Outcome (critcore.testing.run;
    faces left over are allowed: some tests script rolls a row may not make)."""
    from critcore import testing

    import critcore_battletech.plugin as plugin

    def _run(procedure: str, dice: str | None = None, unit: dict[str, Any] | None = None,
             options: dict[str, Any] | None = None, **params: Any) -> Any:
        return testing.run(plugin, procedure, dice, target=copy.deepcopy(unit) if unit else None,
                           options=options or {}, all_dice_used=False, **params)

    return _run


def state(outcome: Any) -> dict[str, Any]:
    from critcore.plugin import thaw

    return thaw(outcome.target)


def derived(outcome: Any) -> dict[str, Any]:
    from critcore.plugin import thaw

    return thaw(outcome.applied.data["derived"])


def slot(unit: dict[str, Any], loc: str, number: int) -> dict[str, Any]:
    """Slot ``number`` (1-based, as on the record sheet) of a location."""
    return unit["locations"][loc]["slots"][number - 1]


def one_crit(loc: str, number: int) -> str:
    """Scripted dice for one critical (2d6 = 8) on slot ``number`` of a location."""
    if loc in ("HD", "LL", "RL", "CL", "FLL", "FRL", "RLL", "RRL"):
        return f"4,4,{number}"
    return f"4,4,{1 if number <= 6 else 4},{number if number <= 6 else number - 6}"


@pytest.fixture
def bt() -> Any:
    """The helpers above, for test modules (conftest cannot be imported by name)."""
    from types import SimpleNamespace

    return SimpleNamespace(state=state, derived=derived, slot=slot, one_crit=one_crit, load_unit=load_unit)


@pytest.fixture(scope="session")
def corpus_units() -> list[tuple[Path, dict[str, Any]]]:
    """Every unit file of ../shared/mtf-corpus/units, imported with one catalog (as one engine
    reading every file keeps it), once for every test module of a test process that reads them
    (skipped without the corpus; a refused file fails here)."""
    from bt_shared import CORPUS, kept_catalog
    from critcore_battletech.units import unit_from_mtf

    if not CORPUS.is_dir():
        pytest.skip("../shared/mtf-corpus/units is not here")
    cat = kept_catalog()
    return [(p, unit_from_mtf(p.read_bytes(), str(p), cat)) for p in sorted(CORPUS.rglob("*.mtf"))]
