"""Private: a pure function of a part of each item, worked out once per part the items share.

The outcomes of exact odds share their stage results as objects: the 17,544 outcomes of the
slowest corpus location (the Daishi X's right torso) share 156 effect-stage answers. Grouping
them for the report and the JSON puts each outcome's stage result in words
(``critcore.chance.exact.Branch.label``), a join of every effect's words each time; :func:`once_per`
puts each shared result in words once, found by identity (the items hold their parts while it
runs, so no identity is reused meanwhile). On that location: the grouping 0.058 -> 0.038 s of a
`crit odds` that takes about 2 s (docs/performance-log.md, "The sixth session").
``tests/test_core_speed_seam.py`` holds it to the plain list on generated items.

May import: the standard library only.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, TypeVar

T = TypeVar("T")


def once_per(items: Iterable[T], part_of: Callable[[T], Any], work: Callable[[T], str]) -> list[str]:
    """``[work(item) for item in items]``, where ``work(item)`` depends only on ``part_of(item)``:
    worked out once per part (by identity, the part kept beside its answer)."""
    said: dict[int, tuple[Any, str]] = {}
    out = []
    for item in items:
        part = part_of(item)
        kept = said.get(id(part))
        if kept is None or kept[0] is not part:
            kept = said[id(part)] = (part, work(item))
        out.append(kept[1])
    return out
