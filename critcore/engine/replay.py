"""Kept outcomes: an engine asked the same thing again hands back what the stages answered
before, when the dice come up the same.

Stages are pure (the rule exact odds and simulations rely on): a run's outcome depends only on
the procedure, its parameters, the target and what the stages read of their rolls (a sum's
total; a test's successes and whether every die showed 1, never the faces: hooks.md), and the
rolls they ask for depend only on the same things and on the rolls before. So for one
procedure, parameters and target (a question), the runs form a roll tree
(:mod:`critcore.chance.rolltree`): each node is the roll the stages make next, each branch one answer
of it, each leaf the outcome those answers lead to.

:meth:`Replays.run` follows that tree, rolling each node's roll with the caller's own dice,
and hands back the leaf it reaches, with this run's faces in its rolls. On a path not seen yet
it runs the stages and hands them the rolls the walk made before they roll anything new, then
adds the path. The caller's dice are asked for exactly the rolls the stages would have asked
for, in the same order, so a seed gives the same outcomes, roll by roll, with or without kept
outcomes (tested, property-based, on every shipped system).

Only :class:`~critcore.dice.dice.RandomRoller` dice are followed (seeded or random: bots,
simulations written against the API, a what-if asked again and again), and only on a target
the engine knew before the run (by identity: a state an outcome handed back, or one that
:meth:`~critcore.engine.runner.Engine.check_target` returned) or none: a state read afresh for every
run (a campaign's, from its database) is never asked about twice. Typed, scripted and
enumerated dice always run the stages. A tree is grown from the second run of a question; the
first is only noted, among the last ``MAX_SEEN``. Memory is bounded: past ``MAX_NODES`` kept
nodes and outcomes, or ``MAX_ROOTS`` trees, every tree is forgotten and grown again.

A run that asks for another roll than the path kept for it (a stage that is not pure after all)
makes that tree opaque: from then on its runs always call the stages, and the run that found
out rolls the rest of its dice afresh (its outcome is as random, but not the one a run without
kept outcomes would have given: no pure stage meets this).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, TypeVar

from critcore.chance import rolltree
from critcore.dice.dice import DiceExpr, FaceRoller, SuccessTest

if TYPE_CHECKING:
    from critcore.dice.dice import RandomRoller, Roller
    from critcore.engine.model import Data, Outcome, Procedure

    Stages = Callable[[Procedure, Data, Roller, "Data | None"], Outcome]

MAX_NODES = 20_000
"""Rolls and outcomes kept, over every tree; past it every tree is forgotten."""
MAX_ROOTS = 256
"""Questions (procedure, parameters, target) with a tree; past it every tree is forgotten."""
MAX_SEEN = 64
"""Questions met once, noted so that their second run grows a tree (the oldest goes first)."""
MAX_FACES = 16
"""Outcomes kept per leaf, one for each way of rolling its answers (faces) met first (the first is
always kept: the others are made from it). Few, because of tests of many dice (Shadowrun): their
faces seldom come again, and keeping them cost more than it saved (measured, performance.md)."""

_NEW: Any = object()  # a question's second run: no tree yet
_R = TypeVar("_R")

Found = tuple[Any, ...]  # what the roller answered: (faces, total) or (faces, successes, all ones)
Leaf = dict[tuple[tuple[int, ...], ...], "Outcome"]  # the faces of every roll -> the outcome with them
Path = list[tuple[tuple[Any, str], Any, Found]]  # ((expression or test, label), answer, found), in order
Question = tuple[int, int, int]  # ids of the procedure, the parameters and the target


def _replaced(obj: _R, name: str, value: Any) -> _R:
    """A copy of the frozen record ``obj`` (a ``Roll``, an ``Outcome``: records that keep nothing
    worked out from their fields in the instance) with the field ``name`` set to ``value``, made
    without calling ``__init__``: a value already as ``__init__`` would store it."""
    new: _R = object.__new__(obj.__class__)
    fields = new.__dict__
    fields.update(obj.__dict__)
    fields.pop("_hash", None)
    fields[name] = value
    return new


def _is_leaf(node: Any) -> bool:
    return node.__class__ is dict


class _Recorder(FaceRoller):
    """The caller's RandomRoller seen by the stages: the rolls a walk already made (``given``)
    are handed back first, then the dice roll; each roll is written down. ``until``, ``branch``
    and the rest are FaceRoller's plain loops, as they are for the RandomRoller itself. A stage
    that asks for faces outside ``roll_sum`` and ``roll_test``, or for another roll than the one
    given, makes the run one that is not kept (``whole`` goes false)."""

    __slots__ = ("inner", "given", "path", "whole")

    def __init__(self, inner: RandomRoller, given: Path) -> None:
        self.inner = inner
        self.given = given[::-1]
        self.path: Path = []
        self.whole = True

    def _given(self, request: tuple[Any, str]) -> Found | None:
        given = self.given
        if given:
            step = given.pop()
            if step[0] == request:
                self.path.append(step)
                return step[2]
            given.clear()  # not the roll the walk made: roll afresh from here on, keep nothing
            self.whole = False
        return None

    def roll_sum(self, expr: DiceExpr, label: str) -> tuple[tuple[int, ...], int]:
        found: Any = self.given and self._given((expr, label))
        if not found:
            found = self.inner.roll_sum(expr, label)
            self.path.append(((expr, label), found[1], found))
        return found  # type: ignore[no-any-return]

    def roll_test(self, test: SuccessTest, label: str) -> tuple[tuple[int, ...], int, bool]:
        found: Any = self.given and self._given((test, label))
        if not found:
            found = self.inner.roll_test(test, label)
            self.path.append(((test, label), (found[1], found[2]), found))
        return found  # type: ignore[no-any-return]

    def faces(self, sides: int, count: int, label: str, notation: str) -> list[int]:
        self.whole = False
        return self.inner.faces(sides, count, label, notation)

    def extra_face(self, label: str, notation: str, die: int, so_far: int) -> int:
        self.whole = False
        return self.inner.extra_face(label, notation, die, so_far)


class Replays:
    """One engine's kept outcomes, by question (see the module). ``stages`` runs the stages
    with the dice given (the engine's), ``trust`` takes a kept outcome's state back as the
    engine's own (``Engine._new_target``)."""

    __slots__ = ("stages", "trust", "seen", "roots", "nodes")

    def __init__(self, stages: Stages, trust: Callable[[Data], Any], first: tuple[Any, Any, Any] | None = None) -> None:
        self.stages = stages
        self.trust = trust
        self.seen: dict[Question, tuple[Any, Any, Any]] = {}  # questions met once: (procedure, params, target)
        self.roots: dict[Question, list[Any]] = {}  # questions with a tree: [procedure, params, target, tree]
        self.nodes = 0
        if first is not None:  # the engine's first run with random dice, made before this existed
            self.seen[(id(first[0]), id(first[1]), id(first[2]))] = first

    def run(self, proc: Procedure, params: Data, roller: RandomRoller, target: Data | None) -> Outcome:
        """The outcome of ``proc`` with ``params`` on ``target`` (checked) with ``roller``'s dice."""
        key = (id(proc), id(params), id(target))
        entry = self.roots.get(key)
        if entry is None or entry[0] is not proc or entry[1] is not params or entry[2] is not target:
            entry = self._second(key, proc, params, target)
            if entry is None:  # the first run of this question: noted, and the stages run
                return self.stages(proc, params, roller, target)
        node = entry[3]
        if node is rolltree.OPAQUE:
            return self.stages(proc, params, roller, target)
        walked: Path = []
        while node.__class__ is tuple:
            request, children = node
            what, label = request
            if what.__class__ is DiceExpr:
                found: Found = roller.roll_sum(what, label)
                answer = found[1]
            else:
                found = roller.roll_test(what, label)
                answer = (found[1], found[2])
            walked.append((request, answer, found))
            node = children.get(answer)
        if node is None or node is _NEW:  # a path not seen yet, or no tree yet
            return self._grow(entry, roller, walked)
        return self._handed(node, tuple([step[2][0] for step in walked]))

    def _second(self, key: Question, proc: Procedure, params: Data, target: Data | None) -> list[Any] | None:
        """The entry of a question met once before (its tree about to grow), or None: noted now."""
        seen = self.seen
        met = seen.pop(key, None)
        if met is not None and met[0] is proc and met[1] is params and met[2] is target:
            if len(self.roots) >= MAX_ROOTS:
                self._forget()
            entry = self.roots[key] = [proc, params, target, _NEW]
            return entry
        if len(seen) >= MAX_SEEN:
            del seen[next(iter(seen))]
        seen[key] = (proc, params, target)
        return None

    def _grow(self, entry: list[Any], roller: RandomRoller, walked: Path) -> Outcome:
        """Run the stages (the rolls ``walked`` handed to them first) and keep their path in
        ``entry``'s tree."""
        recorder = _Recorder(roller, walked)
        outcome = self.stages(entry[0], entry[1], recorder, entry[2])
        path = recorder.path
        if not recorder.whole or len(path) != len(outcome.rolls):  # a roll made some other way
            entry[3] = rolltree.OPAQUE
            return outcome
        if self.nodes + len(path) + 1 > MAX_NODES:
            self._forget()
            self.roots[(id(entry[0]), id(entry[1]), id(entry[2]))] = entry
            entry[3] = _NEW
        faces = tuple([step[2][0] for step in path])

        def agrees(kept: Leaf, new: Leaf) -> bool:  # the same answers: keep this run's faces too
            if len(kept) < MAX_FACES and faces not in kept:
                kept[faces] = outcome
                self.nodes += 1
            return True

        tree, added = rolltree.add(None if entry[3] is _NEW else entry[3], [(s[0], s[1]) for s in path],
                                   {faces: outcome}, _is_leaf, agrees)
        entry[3] = tree
        self.nodes += added
        return outcome

    def _handed(self, leaf: Leaf, faces: tuple[tuple[int, ...], ...]) -> Outcome:
        """The leaf's outcome with this run's faces (kept, or made from its first: the same
        answers), its new target taken back by the engine."""
        outcome = leaf.get(faces)
        if outcome is None:
            model = next(iter(leaf.values()))
            outcome = _replaced(model, "rolls", tuple([r if r.faces == f else _replaced(r, "faces", f)
                                                       for r, f in zip(model.rolls, faces)]))
            if len(leaf) < MAX_FACES and self.nodes < MAX_NODES:
                leaf[faces] = outcome
                self.nodes += 1
        if outcome.target is not None:
            self.trust(outcome.target)
        return outcome

    def _forget(self) -> None:
        self.roots.clear()
        self.nodes = 0
