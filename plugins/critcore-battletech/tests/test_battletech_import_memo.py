"""The .mtf importer keeps what it learns in the engine's reader memo (importmemo.py, issue 13:
no module-level caches in plugins): the catalog, what each slot name and name text came to, and
the catalog's answers read from the cache folder. Units read through one engine share them; two
engines never do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from critcore.testing import Engine
from critcore.testing import Registry

import critcore_battletech.plugin as battletech
from critcore_battletech.data import catalog as catalog_module
from critcore_battletech.importmemo import KEY, ImportMemo, import_memo
from critcore_battletech.units import SlotName, parse_slot_name, unit_from_mtf

FIXTURES = Path(__file__).resolve().parent / "fixtures"
REG = Registry.installed(extra_systems={"battletech": battletech}, discover=False)


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[ImportMemo]:
    """Every catalog built, by the memo it was built for; the disk cache off, so every file is
    really imported (a unit kept in the cache folder teaches the importer nothing)."""
    monkeypatch.setenv("CRITCORE_CACHE", "0")
    made: list[ImportMemo] = []
    real = catalog_module._build

    def counting(scope: ImportMemo) -> Any:
        made.append(scope)
        return real(scope)

    monkeypatch.setattr(catalog_module, "_build", counting)
    return made


def _read(engine: Engine, name: str) -> Any:
    path = FIXTURES / name
    return engine.read_target(str(path), path.read_text(encoding="utf-8"))


def test_units_read_through_one_engine_share_its_importer_memo_and_two_engines_do_not(
        builds: list[ImportMemo]) -> None:
    """The engine's reader memo holds one ImportMemo: a second unit through the same engine finds
    the catalog built and the first unit's slot names classified (the catalog is built once); a
    second engine starts with nothing of the first's and builds its own catalog."""
    first = Engine("battletech", registry=REG)
    _read(first, "legacy-biped-fb1l.mtf")
    scope = first.reader_memo[KEY]
    assert type(scope) is ImportMemo and builds == [scope]
    met = dict(scope.classified)
    assert ("Medium Laser", "Inner Sphere") in met
    _read(first, "keys-quad-fq2.mtf")
    assert first.reader_memo[KEY] is scope and builds == [scope]  # the second unit: no new catalog
    assert all(scope.classified[key] is answer for key, answer in met.items())  # the same answers, kept

    second = Engine("battletech", registry=REG)
    assert KEY not in second.reader_memo
    _read(second, "legacy-biped-fb1l.mtf")
    other = second.reader_memo[KEY]
    assert other is not scope and builds == [scope, other]
    assert other.catalog is not scope.catalog
    answer = other.classified[("Medium Laser", "Inner Sphere")]
    assert answer == met[("Medium Laser", "Inner Sphere")] and answer is not met[("Medium Laser", "Inner Sphere")]


def test_the_same_file_imports_alike_through_one_memo_and_fresh_ones() -> None:
    """A unit read with answers another unit left in the memo is the unit a fresh import gives."""
    memo: dict[str, Any] = {}
    for name in ("keys-quad-fq2.mtf", "superheavy-fs5x.mtf", "legacy-biped-fb1l.mtf"):
        unit_from_mtf((FIXTURES / name).read_text(encoding="utf-8"), name, memo)
    for name in ("legacy-biped-fb1l.mtf", "quadvee-fv5.mtf", "lam-fl4.mtf"):
        text = (FIXTURES / name).read_text(encoding="utf-8")
        assert unit_from_mtf(text, name, memo) == unit_from_mtf(text, name)


def test_the_public_helpers_keep_their_answers_in_the_memo_given_and_none_without() -> None:
    """``parse_slot_name(text, memo)`` keeps its answer in that memo's importer; without a memo
    every call starts afresh (nothing is kept anywhere)."""
    memo: dict[str, Any] = {}
    found = parse_slot_name("ISERLargeLaser (R)", memo)
    assert found == SlotName("ISERLargeLaser", ("rear",))
    assert import_memo(memo).slot_names == {"ISERLargeLaser (R)": found}
    assert parse_slot_name("ISERLargeLaser (R)", memo) is found
    assert parse_slot_name("ISERLargeLaser (R)") == found and parse_slot_name("ISERLargeLaser (R)") is not found
    assert import_memo(None) is not import_memo(None)


def test_what_the_memo_keeps_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each table of the memo starts again when full, so a long-lived engine reading units with
    ever new names does not grow without end (here a bound of 3 slot lines)."""
    monkeypatch.setattr("critcore_battletech.units.MOST_SLOT_NAMES", 3)
    memo: dict[str, Any] = {}
    for n in range(7):
        parse_slot_name(f"Thing {n}", memo)
    assert list(import_memo(memo).slot_names) == ["Thing 6"]  # 0-2 kept, cleared at 3; 3-5, cleared at 6


def test_load_mtf_and_loads_mtf_keep_what_they_learn_in_the_memo_given() -> None:
    """The public loader (critcore_battletech.load_mtf/loads_mtf) with ``memo=``: the second file
    finds the first's catalog, and the units are those a call without a memo gives."""
    import critcore_battletech

    memo: dict[str, Any] = {}
    first = critcore_battletech.load_mtf(FIXTURES / "legacy-biped-fb1l.mtf", memo=memo)
    scope = memo[KEY]
    built = scope.catalog
    assert built is not None
    text = (FIXTURES / "keys-quad-fq2.mtf").read_text(encoding="utf-8")
    second = critcore_battletech.loads_mtf(text, "fq2.mtf", memo=memo)
    assert memo[KEY] is scope and scope.catalog is built
    assert first == critcore_battletech.load_mtf(FIXTURES / "legacy-biped-fb1l.mtf")
    assert second == critcore_battletech.loads_mtf(text, "fq2.mtf")
