"""critcore_battletech.memo.remembered: answers shared by content, found by identity first."""

from __future__ import annotations

from critcore.model import Data

from critcore_battletech.memo import FRONT, remembered


def test_an_equal_copy_gets_the_same_answer_without_working_it_out_again() -> None:
    """Content: a distinct but equal unit part is answered from what the first one gave."""
    calls: list[Data] = []

    @remembered(16)
    def size(part: Data) -> int:
        calls.append(part)
        return len(part["slots"])

    one = Data(slots=(1, 2, 3))
    copy = Data(slots=(1, 2, 3))
    assert one is not copy and one == copy
    assert size(one) == 3 and size(copy) == 3 and size(one) == 3
    assert calls == [one]


def test_the_same_object_is_found_by_identity_and_a_changed_one_is_not() -> None:
    """Identity first, never identity only: an object that differs is worked out (once)."""
    calls: list[Data] = []

    @remembered(16)
    def first(part: Data, kind: str) -> object:
        calls.append(part)
        return part.get(kind)

    a, b = Data(x=1), Data(x=2)
    assert [first(a, "x"), first(b, "x"), first(a, "x"), first(b, "x")] == [1, 2, 1, 2]
    assert calls == [a, b]


def test_the_identity_front_forgets_its_older_half_and_stays_right() -> None:
    seen: list[int] = []

    @remembered(4 * FRONT)
    def double(part: Data) -> int:
        seen.append(part["n"])
        return 2 * int(part["n"])

    parts = [Data(n=i) for i in range(FRONT + 10)]
    assert [double(p) for p in parts] == [2 * i for i in range(FRONT + 10)]
    assert [double(p) for p in parts] == [2 * i for i in range(FRONT + 10)]  # from the content cache
    assert seen == list(range(FRONT + 10))
