"""The cache of imported units (critcore_battletech/unitcache.py): a unit file named again by a
later command is not imported again, but an entry is only ever used for the same text, name and
importer; a damaged entry, a changed file or a file that does not import is read afresh."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest

from critcore.plugin import diskcache as resources
from critcore.plugin import StateError
from critcore_battletech import unitcache
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

    def __call__(self, text: str, source: str) -> dict[str, Any]:
        self.calls += 1
        return unit_from_mtf(text, source)


def test_a_unit_named_again_comes_from_the_cache_equal_to_a_fresh_import(cache: Path) -> None:
    text = FILE.read_text(encoding="utf-8")
    build = Counting()
    first = unitcache.cached_import(text, str(FILE), build)
    second = unitcache.cached_import(text, str(FILE), build)
    assert build.calls == 1
    assert second == first == unit_from_mtf(text, str(FILE))
    assert second is not first  # a fresh copy each time: a caller may change it


def test_a_changed_file_is_imported_again(cache: Path) -> None:
    text = FILE.read_text(encoding="utf-8")
    build = Counting()
    unitcache.cached_import(text, str(FILE), build)
    changed = text.replace("FB-1L", "FB-1M", 1)  # the model line edited
    unit = unitcache.cached_import(changed, str(FILE), build)
    assert build.calls == 2
    assert unit["model"] == "FB-1M" and unit == unit_from_mtf(changed, str(FILE))


def test_a_damaged_entry_is_not_trusted(cache: Path) -> None:
    text = FILE.read_text(encoding="utf-8")
    build = Counting()
    unitcache.cached_import(text, str(FILE), build)
    entry = Path(resources._cache_file(str(cache), f"battletech-unit\0{unitcache._FORMAT}\0{FILE}"))
    raw = bytearray(entry.read_bytes())
    raw[-5] ^= 0xFF  # one byte of the stored unit changed
    entry.write_bytes(bytes(raw))
    assert unitcache.cached_import(text, str(FILE), build) == unit_from_mtf(text, str(FILE))
    assert build.calls == 2


def test_a_file_that_does_not_import_is_refused_every_time_and_never_kept(cache: Path) -> None:
    build = Counting()
    for _ in range(2):
        with pytest.raises(StateError):
            unitcache.cached_import("not a unit file\n", "bad.mtf", build)
    assert build.calls == 2
    # no entry for the file (the importer's data files parsed on the way may have theirs: critcore's own)
    entry = resources._cache_file(str(cache), f"battletech-unit\0{unitcache._FORMAT}\0{os.path.abspath('bad.mtf')}")
    assert not os.path.exists(entry)


def test_without_writes_or_with_the_cache_off_every_command_imports(cache: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    text = FILE.read_text(encoding="utf-8")
    build = Counting()
    resources.cache_writes(False)  # the Python API: entries are read, none written
    unitcache.cached_import(text, str(FILE), build)
    unitcache.cached_import(text, str(FILE), build)
    assert build.calls == 2 and not cache.exists()
    resources.cache_writes(True)
    monkeypatch.setenv("CRITCORE_CACHE", "0")
    unitcache.cached_import(text, str(FILE), build)
    unitcache.cached_import(text, str(FILE), build)
    assert build.calls == 4 and not cache.exists()


def test_an_edited_importer_makes_every_entry_stale(cache: Path) -> None:
    text = FILE.read_text(encoding="utf-8")
    build = Counting()
    unitcache.cached_import(text, str(FILE), build)
    catalog = Path(unitcache._HERE) / "data" / "structure.toml"
    st = os.stat(catalog)
    try:
        os.utime(catalog, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # as if just edited
        unitcache.cached_import(text, str(FILE), build)
    finally:
        os.utime(catalog, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert build.calls == 2


def test_an_importer_record_refuses_a_misspelt_field():
    """The catalog's records (plain classes, built when the importer's data is read) take only
    the fields their class declares: a misspelt one is an error where it is written, not an
    AttributeError somewhere later."""
    import pytest

    from critcore_battletech.data.catalog import HeatSinkSpec

    with pytest.raises(TypeError, match="HeatSinkSpec has no field"):
        HeatSinkSpec(varient="double", pattern=None, type="double", dissipation=2)
    assert HeatSinkSpec(variant="double", pattern=None, type="double", dissipation=2).dissipation == 2


def test_one_engine_builds_the_importers_catalog_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog is kept in the reader memo the engine hands ``critcore_read_target`` (no module
    keeps one): two unit files read through one memo build it once, another memo builds its own."""
    import critcore_battletech.plugin as plugin
    from critcore_battletech.data import catalog as catalog_module

    monkeypatch.setenv("CRITCORE_CACHE", "0")  # every file really imported
    built: list[object] = []
    real = catalog_module._build

    def counting(*keep: Any) -> object:
        built.append(real(*keep))
        return built[-1]

    monkeypatch.setattr(catalog_module, "_build", counting)
    memo: dict[str, Any] = {}
    text = FILE.read_text(encoding="utf-8")
    first = plugin.critcore_read_target(path="a.mtf", text=text, memo=memo)
    second = plugin.critcore_read_target(path="b.mtf", text=text.replace("FB-1L", "FB-1M", 1), memo=memo)
    assert len(built) == 1 and first is not None and second is not None and second["model"] == "FB-1M"
    plugin.critcore_read_target(path="a.mtf", text=text, memo={})
    assert len(built) == 2


# --- the catalog's frame (unitcache.kept_frame) ---------------------------------------------------

class CountingFrame:
    """The frame's maker, counting how often it really reads the data files."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> dict[str, Any]:
        from critcore_battletech.data.frame import frame

        self.calls += 1
        return frame()


def _frame_entry(cache: Path) -> Path:
    return Path(resources._cache_file(str(cache), unitcache.FRAME_ENTRY))


def test_the_catalogs_frame_is_kept_and_equals_the_data_files_read_afresh(cache: Path) -> None:
    from critcore_battletech.data.frame import frame

    build = CountingFrame()
    first = unitcache.kept_frame(build)
    second = unitcache.kept_frame(build)
    assert build.calls == 1 and _frame_entry(cache).exists()
    assert second == first == frame()


def test_an_edited_data_file_makes_the_frame_stale(cache: Path) -> None:
    build = CountingFrame()
    unitcache.kept_frame(build)
    data = Path(unitcache._HERE) / "data" / "ammo.toml"
    st = os.stat(data)
    try:
        os.utime(data, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # as if just edited
        unitcache.kept_frame(build)
    finally:
        os.utime(data, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert build.calls == 2
    unitcache.kept_frame(build)  # the file as it was: its own entry again, made anew
    assert build.calls == 3


def test_a_damaged_frame_is_not_trusted(cache: Path) -> None:
    from critcore_battletech.data.frame import frame

    build = CountingFrame()
    unitcache.kept_frame(build)
    entry = _frame_entry(cache)
    for where in (-5, len(entry.read_bytes()) // 2, 3):
        raw = bytearray(entry.read_bytes())
        raw[where] ^= 0xFF  # one byte of the entry changed: the data, its hash or the header
        entry.write_bytes(bytes(raw))
        assert unitcache.kept_frame(build) == frame()
    entry.write_bytes(b"")  # an empty file
    assert unitcache.kept_frame(build) == frame()
    assert build.calls == 5


def test_a_cache_folder_that_cannot_be_used_reads_the_data_files(cache: Path) -> None:
    """A file where the cache folder should be: nothing can be read or written there, and the
    frame (and so every unit) is made from the data files, with no error."""
    from critcore_battletech.data.frame import frame

    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text("not a folder")
    build = CountingFrame()
    assert unitcache.kept_frame(build) == unitcache.kept_frame(build) == frame()
    assert build.calls == 2 and cache.is_file()
    import critcore_battletech.plugin as plugin

    text = FILE.read_text(encoding="utf-8")
    assert plugin.critcore_read_target(path=str(FILE), text=text, memo={}) == unit_from_mtf(text, str(FILE))


@pytest.mark.parametrize("shipped", [True, False])
def test_units_imported_through_a_kept_frame_equal_those_of_a_fresh_catalog(
        cache: Path, monkeypatch: pytest.MonkeyPatch, shipped: bool) -> None:
    """Every fixture unit read by the plugin (through the shipped frame; or without it, the first
    read making and keeping the frame, the rest reading it; each with an engine memo of its own)
    equals the unit the importer makes from the data files with no cache at all."""
    import critcore_battletech.plugin as plugin
    from critcore_battletech.data.catalog import catalog

    if not shipped:
        monkeypatch.setattr(unitcache, "shipped_frame", lambda: None)

    fresh = catalog()  # no keeper: the data files read
    files = sorted(FIXTURES.glob("*.mtf"))
    assert len(files) >= 3
    for path in files:
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        try:
            expected: Any = unit_from_mtf(text, f"copy-{path.name}", fresh)
        except StateError as exc:
            expected = str(exc)
        try:
            got: Any = plugin.critcore_read_target(path=f"copy-{path.name}", text=text, memo={})
        except StateError as exc:
            got = str(exc)
        assert got == expected, path.name
    assert _frame_entry(cache).exists() is not shipped  # the shipped frame is not kept again


# --- the frame shipped in the package (unitcache.shipped_frame, tools/battletech_frame.py) ------------

def test_the_shipped_frame_is_up_to_date() -> None:
    """data/frame.marshal is what tools/battletech_frame.py makes of the files as they are now
    (after editing a data file or the frame's modules, run the script and commit the file)."""
    import importlib.util

    tool = Path(__file__).resolve().parents[1] / "tools" / "battletech_frame.py"
    spec = importlib.util.spec_from_file_location("battletech_frame", tool)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0


def test_the_shipped_frame_equals_the_data_files_read_afresh() -> None:
    from critcore_battletech.data.frame import frame

    assert unitcache.shipped_frame() == frame()


def test_the_shipped_frame_names_every_data_file_the_frame_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    from critcore_battletech.data import frame as frame_module

    read: list[str] = []
    real = frame_module._read
    monkeypatch.setattr(frame_module, "_read", lambda name: read.append(name) or real(name))
    frame_module.frame()
    assert sorted(set(read)) == sorted(frame_module.DATA_FILES)


def _package_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the plugin's shipped frame and of the files it was made of, which unitcache
    reads instead of its own."""
    import shutil

    from critcore_battletech.data.frame import SOURCES

    copy = tmp_path / "critcore_battletech"
    for name in (*SOURCES, unitcache.SHIPPED_FRAME):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(Path(unitcache._HERE) / name, copy / name)
    monkeypatch.setattr(unitcache, "_HERE", str(copy))
    return copy


@pytest.mark.parametrize("edited", ["data/ammo.toml", "data/equipment.toml", "data/frame.py", "needs.py", "records.py"])
def test_an_edited_source_is_never_answered_from_the_shipped_frame(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache: Path, edited: str) -> None:
    """A data file or one of the frame's modules edited after the frame was shipped (a byte
    changed, the size kept): the shipped frame is not used, the frame is made and kept."""
    copy = _package_copy(tmp_path, monkeypatch)
    assert unitcache.shipped_frame() is not None
    source = copy / edited
    raw = bytearray(source.read_bytes())
    raw[-2] = ord("#") if raw[-2] != ord("#") else ord(" ")
    source.write_bytes(bytes(raw))
    assert unitcache.shipped_frame() is None
    build = CountingFrame()
    unitcache.frame_of(build)
    assert build.calls == 1 and _frame_entry(cache).exists()


def test_a_damaged_or_missing_shipped_frame_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A shipped frame that does not read as one is not used. (Like the package's modules it
    carries no hash of its own: pip checks the wheel's files when it installs them.)"""
    import marshal

    copy = _package_copy(tmp_path, monkeypatch)
    shipped = copy / unitcache.SHIPPED_FRAME
    good = shipped.read_bytes()
    shipped.write_bytes(good[: len(good) // 3])  # cut short
    assert unitcache.shipped_frame() is None
    fmt, sources, frame = marshal.loads(good)
    shipped.write_bytes(marshal.dumps((fmt + 1, sources, frame)))  # another format
    assert unitcache.shipped_frame() is None
    shipped.write_bytes(marshal.dumps((fmt, {}, frame)))  # no sources named
    assert unitcache.shipped_frame() is None
    shipped.write_bytes(b"not marshal at all")
    assert unitcache.shipped_frame() is None
    shipped.unlink()
    assert unitcache.shipped_frame() is None
