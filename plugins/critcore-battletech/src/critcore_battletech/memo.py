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
from operator import is_
from typing import Any, Callable, TypeVar

R = TypeVar("R")

FRONT = 256  # answers kept by the arguments' identity, per function
_CO_VARARGS = 0x04  # inspect.CO_VARARGS (inspect is a large import for one number)


def remembered(maxsize: int) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A decorator: ``fn`` (a pure function of hashable, immutable arguments) remembered by the
    identity of its arguments first, then by their content."""

    def wrap(fn: Callable[..., R]) -> Callable[..., R]:
        by_content = lru_cache(maxsize=maxsize)(fn)
        front: dict[Any, tuple[Any, R]] = {}

        def keep(key: Any, held: Any, answer: R) -> R:
            if len(front) >= FRONT:  # forget the older half (a unit used all along comes back at once)
                for old in list(front)[: FRONT // 2]:
                    front.pop(old, None)  # another thread (crit serve's workers) may have dropped it
            front[key] = (held, answer)
            return answer

        code = fn.__code__
        if code.co_argcount == 1 and not code.co_flags & _CO_VARARGS:  # one argument, no *args

            def call_one(arg: Any) -> R:
                hit = front.get(id(arg))
                if hit is not None and hit[0] is arg:
                    return hit[1]
                return keep(id(arg), arg, by_content(arg))

            return update_wrapper(call_one, fn)

        def call(*args: Any) -> R:
            key = tuple(map(id, args))
            hit = front.get(key)
            if hit is not None and all(map(is_, hit[0], args)):
                return hit[1]
            return keep(key, args, by_content(*args))

        return update_wrapper(call, fn)

    return wrap
