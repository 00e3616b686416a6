"""The importer's patterns (critcore_battletech/records.py): the small matcher that stands in for
``re.compile`` on ASCII text gives re's answers (the match, its span and groups, the text after
``sub``) for every pattern of the data files and modules, with and without case; the literal
filter never skips a text re would match; syntax the matcher does not know goes to re."""

from __future__ import annotations

import os
import re
import string

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from critcore_battletech import mtf, units
from critcore_battletech.data import catalog as catalog_module
from critcore_battletech.records import Pattern, _literals, lite

# examples a property draws: more in .ci/run's long run (CRITCORE_LONG=1, tests/runlength.py)
ROUNDS = 3000 if os.environ.get("CRITCORE_LONG") else 400


def data_patterns() -> list[str]:
    """Every regular expression of the importer: the data files' (through the catalog's frame)
    and the modules' own."""
    f = catalog_module.frame()
    found = [f["omni_pattern"], f["engine_clan_pattern"], f["engine_is_pattern"], f["ammo_half"], f["ammo_count"],
             f["prefix"], *f["ammo_strip"]]
    found += [c[1] for c in f["configs"]] + [e[1] for e in f["engines"]] + [h[1] for h in f["heat_sinks"]]
    found += [a[2] for a in f["ammo_families"]] + [v[1] for v in f["ammo_variants"]]
    found += [e[1] for e in f["equipment_families"]]
    found += [mtf._LOCATION_WORDS.text, units._SIZE.text, catalog_module._NARC_PODS.text]
    return sorted(set(found))


PATTERNS = data_patterns()


def _pieces(pattern: str) -> list[str]:
    """Runs of letters and digits of a pattern: what names that match it are made of."""
    return [w for w in re.split(r"\\[a-z]|[^a-zA-Z0-9 /-]", pattern) if w] or ["x"]


def names_for(pattern: str) -> st.SearchStrategy[str]:
    """Names near the pattern: its own words glued, spaced, cased and cut, with digits, brackets,
    colons and other ASCII around them, or any ASCII at all."""
    alphabet = string.ascii_letters + string.digits + " -/():.\n_'"
    word = st.sampled_from(_pieces(pattern))
    part = st.one_of(word, word.map(str.upper), word.map(str.title), st.text(alphabet, max_size=3),
                     st.integers(0, 40).map(str))
    glued = st.lists(part, max_size=5).map("".join)
    cut = st.tuples(glued, st.integers(0, 4), st.integers(0, 4)).map(lambda t: t[0][t[1]:len(t[0]) - t[2]])
    return st.one_of(glued, cut, st.text(alphabet, max_size=20), st.text(max_size=8))


def _answer(m: object) -> object:
    if m is None:
        return None
    return (m.group(0), m.start(), m.end(), m.groups())  # type: ignore[attr-defined]


@settings(max_examples=ROUNDS, deadline=None)
@given(pattern=st.sampled_from(PATTERNS), ignore_case=st.booleans(), data=st.data())
def test_every_pattern_of_the_data_answers_as_re_does(pattern: str, ignore_case: bool, data: st.DataObject) -> None:
    """The Pattern's search, match and sub (the matcher on ASCII text, re on any other, the literal
    filter before both) equal re's own on names made from the pattern's words."""
    rx = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    name = data.draw(names_for(pattern))
    p = Pattern(pattern, ignore_case)
    assert _answer(p.search(name)) == _answer(rx.search(name))
    assert _answer(p.match(name)) == _answer(rx.match(name))
    assert p.sub(" ", name) == rx.sub(" ", name)


def test_the_data_patterns_are_in_the_matchers_syntax() -> None:
    """The matcher knows the syntax of every pattern the data uses but the stray-byte class (a
    pattern it does not know would be compiled by re on every unit that needs it)."""
    assert [p for p in PATTERNS if lite(p) is None] == []
    assert lite("[\udc80-\udcff]") is None and lite("a{2}") is None and lite("(?P<x>a)") is None


@settings(max_examples=ROUNDS, deadline=None)
@given(pattern=st.sampled_from(PATTERNS), ignore_case=st.booleans(), name=st.text(string.printable, max_size=24))
@example(pattern="^(?:ba)?advancedsrm(\\d+)", ignore_case=False, name="baadvancedsrm4")
def test_the_matcher_agrees_with_re_on_any_ascii_text(pattern: str, ignore_case: bool, name: str) -> None:
    m = lite(pattern, ignore_case)
    assert m is not None
    rx = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    assert _answer(m.search(name)) == _answer(rx.search(name))
    assert _answer(m.search(name, anchored=True)) == _answer(rx.match(name))


@pytest.mark.parametrize("pattern, literals", [
    ("(?:ba)?advancedsrm(\\d+)", None),  # the group may be left out: "ba" is not certain
    ("(?:ba)*srm", None),
    ("(ba)?srm", None),
    ("(?<!n)gauss", ("gauss",)),  # the lookbehind matches no text
    ("lightgauss|ltgauss|(?<!personne)lgauss", ("lightgauss", "ltgauss", "lgauss")),
    ("armou?r", ("armo",)),
    ("^(?:ba)?advancedsrm(\\d+)", None),
])
def test_the_literal_filter_reads_only_certain_text(pattern: str, literals: tuple[str, ...] | None) -> None:
    assert _literals(pattern) == literals


@settings(max_examples=50, deadline=None)
@given(prefix=st.sampled_from(["", "ba", "BA", "x"]), rest=st.sampled_from(["advancedsrm4", "srm6", "gauss", "ngauss"]))
def test_a_leading_optional_group_does_not_hide_a_match(prefix: str, rest: str) -> None:
    """re's answer for the patterns the old filter misread ("ba" of "(?:ba)?" taken as certain)."""
    for pattern in ("(?:ba)?advancedsrm(\\d+)", "(?:ba)?srm(\\d+)", "(?<!n)gauss"):
        assert _answer(Pattern(pattern).search(prefix + rest)) == _answer(re.search(pattern, prefix + rest))
