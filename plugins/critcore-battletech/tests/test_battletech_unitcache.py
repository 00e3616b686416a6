"""The cache of imported units (critcore_battletech/unitcache.py): a unit file named again by a
later command is not imported again, but an entry is only ever used for the same text, name and
importer; a damaged entry, a changed file or a file that does not import is read afresh."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest

from critcore._speed import diskcache as resources
from critcore.plugin import StateError
from critcore_battletech import unitcache
from critcore_battletech.importmemo import import_memo
from critcore_battletech.units import unit_from_mtf

FIXTURES = Path(__file__).resolve().parent / "fixtures"
FILE = FIXTURES / "legacy-biped-fb1l.mtf"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache folder of our own, with writes on (as the crit command sets them)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("CRITCORE_CACHE", raising=False)
    before = resources.writes_enabled()
    resources.cache_writes(True)
    yield tmp_path / "critcore"
    resources.cache_writes(before)


class Counting:
    """The importer, counting how often it really runs."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, text: str, source: str, memo: dict[str, Any]) -> dict[str, Any]:
        self.calls += 1
        return unit_from_mtf(text, source, memo)


def test_a_unit_named_again_comes_from_the_cache_equal_to_a_fresh_import(cache: Path) -> None:
    text = FILE.read_text(encoding="utf-8")
    build = Counting()
    first = unitcache.cached_import(text, str(FILE), {}, build)
    second = unitcache.cached_import(text, str(FILE), {}, build)
    assert build.calls == 1
    assert second == first == unit_from_mtf(text, str(FILE))
    assert second is not first  # a fresh copy each time: a caller may change it


def test_a_changed_file_is_imported_again(cache: Path) -> None:
    text = FILE.read_text(encoding="utf-8")
    build = Counting()
    unitcache.cached_import(text, str(FILE), {}, build)
    changed = text.replace("FB-1L", "FB-1M", 1)  # the model line edited
    unit = unitcache.cached_import(changed, str(FILE), {}, build)
    assert build.calls == 2
    assert unit["model"] == "FB-1M" and unit == unit_from_mtf(changed, str(FILE))


def test_a_damaged_entry_is_not_trusted(cache: Path) -> None:
    text = FILE.read_text(encoding="utf-8")
    build = Counting()
    unitcache.cached_import(text, str(FILE), {}, build)
    # the unit's entry (the catalog's answers, read afresh by a new memo, have an entry of their own)
    entry = Path(resources._cache_file(str(cache), f"battletech-unit\0{unitcache._FORMAT}\0{FILE}"))
    raw = bytearray(entry.read_bytes())
    raw[-5] ^= 0xFF  # one byte of the stored unit changed
    entry.write_bytes(bytes(raw))
    assert unitcache.cached_import(text, str(FILE), {}, build) == unit_from_mtf(text, str(FILE))
    assert build.calls == 2


def test_a_file_that_does_not_import_is_refused_every_time_and_never_kept(cache: Path) -> None:
    build = Counting()
    for _ in range(2):
        with pytest.raises(StateError):
            unitcache.cached_import("not a unit file\n", "bad.mtf", {}, build)
    assert build.calls == 2
    # no entry for the file (the importer's data files parsed on the way may have theirs: critcore's own)
    entry = resources._cache_file(str(cache), f"battletech-unit\0{unitcache._FORMAT}\0{os.path.abspath('bad.mtf')}")
    assert not os.path.exists(entry)
    assert not os.path.exists(resources._cache_file(str(cache), unitcache._NAMES_ENTRY))  # nor answers from it


def test_without_writes_or_with_the_cache_off_every_command_imports(cache: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    text = FILE.read_text(encoding="utf-8")
    build = Counting()
    resources.cache_writes(False)  # the Python API: entries are read, none written
    unitcache.cached_import(text, str(FILE), {}, build)
    unitcache.cached_import(text, str(FILE), {}, build)
    assert build.calls == 2 and not cache.exists()
    resources.cache_writes(True)
    monkeypatch.setenv("CRITCORE_CACHE", "0")
    unitcache.cached_import(text, str(FILE), {}, build)
    unitcache.cached_import(text, str(FILE), {}, build)
    assert build.calls == 4 and not cache.exists()


def test_an_edited_importer_makes_every_entry_stale(cache: Path) -> None:
    text = FILE.read_text(encoding="utf-8")
    build = Counting()
    unitcache.cached_import(text, str(FILE), {}, build)
    catalog = Path(unitcache._HERE) / "data" / "structure.toml"
    st = os.stat(catalog)
    try:
        os.utime(catalog, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # as if just edited
        unitcache.cached_import(text, str(FILE), {}, build)
    finally:
        os.utime(catalog, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert build.calls == 2


# -- the catalog's answers (slot-name classifications and the like), kept between commands -------

class Process:
    """What one ``crit`` command's engine hands the importer: a reader memo of its own (a new
    command, a new engine, starts with an empty one; nothing of the importer is kept by the
    process)."""

    def __init__(self) -> None:
        self.memo: dict[str, Any] = {}

    def read(self, text: str) -> dict[str, Any]:
        """The unit of ``text`` through the cache, as ``critcore_read_target`` reads it."""
        return unitcache.cached_import(text, str(FILE), self.memo, unit_from_mtf)

    def name_data_read(self) -> bool:
        """Whether this memo's catalog has read its slot-name data (equipment, ammo, families)."""
        cat = import_memo(self.memo).catalog
        return cat is not None and "equipment_strong" in cat.__dict__

    def answers(self) -> tuple[bytes, dict[str, Any]]:
        scope = import_memo(self.memo)
        assert scope.answers is not None
        return scope.answers_key, scope.answers


@pytest.fixture
def expected(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """FILE with its model line changed (a file no command has imported), imported from scratch."""
    monkeypatch.setenv("CRITCORE_CACHE", "0")
    unit = unit_from_mtf(_changed(), str(FILE))
    monkeypatch.delenv("CRITCORE_CACHE")
    yield unit


def _changed() -> str:
    return FILE.read_text(encoding="utf-8").replace("FB-1L", "FB-1X", 1)


def test_a_new_unit_file_whose_names_were_met_before_needs_no_name_data(cache: Path,
                                                                      expected: dict[str, Any]) -> None:
    """The import of one file keeps the catalog's answers; a later command importing another file
    with the same slot names builds an equal unit without reading equipment, ammo or families."""
    first = Process()
    first.read(FILE.read_text(encoding="utf-8"))
    assert first.name_data_read()
    later = Process()
    unit = later.read(_changed())
    assert not later.name_data_read()
    assert unit == expected


def test_a_damaged_answers_entry_is_not_trusted(cache: Path, expected: dict[str, Any]) -> None:
    Process().read(FILE.read_text(encoding="utf-8"))
    entry = Path(resources._cache_file(str(cache), unitcache._NAMES_ENTRY))
    raw = bytearray(entry.read_bytes())
    raw[-5] ^= 0xFF
    entry.write_bytes(bytes(raw))
    later = Process()
    assert later.read(_changed()) == expected
    assert later.name_data_read()  # nothing was taken from the damaged entry


def test_answers_of_another_form_are_worked_out_again(cache: Path, expected: dict[str, Any]) -> None:
    """An entry under the right hash whose answers are not of the form the importer writes (a
    later version's, say) is not believed: every such answer is worked out from the catalog."""
    first = Process()
    first.read(FILE.read_text(encoding="utf-8"))
    key, answers = first.answers()
    assert any(q.startswith("slot\0") for q in answers) and "config\0Biped" in answers
    junk = {q: ("weapon", ("x",), None) if q.startswith("slot\0") else 99 if q.split("\0")[0] in
            ("config", "engine", "heat-sink") else "yes" for q in answers}
    resources.store(unitcache._NAMES_ENTRY, key, junk, fmt=unitcache._FORMAT)
    assert Process().read(_changed()) == expected


def test_an_edited_catalog_makes_the_answers_stale(cache: Path, expected: dict[str, Any]) -> None:
    Process().read(FILE.read_text(encoding="utf-8"))
    data = Path(unitcache._HERE) / "data" / "equipment.toml"
    st = os.stat(data)
    try:
        os.utime(data, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # as if just edited
        later = Process()
        assert later.read(_changed()) == expected
        assert later.name_data_read()
    finally:
        os.utime(data, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_an_importer_record_refuses_a_misspelt_field():
    """The catalog's records (plain classes, built when the importer's data is read) take only
    the fields their class declares: a misspelt one is an error where it is written, not an
    AttributeError somewhere later."""
    import pytest

    from critcore_battletech.data.catalog import HeatSinkSpec

    with pytest.raises(TypeError, match="HeatSinkSpec has no field"):
        HeatSinkSpec(varient="double", pattern=None, type="double", dissipation=2)
    assert HeatSinkSpec(variant="double", pattern=None, type="double", dissipation=2).dissipation == 2


def test_a_new_unit_file_reads_the_frame_tables_from_the_kept_answers(cache: Path, expected: dict[str, Any],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The four small tables every unit needs (configurations, structure, engines, heat sinks) are
    kept with the answers: a later command's import of another file reads none of them."""
    from critcore_battletech.data import catalog as catalog_module

    Process().read(FILE.read_text(encoding="utf-8"))
    read: list[str] = []
    real = catalog_module._read

    def counting(name: str) -> dict[str, Any]:
        read.append(name)
        return real(name)

    monkeypatch.setattr(catalog_module, "_read", counting)
    assert Process().read(_changed()) == expected
    assert read == []


def test_a_kept_frame_table_of_the_wrong_form_is_read_again(cache: Path, expected: dict[str, Any]) -> None:
    first = Process()
    first.read(FILE.read_text(encoding="utf-8"))
    key, answers = first.answers()
    assert "data\0structure.toml" in answers
    resources.store(unitcache._NAMES_ENTRY, key, {**answers, "data\0structure.toml": ["not", "a", "table"]},
                    fmt=unitcache._FORMAT)
    assert Process().read(_changed()) == expected
