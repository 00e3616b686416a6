"""The speed seam against the libraries it replaces, on generated input (issue 24): a ``record``
answers as a frozen dataclass of the same fields does, errors included; the disk cache hands
back what ``tomllib`` reads, and a malformed text is refused exactly when ``tomllib`` refuses
it. (The entry-point reader's own properties are in test_core_entrypoints.py, the stage calls'
in test_core_stagecall.py.)"""

from __future__ import annotations

import dataclasses
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from runlength import examples

from critcore._speed.records import record
from critcore.errors import TableError

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]


@record
class Made:
    a: int
    b: str = "x"
    c: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True)
class Plain:
    a: int
    b: str = "x"
    c: tuple[int, ...] = ()


VALUES = st.tuples(st.integers(-10**6, 10**6), st.text(max_size=8), st.tuples(st.integers(0, 9)))


def both(args, kwargs):
    """What each class does with the same arguments: the instance, or the exception's type."""
    out = []
    for cls in (Made, Plain):
        try:
            out.append(cls(*args, **kwargs))
        except TypeError:
            out.append(TypeError)
    return out


@settings(max_examples=examples(80, 1000), deadline=None)
@given(VALUES, VALUES)
def test_a_record_equals_hashes_and_prints_as_a_frozen_dataclass(one, other):
    m1, m2, p1, p2 = Made(*one), Made(*other), Plain(*one), Plain(*other)
    assert (m1 == m2) == (p1 == p2)
    assert (hash(m1) == hash(Made(*one))) and (hash(p1) == hash(Plain(*one)))
    assert repr(m1).replace("Made", "X") == repr(p1).replace("Plain", "X")
    assert dataclasses.astuple(m1) == dataclasses.astuple(p1)
    assert dataclasses.replace(m1, b="y") == Made(one[0], "y", one[2])
    with pytest.raises(dataclasses.FrozenInstanceError):
        m1.a = 1  # type: ignore[misc]


ARGS = st.lists(st.one_of(st.integers(0, 3), st.text(max_size=3)), max_size=5)
KWARGS = st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), st.integers(0, 3), max_size=3)


@settings(max_examples=examples(120, 2000), deadline=None)
@given(ARGS, KWARGS)
def test_a_record_refuses_the_calls_a_dataclass_refuses(args, kwargs):
    """Too many or too few arguments, an unknown name, a name given twice: a TypeError from both,
    or an instance from both with the same fields."""
    made, plain = both(args, kwargs)
    if made is TypeError or plain is TypeError:
        assert made is plain
    else:
        assert dataclasses.astuple(made) == dataclasses.astuple(plain)


KEYS = st.text(alphabet="abcxyz_", min_size=1, max_size=6)
SCALARS = st.one_of(st.integers(-10**9, 10**9), st.text(max_size=10), st.booleans(),
                    st.floats(allow_nan=False, allow_infinity=False, width=32))
DOCS = st.dictionaries(KEYS, st.one_of(SCALARS, st.lists(st.integers(0, 99), max_size=4),
                                       st.dictionaries(KEYS, SCALARS, max_size=3)), max_size=6)


@settings(max_examples=examples(50, 500), deadline=None)
@given(DOCS)
def test_the_disk_cache_hands_back_what_tomllib_reads(tmp_path_factory, doc):
    """A table read twice (the second time from the cache entry the first one wrote) is what
    tomllib reads from the file, both times."""
    import tomlkit

    from critcore._speed import diskcache
    from critcore.tables.resources import load_toml

    folder = tmp_path_factory.mktemp("t")
    path = folder / "t.toml"
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")
    before, saved = diskcache.writes_enabled(), {k: os.environ.get(k) for k in ("XDG_CACHE_HOME", "CRITCORE_CACHE")}
    os.environ.update(XDG_CACHE_HOME=str(folder / "cache"), CRITCORE_CACHE="1")  # a cache folder of its own
    diskcache.cache_writes(True)
    try:
        first = load_toml(str(path), "t.toml")
        second = load_toml(str(path), "t.toml")
    finally:
        diskcache.cache_writes(before)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    want = tomllib.loads(path.read_text(encoding="utf-8"))
    assert first == want and second == want


@settings(max_examples=examples(120, 2000), deadline=None)
@given(st.text(alphabet='ab=[]."\n 1#', max_size=40))
def test_a_malformed_table_is_refused_exactly_when_tomllib_refuses_it(text):
    from critcore.tables.resources import load_toml_text

    try:
        want = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        with pytest.raises(TableError, match="^t.toml"):
            load_toml_text(text, "t.toml")
    else:
        assert load_toml_text(text, "t.toml") == want


@settings(max_examples=examples(100, 1500), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.booleans()), max_size=40))
def test_work_on_shared_parts_is_the_plain_list_done_once_a_part(picks):
    """sharedparts.once_per: the same answers, in the same order, as working out every item, the
    work done once for each part object however many items hold it; an equal part made apart is
    worked out on its own (found by identity, never by a value it may only look like)."""
    from critcore._speed.sharedparts import once_per

    shared = [("part", n) for n in range(5)]  # one object each, held by many items
    items = [(shared[n] if same else ("part", n), i) for i, (n, same) in enumerate(picks)]
    calls = []

    def words(item):
        calls.append(item[0])
        return f"{item[0][1]} said"

    assert once_per(items, lambda item: item[0], words) == [f"{item[0][1]} said" for item in items]
    assert len(calls) == len({id(part) for part, _ in items})
