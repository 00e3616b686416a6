"""What the preparation keeps for exact odds changes nothing (issue 25, twelfth round).

``Prepared.determination`` (a Determining Critical Hits row's answer in a location) and
``Prepared.row_odds`` (each row's chance) are worked out once and kept in the engine's
preparation: exact odds ask for them at every row of every check. The rule they must keep: for any
row, location and whether a unit is given, asked in any order and any number of times, the answer
is the one worked out anew.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from critcore_battletech import criticals as C
from critcore_battletech import locations as L


def _prepared() -> Any:
    from critcore.testing import Engine
    from critcore_battletech.prepared import Prepared

    engine = Engine("battletech")
    return Prepared("critical", {"location": "LT"}, {}, engine.tables)


_PREP = _prepared()
_ROWS = [r.id for r in _PREP.crit_table.rows]


@settings(max_examples=60, deadline=None)
@given(asks=st.lists(st.tuples(st.sampled_from(_ROWS), st.sampled_from(list(L.CODES)), st.booleans()),
                     min_size=1, max_size=20))
def test_a_kept_determination_is_the_one_worked_out(asks: list[tuple[str, str, bool]]) -> None:
    """Any rows, locations and with or without a unit, asked in any order and again: each answer is
    the determination worked out anew; and the rows' chances are those worked out anew."""
    prep = _prepared()
    for row_id, code, with_unit in asks + asks[::-1]:
        row = prep.crit_table.row(row_id)
        assert prep.determination(row, code, with_unit) == C.determination(row, L.kind(code), code, with_unit)
    assert prep.row_odds() == C.row_odds(prep.crit_table)
    assert prep.row_odds() is prep.row_odds()


def test_a_determination_is_kept_by_its_row() -> None:
    """The same row, location and unit give the same record; another row another."""
    prep = _prepared()
    one, two = (prep.crit_table.row(r) for r in _ROWS[-2:])
    assert prep.determination(one, "LT", True) is prep.determination(one, "LT", True)
    assert prep.determination(two, "LT", True) == C.determination(two, L.kind("LT"), "LT", True)
    assert prep.determination(one, "HD", True) == C.determination(one, L.kind("HD"), "HD", True)
