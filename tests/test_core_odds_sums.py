"""The exact sums and the order behind the odds report and its JSON (issue 25: the report of the
slowest corpus location was a sixth of ``crit odds``'s time, most of it adding fractions).

``sum_of`` and ``add_parts``/``from_parts`` keep a sum of fractions as whole numerators by
denominator; the odds JSON sorts outcomes by whole numbers over the least common denominator.
Each must give exactly what the plain fraction arithmetic gives."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from runlength import examples

from critcore.chance.exact import Branch, Odds, group
from critcore.chance.probability import add_parts, from_parts, sum_of
from critcore.chance.view import _most_likely_first, odds_json
from critcore.model import Data, Determination

# denominators as exact odds make them (products of die sizes) and a few others
fractions = st.builds(Fraction, st.integers(0, 10**6),
                      st.sampled_from([1, 2, 3, 6, 8, 12, 20, 36, 216, 1296, 7, 11, 10**9 + 7]))


@settings(max_examples=examples(120, 2000))
@given(st.lists(fractions, max_size=60))
def test_an_exact_sum_is_the_sum_of_the_fractions(values):
    """Adding numerators by denominator and meeting over the least common denominator is the
    same number as adding the fractions one by one, and in lowest terms."""
    assert sum_of(values) == sum(values, Fraction(0))
    assert isinstance(sum_of(values), Fraction)
    parts: dict[int, int] = {}
    for v in values:
        add_parts(parts, v)
    assert from_parts(parts) == sum(values, Fraction(0))


@given(st.lists(st.floats(0, 1), min_size=1, max_size=40))
def test_frequencies_are_summed_as_floats_in_order(values):
    """A simulation's frequencies: the same float as a plain sum from 0.0, rounding and all."""
    assert sum_of(values) == sum(values, 0.0)


def test_nothing_sums_to_an_exact_zero():
    assert sum_of([]) == 0 and isinstance(sum_of([]), Fraction)
    assert from_parts({}) == Fraction(0)


def _branch(p, kind="hit"):
    return Branch(Determination(kind=kind, critical=False, summary=kind), None, (), None, p)


@settings(max_examples=examples(80, 1000))
@given(st.lists(fractions.filter(bool), min_size=1, max_size=40))
def test_outcomes_sort_most_likely_first_with_ties_in_their_order(values):
    """The JSON's order: by probability, highest first, equal ones as the odds found them (a
    stable sort), whatever their denominators."""
    branches = [_branch(v, f"k{i}") for i, v in enumerate(values)]
    by_whole = sorted(branches, key=_most_likely_first(branches))
    assert by_whole == sorted(branches, key=lambda b: -b.probability)


def test_the_odds_json_lists_outcomes_most_likely_first():
    """1/6 and 2/12 are equal (kept in their order), 1/4 is the most likely, 1/8 least."""
    branches = (_branch(Fraction(1, 6), "a"), _branch(Fraction(1, 8), "b"), _branch(Fraction(1, 4), "c"),
                _branch(Fraction(2, 12), "d"), _branch(Fraction(7, 24), "e"))
    odds = Odds("fake", "attack", Data({}), branches, Fraction(0), 1)
    shown = [o["probability"]["fraction"] for o in odds_json(odds)["outcomes"]]
    assert shown == ["7/24", "1/4", "1/6", "1/6", "1/8"]


def test_a_group_holds_the_exact_sum_of_its_outcomes():
    """Three hits of 1/6, 1/12 and 1/4 make one group of 1/2; a miss of 1/2 another."""
    branches = [_branch(Fraction(1, 6)), _branch(Fraction(1, 12)), _branch(Fraction(1, 4)),
                _branch(Fraction(1, 2), "miss")]
    groups = group(branches, ("determine",))
    assert {(g.label, g.probability) for g in groups} == {("hit", Fraction(1, 2)), ("miss", Fraction(1, 2))}


def test_the_json_stores_equal_stage_results_once_whether_or_not_the_same_object():
    """The odds JSON stores each distinct stage result once: the same object twice, and an equal
    one made apart, refer to one part; a different one to another. Exact odds share their stage
    results as objects, and the JSON finds them by identity first (``_Parts.ref``)."""
    hit = Determination(kind="hit", critical=False, summary="hit")
    again = Determination(kind="hit", critical=False, summary="hit")  # equal, not the same object
    miss = Determination(kind="miss", critical=False, summary="miss")
    assert again == hit and again is not hit
    branches = tuple(Branch(d, None, (), None, Fraction(p, 16))
                     for d, p in ((miss, 8), (hit, 4), (hit, 2), (again, 1), (miss, 1)))
    data = odds_json(Odds("fake", "attack", Data({}), branches, Fraction(0), 1))
    assert [o["determination"] for o in data["outcomes"]] == [0, 1, 1, 1, 0]
    assert [d["kind"] for d in data["parts"]["determination"]] == ["miss", "hit"]


TAGS = ("explosion", "engine", "pilot-hit", "destroyed")


def _tagged(p, tags, effects=()):
    return Branch(Determination(kind="hit", critical=False, summary="hit", tags=frozenset(tags)), None, effects,
                  None, p)


@settings(max_examples=examples(120, 2000))
@given(st.lists(st.tuples(fractions, st.sets(st.sampled_from(TAGS + ("undeclared",)))), max_size=40))
def test_each_events_chance_is_the_sum_of_the_outcomes_that_carry_it(outcomes):
    """The report's events: each declared event's chance is the exact sum of the chances of the
    outcomes whose tags name it (asked one event at a time through ``Odds.event``, outcome by
    outcome), however many outcomes share a set of tags; a tag no event declares counts nowhere."""
    from critcore.model import Event

    events = tuple(Event(name, name) for name in TAGS)
    odds = Odds("fake", "attack", Data({}), tuple(_tagged(p, tags) for p, tags in outcomes), Fraction(0), 1, events)
    found = odds.event_odds()
    assert [e.name for e, _ in found] == list(TAGS)
    for e, p in found:
        assert p == odds.event(e.name) == sum((q for q, tags in outcomes if e.name in tags), Fraction(0))


def test_outcomes_that_share_an_effect_stage_answer_read_as_those_that_do_not():
    """Exact odds hand many outcomes the same tuple of effects (one per effect-stage answer), and
    the grouping puts each tuple in words once: the groups are those of the same outcomes with
    equal tuples made apart (1/2 + 1/4 of "a", 1/4 of "b")."""
    from critcore.model import Effect

    a, b = (Effect("t", "a", "a", "row a"),), (Effect("t", "b", "b", "row b"),)
    shared = [_tagged(Fraction(1, 2), (), a), _tagged(Fraction(1, 4), (), a), _tagged(Fraction(1, 4), (), b)]
    apart = [_tagged(Fraction(1, 2), (), tuple(list(a))), _tagged(Fraction(1, 4), (), (Effect("t", "a", "a", "row a"),)),
             _tagged(Fraction(1, 4), (), tuple(list(b)))]
    levels = ("effect",)
    assert group(shared, levels) == group(apart, levels)
    assert {(g.label, g.probability) for g in group(shared, levels)} == {("row a", Fraction(3, 4)),
                                                                          ("row b", Fraction(1, 4))}


_STATES = st.sampled_from([Data({"armor": 10, "slots": ("a", "b")}), Data({"armor": 7, "slots": ("a", "b")}),
                           Data({"armor": 7, "slots": ("a",)}), None])
_APPLIED = st.builds(lambda summary, target, rows, data, tags: (summary, target, rows, data, tags),
                     st.sampled_from(["one", "two"]), _STATES, st.lists(st.sampled_from(["r1", "r2"]), max_size=2),
                     st.sampled_from([Data({}), Data({"psr": 1})]), st.sets(st.sampled_from(["x", "y"])))


@settings(max_examples=examples(80, 1000))
@given(st.lists(st.tuples(_APPLIED, st.booleans()), max_size=12))
def test_apply_answers_made_apart_are_stored_as_those_shared(answers):
    """The odds JSON stores each distinct apply answer once, its state, effects and data each by
    index: answers whose parts are equal copies made apart (a long question's answers from a second
    process, ``critcore._speed.twocores``) give the same JSON as answers sharing their parts as
    objects."""
    import pickle

    from critcore.model import Applied, Effect

    def made(spec):
        summary, target, rows, data, tags = spec
        return Applied(summary, (), target, tuple(Effect("t", r, r, "row " + r) for r in rows), data, frozenset(tags))

    def key(spec):
        summary, target, rows, data, tags = spec
        return summary, repr(target), tuple(rows), repr(data), tuple(sorted(tags))

    shared: dict[object, Applied] = {}
    one = [shared.setdefault(key(spec), made(spec)) for spec, _ in answers]
    # the same answers, some of them copies with every part made apart
    apart = [pickle.loads(pickle.dumps(a)) if copy else a for a, (_, copy) in zip(one, answers)]

    def as_json(applied):
        branches = tuple(Branch(None, None, (), a, Fraction(1, 16)) for a in applied)
        return odds_json(Odds("fake", "attack", Data({}), branches, Fraction(0), 1))

    assert as_json(apart) == as_json(one)
    found = as_json(one)
    assert len(found["parts"]["applied"]) == len({key(spec) for spec, _ in answers})
