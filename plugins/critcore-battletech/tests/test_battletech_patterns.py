"""The importer's patterns (critcore_battletech/records.py): a Pattern gives re's answers (the
match, its span and groups, the text after ``sub``) for every pattern of the data files and
modules, with and without case, whether the string methods answer it (plain words on ASCII
text) or re does; the literal filter never skips a text re would match."""

from __future__ import annotations

import os
import re
import string

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from critcore_battletech import mtf, units
from critcore_battletech.data import catalog as catalog_module
from critcore_battletech.data.frame import frame
from critcore_battletech.needs import _literals, filter_of, needs
from critcore_battletech.records import TECH_PREFIX, Pattern, TechPrefix, Words, words

# examples a property draws: more in .ci/run's long run (CRITCORE_LONG=1, tests/runlength.py)
ROUNDS = 3000 if os.environ.get("CRITCORE_LONG") else 150


def data_patterns() -> list[str]:
    """Every regular expression of the importer: the data files' (through the catalog's frame)
    and the modules' own."""
    f = frame()
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


def test_plain_words_are_answered_without_re_and_the_rest_by_re() -> None:
    """Which patterns the string methods answer: words, a word and a number, the blank text."""
    plain = [p for p in PATTERNS if words(p) is not None]
    assert {"biped", "ammo", "heavygauss|hvgauss|hgauss", "lrm(\\d+)", "(?<![ng])(?:ac|autocannon)(\\d+)",
            "single|^\\s*$"} <= set(plain)
    assert {"\\bfusion\\b|^\\s*engine", "\\bxl\\b"} <= set(plain)
    for other in ("lrm(\\d+)x", "\\bx l\\b", "\\bxl", "a||b", "\\bab\\b(\\d+)", "(?<!n)gauss", "(?:a|^b)(\\d+)", "^\\s*$|single", "a(\\d+)(\\d+)"):
        assert words(other) is None, other


EXTRA = ["ab|a", "a|ab", "ba|a b", "a|^\\s*$", "(?<!x)(?:a|ab)(\\d+)", "(?<![xb])(?:a|ab)(\\d+)", "(?<!ba)a(\\d+)", "b(\\d+)", "(?:a|ba)(\\d+)",
         "\\bab\\b|^\\s*ba", "b|\\bab\\b", "^\\s*a|\\bb\\b|^\\s*b"]


@settings(max_examples=ROUNDS, deadline=None)
@given(pattern=st.sampled_from([p for p in PATTERNS if isinstance(words(p), Words)] + EXTRA),  # TechPrefix: below
       ignore_case=st.booleans(), data=st.data())
@example(pattern="ab|a", ignore_case=False, data=None)
def test_plain_words_agree_with_re(pattern: str, ignore_case: bool, data: st.DataObject | None) -> None:
    """The leftmost match, at one place the first alternative (not the longest), the digits as
    group 1, a blank text where the blank alternative is: as re, on any ASCII text."""
    name = "xab" if data is None else data.draw(st.one_of(names_for(pattern), st.text(string.printable, max_size=24)))
    if not name.isascii():
        return
    m = words(pattern, ignore_case)
    assert m is not None
    rx = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    assert _answer(m.search(name)) == _answer(rx.search(name))
    assert _answer(m.search(name, anchored=True)) == _answer(rx.match(name))
    done = m.sub(" ", name)
    assert done is None or done == rx.sub(" ", name)


# the characters the tech prefix's parts turn on: its letters in both cases, capitals and small
# letters after it, digits, each kind of ASCII blank re's \s takes (\x1c-\x1f too), and others
_PREFIX_CHARS = "CLANclanISisxZ09 \t\n\x0b\x1c\x1f-_("


def test_the_tech_prefix_is_answered_without_re_as_re_answers_it() -> None:
    """ammo.toml's tech prefix is the pattern TechPrefix answers (so no unit's import compiles
    it), and on every ASCII text of up to three of the characters that matter, and on each of
    those after the words MegaMek writes, its match is re's (text and end), found by search and
    by match alike; with case ignored, re answers."""
    assert frame()["prefix"] == TECH_PREFIX and isinstance(words(TECH_PREFIX), TechPrefix)
    assert words(TECH_PREFIX, ignore_case=True) is None
    rx = re.compile(TECH_PREFIX)
    lite = TechPrefix()
    texts = [""]
    for _ in range(3):
        texts = texts + [t + c for t in texts if len(t) == len(texts[-1]) for c in _PREFIX_CHARS]
    for head in ("", "Clan", "CLAN", "clan ", "CL", "IS", "ISi", "CLi"):
        for text in texts:
            name = head + text
            want = rx.match(name)
            got = lite.search(name)
            assert (got is None) == (want is None), name
            if want is not None:
                assert (got.group(0), got.end()) == (want.group(0), want.end()), name
                assert lite.search(name, anchored=True).end() == want.end()
    p = Pattern(TECH_PREFIX)
    assert p.match("CLERPPC").group(0) == "CL" and p.match("Clan  Gauss").end() == 6
    assert p._rx is None  # answered without compiling


@settings(max_examples=ROUNDS, deadline=None)
@given(name=st.text(st.sampled_from(_PREFIX_CHARS + "abcdefghijklmnopqrstuvwxyzBDEFGHJKMOPQRTUVWY12345678"),
                    max_size=12))
def test_the_tech_prefix_agrees_with_re_on_longer_names(name: str) -> None:
    """The same on longer ASCII names drawn from letters, digits and blanks."""
    want = re.compile(TECH_PREFIX).match(name)
    got = TechPrefix().search(name)
    assert (None if got is None else (got.group(0), got.end())) == \
        (None if want is None else (want.group(0), want.end()))

@pytest.mark.parametrize("pattern, literals", [
    ("(?:ba)?advancedsrm(\\d+)", ("advancedsrm",)),  # the group may be left out: "ba" is not certain
    ("(?:ba)*srm", ("srm",)),
    ("(ba)?srm|x", ("srm", "x")),
    ("^ba(?:is|cl)?lrm(\\d+)", ("ba",)),
    ("(?:ac|autocannon)(\\d+)(?:p|primitive)$|primitive(?:prototype)?lrm", ("ac", "autocannon", "primitive")),
    ("(?<!n)gauss", ("gauss",)),  # the lookbehind matches no text
    ("lightgauss|ltgauss|(?<!personne)lgauss", ("lightgauss", "ltgauss", "lgauss")),
    ("armou?r", ("armo",)),
    ("(?:a|\\d)x", None),
    ("\\s*:size", None),
])
def test_the_literal_filter_reads_only_certain_text(pattern: str, literals: tuple[str, ...] | None) -> None:
    assert _literals(pattern) == literals


@settings(max_examples=50, deadline=None)
@given(prefix=st.sampled_from(["", "ba", "BA", "x"]), rest=st.sampled_from(["advancedsrm4", "srm6", "gauss", "ngauss"]))
def test_a_leading_optional_group_does_not_hide_a_match(prefix: str, rest: str) -> None:
    """re's answer for the patterns the old filter misread ("ba" of "(?:ba)?" taken as certain)."""
    for pattern in ("(?:ba)?advancedsrm(\\d+)", "(?:ba)?srm(\\d+)", "(?<!n)gauss", "^ba(?:is|cl)?srm(\\d+)"):
        assert _answer(Pattern(pattern).search(prefix + rest)) == _answer(re.search(pattern, prefix + rest))


@settings(max_examples=ROUNDS, deadline=None)
@given(pattern=st.sampled_from(PATTERNS + ["ab+c", "x{2,3}yz", "(?:ba)?srm|(ab)+c", "a\\.?b(?:c|d)e"]),
       ignore_case=st.booleans(), data=st.data())
def test_the_filter_never_skips_a_text_re_matches(pattern: str, ignore_case: bool, data: st.DataObject) -> None:
    """A text re finds a match in is never judged hopeless (what every match needs, worked out
    from the pattern, is in it)."""
    name = data.draw(names_for(pattern))
    if re.search(pattern, name, re.IGNORECASE if ignore_case else 0) is not None:
        assert not Pattern(pattern, ignore_case)._hopeless(name)


@pytest.mark.parametrize("pattern, needed", [
    ("lrm(\\d+)(?:p|primitive)$|primitive(?:prototype)?lrm(\\d+)",
     ((("lrm",), ("p", "primitive")), (("primitive",), ("lrm",)))),
    ("\\bi\\.?c\\.?e\\.?(?![a-z])|internal combustion", ((("i",), ("c",), ("e",)), (("internal combustion",),))),
    ("single|^\\s*$", ()),  # the second alternative needs no text
    ("ab+c", ((("ab",), ("c",)),)),
    ("x{2,3}yz", ((("yz",),),)),
])
def test_what_a_match_needs(pattern: str, needed: object) -> None:
    assert needs(pattern) == needed


def test_the_catalog_keeps_the_filters_of_its_patterns() -> None:
    """The frame holds each data pattern's filter, as worked out from the pattern itself, with
    the case as the catalog matches it; every pattern the catalog makes has its filter."""
    f = frame()
    assert len(f["filters"]) + len(f["exact_filters"]) > 100
    assert all(f["filters"][p] == filter_of(p, True) for p in f["filters"])
    assert all(f["exact_filters"][p] == filter_of(p, False) for p in f["exact_filters"])
    cat = catalog_module.from_frame(f)
    made = [cat.omni_pattern, cat.ammo_half, cat.prefix, *(s.pattern for s in cat.configs),
            *(p for p, _ in cat.ammo_rows), *(p for p, _ in cat.family_rows), *(v.pattern for v in cat.ammo_variants)]
    assert all(p._filter == filter_of(p.text, p.lower) for p in made)
