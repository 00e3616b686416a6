"""What the plugin works out once per unit state and keeps in the engine's per-target memo
(``ctx.memo``, critcore.stages.targetmemo): the slots hit and lost by kind, the items of a kind and the
locations they fill, how many of them are knocked out, what derive() reads of the state (its
key) and the derived numbers.

Every :class:`~.unitview.Work` of a run starts from the run's target, so these are the numbers of
its ``base``; what a resolution changes is added on top (``damage.Damage.tally``,
``count_items``, ``derived.read_key_after``). The memo lives as long as the engine runs on the
same target: the branches of exact odds (``crit odds``), which meet the same states again and
again, are what it is for. Only numbers of states are kept here, never a stage's answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Hashable, Mapping, TypeVar

from critcore.plugin import EMPTY, Data
from critcore.plugin import Table

from .derived import Numbering, counted_items, derive, read_key

if TYPE_CHECKING:
    from .unitview import Work

Tally = dict[str, int]  # slot kind -> count (read only once returned)
LocTally = tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]
Places = tuple[tuple[str, tuple[int, ...]], ...]  # (location code, slot indexes) an item fills
Items = tuple[tuple[str, Places], ...]

T = TypeVar("T")

KEY = "battletech"  # the plugin's entry in ctx.memo
LOC_TALLIES = 8192  # location tallies kept by content before they are forgotten
DERIVED = 4096  # derived numbers kept by key before they are forgotten
CASCADE_ENDS = 4096  # starts and ends of cascades kept (Resolver.start, Resolver.finish) before they are forgotten
# actions that roll no dice kept by the state they act on (Resolver.carry_out), and each of the
# stores sized like it (the states, parts and marks made one object per value), before they are
# forgotten. A store that fills starts afresh, and a deep cascade then makes again, as new objects,
# states that other stores still hold: MegaMek's Missile Test Mek's left torso (eight ammunition
# bins) filled the states' store four times and took 9.0 s with 65,536, 4.8 s with 262,144 and
# 4.7 s with four times that, its peak memory 177 -> 242 MB (docs/performance.md, "Beyond the
# corpus"); no corpus location fills a store of 65,536
CASCADE_ACTS = 262144
ACT_HEADS = 8  # sets of kept actions (one per preparation, turn, batch and cascade) before they are all forgotten


def loc_tally(loc: Mapping[str, Any]) -> LocTally:
    """One location's slots hit by criticals, and lost with it, by kind."""
    hits: dict[str, int] = {}
    lost: dict[str, int] = {}
    gone = loc.get("destroyed")
    for s in loc["slots"]:
        if s["destroyed"]:
            hits[s["kind"]] = hits.get(s["kind"], 0) + 1
        elif gone:
            lost[s["kind"]] = lost.get(s["kind"], 0) + 1
    return tuple(hits.items()), tuple(lost.items())


def items_of(locations: Mapping[str, Mapping[str, Any]], kind: str) -> Items:
    """The unit's items of a slot kind, each with the slots it fills by location."""
    places: dict[str, dict[str, list[int]]] = {}
    for code, loc in locations.items():
        for i, s in enumerate(loc["slots"]):
            for id_key, kind_key in (("item", "kind"), ("item2", "kind2")):
                item_id = s.get(id_key)
                if s.get(kind_key) == kind:
                    where = item_id if item_id is not None else f"{code}-{i}"
                    places.setdefault(where, {}).setdefault(code, []).append(i)
    return tuple((item_id, tuple((c, tuple(ix)) for c, ix in by.items())) for item_id, by in places.items())


def knocked_out(loc_of: Any, item_of: Any, item_id: str, places: Places, kind: str) -> int:
    """What one item adds to the count of its kind knocked out: 0, 1, or its heat sinks (a
    compact heat sink slot holds two)."""
    it = item_of(item_id)
    out = it is not None and it.get("disabled")
    if not out:
        for code, slots in places:
            loc = loc_of(code)
            if loc.get("destroyed") or any(loc["slots"][i]["destroyed"] for i in slots):
                out = True
                break
    if not out:
        return 0
    return int(it.get("heat_sinks", 1)) if it is not None and kind == "heat-sink" else 1


class DerivedNumbers:
    """derive() with one components table, remembered by what it reads of a state (its key,
    :func:`~.derived.read_key`): exact odds meet the same states again and again, and most
    criticals change nothing derive() reads."""

    __slots__ = ("comp", "known")

    def __init__(self, comp: Table) -> None:
        self.comp = comp
        self.known: dict[tuple[Any, ...], Data] = {}

    def of(self, key: tuple[Any, ...], state: Mapping[str, Any]) -> Data:
        found = self.known.get(key)
        if found is None:
            if len(self.known) >= DERIVED:
                self.known.clear()
            found = self.known[key] = Data(derive(state, self.comp))
        return found


class UnitMemo:
    """The numbers of one unit state (the target of the runs), worked out when first asked."""

    def __init__(self, state: Mapping[str, Any], comp: Table, numbering: Numbering | None = None,
                 derived: DerivedNumbers | None = None, tallies: dict[Any, LocTally] | None = None) -> None:
        self.state = state
        self.locations: Mapping[str, Mapping[str, Any]] = state["locations"]
        self.items: Mapping[str, Any] = state.get("items") or EMPTY
        self.numbering = numbering if numbering is not None else Numbering()
        self.derived = derived if derived is not None else DerivedNumbers(comp)
        self.tallies: dict[Any, LocTally] = tallies if tallies is not None else {}  # by location, by content
        self._key: tuple[Any, ...] | None = None
        self._tally: tuple[Tally, Tally] | None = None
        self._items: dict[str, Items] = {}
        self._by_code: dict[str, dict[str, Items]] = {}
        self._counts: dict[str, int] = {}
        self._counted: frozenset[str] | None = None
        self._quiet: Data | None = None
        self._counted_damage: tuple[int, Data] | None = None
        # where cascades on this state start and what their ends come to (resolver.Resolver.start and
        # .finish): exact odds run the apply stage once per outcome, and thousands of outcomes share
        # a few hundred starts and ends (the Daishi S's right torso: 13,745 outcomes, 156 starts,
        # 539 ends); each is a function of the state and what the key names, whatever the dice;
        # and the start of a batch of criticals by the identity of the effect stage's answer, kept
        # beside it (resolver.Resolver.start_batch: each of its runs is handed the same tuple)
        self.starts: dict[Any, Any] = {}
        self.ends: dict[Any, Any] = {}
        # what each action of a cascade that rolls no dice does, by the state it acts on
        # (actions.Actions.carry_out): the leaves of a cascade's steps meet the same action on the
        # same state over and over (the Daishi X's right torso: 489,255 such actions carried out,
        # 37,345 distinct), because the checks' slots differ but what follows them often does not;
        # by what else it reads (the preparation, turn, batch, cascade: at most ACT_HEADS of them,
        # then all start afresh, so a target asked about turn after turn keeps a bounded store),
        # then the state's and the action's identities (each queued action one object per value:
        # interned), both kept beside the answer; and, in the same part, each answer worked out as
        # it reads on any state that differs only in marks it never reads (actions.state_key,
        # actions.Delta: Actions._unmarked)
        self.acts: dict[Any, dict[Any, Any]] = {}
        # the change and row an act that only tells records, by the act (cascadeodds.CascadeOdds._told)
        self.tells: dict[Any, Any] = {}
        # what a critical's mark makes, one object per value (strikes.Strikes.mark): each slot marked,
        # by the slot, turn and batch; each location marked, by its slots' ids and other entries
        # (and first by the record marked and the marks); and each item knocked out, by its
        # record's id (damage.disabled); the items a location's slots hold, by the slots' id
        # (damage.contents); what an action that rolls no dice reads of a location record, by its
        # id (actions.loc_key); every key by ids kept beside the objects it names
        self.marked: dict[Any, Any] = {}
        # the closed form of a critical check that rolls, by the state it rolls on: with its story
        # (cascadeodds.CascadeOdds._check_odds, for the check's own choose) and without it, as the
        # step reads it (cascadeodds.CascadeOdds._check_steps); its answers are shared by every
        # queue the state is met with
        self.checks: dict[Any, Any] = {}
        self.merges: dict[Any, Any] = {}  # what exact odds keep of a cascade's state (cascadeodds.CascadeOdds.merged)
        # one object for each distinct cascade state's unit met (resolver.Resolver) and for each
        # of its three parts, and each effect of a slot struck: by value (interned), and a state
        # and its parts first by their parts' and values' identities (state_of, part, whole); states
        # found kept above are then compared by identity, not field by field; and each queued action
        self.overlays: dict[Any, Any] = {}

    def counted_damage(self) -> tuple[int, Data]:
        """The number of a resolution on the state (its resolutions so far plus one), and the
        state's ``damage`` record with it counted."""
        found = self._counted_damage
        if found is None:
            damage = self.state.get("damage") or EMPTY
            batch = int(damage.get("resolutions", 0)) + 1
            found = self._counted_damage = (batch, Data(damage).replace(resolutions=batch))
        return found

    @staticmethod
    def kept(store: dict[Any, Any], key: Hashable, work_out: Callable[[], T], limit: int = CASCADE_ENDS) -> T:
        """``work_out()``, kept in ``store`` (:attr:`starts`, :attr:`ends`, :attr:`acts`) under
        ``key``; at ``limit`` entries the store starts afresh."""
        found: T | None = store.get(key)
        if found is None:
            if len(store) >= limit:
                store.clear()
            found = store[key] = work_out()
        return found

    @staticmethod
    def kept_by_state(store: dict[Any, Any], state: Any, key: Hashable, work_out: Callable[[], T]) -> T:
        """``work_out()``, kept in ``store`` by the identity of the unit state ``state`` and
        ``key`` (:attr:`merges`; :attr:`acts` likewise, by the action's identity too): the state
        is kept beside the answer and must be the very object asked with, so a state met as
        another object of the same value is only worked out again (exact either way). The states a cascade meets are one object each
        (:meth:`interned`), and an ``id`` is hashed in C where a state's three records are each a
        Python call. At :data:`CASCADE_ACTS` entries the store starts afresh."""
        ident = (id(state), key)
        found = store.get(ident)
        if found is not None and found[0] is state:
            answer: T = found[1]
            return answer
        answer = work_out()
        if len(store) >= CASCADE_ACTS:
            store.clear()
        store[ident] = (state, answer)
        return answer

    def interned(self, overlay: T) -> T:
        """The one object kept for a unit state equal to ``overlay`` (``overlay`` itself the first
        time), or for an effect of a slot struck (``strikes.Strikes.struck``), or for an action
        queued in a cascade (``strikes.Strikes.apply_batch``, ``damage``, ``_recorded_check``); at
        :data:`CASCADE_ACTS` the store starts afresh."""
        overlays = self.overlays
        found: T | None = overlays.get(overlay)
        if found is None:
            if len(overlays) >= CASCADE_ACTS:
                overlays.clear()
            found = overlays[overlay] = overlay
        return found

    def state_of(self, w: Work) -> tuple[Data, Data, Data]:
        """The one object kept for the unit state ``w`` holds (what :meth:`interned` keeps of
        ``w.overlay()``), found by identities: each of its three parts is one object per value
        (:meth:`part`), and a state is the one object for its three parts (:meth:`whole`)."""
        return self.whole(*w.overlay_with(self.part))

    def part(self, entries: dict[str, Any]) -> Data:
        """One part of a state (top-level entries, locations, items) as ``Data(entries)``: the
        one object kept for that value, found first by the entries' names and their values'
        identities (a location marked, an item knocked out are one object per value already:
        ``strikes.Strikes.mark``, ``damage.disabled``), a key hashed in C; on a miss made, kept by
        value (:meth:`interned`) and under that key beside the record made from these very
        values, so no id in a key is reused while the key is kept."""
        overlays = self.overlays
        key = (*entries, *map(id, entries.values()))
        found = overlays.get(key)
        if found is not None:
            kept: Data = found[0]
            return kept
        made = Data(entries)
        kept = self.interned(made)
        if len(overlays) >= CASCADE_ACTS:
            overlays.clear()
        overlays[key] = (kept, made)
        return kept

    def whole(self, top: Data, locs: Data, items: Data) -> tuple[Data, Data, Data]:
        """The one state object for three parts (each one object per value when made by
        :meth:`part`), found by their ids; on a miss kept by value (:meth:`interned`) and under
        the ids beside the parts themselves (no id reused while the key is kept)."""
        overlays = self.overlays
        key = (id(top), id(locs), id(items))
        found = overlays.get(key)
        if found is not None:
            state: tuple[Data, Data, Data] = found[0]
            return state
        parts = (top, locs, items)
        state = self.interned(parts)
        if len(overlays) >= CASCADE_ACTS:
            overlays.clear()
        overlays[key] = (state, parts)
        return state

    def loc_tally(self, loc: Mapping[str, Any]) -> LocTally:
        """:func:`loc_tally`, remembered by the location's content (exact odds meet the same
        location states along many branches)."""
        tallies = self.tallies
        found = tallies.get(loc)
        if found is None:
            if len(tallies) >= LOC_TALLIES:
                tallies.clear()
            found = tallies[loc] = loc_tally(loc)
        return found

    def add_tally(self, hits: Tally, lost: Tally, loc: Mapping[str, Any], sign: int) -> None:
        loc_hits, loc_lost = self.loc_tally(loc)
        for kind, n in loc_hits:
            hits[kind] = hits.get(kind, 0) + sign * n
        for kind, n in loc_lost:
            lost[kind] = lost.get(kind, 0) + sign * n

    def tally(self) -> tuple[Tally, Tally]:
        """Slots hit by criticals, and lost with their location, by kind, in the whole state."""
        found = self._tally
        if found is None:
            hits: Tally = {}
            lost: Tally = {}
            for loc in self.locations.values():
                self.add_tally(hits, lost, loc, 1)
            found = self._tally = (hits, lost)
        return found

    def items_of(self, kind: str) -> Items:
        found = self._items.get(kind)
        if found is None:
            found = self._items[kind] = items_of(self.locations, kind)
        return found

    def items_by_code(self, kind: str) -> dict[str, Items]:
        """:meth:`items_of` by location: the items of a kind with a slot in each location."""
        found = self._by_code.get(kind)
        if found is None:
            out: dict[str, list[tuple[str, Places]]] = {}
            for item_id, places in self.items_of(kind):
                for code, _ in places:
                    out.setdefault(code, []).append((item_id, places))
            found = self._by_code[kind] = {code: tuple(f) for code, f in out.items()}
        return found

    def count(self, kind: str) -> int:
        """Items of a kind knocked out in the state."""
        found = self._counts.get(kind)
        if found is None:
            locations, items = self.locations, self.items
            found = self._counts[kind] = sum(knocked_out(locations.__getitem__, items.get, item_id, places, kind)
                                             for item_id, places in self.items_of(kind))
        return found

    def counted(self) -> frozenset[str]:
        """The items derive() counts (heat sinks, jump jets)."""
        found = self._counted
        if found is None:
            found = self._counted = counted_items(self.locations)
        return found

    def key(self) -> tuple[Any, ...]:
        """What derive() reads of the state, as a small key (:func:`~.derived.read_key`)."""
        found = self._key
        if found is None:
            found = self._key = read_key(self.state, self.counted(), self.numbering)
        return found

    def numbers(self) -> Data:
        """The state's derived numbers."""
        return self.derived.of(self.key(), self.state)

    def quiet(self) -> Data:
        """An outcome's data when nothing was struck: no PSR, the derived numbers as they were."""
        found = self._quiet
        if found is None:
            found = self._quiet = Data(psr_now=(), derived=self.numbers())
        return found


def unit_memo(ctx: Any) -> UnitMemo:
    """The memo of ``ctx.target`` (kept in the engine's ``ctx.memo``; a context made without one
    gets a memo of its own)."""
    memo = ctx.memo
    found: UnitMemo | None = None if memo is None else memo.get(KEY)
    if found is None:
        found = UnitMemo(ctx.target, ctx.tables["components"])
        if memo is not None:
            memo[KEY] = found
    return found
