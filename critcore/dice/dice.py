"""What a stage rolls with: :class:`Dice`, which records every roll of one resolution, and the
:class:`Roller` protocol it rolls through.

Plugins never touch :mod:`random`. They ask the :class:`Dice` they are handed for a roll with a
label (``ctx.dice.roll("3d6", "attack roll")``) or a success test
(``ctx.dice.test(4, 8, "Body check")``) and read ``.total`` / ``.successes``. Where the dice come
from is the roller's business (:mod:`critcore.dice.rollers`); the notation and the success tests
are :mod:`critcore.dice.notation`'s.

Plugins must act only on ``total`` and ``successes``: the enumerating roller does not invent
faces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Protocol, Sequence, TypeVar

from critcore.dice.notation import DiceExpr, make_test, parse
from critcore.model import Roll

if TYPE_CHECKING:
    from fractions import Fraction

    from critcore.dice.notation import SuccessTest

T = TypeVar("T")


class Roller(Protocol):
    """Where dice results come from. Every roller implements all of these methods: a plugin
    never asks which roller it has (:class:`Dice` calls them; plugins call :class:`Dice`).

    ``roll_sum`` and ``roll_test`` return faces as rolled (may be empty). ``roll_until``,
    ``roll_branch``, ``roll_iterate`` and ``roll_choice`` carry out :meth:`Dice.until`,
    :meth:`Dice.branch`, :meth:`Dice.iterate` and :meth:`Dice.choose`: a roller of real dice
    (:class:`~critcore.dice.rollers.FaceRoller`) runs them as plain loops
    on the ``dice`` it is handed, the enumerating roller enumerates them. ``unused`` is what a
    roller was given and never rolled (scripted faces; empty for every other roller).
    """

    def roll_sum(self, expr: DiceExpr, label: str) -> tuple[tuple[int, ...], int]:
        """Roll ``expr``; return (faces, result)."""
        ...

    def roll_test(self, test: SuccessTest, label: str) -> tuple[tuple[int, ...], int, bool]:
        """Roll a success test; return (faces, successes, all_ones)."""
        ...

    def roll_until(self, dice: Dice, attempt: Callable[[Dice], T | None], label: str, limit: int,
                   key: Hashable | None) -> T:
        """Repeat ``attempt`` until it answers something other than None (see :meth:`Dice.until`)."""
        ...

    def roll_branch(self, dice: Dice, fn: Callable[[Dice], T], label: str, key: Hashable | None) -> T:
        """``fn``'s answer (see :meth:`Dice.branch`)."""
        ...

    def roll_iterate(self, dice: Dice, state: T, step: Callable[[Dice, T], T], done: Callable[[T], bool],
                     label: str, key: Hashable | None, merge: Callable[[T], T] | None,
                     odds: Callable[[T], Iterable[tuple[T, Fraction]] | None] | None = None) -> T:
        """``step`` applied until ``done`` (see :meth:`Dice.iterate`); ``merge`` and ``odds``
        are for exact odds only (a roller of real dice never calls them)."""
        ...

    def roll_choice(self, dice: Dice, roll: Callable[[Dice], T], odds: Callable[[], Sequence[tuple[T, Fraction]]],
                    label: str, merge: Callable[[T], T] | None) -> T:
        """``roll``'s answer, or a branch on ``odds()`` (see :meth:`Dice.choose`)."""
        ...

    @property
    def unused(self) -> list[int]:
        """Faces given to this roller and never rolled (scripted faces); empty otherwise."""
        ...



class Dice:
    """What a plugin rolls with. Records every roll (label, notation, faces, total)."""

    __slots__ = ("roller", "rolls")

    def __init__(self, roller: Roller) -> None:
        self.roller = roller
        self.rolls: list[Roll] = []

    def roll(self, notation: str | DiceExpr, label: str) -> Roll:
        """Roll a dice expression such as ``"3d6"`` or ``"1d6x10"``."""
        expr = parse(notation) if isinstance(notation, str) else notation
        faces, total = self.roller.roll_sum(expr, label)
        roll = Roll(label, expr.notation, faces, total)
        self.rolls.append(roll)
        return roll

    def until(self, attempt: Callable[[Dice], T | None], label: str, limit: int = 1000,
              key: Hashable | None = None) -> T:
        """Repeat ``attempt`` (which rolls with the Dice it is given) until it returns something
        other than None: the "roll again" of many rules. Every attempt's rolls are recorded.

        Under the enumerating roller the attempt is enumerated once and its acceptable answers
        are taken with their conditional probabilities, so exact odds stay exact and fast.
        ``attempt`` must return a hashable answer and must not change anything outside.
        ``key`` (optional, hashable) says that every attempt with the same label and key behaves
        the same (e.g. the set of slots that can still be hit): exact odds then enumerate it once.
        """
        return self.roller.roll_until(self, attempt, label, limit, key)

    def branch(self, fn: Callable[[Dice], T], label: str, key: Hashable | None = None) -> T:
        """Run ``fn`` (which rolls with the Dice it is given) and return its answer.

        This is how a long chain inside one stage (a BattleTech ammunition cascade) stays
        tractable for exact odds: under the enumerating roller ``fn`` is enumerated on its own
        and the run branches on its distinct answers, equal answers merged; with a ``key``
        (everything ``fn`` depends on, hashable) that enumeration is done once and reused. With
        real dice it simply runs ``fn`` and records its rolls. ``fn`` must return a hashable
        answer and change nothing outside.
        """
        return self.roller.roll_branch(self, fn, label, key)

    def fold(self, state: T, steps: Sequence[Callable[[Dice, T], T]], label: str, key: Hashable | None = None) -> T:
        """Run ``steps`` in turn, each taking the state the one before left (``step(dice, state)``).

        With real dice this is a plain loop. Under exact odds the distribution of states is
        carried from step to step with equal states merged in between, so a chain of steps
        with many outcomes each (critical checks in several locations) is enumerated in the
        sum, not the product, of their outcomes. States must be hashable. ``key`` (hashable)
        names the steps: everything they depend on besides the state they are handed. With it
        each step's answers from each state are remembered and shared by every fold with the
        same label and key, whatever state it started from.

        It is :meth:`iterate` on (how many steps are done, the state).
        """
        def step(dice: Dice, at: tuple[int, T]) -> tuple[int, T]:
            return at[0] + 1, steps[at[0]](dice, at[1])

        named = None if key is None else ("fold", key, tuple(_code_of(s) for s in steps))
        return self.iterate((0, state), step, lambda at: at[0] == len(steps), label, named)[1]

    def iterate(self, state: T, step: Callable[[Dice, T], T], done: Callable[[T], bool], label: str,
                key: Hashable | None = None, merge: Callable[[T], T] | None = None,
                odds: Callable[[T], Iterable[tuple[T, Fraction]] | None] | None = None) -> T:
        """Apply ``step`` (``step(dice, state)``) until ``done(state)``, and return that state.

        With real dice this is a plain loop. Under exact odds the distribution of unfinished
        states is carried from step to step with equal states merged, so a process whose state
        says what is left to do (a queue of pending actions: a BattleTech ammunition cascade)
        costs one step per distinct state, never a replay of the steps before it. States must
        be hashable. ``key`` as for :meth:`fold`: it names ``step`` and ``done`` (what they
        depend on besides the state), and each step's answers from each state are remembered.

        ``merge`` (optional) says what of a state is its identity for exact odds:
        ``merge(state)`` is the state with the per-path detail that nothing after it reads left
        out (the story of how it was reached, marks nothing can count again), so that paths
        that end alike merge. Real dice never call it and keep the whole state, story and all,
        so one code path serves both: the state carries the story, and exact odds drop it.
        Under exact odds the start and every step's answer go through ``merge`` before equal
        states merge, and the state returned is a merged one; a simulation puts the state it
        returns through ``merge`` (it counts what exact odds tell apart). It is a promise, checked under
        :func:`critcore.chance.enumeration.checking_keys` (``critcore.testing.check_odds_agree``):
        ``merge`` must give the same state again when handed its own answer, and ``done`` and
        the merged answers of ``step`` must be the same from a state as from its merge; a
        difference is a :class:`~critcore.errors.PluginError` naming the label.

        ``odds`` (optional) is one step's closed form, as :meth:`choose`'s ``odds`` is a roll's:
        ``odds(state)`` gives ``(answer, probability)`` for every answer ``step`` can give from
        ``state`` (adding up to 1), or None to have that step enumerated as usual. Exact odds
        then take those answers as they are (each through ``merge``) instead of running ``step``
        once per answer; real dice and simulations never call it. It is a promise, checked under
        :func:`critcore.chance.enumeration.checking_keys` against the enumeration of ``step``.
        """
        return self.roller.roll_iterate(self, state, step, done, label, key, merge, odds)

    def keep(self, value: T, merge: Callable[[T], T]) -> T:
        """``value`` as these dice keep what they carry: whole with real dice, ``merge(value)``
        under exact odds and in simulations (what :meth:`iterate` and :meth:`choose` keep of a
        state with the same ``merge``).

        For a value a stage kept from an earlier run (an answer in ``ctx.memo``) and now gives
        again: the run that meets it, whatever its dice, gets it as its own dice would have left
        it (BattleTech: the story of a critical, which exact odds leave out). The same promises
        as ``merge`` in :meth:`iterate` hold and are checked under
        :func:`critcore.chance.enumeration.checking_keys`.
        """
        return self.roller.roll_iterate(self, value, _no_step, _finished, "keep", None, merge)

    def choose(self, roll: Callable[[Dice], T], odds: Callable[[], Sequence[tuple[T, Fraction]]], label: str,
               merge: Callable[[T], T] | None = None) -> T:
        """``roll(dice)``'s answer, for a roll whose exact distribution the plugin can also work
        out in closed form: ``odds()`` gives ``(answer, probability)`` for every answer ``roll``
        can give (adding up to 1).

        With real dice ``roll`` runs and its rolls are recorded, as the rules say to roll them.
        Under exact odds the run branches on ``odds()`` directly, one branch per answer, without
        enumerating the rolls inside ``roll`` (a BattleTech critical's slots, picked by 1d6 and
        rolled again on an empty slot). ``odds`` is called only then. It is a promise: under
        :func:`critcore.chance.enumeration.checking_keys` (``critcore.testing.check_odds_agree``) the
        enumeration of ``roll`` is compared with it, and a difference is a
        :class:`~critcore.errors.PluginError` naming the label. This is the one way to give the
        odds a shortcut: a plugin never asks which roller it has.

        The answer may be several picks made by one roll (a tuple: the slots of three criticals,
        in a fixed order). ``merge`` (optional) is for answers that nothing after can tell apart
        (two slots of one weapon): ``odds()`` may then give one answer per class of such answers,
        the class's whole chance on one answer standing for it, and ``merge(answer)`` names that
        answer for any answer ``roll`` can give. Real dice still answer what was rolled; only the
        comparison under ``checking_keys`` merges the answers of ``roll`` first.
        """
        return self.roller.roll_choice(self, roll, odds, label, merge)

    def test(self, dice: int, tn: int, label: str, *, rule_of_six: bool = True) -> Roll:
        """A success test: ``dice`` d6 against ``tn`` (Rule of Six, minimum TN 2, Rule of One)."""
        test = make_test(dice, tn, rule_of_six)
        faces, successes, all_ones = self.roller.roll_test(test, label)
        detail = "rule of one: every die shows 1" if all_ones else ""
        roll = Roll(label, test.notation, faces, successes, successes, detail)
        self.rolls.append(roll)
        return roll


def _no_step(dice: Dice, value: Any) -> Any:  # Dice.keep: nothing is left to do
    return value


def _finished(value: Any) -> bool:
    return True


def _code_of(fn: Callable[..., object]) -> object:
    """The code of ``fn`` (of a bound method's function): what tells two steps apart in a key."""
    return getattr(getattr(fn, "__func__", fn), "__code__", fn)
