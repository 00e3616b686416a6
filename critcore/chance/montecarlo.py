"""Monte Carlo: resolve a procedure many times with seeded dice and count the outcomes.

The loop is lean on purpose: parameters are checked once, one context is reused, totals are
drawn straight from each roll's exact distribution (one random number per roll, so the same
seed gives the same counts), no roll record is kept, and a stage with a single plain
implementation (no house-rule wrapper) is called directly instead of through pluggy ("hook
implementations looked up once per batch"). Results have the shape of :mod:`critcore.chance.exact`,
with a 95% confidence interval.

Two shortcuts rest on the rule exact odds rely on too: stages are pure, so what locate, effect
and apply answer for a determination depends only on the rolls they are given.

* Roll tree: the first time a determination's later stages run, the rolls they draw are
  recorded; later resolutions with that determination draw the same rolls from the same tables
  and follow the recorded path, and a known path is counted without calling the stages again.
  A path not seen yet runs the stages with the numbers already drawn handed back first, so
  every random number is used exactly as if the stages had run.
* Plain determine: the plugin holding the only determine stage may answer the hook
  ``critcore_determine_lookup(ctx)`` with a ``RollLookup(dice, label, answers)`` when
  ``determine(ctx)`` is exactly ``answers[ctx.dice.roll(dice, label).total]`` and does nothing
  else (no note, no other roll). The loop then draws the roll itself and looks the answer up by
  the drawn table entry (GURPS: the 3d6 roll against skill).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate, chain
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, cast

from critcore.chance import rolltree
from critcore.dice.notation import DiceExpr, make_test, parse
from critcore.stages.context import Context
from critcore.engine.runner import Engine
from critcore._speed.gcpause import paused
from critcore._speed.stagecall import stage_function
from critcore.chance.exact import LEVELS, Branch, Group, answered_levels, declared_events, declared_lookup, group
from critcore.model import Data, Event, Roll, outcome_tags
from critcore.chance.probability import Z95 as Z95, wilson as wilson

if TYPE_CHECKING:
    from critcore.dice.dice import Dice


Table = tuple[Any, ...]
"""A roll's results laid out for drawing: ("flat", rolls, size) or ("bisect", (cumulative, rolls), 0)."""
_NO_LAST: tuple[Any, ...] = (object(), None, (), 0)  # a last roll no roll matches
DRAW_FACES_ABOVE = 2_000
"""A roll with more possible sums than this is drawn die by die instead of from a table of its
exact distribution (which for 20d1000 would take seconds to build, and for 200d1000 hours)."""


class SamplingDice:
    """A :class:`~critcore.dice.dice.Dice` look-alike for simulations: each roll is one random number
    that picks from a table of the roll's results laid out by their exact weights (216 entries
    for 3d6), and no record is kept. Rolls are shared :class:`~critcore.model.Roll` objects, one
    per result of a table, which lets the simulation recognise a roll by its identity."""

    __slots__ = ("_random", "_real_random", "_by_notation", "_tests", "_last", "rolls", "trail")

    def __init__(self, seed: int | str | None) -> None:
        self._random = self._real_random = random.Random(seed).random
        self._by_notation: dict[Any, dict[str, Table]] = {}
        self._tests: dict[tuple[int, int, bool, str], Table] = {}
        self._last: tuple[Any, ...] = _NO_LAST
        self.rolls: list[Roll] = []  # always empty: simulations keep no record
        self.trail: list[tuple[Table, Roll]] | None = None  # while recording: every draw, in order

    @staticmethod
    def _table(options: Sequence[tuple[Any, Any]], make: Callable[[Any], Roll]) -> Table:
        """Weighted options as (flat table, size) when small, else (cumulative, rolls) for bisect."""
        from math import lcm

        den = lcm(*(p.denominator for _, p in options))
        if den <= 1 << 16:
            flat: list[Roll] = []
            for value, p in options:
                flat.extend([make(value)] * (p.numerator * (den // p.denominator)))
            return ("flat", flat, len(flat))
        cumulative = list(accumulate(float(p) for _, p in options))
        cumulative[-1] = 2.0  # never fall off the end through rounding
        return ("bisect", (cumulative, [make(v) for v, _ in options]), 0)

    def table(self, notation: str | DiceExpr, label: str) -> Table:
        """The table ``roll(notation, label)`` draws from (made the first time it is asked for)."""
        labels = self._by_notation.get(notation)
        found = None if labels is None else labels.get(label)
        if found is None:
            labels = self._by_notation.setdefault(notation, {})
            expr = notation if isinstance(notation, DiceExpr) else parse(notation)
            if expr.count * (expr.sides - 1) + 1 > DRAW_FACES_ABOVE:  # 20d1000: draw the dice, not a table
                found = labels[label] = ("faces", (expr, label, {}), 0)
            else:
                found = labels[label] = self._table(expr.distribution(), lambda v: Roll(label, expr.notation, (), v))
        return found

    def _draw(self, table: Table) -> Roll:
        kind, rolls, size = table
        if kind == "flat":
            roll: Roll = rolls[int(self._random() * size)]
        elif kind == "faces":  # one random number per die; one Roll per total, so equal totals are one
            expr, label, made = rolls
            rnd, sides = self._random, expr.sides
            total = expr.value(sum(int(rnd() * sides) + 1 for _ in range(expr.count)))
            roll = made.get(total) or made.setdefault(total, Roll(label, expr.notation, (), total))
        else:
            cumulative, made = rolls
            roll = made[bisect_right(cumulative, self._random())]
        if self.trail is not None:
            self.trail.append((table, roll))
        return roll

    def roll(self, notation: str | DiceExpr, label: str) -> Roll:
        last = self._last
        if notation is last[0] and label is last[1]:  # the same roll as last time: no look-up
            roll: Roll = last[2][int(self._random() * last[3])]
            return roll
        try:
            table = self._by_notation[notation][label]
        except KeyError:
            table = self.table(notation, label)
        if table[0] == "flat" and self.trail is None:
            self._last = (notation, label, table[1], table[2])
        return self._draw(table)

    def test(self, dice: int, tn: int, label: str, *, rule_of_six: bool = True) -> Roll:
        key = (dice, tn, rule_of_six, label)
        table = self._tests.get(key)
        if table is None:
            test = make_test(dice, tn, rule_of_six)

            def make(value: tuple[int, bool]) -> Roll:
                detail = "rule of one: every die shows 1" if value[1] else ""
                return Roll(label, test.notation, (), value[0], value[0], detail)

            table = self._tests[key] = self._table(test.distribution(), make)
        return self._draw(table)

    def record(self, replay: Sequence[float]) -> list[tuple[Table, Roll]]:
        """Record every draw from now on; the first draws use the numbers in ``replay`` (drawn
        already) before the generator is asked for more. :meth:`stop` ends it."""
        self.trail = []
        self._last = _NO_LAST  # the shortcut in roll() would skip the record
        if replay:
            self._random = chain(replay, iter(self._real_random, None)).__next__
        return self.trail

    def stop(self) -> None:
        self.trail = None
        self._random = self._real_random

    def branch(self, fn: Callable[[Any], Any], label: str, key: Any = None) -> Any:
        return fn(self)

    def choose(self, roll: Callable[[Any], Any], odds: Callable[[], Any], label: str, merge: Any = None) -> Any:
        # a simulation rolls as the rules say (odds() is for exact odds) and keeps of the answer
        # what exact odds keep (merge), so that the outcomes it counts are the ones they tell apart
        answer = roll(self)
        return answer if merge is None else merge(answer)

    def keep(self, value: Any, merge: Callable[[Any], Any]) -> Any:
        return merge(value)  # as iterate keeps a state: what exact odds keep

    def fold(self, state: Any, steps: Sequence[Callable[[Any, Any], Any]], label: str, key: Any = None) -> Any:
        for step in steps:
            state = step(self, state)
        return state

    def iterate(self, state: Any, step: Callable[[Any, Any], Any], done: Callable[[Any], bool], label: str,
                key: Any = None, merge: Any = None, odds: Any = None) -> Any:
        while not done(state):
            state = step(self, state)
        # what exact odds keep of the state (merge): the outcomes counted are the ones they tell apart
        return state if merge is None else merge(state)

    def until(self, attempt: Callable[[Any], Any], label: str, limit: int = 1000, key: Any = None) -> Any:
        for _ in range(limit):
            answer = attempt(self)
            if answer is not None:
                return answer
        from critcore.errors import DiceError

        raise DiceError(f"{label}: no acceptable result after {limit} tries")


@dataclass(frozen=True)
class Simulation:
    """Counted outcomes of ``n`` resolutions; probabilities are frequencies with 95% intervals.

    ``partial`` is True when the run was stopped early (Ctrl-C): ``n`` is then the number of
    resolutions done and counted.
    """

    system: str
    procedure: str
    params: Data
    n: int
    seed: Any
    counts: tuple[tuple[tuple[Any, ...], int], ...]
    events: tuple[Event, ...] = ()
    rules: tuple[str, ...] = ()
    target: Any = None
    partial: bool = False

    @property
    def branches(self) -> tuple[Branch, ...]:
        return tuple(Branch(k[0], k[1], k[2], k[3], c / self.n) for k, c in self.counts)

    def frequency(self, predicate: Callable[[Branch], bool]) -> tuple[float, float, float]:
        """(frequency, low, high): the share of resolutions where ``predicate`` holds, with a
        95% Wilson interval."""
        hits = sum(c for k, c in self.counts if predicate(Branch(k[0], k[1], k[2], k[3], 0.0)))
        return (hits / self.n, *wilson(hits, self.n))

    def event_estimates(self) -> list[tuple[Event, int, float, float, float]]:
        """(event, count, frequency, low, high) for each declared event, in the order declared."""
        counts = {e.name: 0 for e in self.events}
        for (det, loc, effects, applied), c in self.counts:
            for tag in outcome_tags(det, loc, effects, applied):
                if tag in counts:
                    counts[tag] += c
        return [(e, counts[e.name], counts[e.name] / self.n, *wilson(counts[e.name], self.n)) for e in self.events]

    def event(self, name: str) -> tuple[float, float, float]:
        """(frequency, low, high) of the event (outcome tag) ``name``."""
        return self.frequency(lambda b: name in b.tags)

    def groups(self, levels: Sequence[str] = LEVELS) -> tuple[Group, ...]:
        branches = self.branches
        return _with_counts(group(branches, answered_levels(branches, levels)), self.n)

    def to_json(self, levels: Sequence[str] = LEVELS) -> dict[str, Any]:
        """The simulation JSON (format 2, the shape of the odds JSON: see docs/odds.md)."""
        from critcore.chance.view import simulation_json

        return simulation_json(self, levels)


def _with_counts(groups: Sequence[Group], n: int) -> tuple[Group, ...]:
    from dataclasses import replace

    return tuple(replace(g, count=round(float(g.probability) * n), children=_with_counts(g.children, n)) for g in groups)


Entry = list[Any]  # [count, determination, location, effects, applied]: one counted kind of resolution
_SEEN = object()  # a determination whose later stages have rolled once: its tree grows from the next run
_OPAQUE = rolltree.OPAQUE  # a determination whose later stages did not retrace their rolls: they always run
MAX_NODES = 200_000  # roll-tree branchings kept at once (memory); new paths beyond it are not kept
FLUSH_AT = 50_000  # distinct entries kept before they are merged by value


class _Tally:
    """Counts resolutions by the identity of the stage answers, and keeps each determination's
    roll tree.

    Systems return shared constants for common answers, so counting is one dict lookup; each
    entry keeps its answers alive, so an id is never reused while counted. Equal answers that
    are different objects are merged by value in :meth:`flush`, at the end and whenever more
    than ``FLUSH_AT`` entries have piled up (bounded memory).

    A roll tree (``roots[id(determination)]``) is an entry when the later stages roll nothing
    for that determination, or a branching ``(table, {id(roll): subtree})`` for the table they
    draw from next. ``_SEEN`` marks a determination met once whose stages rolled: its tree is
    grown from its second run on, so a system (or house rule) that makes a new determination
    object every time pays nothing for trees it would never follow. ``_OPAQUE`` marks one whose
    run drew differently from the recorded path (an impure stage): its stages then always run.
    """

    def __init__(self, ctx: Context, dice: SamplingDice, stages: Sequence[Callable[..., Any]]) -> None:
        self.ctx = ctx
        self.dice = dice
        self.locate, self.effect, self.apply = stages
        self.by_id: dict[Any, Entry] = {}
        self.counts: dict[tuple[Any, ...], int] = {}
        self.roots: dict[int, Any] = {}
        self.nodes = 0

    def flush(self) -> None:
        """Merge the entries into ``counts`` by value (in the order they were first met)."""
        counts = self.counts
        for count, det, loc, found, applied in self.by_id.values():
            key = (det, loc, () if found is None else tuple(found), applied)
            counts[key] = counts.get(key, 0) + count
        self.by_id.clear()
        self.roots.clear()  # their leaves were the entries just merged
        self.nodes = 0

    def final(self, det: Any) -> Entry:
        """Count a resolution that ``det`` ends (no later stage); its entry."""
        entry = self.by_id.get(id(det))
        if entry is None:
            entry = self.by_id[id(det)] = [1, det, None, None, None]
        else:
            entry[0] += 1
        return entry

    def treated(self, applied: Any) -> None:
        """Count a treat procedure's answer."""
        entry = self.by_id.get(id(applied))
        if entry is None:
            self.by_id[id(applied)] = [1, None, None, None, applied]
        else:
            entry[0] += 1

    def rest(self, det: Any, root: Any) -> Entry:
        """Count a resolution that goes on after ``det``: follow its roll tree (``root``, from
        ``roots``), drawing each table's roll, and run the stages only when the path is new;
        the entry counted."""
        node = root
        if node.__class__ is list:
            node[0] += 1
            return node
        drawn: list[float] = []
        if node.__class__ is tuple:
            rand = self.dice._random
            while True:
                table, children = node
                x = rand()
                drawn.append(x)
                kind, rolls, size = table
                roll = rolls[int(x * size)] if kind == "flat" else rolls[1][bisect_right(rolls[0], x)]
                node = children.get(id(roll))
                if node is None:
                    break
                if node.__class__ is list:
                    node[0] += 1
                    return node
        return self.run(det, drawn, root)

    def run(self, det: Any, drawn: Sequence[float], root: Any) -> Entry:
        """Run locate, effect and apply (the numbers in ``drawn`` first), count and remember it."""
        ctx, dice = self.ctx, self.dice
        trail = dice.record(drawn)
        try:
            loc = self.locate(ctx, det)
            found = self.effect(ctx, det, loc)
            applied = self.apply(ctx, det, loc, () if found is None else found)
        finally:
            dice.stop()
        del ctx.notes[:]
        ids = (id(det), id(loc), id(found), id(applied))
        entry = self.by_id.get(ids)
        if entry is None:
            entry = self.by_id[ids] = [1, det, loc, found, applied]
        else:
            entry[0] += 1
        self.remember(det, trail, entry, root)
        return entry

    def remember(self, det: Any, trail: Sequence[tuple[Table, Roll]], entry: Entry, root: Any) -> None:
        """Add the path of one run (its draws, in order) to ``det``'s roll tree ``root``, ending
        at ``entry``."""
        key = id(det)
        node = root
        if node is _OPAQUE:
            return
        if any(table[0] == "faces" for table, _ in trail):  # drawn die by die: no tree to follow
            self.roots[key] = _OPAQUE
            return
        if not trail:
            if node is None:
                self.roots[key] = entry  # settled: nothing more is rolled after det
            elif node is not entry:
                self.roots[key] = _OPAQUE
            return
        if self.nodes >= MAX_NODES:
            return
        if node is None:
            self.roots[key] = _SEEN
            return
        tree, added = rolltree.add(None if node is _SEEN else node, [(table, id(roll)) for table, roll in trail],
                                   entry, _is_entry, _same_entry)
        self.roots[key] = tree
        self.nodes += added


def _is_entry(node: Any) -> bool:
    return node.__class__ is list


def _same_entry(kept: Any, new: Any) -> bool:
    return kept is new


def _plain_determine(engine: Engine, ctx: Context, dice: SamplingDice) -> tuple[Table, list[Any]] | None:
    """(table, answer for each table entry) when the plugin holding the only determine stage
    declares it a plain look-up of one roll's total for this context (its
    ``critcore_determine_lookup``) and the roll has a flat table."""
    spec = declared_lookup(engine, ctx)
    if spec is None:
        return None
    notation, label, answers = spec
    table = dice.table(notation, label)
    if table[0] != "flat" or not all(0 <= roll.total < len(answers) for roll in table[1]):
        return None
    return table, [answers[roll.total] for roll in table[1]]


def _count_plain(tally: _Tally, count: int, table: Table, answers: Sequence[Any], ready: list[Entry | None]) -> None:
    """``count`` resolutions of a plain determine: one random number picks the table entry, and
    so the answer, as the roll would. ``ready[i]`` is where a resolution drawing table entry
    ``i`` is counted once nothing more is rolled after its answer (a final answer, or later
    stages that roll nothing for it); None until then."""
    rand = tally.dice._random
    size = table[2]
    final, rest, roots = tally.final, tally.rest, tally.roots
    for _ in range(count):
        i = int(rand() * size)
        entry = ready[i]
        if entry is not None:
            entry[0] += 1
            continue
        det = answers[i]
        if det is not None and det.final:
            entry = final(det)
        else:
            entry = rest(det, roots.get(id(det)))
            if roots.get(id(det)) is not entry:
                continue  # more is rolled after det
        for j, other in enumerate(answers):
            if other is det:
                ready[j] = entry


def _count_stages(tally: _Tally, count: int, determine: Callable[..., Any]) -> None:
    """``count`` resolutions calling determine, then the roll tree."""
    ctx = tally.ctx
    notes = ctx.notes
    get, final, rest, roots_get = tally.by_id.get, tally.final, tally.rest, tally.roots.get
    _id = id
    for _ in range(count):
        det = determine(ctx)
        if det is not None and det.final:
            entry = get(_id(det))
            if entry is None:
                final(det)
            else:
                entry[0] += 1
        else:
            node = roots_get(_id(det))
            if node.__class__ is list:
                node[0] += 1
            else:
                rest(det, node)
        if notes:
            del notes[:]


def simulate(
    engine: Engine,
    procedure: str,
    params: Mapping[str, Any] | None = None,
    n: int = 100_000,
    seed: int | str | None = 0,
    target: Mapping[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
    stop_ok: bool = False,
) -> Simulation:
    """Resolve ``procedure`` ``n`` times with seeded dice; ``progress(done)`` is called now and then.

    With ``stop_ok``, Ctrl-C (KeyboardInterrupt) ends the run early and the resolutions done so
    far are returned, marked ``partial``; an interrupt before any was done still propagates.
    """
    proc, checked = engine.question(procedure, params, target)
    dice = SamplingDice(seed)
    # SamplingDice is a Dice look-alike (the same methods), not a subclass
    ctx = engine.context(proc, checked, None, target, dice=cast("Dice", dice))
    hook = engine.pm.hook
    tally = _Tally(ctx, dice, (
        stage_function(hook.critcore_locate, ("ctx", "determination")),
        stage_function(hook.critcore_effect, ("ctx", "determination", "location")),
        stage_function(hook.critcore_apply, ("ctx", "determination", "location", "effects")),
    ))
    step = max(1, min(n // 100, 50_000)) if progress is not None else n
    count: Callable[[int], None]
    if proc.verb == "treat":
        treat = stage_function(hook.critcore_treat, ("ctx",))

        def count(m: int) -> None:
            for _ in range(m):
                tally.treated(treat(ctx))
                del ctx.notes[:]
    else:
        determine = stage_function(hook.critcore_determine, ("ctx",))
        plain = _plain_determine(engine, ctx, dice) if n > 0 else None
        if plain is not None:
            table, answers = plain
            ready: list[Entry | None] = [None] * len(answers)

            def count(m: int) -> None:
                _count_plain(tally, m, table, answers, ready)
        else:
            ready = []

            def count(m: int) -> None:
                _count_stages(tally, m, determine)
    partial = False
    try:
        with paused():
            for start in range(0, n, step):
                count(min(step, n - start))
                if progress is not None:
                    progress(start + min(step, n - start))
                if len(tally.by_id) > FLUSH_AT:
                    tally.flush()
                    ready[:] = [None] * len(ready)
    except KeyboardInterrupt:
        if not stop_ok:
            raise
        partial = True  # keep what was counted: the resolutions finished before the interrupt
    tally.flush()
    done = sum(tally.counts.values()) if partial else n
    if partial and not done:
        raise KeyboardInterrupt
    if progress is not None and not partial:
        progress(n)
    return Simulation(engine.info.name, proc.name, checked, done, seed, tuple(tally.counts.items()),
                      declared_events(engine, proc.name), tuple(engine.rules), ctx.target, partial)
