"""Exact enumeration: the roller that branches on every distinct result of every roll.

:func:`enumerate_runs` runs a function once per distinct sequence of roll results (totals and
success counts, never single faces), each run replaying the choices of an earlier one up to a
point and taking a new branch there, and merges equal answers. Probabilities travel as
whole-number weights over a common denominator, which is much cheaper than fractions.
``Dice.until``, ``Dice.branch`` and ``Dice.iterate`` (in :mod:`critcore.dice.dice`) call
:class:`EnumeratingRoller`'s part of the :class:`~critcore.dice.rollers.Roller` protocol to enumerate a
sub-computation on its own.

Sub-enumerations are remembered (``_KEPT.until``) under the label, the ``key`` a plugin gives
and the code of the function, so two different functions never share an answer; they are
remembered for one question only, in the thread asking it (:func:`forget`, which exact odds call
as a question begins and ends: an answer holds the objects of the question that made it). Whether a
``key`` names everything the function depends on cannot be seen from outside; with
:func:`checking_keys` on (``critcore.testing`` turns it on for a plugin's odds tests) every
remembered answer is worked out again and compared, and a key that is too coarse is a
:class:`~critcore.errors.PluginError` naming the label, not silently wrong odds.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Iterator, Sequence, TypeVar

from critcore.dice.dice import Dice, _code_of
from critcore.dice.notation import DiceExpr, SuccessTest
from critcore.errors import DiceError, PluginError

if TYPE_CHECKING:
    from fractions import Fraction


# --- exact enumeration --------------------------------------------------------------------


class Pruned(Exception):
    """Raised inside an enumerated run whose probability fell below the cut-off."""


def _weights(options: Sequence[tuple[Any, Fraction]]) -> tuple[tuple[tuple[Any, int], ...], int]:
    """The same distribution as whole-number weights over one denominator (fast to multiply)."""
    from math import lcm

    den = lcm(*(p.denominator for _, p in options)) if options else 1
    return tuple((v, p.numerator * (den // p.denominator)) for v, p in options), den


# Dice.iterate's ``odds``: a step's answers with their chances from a state, or None (enumerate it)
StepOdds = Callable[[Any], "Iterable[tuple[Any, Fraction]] | None"]

MAX_ROLL_RESULTS = 2_000
"""Most distinct results one roll may have in an exact enumeration (``CRITCORE_MAX_ROLL_RESULTS``)."""

MAX_RUNS = 2_000_000
"""Most runs (distinct sequences of roll results) one exact enumeration may make
(``CRITCORE_MAX_ODDS_RUNS``)."""

_SIMULATE = "; use crit simulate for an estimate"


def _limit(var: str, default: int) -> int:
    import os

    text = os.environ.get(var, "")
    return int(text) if text.isascii() and text.isdigit() and 0 < len(text) < 13 else default


def _bounded(request: Any) -> Any:
    """``request`` (a DiceExpr or SuccessTest) if enumerating its results is within the limits:
    the number of distinct results (working out their probabilities takes about the square of
    that many steps, so the limit bounds both)."""
    from critcore.errors import TooMuchWork

    limit = _limit("CRITCORE_MAX_ROLL_RESULTS", MAX_ROLL_RESULTS)
    if isinstance(request, DiceExpr):
        results = request.count * (request.sides - 1) + 1
        if results > limit:
            raise TooMuchWork(f"exact odds of {request.notation}: {results:,} possible results is over the "
                              f"limit of {limit:,} (CRITCORE_MAX_ROLL_RESULTS){_SIMULATE}")
    elif isinstance(request, SuccessTest) and request.dice > limit:
        raise TooMuchWork(f"exact odds of {request.notation}: {request.dice:,} dice is over the limit of "
                          f"{limit:,} (CRITCORE_MAX_ROLL_RESULTS){_SIMULATE}")
    return request


_weights_of = lru_cache(maxsize=4096)(lambda request: _weights(_bounded(request).distribution()))
"""Weights of a DiceExpr or SuccessTest, cached by the (cheaply hashed) request (within the limits)."""


class _Kept(threading.local):
    """What the question this thread is asking remembers (emptied by :func:`forget` as a
    question begins and ends): its sub-enumerations by label, key and code (``until``), and the
    weights of the odds its plugin gave ``Dice.choose`` (``choices``). Per thread, so two
    questions asked at once (a hosted server's campaigns, a program's threads) neither share
    answers nor empty each other's."""

    def __init__(self) -> None:
        self.until: dict[Any, Any] = {}
        self.choices: dict[Any, Any] = {}


_KEPT = _Kept()
_CHECK_KEYS = [False]  # while True, every remembered sub-enumeration is worked out again and compared


@contextmanager
def checking_keys() -> Iterator[None]:
    """Within this block, a sub-enumeration found under its ``key`` is enumerated again and
    must give the same answer (slow: for tests). A plugin whose key leaves out something its
    function depends on gets a :class:`~critcore.errors.PluginError` naming the label. The block
    starts and ends with no sub-enumeration remembered, so what an earlier run remembered is
    never taken for what this one checks."""
    before = _CHECK_KEYS[0]
    _CHECK_KEYS[0] = True
    _KEPT.until.clear()
    try:
        yield
    finally:
        _CHECK_KEYS[0] = before
        _KEPT.until.clear()


def _same(label: str, key: Any, remembered: Any, fresh: Any) -> Any:
    if remembered != fresh:
        raise PluginError(f"{label}: the key {key!r} given to Dice.until/branch/iterate/fold does not name "
                          "everything the function depends on (two calls with the same key gave different "
                          "answers): add what differs to the key")
    return remembered


class EnumeratingRoller:
    """Follows a path of choices, then takes the first result of each new roll.

    Each roll branches on the distinct results of the roll (not on faces). The probability of
    the path so far is ``num / den`` (whole numbers: cheaper than fractions); ``widths``
    records how many results each new roll had so that :func:`enumerate_runs` can visit every
    sibling.
    """

    __slots__ = ("path", "pos", "num", "den", "widths", "cut_num", "cut_den", "cutoff", "lost", "met", "below")

    def __init__(self, path: Sequence[int] = (), cutoff: Fraction | None = None,
                 met: dict[Any, Any] | None = None, cut: tuple[int, int] | None = None) -> None:
        self.path = path
        # sub-enumerations worked out by earlier runs of the same enumeration, by the choices
        # that led to them (see _met)
        self.met = met
        self.pos = 0
        self.num = 1
        self.den = 1
        self.widths: list[int] = []
        if cutoff is None:
            from fractions import Fraction

            cutoff = Fraction(0)
        self.cutoff = cutoff
        # the cut-off as whole numbers (``cut``: worked out once per enumeration by its caller,
        # reading a Fraction's numerator and denominator for every run was a tenth of a small run)
        self.cut_num, self.cut_den = cut if cut is not None else (cutoff.numerator, cutoff.denominator)
        self.lost = [0, 1]  # probability cut off inside sub-enumerations first met on this run
        self.below = False  # the run's probability fell below the cut-off: it may not roll again

    @property
    def prob(self) -> Fraction:
        from fractions import Fraction

        return Fraction(self.num, self.den)

    def _choose(self, weights: tuple[tuple[tuple[Any, int], ...], int]) -> Any:
        """The answer of the next roll on this run's path (a new roll: its first answer, its
        siblings left to later runs).

        A run is cut off only when it would roll *again* after its probability fell below the
        cut-off: the roll that took it below is answered like any other, so a run that ends
        there is counted exactly. A procedure that rolls a bounded number of times is exact
        whatever the chance of its rarest run (a pool of 30 dice all showing 1 is 1/6^30); only a
        run that goes on rolling with less than the cut-off left is stopped, and its whole
        probability (that of every way it could have gone on) is the remainder. The runs made
        are those of cutting at the roll that went below: its siblings were enumerated then too.
        """
        if self.below:
            raise Pruned()  # num/den is the chance of everything this run could still do
        weighted, den = weights
        if self.pos < len(self.path):
            value, w = weighted[self.path[self.pos]]
        else:
            self.widths.append(len(weighted))
            value, w = weighted[0]
        self.pos += 1
        self.num *= w
        self.den *= den
        if self.cut_num and self.num * self.cut_den < self.cut_num * self.den:
            self.below = True
        return value

    def _choose_sub(self, weights: tuple[tuple[tuple[Any, int], ...], int]) -> Any:
        """:meth:`_choose` among the answers of a sub-enumeration, whose probabilities may add
        up to less than 1 (what it cut off): the first run to meet this choice counts what is
        missing, so the remainder reports it and the cut-off is lowered if it is too much."""
        if self.pos >= len(self.path):
            weighted, den = weights
            missing = den - sum(w for _, w in weighted)
            if missing > 0:
                add_to(self.lost, self.num * missing, self.den * den)
        return self._choose(weights)

    def roll_sum(self, expr: DiceExpr, label: str) -> tuple[tuple[int, ...], int]:
        return (), self._choose(_weights_of(expr))

    def roll_test(self, test: SuccessTest, label: str) -> tuple[tuple[int, ...], int, bool]:
        successes, ones = self._choose(_weights_of(test))
        return (), successes, ones

    @property
    def unused(self) -> list[int]:
        return []

    def _met(self, compute: Callable[[], Any]) -> Any:
        """``compute()``, the answers of a sub-enumeration (or choice) met at this point of the
        run, or what an earlier run of the same enumeration worked out at the same point: a
        run is fixed by the choices before it (every run must be), so a sub-enumeration met
        after the same choices is the same one, and each sibling branch after it need not work
        it out again (without this, a choice's check enumerates its roll once per answer)."""
        met = self.met
        if met is None:
            return compute()
        path, pos = self.path, self.pos
        at = tuple(path[:pos]) if pos <= len(path) else tuple(path) + (0,) * (pos - len(path))
        found = met.get(at)
        if found is None:
            found = met[at] = compute()
        return found

    def roll_until(self, dice: Dice, attempt: Callable[[Dice], Any], label: str, limit: int,
                   key: Hashable | None) -> Any:
        """Enumerate one attempt on its own, keep the acceptable answers, and branch on them
        with probabilities conditioned on acceptance: exact, however many re-rolls it takes.

        With a ``key`` the conditioned answers are remembered under (label, key) for later runs.
        """
        return self._choose_sub(self._met(lambda: self._sub(attempt, label, key, True)))

    def roll_branch(self, dice: Dice, fn: Callable[[Dice], Any], label: str, key: Hashable | None) -> Any:
        """Enumerate ``fn`` on its own and branch on its distinct answers (equal ones merged)."""
        return self._choose_sub(self._met(lambda: self._sub(fn, label, key, False)))

    def roll_iterate(self, dice: Dice, state: Any, step: Callable[[Dice, Any], Any], done: Callable[[Any], bool],
                     label: str, key: Hashable | None, merge: Callable[[Any], Any] | None,
                     odds: StepOdds | None = None) -> Any:
        """Apply ``step`` to every unfinished state of the distribution, merging equal states,
        until every state is ``done``; branch on the finished states. Unfinished states whose
        probability falls below a millionth of the cut-off are dropped (and show in the
        remainder), so a process that may never finish still ends. With ``merge``, the start
        and every answer of ``step`` are put through it first: states equal once merged merge.

        With a ``key`` each step's answers from each state are remembered, and so is the answer
        of the whole process from ``state``. With ``odds`` a step whose closed form it gives is
        not enumerated (:meth:`_step_once`).
        """
        weights = self._met(lambda: self._iterate_whole(state, step, done, label, key, merge, odds))
        if not weights[0]:
            raise Pruned()  # every way on fell below the cut-off
        return self._choose_sub(weights)

    def _iterate_whole(self, state: Any, step: Callable[[Dice, Any], Any], done: Callable[[Any], bool],
                       label: str, key: Hashable | None, merge: Callable[[Any], Any] | None,
                       odds: StepOdds | None = None) -> tuple[tuple[tuple[Any, int], ...], int]:
        cache = _KEPT.until
        raw = state
        if merge is not None:
            state = merge(state)
            if _CHECK_KEYS[0]:
                _merge_holds(label, merge, done, raw, state)
        whole_key = (label, key, "iterate", _code_of(step), _code_of(done), merge and _code_of(merge), self.cut_num,
                     self.cut_den, state) if key is not None else None
        weights = cache.get(whole_key) if whole_key is not None else None
        if weights is None:
            weights = self._iterate(state, step, done, label, key, merge, raw, odds)
            if whole_key is not None:
                _remember(whole_key, weights)
        elif _CHECK_KEYS[0]:
            _same(label, key, _as_fractions(weights),
                  _as_fractions(self._iterate(state, step, done, label, key, merge, raw, odds)))
        return weights

    def roll_choice(self, dice: Dice, roll: Callable[[Dice], Any], odds: Callable[[], Sequence[tuple[Any, Fraction]]],
                    label: str, merge: Callable[[Any], Any] | None) -> Any:
        """Branch on ``odds()`` (whole-number weights, remembered per distribution); under
        :func:`checking_keys` compare it with the enumeration of ``roll`` first (its answers
        put through ``merge``, when given)."""
        return self._choose(self._met(lambda: self._choice(roll, odds, label, merge)))

    def _choice(self, roll: Callable[[Dice], Any], odds: Callable[[], Sequence[tuple[Any, Fraction]]],
                label: str, merge: Callable[[Any], Any] | None) -> tuple[tuple[tuple[Any, int], ...], int]:
        given = tuple(odds())
        weights = _choice_weights(given, label)
        if _CHECK_KEYS[0]:
            from fractions import Fraction

            found, cut = enumerate_runs(lambda roller: roll(Dice(roller)), self.cutoff)
            if merge is not None:
                merged: dict[Any, Fraction] = {}
                for answer, p in found.items():
                    merged[merge(answer)] = merged.get(merge(answer), Fraction(0)) + p
                found = merged
            promised = _as_fractions(weights)
            if not cut and found != promised:
                raise PluginError(f"{label}: the odds given to Dice.choose are not those of its roll "
                                  f"(rolled: {_shown(found)}; given: {_shown(promised)})")
            if cut and any(abs(found.get(v, Fraction(0)) - p) > cut for v, p in promised.items()):
                raise PluginError(f"{label}: the odds given to Dice.choose are not those of its roll")
        return weights

    def _iterate(self, state: Any, step: Callable[[Dice, Any], Any], done: Callable[[Any], bool], label: str,
                 key: Hashable | None, merge: Callable[[Any], Any] | None = None,
                 raw: Any = None, odds: StepOdds | None = None) -> tuple[tuple[tuple[Any, int], ...], int]:
        """The finished states from ``state`` (already merged; ``raw`` is what it was merged
        from, for the check of ``merge``)."""
        from fractions import Fraction

        cache = _KEPT.until
        finished: dict[Any, list[int]] = {}
        frontier: dict[Any, list[int]] = {state: [1, 1]}
        # only states far below the cut-off are dropped: a finite process (the usual case)
        # stays exact, and one that may go on for ever still ends
        cut_num, cut_den = self.cut_num, self.cut_den * 10**6
        cut = (self.cut_num, self.cut_den)  # the cut-off in the keys (hashing a Fraction is slow)
        code = (_code_of(step), _code_of(merge)) if merge is not None else _code_of(step)
        checking = merge is not None and _CHECK_KEYS[0]
        # under checking_keys: the states met before merging, by their merge (each is stepped
        # too, and must lead where its merge leads)
        unmerged: dict[Any, set[Any]] = {state: {raw}} if checking and raw != state else {}
        while frontier:
            nxt: dict[Any, list[int]] = {}
            for before, (pn, pd) in frontier.items():
                if done(before):
                    acc = finished.get(before)
                    if acc is None:
                        finished[before] = [pn, pd]
                    else:
                        add_to(acc, pn, pd)
                    continue
                if cut_num and pn * cut_den < cut_num * pd:
                    continue
                step_key = (label, key, "iterate step", code, cut, before) if key is not None else None
                after = cache.get(step_key) if step_key is not None else None
                if after is None or _CHECK_KEYS[0]:
                    fresh = self._step_once(before, step, done, merge, label, unmerged if checking else None, odds)
                    if after is not None:
                        _same(label, key, {new: Fraction(n, d) for new, n, d in after},
                              {new: Fraction(n, d) for new, n, d in fresh})
                    elif step_key is not None:
                        _remember(step_key, fresh)
                    after = fresh
                    for other in unmerged.pop(before, ()):
                        if _as_dict(self._step_once(other, step, done, merge, label, None)) != _as_dict(fresh):
                            raise PluginError(f"{label}: the merge given to Dice.iterate leaves out something the "
                                              "steps read (a state and its merge lead to different states): "
                                              "keep it in the merged state")
                for new, qn, qd in after:
                    acc = nxt.get(new)
                    if acc is None:
                        nxt[new] = [pn * qn, pd * qd]
                    else:
                        add_to(acc, pn * qn, pd * qd)
            frontier = nxt
        return _weights([(s, Fraction(n, d)) for s, (n, d) in finished.items()])

    def _step_once(self, state: Any, step: Callable[[Dice, Any], Any], done: Callable[[Any], bool],
                   merge: Callable[[Any], Any] | None, label: str, unmerged: dict[Any, set[Any]] | None,
                   odds: StepOdds | None = None) -> tuple[tuple[Any, int, int], ...]:
        """Every answer of one ``step`` from ``state`` with its weight (merged, with ``merge``);
        ``unmerged`` (under checks) collects the answers as they were before merging. The
        step's closed form (``odds(state)``, when it gives one) is taken instead of running
        ``step`` once per answer, and under checks compared with that enumeration."""
        closed = odds(state) if odds is not None else None
        if closed is not None:
            found = _closed_step(closed, merge, label)
            if not _CHECK_KEYS[0]:
                return found
            enumerated = self._step_once(state, step, done, merge, label, unmerged)
            promised, rolled = _as_dict(found), _as_dict(enumerated)
            if promised != rolled:
                raise PluginError(f"{label}: the odds given to Dice.iterate are not those of its step "
                                  f"(stepped: {_shown(rolled)}; given: {_shown(promised)})")
            return enumerated

        def one_step(roller: EnumeratingRoller) -> Any:
            after = step(Dice(roller), state)
            if merge is None:
                return after
            merged = merge(after)
            if unmerged is not None:
                _merge_holds(label, merge, done, after, merged)
                if after != merged:
                    unmerged.setdefault(merged, set()).add(after)
            return merged

        sums, _ = enumerate_weights(one_step, self.cutoff)
        return tuple((new, n, d) for new, (n, d) in sums.items())

    def _sub(self, fn: Callable[[Dice], Any], label: str, key: Hashable | None, reject_none: bool) -> Any:
        cache_key = (label, key, reject_none, _code_of(fn), self.cut_num, self.cut_den) if key is not None else None
        weights = _KEPT.until.get(cache_key) if cache_key is not None else None
        if weights is None:
            weights = self._enumerate_sub(fn, label, reject_none)
            if cache_key is not None:
                _remember(cache_key, weights)
        elif _CHECK_KEYS[0]:
            _same(label, key, _as_fractions(weights), _as_fractions(self._enumerate_sub(fn, label, reject_none)))
        return weights

    def _enumerate_sub(self, fn: Callable[[Dice], Any], label: str,
                       reject_none: bool) -> tuple[tuple[tuple[Any, int], ...], int]:
        from fractions import Fraction

        dist, cut = enumerate_runs(lambda roller: fn(Dice(roller)), self.cutoff)
        if reject_none:
            found = [(value, p) for value, p in dist.items() if value is not None]
            accepted = sum((p for _, p in found), Fraction(0))
            if not accepted:
                raise DiceError(f"{label}: no roll can ever give an acceptable result")
            # attempts cut off might have been accepted: their share stays missing
            found = [(value, p / (accepted + cut)) for value, p in found]
        else:
            # what the sub-enumeration cut off stays missing, and shows in the remainder
            found = list(dist.items())
        return _weights(found)


def _closed_step(odds: Iterable[tuple[Any, Fraction]], merge: Callable[[Any], Any] | None,
                 label: str) -> tuple[tuple[Any, int, int], ...]:
    """What :meth:`EnumeratingRoller._step_once` finds of a step whose closed form is ``odds``:
    each answer (through ``merge``) with its weight, as the enumeration of a step that is one
    :meth:`Dice.choose` on ``odds`` finds them: the same weights, met in the same order (the
    first answer, then the last to the second), equal answers added up."""
    weighted, den = _checked_weights(tuple(odds), label, "Dice.iterate")  # any iterable, read once
    sums: dict[Any, list[int]] = {}
    for answer, w in (weighted[:1] + weighted[:0:-1] if len(weighted) > 2 else weighted):
        if merge is not None:
            answer = merge(answer)
        acc = sums.get(answer)
        if acc is None:
            sums[answer] = [w, den]
        else:
            add_to(acc, w, den)
    return tuple((answer, n, d) for answer, (n, d) in sums.items())


def _checked_weights(odds: Sequence[tuple[Any, Fraction]], label: str,
                     given_to: str) -> tuple[tuple[tuple[Any, int], ...], int]:
    """:func:`_weights` of the odds a plugin gave ``given_to``, which must be probabilities adding up to 1."""
    weights = _weights(odds)
    if sum(w for _, w in weights[0]) != weights[1] or any(w < 0 for _, w in weights[0]):
        raise PluginError(f"{label}: the odds given to {given_to} must be probabilities adding up to 1")
    return weights


def _choice_weights(odds: tuple[tuple[Any, Fraction], ...], label: str) -> tuple[tuple[tuple[Any, int], ...], int]:
    """:func:`_weights` of the odds a plugin gave :meth:`Dice.choose`, which must add up to 1,
    remembered for the question (``_KEPT.choices``; emptied when it holds 4,096)."""
    kept = _KEPT.choices
    key = (odds, label)
    weights = kept.get(key)
    if weights is None:
        weights = _checked_weights(odds, label, "Dice.choose")
        if len(kept) >= 4096:
            kept.clear()
        kept[key] = weights
    return weights


def _merge_holds(label: str, merge: Callable[[Any], Any], done: Callable[[Any], bool], raw: Any,
                 merged: Any) -> None:
    """The promise of ``Dice.iterate``'s ``merge``, for one state: merging again changes nothing,
    and the state and its merge are finished alike."""
    if merge(merged) != merged:
        raise PluginError(f"{label}: the merge given to Dice.iterate must give a merged state back unchanged")
    if done(raw) != done(merged):
        raise PluginError(f"{label}: a state and its merge (Dice.iterate) must be finished alike")


def _as_dict(found: tuple[tuple[Any, int, int], ...]) -> dict[Any, Fraction]:
    from fractions import Fraction

    return {new: Fraction(n, d) for new, n, d in found}


def _shown(dist: dict[Any, Fraction]) -> str:
    return ", ".join(f"{v!r}: {p}" for v, p in list(dist.items())[:6]) + (", ..." if len(dist) > 6 else "")


def _as_fractions(weights: tuple[tuple[tuple[Any, int], ...], int]) -> dict[Any, Fraction]:
    from fractions import Fraction

    weighted, den = weights
    return {value: Fraction(w, den) for value, w in weighted}


def forget() -> None:
    """Forget what this thread's earlier questions remembered (:class:`_Kept`): the
    sub-enumerations and the weights of the odds given to ``Dice.choose``. Exact odds call it as
    a question begins and ends. Both are found by value, so an earlier question's answer would be handed to a new one
    with the earlier question's objects in it: equal to the new question's, not the same. A
    plugin that shares its states as objects (BattleTech) then misses every look-up it keeps by
    identity: the second question on the Daishi X's right torso in one process took 20.9 G
    instructions where the first took 15.5 G. Forgetting at the end also frees them (a server
    keeps running after the question)."""
    _KEPT.until.clear()
    _KEPT.choices.clear()


def _remember(key: Any, value: Any) -> None:
    """Keep a sub-enumeration's answer for later runs (the cache is emptied when it grows
    past 50,000 entries, so a long session does not keep every one)."""
    cache = _KEPT.until
    if len(cache) > 50_000:
        cache.clear()
    cache[key] = value


T = TypeVar("T")


def enumerate_runs(
    run: Callable[[EnumeratingRoller], T], cutoff: Fraction | None = None
) -> tuple[dict[T, Fraction], Fraction]:
    """Run ``run`` once per distinct sequence of roll results; merge equal answers.

    Returns ({answer: probability}, remainder) where remainder is the total probability of
    runs cut off because their probability fell below ``cutoff`` (0 when nothing was cut).
    ``run`` must be deterministic given the roller's answers.
    """
    from fractions import Fraction

    sums, cut = enumerate_weights(run, cutoff)
    return {a: Fraction(n, d) for a, (n, d) in sums.items()}, Fraction(cut[0], cut[1])


def enumerate_weights(
    run: Callable[[EnumeratingRoller], T], cutoff: Fraction | None = None, runs_limit: int | None = None,
    first: tuple[EnumeratingRoller, Any, bool] | None = None, root: Sequence[int] = ()
) -> tuple[dict[T, list[int]], list[int]]:
    """:func:`enumerate_runs` with probabilities as ``[numerator, denominator]`` pairs.

    ``runs_limit``: ``CRITCORE_MAX_ODDS_RUNS`` as read by a caller that makes many enumerations
    (read here when not given; reading the environment was a twentieth of a small question).
    ``first``: the first run (empty path), already made by the caller with this ``cutoff``, as
    (its roller, its answer, whether it was cut off): it is taken as made, not run again.
    ``root``: only the runs whose choices start with these (their answers are those they have in
    the whole enumeration, met in the same order); not given with ``first``."""
    sums: dict[Any, list[int]] = {}  # answer -> [numerator, denominator]
    stack: list[list[int]] = [list(root)]
    # sub-enumerations by the choices that led to them (EnumeratingRoller._met)
    met: dict[Any, Any] = first[0].met if first is not None and first[0].met is not None else {}
    limit = runs_limit if runs_limit is not None else _limit("CRITCORE_MAX_ODDS_RUNS", MAX_RUNS)
    budget = limit
    if cutoff is None:
        from fractions import Fraction

        cutoff = Fraction(0)
    cut = (cutoff.numerator, cutoff.denominator)
    lost = [0, 1]  # what runs cut off (``cut`` above is the cut-off itself)
    while stack:
        path = stack.pop()
        budget -= 1
        if budget < 0:
            from critcore.errors import TooMuchWork

            raise TooMuchWork(f"exact odds would take more than {limit:,} "
                              f"runs of the procedure (CRITCORE_MAX_ODDS_RUNS){_SIMULATE}")
        if first is not None:
            roller, answer, pruned = first
            first = None
        else:
            roller = EnumeratingRoller(path, cutoff, met, cut)
            try:
                answer = run(roller)
                pruned = False
            except Pruned:
                pruned = True
        if pruned:
            add_to(lost, roller.num, roller.den)
        else:
            acc = sums.get(answer)
            if acc is None:
                sums[answer] = [roller.num, roller.den]
            else:
                add_to(acc, roller.num, roller.den)
        if roller.lost[0]:
            add_to(lost, roller.lost[0], roller.lost[1])
        for j, width in enumerate(roller.widths):
            for alt in range(1, width):
                stack.append(path + [0] * j + [alt])
    return sums, lost


def add_to(acc: list[int], num: int, den: int) -> None:
    """acc += num/den, keeping whole numbers (denominators here are mostly powers of one base)."""
    a, b = acc
    if den == b:
        acc[0] = a + num
    elif den % b == 0:
        acc[0] = a * (den // b) + num
        acc[1] = den
    elif b % den == 0:
        acc[0] = a + num * (b // den)
    else:
        acc[0] = a * den + num * b
        acc[1] = b * den


def enumerate_within(
    run: Callable[[EnumeratingRoller], T], tolerance: Fraction | None = None, max_rounds: int = 6
) -> tuple[dict[T, Fraction], Fraction]:
    """Like :func:`enumerate_runs`, lowering the per-branch cut-off until what is left
    unaccounted is below ``tolerance`` (or ``max_rounds`` is reached: the remainder says so).

    Runs that never roll open-endedly finish exactly in the first round (remainder 0).
    """
    from fractions import Fraction

    results, cut = enumerate_weights_within(run, tolerance, max_rounds)
    return {a: Fraction(n, d) for a, (n, d) in results.items()}, Fraction(cut[0], cut[1])


def enumerate_weights_within(
    run: Callable[[EnumeratingRoller], T], tolerance: Fraction | None = None, max_rounds: int = 6,
    runs_limit: int | None = None, first: tuple[EnumeratingRoller, Any, bool] | None = None
) -> tuple[dict[T, list[int]], list[int]]:
    """:func:`enumerate_within` with probabilities as ``[numerator, denominator]`` pairs
    (``runs_limit`` and ``first``, made with the cut-off ``tolerance``, as for
    :func:`enumerate_weights`; ``first`` is taken in the first round only)."""
    from fractions import Fraction

    tolerance = tolerance if tolerance is not None else Fraction(1, 10**6)
    cutoff = tolerance
    for _ in range(max_rounds):
        results, cut = enumerate_weights(run, cutoff, runs_limit, first)
        first = None
        if not cut[0] or cut[0] * tolerance.denominator < tolerance.numerator * cut[1]:
            break
        cutoff /= 1000
    return results, cut
