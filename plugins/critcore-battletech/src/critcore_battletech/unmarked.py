"""What an action that rolls no dice does to a unit state, shared by the states that differ only
in marks it never reads (issue 25, eleventh round; speed only: :meth:`actions.Actions.kept_action`
takes the same answers without it).

A check's answers mark other slots of one location each (the Daishi X's right torso: 885 checks,
40,564 answers), and the acts that follow (an ammunition bin exploding, the settling after) are
then carried out on each of those states anew, though what they do reads no slot's marks but
the engine's and the cockpit's: an act reads a location's own entries (structure, armor,
destroyed), the items, the unit's top-level entries, what a slot holds (its kind, its items,
never changed by a mark) and, through the tally that settling reads (:data:`damage.TALLIED`),
whether each engine and cockpit slot is hit; and it changes no slot (only a check's marks do).
So its answer on a state is its answer on any state that agrees with it on all of that
(:func:`state_key`), with each location it changed taking the same entries on top of that
state's own record (:class:`Delta`, :func:`applied`): 10,329 explosions worked out before are
613 such keys.

Each key names the action, the top-level and items parts by ``id`` (kept beside the answer, so
no id is reused while the key is kept) and each changed location by its entries but the slots
and its engine and cockpit slots' marks (:func:`loc_key`, kept per record in
``UnitMemo.marked`` under its ``id`` beside it).
"""

from __future__ import annotations

from typing import Any, Mapping

from critcore.plugin import Data

from .unitmemo import CASCADE_ACTS, UnitMemo

LocKey = tuple[Any, ...]
Changed = tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]  # (location, (entry, value) set on its record)


class Delta:
    """What an action did to a state, told apart from the state: each location's entries set on
    its record (never its slots), the top-level and items parts after it (the state's own were
    those of every state it is shared with), and the rest of its answer (queue, story, events,
    tags) as :meth:`actions.Actions._recorded` gives it."""

    __slots__ = ("locs", "top", "items", "rest")

    def __init__(self, locs: Changed, top: Data, items: Data, rest: tuple[Any, ...]) -> None:
        self.locs = locs
        self.top = top
        self.items = items
        self.rest = rest


def loc_key(loc: Mapping[str, Any], tallied: frozenset[str], marked: dict[Any, Any]) -> LocKey:
    """What an action reads of a location record: its entries but the slots, in order, and
    whether each slot of a tallied kind is hit (kept in ``marked`` under the record's id, the
    record beside it)."""
    key = ("unmarked", id(loc))
    found = marked.get(key)
    if found is not None and found[0] is loc:
        out: LocKey = found[1]
        return out
    out = (tuple([(k, v) for k, v in loc.items() if k != "slots"]),
           tuple([s["destroyed"] for s in loc["slots"] if s["kind"] in tallied]))
    if len(marked) >= CASCADE_ACTS:
        marked.clear()
    marked[key] = (loc, out)
    return out


def state_key(action: Any, overlay: tuple[Data, Data, Data], tallied: frozenset[str],
              marked: dict[Any, Any]) -> tuple[Any, ...]:
    """The key under which ``action``'s answer on ``overlay`` is shared (see the module)."""
    top, locs, items = overlay
    return ("unmarked", action, top, items, tuple([(code, loc_key(loc, tallied, marked)) for code, loc in locs.items()]))


def delta(base_locs: Mapping[str, Mapping[str, Any]], before: tuple[Data, Data, Data],
          answer: tuple[Any, ...]) -> Delta | None:
    """``answer`` (an action's on the state ``before``) as a :class:`Delta`; None when it cannot
    be told that way (a location's slots changed, or an entry taken away)."""
    after = answer[0]
    locs_before, locs_after = before[1], after[1]
    changed = []
    for code, rec in locs_after.items():
        old = locs_before.get(code)
        if old is None:
            old = base_locs[code]
        if rec is old:
            continue
        if (rec["slots"] is not old["slots"] and rec["slots"] != old["slots"]) or any(k not in rec for k in old):
            return None
        changed.append((code, tuple([(k, v) for k, v in rec.items()
                                     if k != "slots" and (k not in old or old[k] != v or old[k].__class__ is not v.__class__)])))
    if any(code not in locs_after for code in locs_before):
        return None
    return Delta(tuple(changed), after[0], after[2], answer[1:])


def applied(memo: UnitMemo, base_locs: Mapping[str, Mapping[str, Any]], overlay: tuple[Data, Data, Data],
            d: Delta) -> tuple[Any, ...]:
    """The answer ``d`` describes, on the state ``overlay`` (one that shares its key)."""
    locs = overlay[1]
    if d.locs:
        entries = dict(locs)
        for code, fields in d.locs:
            old = locs.get(code)
            if old is None:
                old = base_locs[code]
            entries[code] = (old if old.__class__ is Data else Data(old)).replace(**dict(fields))
        now = memo.whole(d.top, memo.part(entries), d.items)
    else:
        now = memo.whole(d.top, locs, d.items)
    return (now, *d.rest)
