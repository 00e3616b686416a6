"""Roll trees: the runs of pure stages, by the rolls they made.

Stages are pure (hooks.md): what they answer depends only on what they are handed and on the
rolls they make, and which roll they make next depends on the same and on the rolls before. So
the runs of one question form a tree: a node is the roll the stages make next (``request``: what
is rolled), a branch one answer of it, a leaf what the run ended with. Simulations
(:mod:`critcore.chance.montecarlo`) follow one to count a known path without calling the stages, and an
engine (:mod:`critcore.engine.replay`) to hand back a kept outcome; each walks its tree its own way (the
hot loop), and both grow it here.

A tree is ``None`` (none yet), a leaf, or a node ``(request, {branch: tree})``; what a leaf is,
is the caller's (``is_leaf``). A run whose path does not retrace the tree (another request at a
node, a leaf where the tree goes on, or the tree going on where the run ended) shows stages that
are not pure after all: the tree becomes :data:`OPAQUE` and the caller calls the stages from then
on.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

OPAQUE: Any = object()
"""A tree whose runs did not retrace their paths: the stages always run."""


def add(tree: Any, path: Sequence[tuple[Any, Any]], leaf: Any, is_leaf: Callable[[Any], bool],
        agrees: Callable[[Any, Any], bool]) -> tuple[Any, int]:
    """``tree`` with ``path`` (``(request, branch)`` for each roll, in order) ending at ``leaf``,
    and the number of nodes and leaves added; ``(OPAQUE, 0)`` when the path does not retrace the
    tree. Where the path ends at a leaf already there, ``agrees(kept, leaf)`` says whether the
    two are the same end (and may fold ``leaf`` into ``kept``)."""
    if tree is OPAQUE:
        return OPAQUE, 0
    if not path:
        if tree is None:
            return leaf, 1
        return (tree, 0) if is_leaf(tree) and agrees(tree, leaf) else (OPAQUE, 0)
    added = 0
    if tree is None:
        tree = (path[0][0], {})
        added = 1
    node = tree
    last = len(path) - 1
    for i, (request, branch) in enumerate(path):
        if is_leaf(node) or node[0] != request:
            return OPAQUE, 0
        children = node[1]
        child = children.get(branch)
        if i == last:
            if child is None:
                children[branch] = leaf
                return tree, added + 1
            return (tree, added) if is_leaf(child) and agrees(child, leaf) else (OPAQUE, 0)
        if child is None:
            child = children[branch] = (path[i + 1][0], {})
            added += 1
        node = child
    raise AssertionError("unreachable: the loop returns at the path's last roll")
