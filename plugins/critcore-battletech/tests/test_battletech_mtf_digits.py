"""A number of thousands of digits in a unit file is one clean error naming the line, not a
traceback (Python refuses to turn more than 4,300 digits into an int)."""

from __future__ import annotations

import pytest

import critcore_battletech.plugin as battletech
from critcore.plugin import StateError
from critcore_battletech import loads_mtf


@pytest.mark.parametrize("line, replacement, message", [
    ("mass:45", "mass:" + "9" * 5000, "'Mass:' needs a whole number"),
    ("engine:225 Fusion", "engine:" + "2" * 5000 + " Fusion", "'Engine:' should start with the engine rating"),
    ("walk mp:5", "walk mp:" + "5" * 400, "'Walk MP:' needs a whole number"),
])
def test_a_huge_number_in_a_unit_file_is_one_clean_error(line: str, replacement: str, message: str) -> None:
    (example,) = battletech.critcore_examples()
    assert line in example.text
    with pytest.raises(StateError, match=message) as err:
        loads_mtf(example.text.replace(line, replacement), "big.mtf")
    assert "\n" not in str(err.value) and str(err.value).startswith("big.mtf, line ")
