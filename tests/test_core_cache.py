"""Issue 14, the cache of parsed tables: it lives in the platform's cache folder, an entry is used
only when it matches the file it came from (content hashes, not a modification time), and the
Python API does not write it unless asked."""

from __future__ import annotations

import marshal
import os
import sys

import pytest

from critcore._speed import diskcache
from critcore.tables import resources

TABLE = 'id = "t"\ntitle = "T"\ndice = "1d6"\n\n[[row]]\nroll = "1-6"\nid = "all"\ntext = "Anything."\nmultiplier = 2\n'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    monkeypatch.delenv("CRITCORE_CACHE", raising=False)
    diskcache.cache_writes(True)
    yield folder / "critcore"
    diskcache.cache_writes(False)


def table_file(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(TABLE)
    return str(path)


def entries(folder):
    return sorted(folder.glob("*.marshal")) if folder.exists() else []


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="the Linux/XDG folder")
def test_the_cache_is_in_the_xdg_cache_folder(cache):
    assert diskcache.cache_dir() == str(cache)


def test_platform_folders(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    assert diskcache.cache_dir() == os.path.join(os.path.expanduser("~"), "Library", "Caches", "critcore")
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", "C:/Users/a/AppData/Local")
    assert diskcache.cache_dir() == os.path.join("C:/Users/a/AppData/Local", "critcore", "Cache")
    monkeypatch.setenv("CRITCORE_CACHE", "0")
    assert diskcache.cache_dir() is None


def test_an_entry_is_written_and_used(cache, tmp_path):
    path = table_file(tmp_path)
    first = resources.load_toml(path, "t.toml")
    assert len(entries(cache)) == 1
    assert resources.load_toml(path, "t.toml") == first


def test_a_rewritten_entry_is_not_trusted(cache, tmp_path):
    """A row's multiplier set to 1000 in the cache entry gave 13,500 injury; now the entry's
    content hash no longer matches and the file is parsed again."""
    path = table_file(tmp_path)
    resources.load_toml(path, "t.toml")
    (entry,) = entries(cache)
    fmt, source_hash, data_hash, blob = marshal.loads(entry.read_bytes())
    data = marshal.loads(blob)
    data["row"][0]["multiplier"] = 1000
    entry.write_bytes(marshal.dumps((fmt, source_hash, data_hash, marshal.dumps(data))))
    assert resources.load_toml(path, "t.toml")["row"][0]["multiplier"] == 2


def test_an_entry_for_other_content_with_the_same_time_and_size_is_not_used(cache, tmp_path):
    """Only the content decides: the same size and modification time with other bytes is a miss."""
    path = table_file(tmp_path)
    resources.load_toml(path, "t.toml")
    st = os.stat(path)
    with open(path, "w") as fh:
        fh.write(TABLE.replace("multiplier = 2", "multiplier = 5"))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(path).st_size == st.st_size
    assert resources.load_toml(path, "t.toml")["row"][0]["multiplier"] == 5


def test_the_python_api_writes_no_cache_unless_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("CRITCORE_CACHE", raising=False)
    diskcache.cache_writes(False)
    path = table_file(tmp_path)
    resources.load_toml(path, "t.toml")
    assert entries(tmp_path / "cache" / "critcore") == []
