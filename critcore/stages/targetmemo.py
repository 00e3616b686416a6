"""The per-target memo: what a system works out once per target state, kept by the engine.

A system that declares ``SystemInfo.target_memo`` finds ``ctx.memo``: a plain dict the
:class:`~critcore.engine.runner.Engine` owns, the same object for every run on the same target object
(every run of an exact-odds enumeration or a simulation, a bot resolving again and again on one
unit), and a new, empty one as soon as a run is handed another target. What the system puts in it
(tallies of a unit, the items of a kind, a key for its derived numbers) therefore lives exactly
as long as the target is the one in use, and two engines (other options, other tables) never see
each other's.

A stage that hands back a new target may pass a memo on to it (``ctx.hand_on(state, memo)``):
the next run on that state starts with it instead of an empty one. Anything else is dropped.
"""

from __future__ import annotations

from typing import Any

Memo = dict[Any, Any]


class TargetMemo:
    """One engine's memo of the target in use, and the one handed on to the next target.

    Each is a single ``(target, memo)`` pair replaced in one assignment, so threads sharing an
    engine (``crit serve``'s workers) never see one target's memo paired with another target;
    between two such assignments another thread's hand-on may be dropped, which costs only the
    work the memo would have saved.
    """

    __slots__ = ("current", "handed")

    def __init__(self) -> None:
        self.current: tuple[Any, Memo] = (None, {})
        self.handed: tuple[Any, Memo] | None = None

    def of(self, target: Any) -> Memo | None:
        """The memo of ``target`` (None without a target): the current one for the same object,
        else the one handed on to it, else a new one (the previous target's is dropped)."""
        if target is None:
            return None
        current = self.current
        if current[0] is target:
            return current[1]
        handed = self.handed
        memo: Memo = handed[1] if handed is not None and handed[0] is target else {}
        self.current = (target, memo)
        self.handed = None
        return memo

    def hand_on(self, state: Any, memo: Memo) -> None:
        """``memo`` becomes the memo of ``state`` (a target a run hands back) when a run is
        handed it next; only the latest hand-on is kept."""
        self.handed = (state, memo)

    def clear(self) -> None:
        """Forget every memo now, as a caller done with its targets: ``crit serve`` after an odds
        or simulate request, whose next request reads its target afresh (a new object, so a new
        memo anyway). The memo of a long question is large (the Daishi X's right torso: about
        100 MB of unit states); kept, it would stay until another target came, and the cyclic
        collector would walk all of it once more after the request. A run that already holds a
        memo keeps using it."""
        self.current = (None, {})
        self.handed = None

    def frozen_as(self, state: Any, frozen: Any) -> None:
        """The engine froze ``state``, handed back by a run, into ``frozen``: a memo handed on to
        the one is the other's."""
        handed = self.handed
        if handed is not None and handed[0] is state and frozen is not state:
            self.handed = (frozen, handed[1])
