"""Kept outcomes: an engine asked the same thing again hands back what the stages answered
before, when the dice come up the same.

Stages are pure (the rule exact odds and simulations rely on): a run's outcome depends only on
the procedure, its parameters, the target and what the stages read of their rolls (a sum's
total; a test's successes and whether every die showed 1, never the faces: hooks.md), and the
rolls they ask for depend only on the same things and on the rolls before. So for one
procedure, parameters and target, the runs form a tree: each node is the roll the stages make
next, each branch one answer of it, each leaf the outcome those answers lead to.

:meth:`Replays.run` follows that tree, rolling each node's roll with the caller's own dice,
and hands back the leaf it reaches, with this run's faces in its rolls. On a path not seen yet
it runs the stages and hands them the rolls the walk made before they roll anything new, then
adds the path. The caller's dice are asked for exactly the rolls the stages would have asked
for, in the same order, so a seed gives the same outcomes, roll by roll, with or without kept
outcomes (tested, property-based, on every shipped system).

Only :class:`~critcore.dice.RandomRoller` dice are followed (seeded or random: bots,
simulations written against the API, a what-if asked again and again). Typed, scripted and
enumerated dice always run the stages. A tree is grown from the second run with the same
procedure, parameters and target (a target is known by identity: the frozen state an outcome
hands back, or one :meth:`~critcore.engine.Engine.check_target` returned), so a run on a state
never met again costs a dictionary entry. Memory is bounded: past ``MAX_NODES`` kept nodes and
outcomes, or ``MAX_ROOTS`` trees, everything is forgotten and grown again.

A run that asks for another roll than the path kept for it (a stage that is not pure after all)
makes that tree opaque: from then on its runs always call the stages, and the run that found
out rolls the rest of its dice afresh (its outcome is as random, but not the one a run without
kept outcomes would have given: no pure stage meets this).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .dice import DiceExpr, FaceRoller, SuccessTest
from .records import replaced

if TYPE_CHECKING:
    from .dice import RandomRoller, Roller
    from .model import Data, Outcome, Procedure

    Stages = Callable[[Procedure, Data, Roller, "Data | None"], Outcome]

MAX_NODES = 20_000
"""Rolls and outcomes kept, over every tree; past it every tree is forgotten."""
MAX_ROOTS = 1_024
"""Procedure, parameters and target combinations kept (met once, or with a tree)."""
MAX_FACES = 16
"""Outcomes kept per leaf, one for each way of rolling its answers (faces) met first (the first is
always kept: the others are made from it). Few, because of tests of many dice (Shadowrun): their
faces seldom come again, and keeping them cost more than it saved (measured, performance.md)."""

_SEEN: Any = object()  # met once: a tree is grown from the next run on
_OPAQUE: Any = object()  # a run disagreed with the kept path: the stages always run

Found = tuple[Any, ...]  # what the roller answered: (faces, total) or (faces, successes, all ones)
Node = list[Any]  # [expression or test, label, {answer: Node or Leaf}]
Leaf = dict[tuple[tuple[int, ...], ...], "Outcome"]  # the faces of every roll -> the outcome with them
Path = list[tuple[Any, str, Any, Found]]  # (expression or test, label, answer, found), in order


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

    def _given(self, what: Any, label: str) -> Found | None:
        given = self.given
        if given:
            step = given.pop()
            if step[0] == what and step[1] == label:
                self.path.append(step)
                return step[3]
            given.clear()  # not the roll the walk made: roll afresh from here on, keep nothing
            self.whole = False
        return None

    def roll_sum(self, expr: DiceExpr, label: str) -> tuple[tuple[int, ...], int]:
        found: Any = self.given and self._given(expr, label)
        if not found:
            found = self.inner.roll_sum(expr, label)
            self.path.append((expr, label, found[1], found))
        return found  # type: ignore[no-any-return]

    def roll_test(self, test: SuccessTest, label: str) -> tuple[tuple[int, ...], int, bool]:
        found: Any = self.given and self._given(test, label)
        if not found:
            found = self.inner.roll_test(test, label)
            self.path.append((test, label, (found[1], found[2]), found))
        return found  # type: ignore[no-any-return]

    def faces(self, sides: int, count: int, label: str, notation: str) -> list[int]:
        self.whole = False
        return self.inner.faces(sides, count, label, notation)

    def extra_face(self, label: str, notation: str, die: int, so_far: int) -> int:
        self.whole = False
        return self.inner.extra_face(label, notation, die, so_far)


class Replays:
    """One engine's kept outcomes, by procedure, parameters and target (see the module)."""

    __slots__ = ("stages", "trust", "roots", "nodes")

    def __init__(self, stages: Stages, trust: Callable[[Data], None]) -> None:
        self.stages = stages  # the engine's: run the stages with these dice (Engine._run_stages)
        self.trust = trust  # the engine's: a state to take back unchecked (Engine._retrust)
        self.roots: dict[tuple[int, int, int], list[Any]] = {}  # ids -> [procedure, params, target, tree]
        self.nodes = 0

    def run(self, proc: Procedure, params: Data, roller: RandomRoller, target: Data | None) -> Outcome:
        """The outcome of ``proc`` with ``params`` on ``target`` (checked) with ``roller``'s dice."""
        key = (id(proc), id(params), id(target))
        entry = self.roots.get(key)
        if entry is None or entry[0] is not proc or entry[1] is not params or entry[2] is not target:
            entry = [proc, params, target, _SEEN]
            self._root(key, entry)
            return self._plain(entry, roller)
        node = entry[3]
        if node is _OPAQUE:
            return self._plain(entry, roller)
        walked: Path = []
        while node.__class__ is list:
            what, label, children = node
            if what.__class__ is DiceExpr:
                found: Found = roller.roll_sum(what, label)
                answer = found[1]
            else:
                found = roller.roll_test(what, label)
                answer = (found[1], found[2])
            walked.append((what, label, answer, found))
            node = children.get(answer)
        if node is None or node is _SEEN:  # a path not seen yet, or no tree yet
            return self._grow(entry, roller, walked)
        return self._handed(node, tuple([step[3][0] for step in walked]))

    def _plain(self, entry: list[Any], roller: RandomRoller) -> Outcome:
        """Run the stages, keeping nothing."""
        return self.stages(entry[0], entry[1], roller, entry[2])

    def _grow(self, entry: list[Any], roller: RandomRoller, walked: Path) -> Outcome:
        """Run the stages (the rolls ``walked`` handed to them first) and keep their path in
        ``entry``'s tree."""
        recorder = _Recorder(roller, walked)
        outcome = self.stages(entry[0], entry[1], recorder, entry[2])
        if recorder.whole and len(outcome.rolls) == len(recorder.path):
            self._keep(entry, recorder.path, outcome)
        else:
            entry[3] = _OPAQUE
        return outcome

    def _keep(self, entry: list[Any], path: Path, outcome: Outcome) -> None:
        """Add ``path``, ending at ``outcome``, to the entry's tree; a disagreement with what
        is kept makes the tree opaque."""
        if self.nodes + len(path) + 1 > MAX_NODES:
            self._forget()
            self._root((id(entry[0]), id(entry[1]), id(entry[2])), entry)
            entry[3] = _SEEN
        faces = tuple([step[3][0] for step in path])
        if not path:
            tree = entry[3]
            if tree is _SEEN:
                entry[3] = {faces: outcome}
                self.nodes += 1
            elif tree.__class__ is not dict:
                entry[3] = _OPAQUE
            return
        if entry[3] is _SEEN:
            entry[3] = [path[0][0], path[0][1], {}]
            self.nodes += 1
        node = entry[3]
        for i, (what, label, answer, _) in enumerate(path):
            if node.__class__ is not list or node[0] != what or node[1] != label:
                entry[3] = _OPAQUE  # the stages asked for another roll here, or for none
                return
            children = node[2]
            child = children.get(answer)
            if child is None:
                child = children[answer] = {} if i == len(path) - 1 else [path[i + 1][0], path[i + 1][1], {}]
                self.nodes += 1
            node = child
        if node.__class__ is not dict:
            entry[3] = _OPAQUE  # the stages rolled more after this answer before
        elif not node or (len(node) < MAX_FACES and faces not in node):  # its first is its model
            node[faces] = outcome
            self.nodes += 1

    def _handed(self, leaf: Leaf, faces: tuple[tuple[int, ...], ...]) -> Outcome:
        """The leaf's outcome with this run's faces (kept, or made from another with the same
        answers), its new target trusted again if the engine forgot it."""
        outcome = leaf.get(faces)
        if outcome is None:
            model = next(iter(leaf.values()))
            outcome = replaced(model, "rolls", tuple([r if r.faces == f else replaced(r, "faces", f)
                                                      for r, f in zip(model.rolls, faces)]))
            if len(leaf) < MAX_FACES and self.nodes < MAX_NODES:
                leaf[faces] = outcome
                self.nodes += 1
        if outcome.target is not None:
            self.trust(outcome.target)
        return outcome

    def _root(self, key: tuple[int, int, int], entry: list[Any]) -> None:
        if len(self.roots) >= MAX_ROOTS:
            self._forget()
        self.roots[key] = entry

    def _forget(self) -> None:
        self.roots.clear()
        self.nodes = 0
