"""Exact odds: run a procedure's stages under the enumerating roller and merge equal outcomes.

The stages are enumerated one at a time. Each stage is run once per distinct sequence of roll
*results* (the 16 totals of 3d6, the success counts of a pool: never single faces), given each
distinct answer of the stages before it; equal answers are merged before the next stage runs.
So a system gets exact odds without writing any code for it, as long as its stages act only on
roll totals and talk to each other only through their answers.

Rolls with no upper end (exploding dice, "roll again until ...") are followed until what is
left unaccounted is below ``tolerance`` (one part in a million by default); the remainder is
reported, never hidden. :meth:`critcore.dice.dice.Dice.until` keeps re-roll loops exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from operator import attrgetter
from typing import Any, Callable, Mapping, Sequence, cast

from critcore.chance.enumeration import (_CHECK_KEYS, MAX_RUNS, EnumeratingRoller, Pruned, _limit, add_to,
                                        enumerate_weights_within, forget)
from critcore.chance.firstroll import agrees as _agrees, by_first_roll, lookup_weights
from critcore.engine.runner import Engine
from critcore._speed.gcpause import paused
from critcore._speed.sharedparts import once_per
from critcore._speed.twocores import each, may_fork
from critcore.stages.hookspecs import RollLookup
from critcore.model import Applied, Data, Determination, Effect, Event, Location, outcome_tags, record
from critcore.chance.probability import LEVELS as LEVELS, Group as Group, prob_json as prob_json
from critcore.chance.probability import add_parts, from_parts, sum_of

DEFAULT_TOLERANCE = Fraction(1, 10**6)


def _exact(probability: Fraction | float) -> Fraction:
    """A branch's probability in exact odds, where every branch holds a :class:`Fraction`."""
    if isinstance(probability, Fraction):
        return probability
    raise TypeError(f"exact odds hold fractions, not {probability!r}")


@record
class Branch:
    """One distinct outcome and its probability (exact, or a frequency from a simulation).

    A record (a frozen dataclass made without ``object.__setattr__`` per field): exact odds
    make one per outcome, and making them was a twentieth of a small question."""

    determination: Determination | None
    location: Location | None
    effects: tuple[Effect, ...]
    applied: Applied | None
    probability: Fraction | float

    @property
    def tags(self) -> frozenset[str]:
        """The outcome's tags (every tag its stage results carry): the events that happened."""
        return outcome_tags(self.determination, self.location, self.effects, self.applied)

    def label(self, level: str) -> str:
        """How this outcome reads at one level of the grouping, in plain words."""
        if level == "determine":
            d = self.determination
            return "-" if d is None else (d.summary or d.kind)
        if level == "locate":
            return "-" if self.location is None else self.location.name
        if level == "effect":
            counts: dict[str, int] = {}
            for e in self.effects:
                words = _effect_words(e)
                counts[words] = counts.get(words, 0) + 1
            return PART.join(w if n == 1 else f"{w} (x{n})" for w, n in counts.items()) or "-"
        a = self.applied
        return "-" if a is None else a.summary

    def to_json(self) -> dict[str, Any]:
        """This outcome on its own (the odds JSON stores stage results once: see critcore.chance.view)."""
        from critcore.model import _stage_json

        return {
            "probability": prob_json(self.probability),
            "tags": sorted(self.tags),
            "determination": _stage_json(self.determination),
            "location": _stage_json(self.location),
            "effects": [e.to_json() for e in self.effects],
            "applied": _stage_json(self.applied),
        }


def _effect_words(e: Effect) -> str:
    """A table row in plain words: its text, after the component it struck when it names one."""
    what = e.data.get("component")
    return f"{what}: {e.text}" if isinstance(what, str) and what else e.text


def declared_events(engine: Engine, procedure: str | None = None) -> tuple[Event, ...]:
    """The events the system declares, then those its enabled rule plugins add (``RuleInfo.events``
    of their ``critcore_rule`` answers);
    with ``procedure``, only those its outcomes may carry."""
    found = [e for e in engine.info.events if not (procedure and e.procedures and procedure not in e.procedures)]
    names = {e.name for e in found}
    for info in engine.pm.hook.critcore_rule():
        for e in info.events:
            if e.name not in names and not (procedure and e.procedures and procedure not in e.procedures):
                names.add(e.name)
                found.append(e)
    return tuple(found)


NOTHING_MORE = "nothing more"
PART = " · "  # between the words of the table rows of one outcome


_SEPARATORS = " ;:,.-—"  # what is left at the edge of words taken out of a label


def _words(text: str) -> str:
    return text.strip().rstrip(".").lower()


def _unsaid(label: str, said: Sequence[str]) -> str:
    """``label`` without what an enclosing line already said (a repeated line says nothing): a
    part (one table row's words) that an enclosing line contains is dropped, and a label that
    starts with an enclosing line keeps only the rest."""
    for earlier in said:
        if label.startswith(earlier):
            label = label[len(earlier):].lstrip(_SEPARATORS)
    heard = [_words(s) for s in said]
    parts = []
    for part in label.split(PART):
        if not part or any(_words(part) in h for h in heard):
            continue
        for earlier in said:  # a part that quotes an enclosing line keeps only its own words
            quoted = earlier.strip().rstrip(".")
            while len(quoted) > 12 and quoted in part:  # the words on either side joined by one "; "
                before, _, after = part.partition(quoted)
                before, after = before.rstrip(_SEPARATORS), after.lstrip(_SEPARATORS)
                part = f"{before}; {after}" if before and after else before or after
        if part:
            parts.append(part)
    return PART.join(parts)


def group(branches: Sequence[Branch], levels: Sequence[str] = LEVELS, said: tuple[str, ...] = ()) -> tuple[Group, ...]:
    """Group outcomes the way a player reads them: determination, then location, effect, result.

    Labels are plain words. No line repeats another: a level that says nothing new (no answer,
    or what an enclosing line said already) is skipped, and a group with a single sub-group
    is written on one line with it.
    """
    if not levels or not branches:
        return ()
    level, rest = levels[0], levels[1:]
    buckets: dict[str, list[Branch]] = {}
    unsaid: dict[str, str] = {}  # each label's words left to say: thousands of outcomes, a few labels
    for b, label in zip(branches, _labels(branches, level)):
        key = unsaid.get(label)
        if key is None:
            key = unsaid[label] = "" if label == "-" else _unsaid(label, said)
        buckets.setdefault(key, []).append(b)
    out: list[Group] = []
    quiet = buckets.pop("", None)
    if quiet is not None:
        if buckets and not rest:
            buckets[NOTHING_MORE] = quiet
        else:
            deeper = group(quiet, rest, said)
            if deeper or not buckets:
                out.extend(deeper)
            else:
                buckets[NOTHING_MORE] = quiet
    for label, members in buckets.items():
        whole = sum_of(b.probability for b in members)
        children = group(members, rest, said + (label,))
        while len(children) == 1 and children[0].probability == whole:
            only = children[0]  # one sub-group: said on the same line
            label = f"{label} — {only.label}"
            children = only.children
        out.append(Group(level, label, whole, children))
    return _merged(out)


# the stage result a level's label reads (Branch.label): outcomes share them, so each is put in
# words once (critcore._speed.sharedparts)
_READS = {"determine": "determination", "locate": "location", "effect": "effects"}


def _labels(branches: Sequence[Branch], level: str) -> list[str]:
    """``b.label(level)`` of each outcome."""
    reads = _READS.get(level)
    if reads is None:
        return [b.label(level) for b in branches]
    return once_per(branches, attrgetter(reads), lambda b: b.label(level))


def answered_levels(branches: Sequence[Branch], levels: Sequence[str]) -> tuple[str, ...]:
    """As many levels as ``levels`` holds, taken in order from the levels at which some outcome
    has an answer (a procedure with no determination groups by location first)."""
    used = [level for level in LEVELS if any(b.label(level) != "-" for b in branches)]
    return tuple(used[: len(levels)]) or tuple(levels)


def _merged(groups: Sequence[Group]) -> tuple[Group, ...]:
    """Siblings with the same label as one group (their sub-groups merged too), most likely first."""
    by_label: dict[str, Group] = {}
    for g in groups:
        seen = by_label.get(g.label)
        if seen is None:
            by_label[g.label] = g
        else:
            by_label[g.label] = Group(seen.level, g.label, seen.probability + g.probability,
                                      _merged(seen.children + g.children))
    return tuple(sorted(by_label.values(), key=lambda g: -g.probability))


@dataclass(frozen=True)
class Odds:
    """Every distinct outcome of a procedure with its exact probability."""

    system: str
    procedure: str
    params: Data
    branches: tuple[Branch, ...]
    remainder: Fraction
    runs: int
    events: tuple[Event, ...] = ()  # declared by the system and its enabled rule plugins
    rules: tuple[str, ...] = ()
    target: Any = None  # the input state (frozen), which the JSON's states are differences from

    @property
    def exact(self) -> bool:
        return self.remainder == 0

    def probability(self, predicate: Callable[[Branch], bool]) -> Fraction:
        """Total probability of the outcomes for which ``predicate`` holds."""
        parts: dict[int, int] = {}
        for b in self.branches:
            if predicate(b):
                add_parts(parts, _exact(b.probability))
        return from_parts(parts)

    def event(self, name: str) -> Fraction:
        """Exact probability that the event (outcome tag) ``name`` happens."""
        return self.probability(lambda b: name in b.tags)

    def event_odds(self) -> list[tuple[Event, Fraction]]:
        """Each declared event with its exact probability, in the order declared: the outcomes
        summed by their set of tags first (thousands of outcomes, a few dozen sets), then each
        set's sum added to each of its events."""
        by_tags: dict[frozenset[str], dict[int, int]] = {}
        for b in self.branches:
            tags = b.tags
            kept = by_tags.get(tags)
            if kept is None:
                kept = by_tags[tags] = {}
            add_parts(kept, _exact(b.probability))
        parts: dict[str, dict[int, int]] = {e.name: {} for e in self.events}
        for tags, summed in by_tags.items():
            for tag in tags:
                into = parts.get(tag)
                if into is not None:
                    for d, n in summed.items():
                        into[d] = into.get(d, 0) + n
        return [(e, from_parts(parts[e.name])) for e in self.events]

    def groups(self, levels: Sequence[str] = LEVELS) -> tuple[Group, ...]:
        return group(self.branches, answered_levels(self.branches, levels))

    def to_json(self, levels: Sequence[str] = LEVELS) -> dict[str, Any]:
        """The odds JSON (format 2, see docs/odds.md): events, then outcomes, stage results and
        states stored once."""
        from critcore.chance.view import odds_json

        with paused():  # a JSON of the thousands of outcomes is a million containers, none in a cycle
            return odds_json(self, levels)


def exact_odds(
    engine: Engine,
    procedure: str,
    params: Mapping[str, Any] | None = None,
    target: Mapping[str, Any] | None = None,
    tolerance: Fraction = DEFAULT_TOLERANCE,
    progress: Callable[[int, int], None] | None = None,
) -> Odds:
    """Exact probabilities of every distinct outcome of ``procedure``, stage by stage.

    ``progress(done, total)`` is called after each branch of the last stage enumerated (the
    longest part of any long run).

    Probabilities travel as whole-number ``[numerator, denominator]`` pairs (much cheaper than
    fractions) and become :class:`~fractions.Fraction` at the end. The cyclic garbage collector
    is paused meanwhile (:func:`critcore._speed.gcpause.paused`).
    """
    forget()  # nothing of an earlier question: its objects are not this one's
    try:
        with paused():
            return _exact_odds(engine, procedure, params, target, tolerance, progress)
    finally:
        forget()


def _exact_odds(engine: Engine, procedure: str, params: Mapping[str, Any] | None, target: Mapping[str, Any] | None,
                tolerance: Fraction, progress: Callable[[int, int], None] | None) -> Odds:
    """:func:`exact_odds`."""
    proc, checked = engine.question(procedure, params, target)
    # checked against the system's schema, frozen and trusted once: every run is handed the same object
    frozen = engine.check_target(target)
    runs = [0]
    context = engine.context

    # one context for every run: each run gets the roller of its path and an empty record (a
    # context per run was a fifth of a small procedure's time); notes are not kept
    shared = context(proc, checked, EnumeratingRoller(), frozen)
    dice, notes = shared.dice, shared.notes
    runs_limit = _limit("CRITCORE_MAX_ODDS_RUNS", MAX_RUNS)  # read once per question, not per stage

    cut = (tolerance.numerator, tolerance.denominator)

    def runner(call: Callable[..., Any], pre: tuple[Any, ...]) -> Callable[[EnumeratingRoller], Any]:
        def run(roller: EnumeratingRoller) -> Any:
            runs[0] += 1
            dice.roller = roller
            del dice.rolls[:], notes[:]
            return call(shared, *pre)

        return run

    unused: list[EnumeratingRoller | None] = [None]  # a roller no run has rolled with yet

    def stage(call: Callable[..., Any], pre: tuple[Any, ...] = (),
              spec: Any = None) -> tuple[Any, list[int] | None]:
        """``call(ctx, *pre)``'s answers and what was cut off: a dict of answer -> [numerator,
        denominator] when it was enumerated; ``(answer, None)`` when one run that rolled nothing
        answered it (with probability 1: its answer is not hashed, which was a tenth of an apply
        run)."""
        # most stage calls roll nothing (an apply for each distinct row, a locate at an aimed
        # location): one run answers them, without setting up an enumeration. When that run
        # rolled, the stage is enumerated as usual, starting from it, or (an effect stage with
        # a declared look-up that the run matches) run only where the look-up has no answer.
        roller = unused[0]
        if roller is None:
            roller = EnumeratingRoller((), tolerance, {}, cut)
        unused[0] = None
        runs[0] += 1
        dice.roller = roller
        del dice.rolls[:], notes[:]
        try:
            answer, pruned = call(shared, *pre), False
        except Pruned:
            answer, pruned = None, True
        if not pruned and not roller.widths and not roller.lost[0]:
            if not roller.met and not roller.pos:
                unused[0] = roller  # asked for nothing: as new, for the next stage call
            return answer, None
        return enumerated(call, pre, spec, roller, answer, pruned)

    def enumerated(call: Callable[..., Any], pre: tuple[Any, ...], spec: Any, roller: EnumeratingRoller,
                   answer: Any, pruned: bool) -> tuple[dict[Any, list[int]], list[int]]:
        """The rest of ``stage`` when its first run rolled: the stage enumerated from that run."""
        run = runner(call, pre)
        first = (roller, answer, pruned)
        if spec is not None and not pruned:
            found = by_first_roll(run, first, spec, runs, tolerance, cut, runs_limit)
            if found is not None:
                if _CHECK_KEYS[0]:
                    _agrees(spec, found, enumerate_weights_within(run, tolerance, runs_limit=runs_limit))
                return found
        return enumerate_weights_within(run, tolerance, runs_limit=runs_limit, first=first)

    remainder = [0, 1]
    # every key below is new when it is made: a stage's answers are distinct (they were merged
    # while enumerating) and each extends a different prefix, so outcomes are kept in lists,
    # never hashed again as whole tuples
    finals: list[tuple[tuple[Any, ...], int, int]] = []
    if proc.verb == "treat":
        dist, rem = _whole(*stage(engine._treat))
        add_to(remainder, *rem)
        finals.extend(((None, None, (), applied), n, d) for applied, (n, d) in dist.items())
    else:
        # the engine's own stage functions, made once with it (its plugins stay as loaded)
        determine, locate, effect, apply = engine._stages
        callers = {"locate": locate, "effect": effect}
        found = _looked_up(engine, shared, determine, runs)
        effect_lookup = declared_effect_lookup(engine)
        dets, rem = found if found is not None else _whole(*stage(determine))
        add_to(remainder, *rem)
        states: list[tuple[tuple[Any, ...], int, int]] = []
        for det, (n, d) in dets.items():
            if det is not None and det.final:
                finals.append(((det, None, (), None), n, d))
            else:
                states.append(((det,), n, d))

        def effects_of(ctx: Any, *pre: Any) -> Any:
            return _tuple(effect(ctx, *pre))

        for level in ("locate", "effect"):
            call = callers[level]
            nxt: list[tuple[tuple[Any, ...], int, int]] = []
            for prefix, pn, pd in states:
                if level == "effect":
                    spec = None if effect_lookup is None else effect_lookup(shared, *prefix)
                    dist, cut_off = stage(effects_of, prefix, spec)
                    if cut_off is not None and None in dist and () in dist:  # no effects, said two ways
                        add_to(dist[()], *dist.pop(None))
                else:
                    dist, cut_off = stage(call, prefix)
                if cut_off is None:  # one run, probability 1
                    nxt.append((prefix + (() if dist is None and level == "effect" else dist,), pn, pd))
                    continue
                if cut_off[0]:
                    add_to(remainder, pn * cut_off[0], pd * cut_off[1])
                for answer, (qn, qd) in dist.items():
                    if answer is None and level == "effect":
                        answer = ()
                    nxt.append((prefix + (answer,), pn * qn, pd * qd))
            states = nxt
        # the last stage: its answers are the outcomes (most apply calls are answered by one run); a
        # long crit odds question shares it with a second process (critcore._speed.twocores)
        split = None
        if may_fork():
            split = _shared_stage(states, lambda prefix: stage(apply, prefix), runs, progress, frozen)
        last = len(states)
        for done, (prefix, pn, pd) in enumerate(states):
            if split is None:
                if progress is not None:
                    progress(done, last)
                dist, cut_off = stage(apply, prefix)
            else:
                dist, cut_off = split[done]
            if cut_off is None:  # one run, probability 1 (most apply calls: 39 of them an attack)
                finals.append((prefix + (dist,), pn, pd))
                continue
            if cut_off[0]:
                add_to(remainder, pn * cut_off[0], pd * cut_off[1])
            for answer, (qn, qd) in dist.items():
                finals.append((prefix + (answer,), pn * qn, pd * qd))
    # outcomes of equal chance share one Fraction (a GURPS attack: 40 outcomes, 17 chances)
    made: dict[tuple[int, int], Fraction] = {}
    kept: list[Branch] = []
    by_den: dict[int, int] = {}  # the outcomes' numerators summed by denominator (a handful: added once each)
    for (det, loc, effects, applied), n, d in finals:
        p = made.get((n, d))
        if p is None:
            p = made[(n, d)] = Fraction(n, d)
        kept.append(Branch(det, loc, effects, applied, p))
        by_den[d] = by_den.get(d, 0) + n
    branches = tuple(kept)
    # whatever was cut off, at the top or inside a Dice.branch, is what is missing from 1
    total = [0, 1]
    for d, n in by_den.items():
        add_to(total, n, d)
    missing = Fraction(total[1] - total[0], total[1])  # 1 - total, normalised as Fraction does
    return Odds(engine.info.name, proc.name, checked, branches, missing, runs[0], declared_events(engine, proc.name),
                tuple(engine.rules), frozen)


def _shared_stage(states: list[tuple[tuple[Any, ...], int, int]], apply: Callable[[tuple[Any, ...]], Any],
                  runs: list[int], progress: Callable[[int, int], None] | None, held: Any) -> list[Any]:
    """The last stage's answer for each of ``states`` (``apply(prefix)``), shared with a second
    process when it is long (:func:`critcore._speed.twocores.each`), ``runs`` counting the runs
    of both."""
    def one(item: tuple[tuple[Any, ...], int, int]) -> tuple[Any, int]:
        before = runs[0]
        return apply(item[0]), runs[0] - before

    ran = runs[0]
    found = each(states, one, progress, held=held)
    runs[0] = ran + sum(n for _, n in found)
    return [answer for answer, _ in found]


def _whole(dist: Any, rem: list[int] | None) -> tuple[dict[Any, list[int]], list[int]]:
    """A stage's answers as a dict, however they were found (see ``stage`` above)."""
    return ({dist: [1, 1]}, [0, 1]) if rem is None else (dist, rem)


def _tuple(found: Any) -> Any:
    return None if found is None else tuple(found)


def _sole_owner(engine: Engine, stage: str) -> Any:
    """The plugin holding the only implementation of the ``stage`` hook, or None when there are
    several or it is a wrapper (a house rule replaces or wraps the stage: what its plugin declares
    about it may then not hold)."""
    impls = getattr(engine.pm.hook, stage).get_hookimpls()
    if len(impls) != 1 or impls[0].hookwrapper or impls[0].wrapper:
        return None
    return impls[0].plugin


def declared_lookup(engine: Engine, ctx: Any) -> RollLookup | None:
    """The ``RollLookup`` the plugin holding the only determine stage gives for ``ctx`` (its
    ``critcore_determine_lookup``), or None: none given, or a house rule replaces or wraps
    determine. Shared by exact odds and the simulation."""
    owner = _sole_owner(engine, "critcore_determine")
    if owner is None:
        return None
    return cast("RollLookup | None", next((impl.function(ctx) for impl in
                                            engine.pm.hook.critcore_determine_lookup.get_hookimpls()
                                            if impl.plugin is owner), None))


def declared_effect_lookup(engine: Engine) -> Callable[..., Any] | None:
    """The function answering ``critcore_effect_lookup(ctx, determination, location)`` of the
    plugin holding the only effect stage, or None: none declared, or a house rule replaces or
    wraps the effect stage."""
    owner = _sole_owner(engine, "critcore_effect")
    if owner is None:
        return None
    return next((impl.function for impl in engine.pm.hook.critcore_effect_lookup.get_hookimpls()
                 if impl.plugin is owner), None)


def _looked_up(engine: Engine, ctx: Any, determine: Callable[[Any], Any],
               runs: list[int]) -> tuple[dict[Any, list[int]], list[int]] | None:
    """The determine stage's answers from its declared look-up (``critcore_determine_lookup``),
    without a run per total: determine is run once (its first total: whatever it refuses is
    refused as before), and when that run rolled exactly the declared roll and gave the declared
    answer, every other total's answer is read from the look-up. Otherwise (no look-up, or a
    run that does not match it) None: the stage is enumerated as usual."""
    spec = declared_lookup(engine, ctx)
    if spec is None:
        return None
    found = lookup_weights(spec)  # None: a total it can show has no answer
    if found is None:
        return None
    weighted, den = found
    answers = spec[2]
    first = EnumeratingRoller((), DEFAULT_TOLERANCE, None, (0, 1))
    ctx.dice.roller = first
    del ctx.dice.rolls[:], ctx.notes[:]
    runs[0] += 1
    answer = determine(ctx)
    if first.widths != [len(weighted)] or answer != answers[weighted[0][0]]:
        runs[0] -= 1
        return None  # not the look-up it declared: enumerated
    dist: dict[Any, list[int]] = {}
    by_id: dict[int, list[int]] = {}  # the same answer object for many totals: hashed once (a Python hash)
    for total, w in weighted:
        found = answers[total]
        acc = by_id.get(id(found))
        if acc is None:
            acc = dist.get(found)
            if acc is None:
                acc = dist[found] = [w, den]
            else:
                add_to(acc, w, den)
            by_id[id(found)] = acc
        else:
            add_to(acc, w, den)
    return dist, [0, 1]

