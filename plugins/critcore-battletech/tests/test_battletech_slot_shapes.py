"""The slots' closed form shared by sets of slots of one shape changes no probability (issue 25,
eleventh round).

``slotodds._layers`` keeps the chances of ``merged_odds``'s states (how many slots of each class
struck, how many criticals found nothing left) by the shape of the slots left (``_shape``: each
location's size and its classes, each as its members' half rows, sorted), not by which slots they
are: a torso's slots left after one check and after another move alike, class for class. The
rule it must keep: for any slots and classes, the answer taken from a shape worked out on other
slots is the answer worked out for these slots alone, set for set and chance for chance.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from critcore_battletech import criticals as C
from critcore_battletech import slotodds as S


def _half() -> Any:
    from critcore.testing import Engine

    return Engine("battletech").tables["critical-slot-half"]


@st.composite
def _location(draw: Any, code: str, rank: int) -> tuple[Any, Any, dict[int, int]]:
    """A twelve-slot location's slots left and their classes (slots of one class in one half),
    with a relabelling of its slots that keeps each in its half (another set of slots of the same
    shape)."""
    ok = tuple(sorted(draw(st.sets(st.integers(min_value=0, max_value=11), min_size=1))))
    label = {i: draw(st.integers(min_value=0, max_value=2)) for i in ok}  # slots of one label and half: one class
    firsts = tuple(min(j for j in ok if label[j] == label[i] and (j < 6) == (i < 6)) for i in ok)
    upper, lower = list(range(6)), list(range(6, 12))
    moved = {**dict(zip(upper, draw(st.permutations(upper)))), **dict(zip(lower, draw(st.permutations(lower))))}
    return ((code, rank, 12, ok),), ((code, rank, ok, firsts),), moved


def _relabelled(reach: Any, classes: Any, moved: list[dict[int, int]]) -> tuple[Any, Any]:
    """``reach`` and ``classes`` with each location's slots relabelled by ``moved``."""
    out_reach, out_classes = [], []
    for (code, rank, size, ok), (_, _, _, firsts), m in zip(reach, classes, moved):
        pairs = sorted((m[i], m[f]) for i, f in zip(ok, firsts))
        new_ok = tuple(i for i, _ in pairs)
        first_of: dict[int, int] = {}
        for i, f in pairs:  # the first slot of each class, in the new labels
            first_of.setdefault(f, i)
        out_reach.append((code, rank, size, new_ok))
        out_classes.append((code, rank, new_ok, tuple(first_of[f] for _, f in pairs)))
    return tuple(out_reach), tuple(out_classes)


@settings(max_examples=40, deadline=None)
@given(lt=_location("LT", 2), ct=_location("CT", 3), more=_location("LT", 2), inward=st.booleans(),
       count=st.integers(min_value=1, max_value=4), reroll=st.sampled_from(["slot", "both"]))
def test_slots_of_one_shape_share_their_chances(lt: Any, ct: Any, more: Any, inward: bool, count: int,
                                                reroll: str) -> None:
    """Any slots left and classes in a location (and a location inward), any number of
    criticals, either way of rolling again: the answers for every count up to it, worked out for
    one set of slots and then taken for another of the same shape (its slots relabelled within
    their halves), are those worked out for each alone; and so are those of other slots asked
    after them (of another shape, or of the same by chance)."""
    half = _half()
    reach, classes, moved = lt[0], lt[1], [lt[2]]
    if inward:
        reach, classes, moved = reach + ct[0], classes + ct[1], moved + [ct[2]]
    other_reach, other_classes = _relabelled(reach, classes, moved)
    known = C.Answers()
    first = S.merged_odds(reach, count, reroll, half, classes, known=known)
    assert first == S.merged_odds(reach, count, reroll, half, classes)
    for k in range(1, count + 1):
        shared = S.merged_odds(other_reach, k, reroll, half, other_classes, known=known)
        assert shared == S.merged_odds(other_reach, k, reroll, half, other_classes)
        assert S.merged_odds(more[0], k, reroll, half, more[1], known=known) == S.merged_odds(more[0], k, reroll, half,
                                                                                              more[1])


def test_a_shape_worked_out_once_is_taken_for_other_slots(monkeypatch: Any) -> None:
    """Two sets of a torso's slots of one shape (a pair of one item's slots in the upper half,
    the rest single, the pair in other slots): the chances are worked out once and the second
    answer is taken from the first's shape, equal to the one worked out alone. The pair in the
    lower half is another shape (a slot's chance depends on its half): worked out anew."""
    half = _half()
    ok = tuple(range(12))
    one = ((("RT", 4, 12, ok),), (("RT", 4, ok, (0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)),))
    two = ((("RT", 4, 12, ok),), (("RT", 4, ok, (0, 1, 2, 3, 4, 4, 6, 7, 8, 9, 10, 11)),))
    worked: list[Any] = []
    real = S._layers_of

    def spy(*args: Any) -> Any:
        if args[-1] is not None:  # with a store of answers (not the answers worked out alone below)
            worked.append(args)
        return real(*args)

    monkeypatch.setattr(S, "_layers_of", spy)
    known = C.Answers()
    S.merged_odds(one[0], 3, "slot", half, one[1], known=known)
    assert len(worked) == 1
    shared = S.merged_odds(two[0], 3, "slot", half, two[1], known=known)
    assert len(worked) == 1
    assert shared == S.merged_odds(two[0], 3, "slot", half, two[1])
    assert shared != S.merged_odds(one[0], 3, "slot", half, one[1])
    lower = ((("RT", 4, 12, (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)),), (("RT", 4, (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
                                                                  (0, 1, 2, 3, 4, 5, 6, 6, 8, 9)),))
    upper = ((("RT", 4, 12, (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)),), (("RT", 4, (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
                                                                  (0, 0, 2, 3, 4, 5, 6, 7, 8, 9)),))
    assert S.merged_odds(upper[0], 3, "slot", half, upper[1], known=known) == S.merged_odds(upper[0], 3, "slot", half,
                                                                                            upper[1])
    assert len(worked) == 2
    assert S.merged_odds(lower[0], 3, "slot", half, lower[1], known=known) == S.merged_odds(lower[0], 3, "slot", half,
                                                                                            lower[1])
    assert len(worked) == 3
