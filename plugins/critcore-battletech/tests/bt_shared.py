"""Where the real unit files are: ``../shared`` beside the checkout, or beside the folder of git
worktrees that holds it (``mtf-samples``, the ten sample units; ``mtf-corpus/units``, about 2,000).
They are never copied into the project: a test that needs them skips when they are absent."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent  # plugins/critcore-battletech/tests
SHARED = next((p / "shared" for p in _HERE.parents[2:5] if (p / "shared").is_dir()), Path("/nonexistent"))
SAMPLES = SHARED / "mtf-samples"
CORPUS = SHARED / "mtf-corpus" / "units"


UNITS = Path(__file__).resolve().parent / "units"  # the units we wrote


def load_unit(name: str) -> dict[str, Any]:
    """One of the units we wrote (``tests/units/NAME.json``), as plain data."""
    import json

    return json.loads((UNITS / f"{name}.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def kept_catalog() -> Any:
    """One importer catalog for the whole test process, kept the way one engine keeps it for every
    unit it reads (``catalog()``: read-only once built; ``unit_from_mtf(text, source, cat)``). For
    tests of what a name or a unit file imports as: building a catalog afresh (its frame, and
    megamek-names.toml at the first name the tables lack) costs about 0.1 s, most of these
    tests' time. A test of how a catalog is built or when it reads a file builds its own."""
    from critcore_battletech.data.catalog import catalog

    return catalog()


def odds_by_outcome(registry: Any, unit: dict[str, Any], procedure: str, params: dict[str, Any]) -> dict[str, Any]:
    """Exact odds of ``procedure`` on a copy of ``unit``, each outcome (its JSON, sorted) with its
    probability: what the tests of a speed-only store compare with the store and without it."""
    import copy

    from critcore.testing import Engine, exact_odds

    odds = exact_odds(Engine("battletech", registry=registry), procedure, params, copy.deepcopy(unit))
    assert odds.exact
    return {repr(sorted(b.to_json().items())): b.probability for b in odds.branches}
