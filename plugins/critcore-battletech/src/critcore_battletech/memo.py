"""Remembering what is worked out from frozen values (a unit's parts, table rows).

:func:`remembered` is :func:`functools.lru_cache` (answers shared by content: exact odds meet
equal states built along different branches again and again) with a look-up by the arguments'
identity in front of it. A content look-up that meets an equal but distinct key compares the two
in depth, and it does so on every call: a caller holding a copy of a unit that another engine
(exact odds on the same file, say) met first paid a deep comparison of the whole unit for every
per-unit number, which halved the criticals per second. The identity look-up answers the same
object at once; only a new object goes on to the content cache (and compares once).

Each function remembers at most ``maxsize`` answers by content and 256 by identity (the front
keeps its arguments alive, so an id is not reused while it is there).
"""

from __future__ import annotations

from functools import lru_cache, update_wrapper
from typing import Any, Callable, TypeVar

R = TypeVar("R")

FRONT = 256  # answers kept by the arguments' identity, per function


def remembered(maxsize: int) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A decorator: ``fn`` (a pure function of hashable, immutable arguments) remembered by the
    identity of its arguments first, then by their content."""

    def wrap(fn: Callable[..., R]) -> Callable[..., R]:
        by_content = lru_cache(maxsize=maxsize)(fn)
        front: dict[tuple[int, ...], tuple[tuple[Any, ...], R]] = {}

        def call(*args: Any) -> R:
            key = tuple([id(a) for a in args])
            hit = front.get(key)
            if hit is not None:
                for held, given in zip(hit[0], args):
                    if held is not given:
                        break
                else:
                    return hit[1]
            answer = by_content(*args)
            if len(front) >= FRONT:  # forget the older half (a unit used all along comes back at once)
                for old in list(front)[: FRONT // 2]:
                    del front[old]
            front[key] = (args, answer)
            return answer

        return update_wrapper(call, fn)

    return wrap
