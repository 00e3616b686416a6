"""Reading JSON from outside (a target file, stdin, a campaign row) with ``json`` itself (issue 24:
the hand-made scanner that crashed with a SystemError on 11 of 18 malformed files is gone). For
any text, ``load_json`` gives what ``json.loads`` gives, or one InputError line naming the source;
never another exception, however the text is broken."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from runlength import examples

from critcore.errors import InputError
from critcore.files.reading import load_json

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=examples(120, 2000), deadline=None)
@given(JSONISH)
def test_well_formed_json_reads_as_json_reads_it(value):
    text = json.dumps(value)
    assert load_json(text, "t.json") == json.loads(text)


@settings(max_examples=examples(200, 3000), deadline=None)
@given(st.one_of(st.text(alphabet='{}[]":,0123456789.eE-+ntrufalsbad\\\n\t ', max_size=40),
                 JSONISH.map(json.dumps).flatmap(lambda t: st.integers(0, len(t)).map(lambda i: t[:i]))))
def test_any_text_is_json_or_one_line_naming_the_source(text):
    """Random characters and every truncation of a well-formed text (the shapes of issue 24's
    malformed files: a cut-off file, a stray brace, a bare word)."""
    try:
        want = json.loads(text)
    except ValueError:
        with pytest.raises(InputError) as caught:
            load_json(text, "b.json")
        line = str(caught.value)
        assert line.startswith("b.json") and "\n" not in line
    else:
        try:
            assert load_json(text, "b.json") == want
        except InputError as exc:  # past the depth or digit limits: refused in one line too
            assert str(exc).startswith("b.json") and "\n" not in str(exc)


@pytest.mark.parametrize("text", ['{bad json', '{"hp": 4', '[1, 2,', '{"a": NaN}', '1' * 5000, '[' * 5000, ''])
def test_the_reproducers_are_one_line(text):
    with pytest.raises(InputError) as caught:
        load_json(text, "b.json")
    assert str(caught.value).startswith("b.json") and "\n" not in str(caught.value)


@settings(max_examples=examples(150, 2000), deadline=None)
@given(st.one_of(JSONISH.map(json.dumps),
                 st.text(alphabet='{}[]":,0123456789.eE-+ntrufalsbadNI\\\ufeff\n\t ', max_size=40),
                 st.integers(-10**30, 10**30).map(str)),
       st.sampled_from([3, 20, 4300]))
def test_a_decoder_made_once_reads_as_load_json_reads(text, digits):
    """``crit serve`` makes its decoder once (``json_reader``): for any text, the same value or the
    same error line as ``load_json`` making one at each call (a byte-order mark, a number past the
    digit limit and NaN included)."""
    from critcore.files.reading import json_reader

    limits = (50, digits)

    def read(reader):
        try:
            return load_json(text, "body", limits=limits, reader=reader)
        except InputError as exc:
            return ("error", str(exc))

    assert repr(read(json_reader(digits))) == repr(read(None))
