"""critcore._speed.entrypoints reads installed entry points as importlib.metadata does (a speed
piece: docs/architecture.md, "Speed machinery"): the same answers on this environment's
sys.path and on made-up distributions, and the same sections read from any entry_points.txt
text (hypothesis), malformed ones included."""

from __future__ import annotations

import importlib.metadata as metadata
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from runlength import examples

from critcore._speed.entrypoints import _parse_entry_points, installed_entry_points

GROUPS = ("critcore.systems", "critcore.rules", "console_scripts")


def theirs(paths):
    found, seen = set(), set()
    for dist in metadata.distributions(path=list(paths)):
        name = dist.metadata["Name"].lower().replace("_", "-")
        if name in seen:  # as importlib.metadata.entry_points(): the first of a name wins
            continue
        seen.add(name)
        for ep in dist.entry_points:
            if ep.group in GROUPS:
                found.add((ep.group, ep.name, ep.value, dist.metadata["Name"].lower().replace("_", "-")))
    return found


def ours(paths):
    return {(g, n, v, d.lower()) for g, n, v, d, _ in installed_entry_points(GROUPS, paths)}


def test_the_installed_entry_points_are_importlib_metadatas():
    """Every critcore system and rule installed here, and every console script, found alike."""
    assert ours(sys.path) == theirs(sys.path)


def make_dist(site, name, version, text):
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(text)


def test_the_first_distribution_of_a_name_on_the_path_wins(tmp_path):
    """Two folders holding the same distribution: the first on the path is the one read, by
    both readers."""
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir(), second.mkdir()
    make_dist(first, "critcore-dnd", "1.0", "[critcore.systems]\ndnd = dnd_a.plugin\n")
    make_dist(second, "critcore-dnd", "2.0", "[critcore.systems]\ndnd = dnd_b.plugin\n")
    make_dist(second, "other", "0.1", "[critcore.rules]\nspicy = spicy:plugin\n")
    paths = [str(first), str(second)]
    assert ours(paths) == theirs(paths) == {("critcore.systems", "dnd", "dnd_a.plugin", "critcore-dnd"),
                                             ("critcore.rules", "spicy", "spicy:plugin", "other")}


WORD = st.text(alphabet="abcdefgz._-", min_size=1, max_size=10)
VALUE = st.text(alphabet="abcdefgz._:[] ", min_size=1, max_size=14).map(str.strip).filter(bool)
LINE = st.one_of(WORD.map(lambda s: f"[{s}]"), WORD.map(lambda s: f" [ {s} ] "),
                 st.tuples(WORD, VALUE).map(lambda kv: f"{kv[0]} = {kv[1]}"),
                 st.tuples(WORD, VALUE).map(lambda kv: f"  {kv[0]}={kv[1]}  "), st.just(""), st.just("# a note"))


@settings(max_examples=examples(120, 2000), deadline=None)
@given(st.lists(LINE, max_size=12))
def test_entry_point_files_are_read_into_the_entries_importlib_metadata_reads(lines):
    """importlib.metadata reads entry_points.txt with its ``Sectioned`` reader: the same
    entries (group, name, value), in the same order, for any file of sections, entries, blank
    lines and comments (importlib.metadata takes only ``#`` for one)."""
    text = "\n".join(lines) + "\n"
    ours_read = [(group, name, value) for group, items in _parse_entry_points(text).items()
                 for name, value in items]
    theirs_read = [(pair.name.strip(), pair.value.name, pair.value.value)
                   for pair in metadata.Sectioned.section_pairs(text) if pair.name is not None]
    assert sorted(ours_read) == sorted(theirs_read)


@settings(max_examples=examples(120, 2000), deadline=None)
@given(st.text(max_size=200))
def test_any_text_at_all_is_read_without_an_error(text):
    """A damaged entry_points.txt (importlib.metadata itself raises on some) never stops crit:
    whatever it holds, reading it answers."""
    assert isinstance(_parse_entry_points(text), dict)
