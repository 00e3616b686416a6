"""Dice: notation, success tests, rollers, and the per-resolution roll record.

Plugins never touch :mod:`random`. They ask the :class:`Dice` they are handed for a roll with a
label (``ctx.dice.roll("3d6", "attack roll")``) or a success test
(``ctx.dice.test(4, 8, "Body check")``) and read ``.total`` / ``.successes``. Where the dice come
from is the roller's business:

* :class:`RandomRoller` - seeded pseudo-random faces;
* :class:`ScriptedRoller` - faces typed by a player who rolled real dice (``--dice 6,6,5``);
* :class:`PromptRoller` - asks for each roll by its label;
* :class:`critcore.chance.enumeration.EnumeratingRoller` - branches on every distinct result with its
  exact probability, so exact odds run any plugin's stages unchanged.

Every roller implements the whole :class:`Roller` protocol, so :class:`Dice` never asks which
roller it has, and neither does a plugin.

Plugins must act only on ``total`` and ``successes``: the enumerating roller does not invent
faces.
"""

from __future__ import annotations

import re
from functools import cached_property, lru_cache
from math import floor
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Protocol, Sequence, TypeVar

from critcore.errors import Aborted, DiceError
from critcore.model import Roll, record

if TYPE_CHECKING:
    import _random
    from fractions import Fraction

MAX_DICE = 200
MAX_SIDES = 1000
MAX_CONSTANT = 1_000_000
MAX_TN = 60

# compiled on first use (by re's cache): plain "NdS" never needs it, and compiling costs start-up
_TIMES = "xX*×"  # the signs of a multiplier


def _read(text: str) -> tuple[int, int, int, int, int] | None:
    """``(count, sides, plus, times, divide)`` of a dice notation, or None when ``text`` is not one.

    The notation is ``[count] d [sides] [+|- plus] [x times] [/ divide]`` (``D`` for ``d``;
    ``X``, ``*`` or ``×`` for ``x``), with any whitespace between its parts and none inside a
    number. Read part by part rather than by a regular expression: compiling one cost every
    command that reads a GURPS-style ``2d+1`` about 2 M instructions (0.5 ms), for a grammar of
    six parts (``tests/test_core_dice_notation.py`` holds it to the regular expression).
    """
    parts: list[str] = []  # numbers (runs of digits) and single signs; whitespace dropped
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isdecimal():
            j = i + 1
            while j < n and text[j].isdecimal():
                j += 1
            parts.append(text[i:j])
            i = j
        else:
            if not c.isspace():
                parts.append(c)
            i += 1
    parts.append("")  # the end: no part is empty
    k = 0
    count = sides = ""
    if parts[k].isdecimal():
        count, k = parts[k], k + 1
    if parts[k] not in ("d", "D"):
        return None
    k += 1
    if parts[k].isdecimal():
        sides, k = parts[k], k + 1
    numbers = [0, 1, 1]  # plus, times, divide
    for slot, signs in ((0, "+-"), (1, _TIMES), (2, "/")):
        if len(parts[k]) == 1 and parts[k] in signs and parts[k + 1].isdecimal():
            numbers[slot] = -int(parts[k + 1]) if parts[k] == "-" else int(parts[k + 1])
            k += 2
    if parts[k]:  # something after the last part
        return None
    return int(count or 1), int(sides or 6), numbers[0], numbers[1], numbers[2]


@record(kept_hash=True)  # hashed at every roll of an exact enumeration (its weights are cached by it)
class DiceExpr:
    """``count`` dice of ``sides`` faces, summed, then ``+ plus``, ``* times``, ``/ divide``.

    Division rounds up, so ``1d6/2`` gives 1, 1, 2, 2, 3, 3 (never 0 from a positive roll).
    """

    count: int
    sides: int = 6
    plus: int = 0
    times: int = 1
    divide: int = 1

    def __post_init__(self) -> None:
        # the result is the plain sum of the faces (no call to value() on the hot path)
        self.__dict__["plain_sum"] = self.plus == 0 and self.times == 1 and self.divide == 1

    if TYPE_CHECKING:  # set by __init__, not a field

        @property
        def plain_sum(self) -> bool: ...

    @cached_property
    def notation(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.plus:
            text += f"{self.plus:+d}"
        if self.times != 1:
            text += f"x{self.times}"
        if self.divide != 1:
            text += f"/{self.divide}"
        return text

    def value(self, face_sum: int) -> int:
        """The expression's result for a given sum of faces."""
        v = (face_sum + self.plus) * self.times
        if self.divide != 1:
            v = -(-v // self.divide)
        return v

    @property
    def minimum(self) -> int:
        return self.value(self.count)

    @property
    def maximum(self) -> int:
        return self.value(self.count * self.sides)

    def distribution(self) -> tuple[tuple[int, Fraction], ...]:
        """Every distinct result with its exact probability, lowest result first."""
        return _expr_distribution(self)

    # --- new expressions from this one: every part not named is kept (a x10 or /2 never vanishes)

    def scaled(self, factor: int) -> DiceExpr:
        """``factor`` times as many dice, the modifier, multiplier and divisor kept: a critical
        that doubles the dice makes ``2d6+3`` into ``4d6+3`` and ``1d6x10`` into ``2d6x10``."""
        return _checked(self, self.count * factor, self.plus, self.times, self.divide)

    def with_dice(self, count: int) -> DiceExpr:
        """The same expression on ``count`` dice."""
        return _checked(self, count, self.plus, self.times, self.divide)

    def plus_more(self, amount: int) -> DiceExpr:
        """``amount`` added to the modifier (before the multiplier and divisor, as ``2d6+1x3`` reads)."""
        return _checked(self, self.count, self.plus + amount, self.times, self.divide)

    def multiplied(self, factor: int) -> DiceExpr:
        """The whole result multiplied by ``factor``: ``1d6/2`` doubled is ``1d6x2/2``, which gives
        twice what ``1d6/2`` gives, rounded as it is."""
        return _checked(self, self.count, self.plus, self.times * factor, self.divide)

    def divided(self, divisor: int) -> DiceExpr:
        """The whole result divided by ``divisor``, rounded up like every division here."""
        return _checked(self, self.count, self.plus, self.times, self.divide * divisor)

    def __str__(self) -> str:
        return self.notation


def _checked(before: DiceExpr, count: int, plus: int, times: int, divide: int) -> DiceExpr:
    """A new expression within the limits every parsed one keeps, else a :class:`DiceError`."""
    made = f"{before.notation} changed to {count} dice, +{plus}, x{times}, /{divide}"
    if not 1 <= count <= MAX_DICE:
        raise DiceError(f"{made}: the number of dice must be 1 to {MAX_DICE}")
    if abs(plus) > MAX_CONSTANT or not 1 <= times <= MAX_CONSTANT or not 1 <= divide <= MAX_CONSTANT:
        raise DiceError(f"{made}: modifier, multiplier or divisor out of range")
    if before.sides**count > 10**300 and count > 60:
        raise DiceError(f"{made}: too many dice")
    return DiceExpr(count, before.sides, plus, times, divide)


@lru_cache(maxsize=None)
def _sum_counts(count: int, sides: int) -> tuple[int, ...]:
    """Ways to roll each sum of ``count`` dice (index 0 is the sum ``count``)."""
    ways = [1]
    for _ in range(count):
        nxt = [0] * (len(ways) + sides - 1)
        for i, w in enumerate(ways):
            if w:
                for f in range(sides):
                    nxt[i + f] += w
        ways = nxt
    return tuple(ways)


@lru_cache(maxsize=None)
def _expr_distribution(expr: DiceExpr) -> tuple[tuple[int, Fraction], ...]:
    from fractions import Fraction

    ways = _sum_counts(expr.count, expr.sides)
    whole = expr.sides**expr.count
    merged: dict[int, int] = {}
    for i, w in enumerate(ways):
        v = expr.value(expr.count + i)
        merged[v] = merged.get(v, 0) + w
    return tuple((v, Fraction(w, whole)) for v, w in sorted(merged.items()))


@lru_cache(maxsize=1024)
def parse(notation: str) -> DiceExpr:
    """Parse ``NdS``, ``d6``, ``2d+1``, ``3d-3``, ``1d6x10``, ``1d6/2`` (a bare ``d`` is a d6).

    Never evaluates anything; raises :class:`DiceError` naming what is wrong.
    """
    if not isinstance(notation, str):
        raise DiceError(f"dice expression must be text, not {type(notation).__name__}")
    if len(notation) > 64:
        raise DiceError(f"dice expression too long: {notation[:30]!r}...")
    read = _read(notation)
    if read is None:
        raise DiceError(f"cannot read dice expression {notation!r}: expected e.g. 3d6, 2d+1, 1d6x10 or 1d6/2")
    count, sides, plus, times, divide = read
    if not 1 <= count <= MAX_DICE:
        raise DiceError(f"{notation!r}: the number of dice must be 1 to {MAX_DICE}")
    if not 2 <= sides <= MAX_SIDES:
        raise DiceError(f"{notation!r}: dice must have 2 to {MAX_SIDES} sides")
    if abs(plus) > MAX_CONSTANT or not 1 <= times <= MAX_CONSTANT or not 1 <= divide <= MAX_CONSTANT:
        raise DiceError(f"{notation!r}: modifier, multiplier or divisor out of range")
    if sides**count > 10**300 and count > 60:
        raise DiceError(f"{notation!r}: too many dice")
    return DiceExpr(count, sides, plus, times, divide)


# --- success tests (Shadowrun) ------------------------------------------------------------


@record
class SuccessTest:
    """``dice`` d6 against target number ``tn``; a die reaching the TN is a success.

    Rule of Six (``rule_of_six``): a 6 is rolled again and the new face added to the same die,
    as long as the die is still short of the TN (TN 7 needs 6 then 1+, TN 8 needs 6 then 2+).
    Target numbers below 2 count as 2. Rule of One: when every die shows 1 the test is a
    disaster (``all_ones``).
    """

    dice: int
    tn: int
    rule_of_six: bool = True

    def __post_init__(self) -> None:
        # the target number a die must reach (below 2 counts as 2): an attribute, not a
        # field or a property, because every roll reads it
        self.__dict__["effective_tn"] = max(2, self.tn)

    if TYPE_CHECKING:  # set by __init__, not a field

        @property
        def effective_tn(self) -> int: ...

    @cached_property
    def notation(self) -> str:
        return f"{self.dice}d6 vs TN {self.effective_tn}"

    @property
    def p_die(self) -> Fraction:
        """Probability that one die reaches the target number."""
        from fractions import Fraction

        tn = self.effective_tn
        if tn <= 6:
            return Fraction(7 - tn, 6)
        if not self.rule_of_six:
            return Fraction(0)
        sixes = (tn - 1) // 6
        rest = tn - 6 * sixes
        return Fraction(1, 6**sixes) * Fraction(7 - rest, 6)

    def distribution(self) -> tuple[tuple[tuple[int, bool], Fraction], ...]:
        """Each distinct (successes, all_ones) with its exact probability."""
        return _test_distribution(self)


@lru_cache(maxsize=None)
def _test_distribution(test: SuccessTest) -> tuple[tuple[tuple[int, bool], Fraction], ...]:
    from fractions import Fraction

    p = test.p_die
    q = 1 - p
    n = test.dice
    out: list[tuple[tuple[int, bool], Fraction]] = []
    for k in range(n + 1):
        prob = _binom(n, k) * p**k * q ** (n - k)
        if k == 0 and n > 0:
            ones = Fraction(1, 6**n)
            prob -= ones
            out.append(((0, True), ones))
        if prob:
            out.append(((k, False), prob))
    return tuple(out)


def _binom(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


@lru_cache(maxsize=1024)
def make_test(dice: int, tn: int, rule_of_six: bool = True) -> SuccessTest:
    if not isinstance(dice, int) or isinstance(dice, bool) or not 0 <= dice <= MAX_DICE:
        raise DiceError(f"a success test needs 0 to {MAX_DICE} dice, not {dice!r}")
    if not isinstance(tn, int) or isinstance(tn, bool) or tn > MAX_TN:
        raise DiceError(f"target number {tn!r} is out of range (at most {MAX_TN})")
    return SuccessTest(dice, tn, rule_of_six)


# --- rollers ------------------------------------------------------------------------------

T = TypeVar("T")



class Roller(Protocol):
    """Where dice results come from. Every roller implements all of these methods: a plugin
    never asks which roller it has (:class:`Dice` calls them; plugins call :class:`Dice`).

    ``roll_sum`` and ``roll_test`` return faces as rolled (may be empty). ``roll_until``,
    ``roll_branch``, ``roll_iterate`` and ``roll_choice`` carry out :meth:`Dice.until`,
    :meth:`Dice.branch`, :meth:`Dice.iterate` and :meth:`Dice.choose`: a roller of real dice (:class:`FaceRoller`) runs them as plain loops
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
                     label: str, key: Hashable | None, merge: Callable[[T], T] | None) -> T:
        """``step`` applied until ``done`` (see :meth:`Dice.iterate`); ``merge`` is for exact
        odds only (a roller of real dice never calls it)."""
        ...

    def roll_choice(self, dice: Dice, roll: Callable[[Dice], T], odds: Callable[[], Sequence[tuple[T, Fraction]]],
                    label: str, merge: Callable[[T], T] | None) -> T:
        """``roll``'s answer, or a branch on ``odds()`` (see :meth:`Dice.choose`)."""
        ...

    @property
    def unused(self) -> list[int]:
        """Faces given to this roller and never rolled (scripted faces); empty otherwise."""
        ...


class FaceRoller:
    """A roller of real dice that produces individual faces; subclasses supply :meth:`faces`.

    ``until``, ``branch`` and ``iterate`` are plain loops here: every roll is made and recorded.
    """

    def faces(self, sides: int, count: int, label: str, notation: str) -> list[int]:
        raise NotImplementedError

    @property
    def unused(self) -> list[int]:
        return []

    def roll_until(self, dice: Dice, attempt: Callable[[Dice], T | None], label: str, limit: int,
                   key: Hashable | None) -> T:
        for _ in range(limit):
            answer = attempt(dice)
            if answer is not None:
                return answer
        raise DiceError(f"{label}: no acceptable result after {limit} tries")

    def roll_branch(self, dice: Dice, fn: Callable[[Dice], T], label: str, key: Hashable | None) -> T:
        return fn(dice)

    def roll_iterate(self, dice: Dice, state: T, step: Callable[[Dice, T], T], done: Callable[[T], bool],
                     label: str, key: Hashable | None, merge: Callable[[T], T] | None) -> T:
        # real dice keep the whole state, story and all: merge is never called
        while not done(state):
            state = step(dice, state)
        return state

    def roll_choice(self, dice: Dice, roll: Callable[[Dice], T], odds: Callable[[], Sequence[tuple[T, Fraction]]],
                    label: str, merge: Callable[[T], T] | None) -> T:
        return roll(dice)

    def extra_face(self, label: str, notation: str, die: int, so_far: int) -> int:
        """The extra face of a die that showed 6 under the Rule of Six."""
        return self.faces(6, 1, f"{label}: die {die} showed 6 ({so_far} so far, short of the TN), roll it again "
                                f"and add it; stop once the die reaches the TN", notation)[0]

    def roll_sum(self, expr: DiceExpr, label: str) -> tuple[tuple[int, ...], int]:
        faces = self.faces(expr.sides, expr.count, label, expr.notation)
        return tuple(faces), expr.value(sum(faces))

    def roll_test(self, test: SuccessTest, label: str) -> tuple[tuple[int, ...], int, bool]:
        """Die by die: each die's face, then its extra faces under the Rule of Six."""
        tn = test.effective_tn
        flat: list[int] = []
        first: list[int] = []
        successes = 0
        note = reroll_note(test)
        for i in range(1, test.dice + 1):
            face = self.faces(6, 1, f"{label} (die {i} of {test.dice}{note})", test.notation)[0]
            first.append(face)
            flat.append(face)
            total = face
            while test.rule_of_six and face == 6 and total < tn:
                face = self.extra_face(label, test.notation, i, total)
                flat.append(face)
                total += face
            if total >= tn:
                successes += 1
        return tuple(flat), successes, bool(first) and all(f == 1 for f in first)


def reroll_note(test: SuccessTest) -> str:
    """What a person rolling ``test`` by hand must know about rolling a die again (Rule of Six),
    as "; ..." to add to a roll's label (empty without the Rule of Six)."""
    if not test.rule_of_six:
        return ""
    tn = test.effective_tn
    if tn <= 6:
        return f"; TN {tn}: no die is rolled again, not even a 6"
    return f"; TN {tn}: a 6 is rolled again and added until that die reaches {tn}, then it stops, even on a 6"


class RandomRoller(FaceRoller):
    """Pseudo-random faces; the same seed gives the same faces in the same order."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self._random = _generator(seed)
        self._next = self._random.random

    # A face is floor(random() * sides) + 1 (the same as int(), a little cheaper).

    def faces(self, sides: int, count: int, label: str, notation: str) -> list[int]:
        r = self._next
        return [floor(r() * sides) + 1 for _ in range(count)]

    def roll_sum(self, expr: DiceExpr, label: str) -> tuple[tuple[int, ...], int]:
        r = self._next
        s = expr.sides
        n = expr.count
        # One to three dice cover almost every roll; spelled out, they skip a list
        # comprehension's cost (a third of a 3d6 roll). Faces are drawn in the same order.
        if n == 3:
            faces: tuple[int, ...] = (floor(r() * s) + 1, floor(r() * s) + 1, floor(r() * s) + 1)
        elif n == 2:
            faces = (floor(r() * s) + 1, floor(r() * s) + 1)
        elif n == 1:
            faces = (floor(r() * s) + 1,)
        else:
            faces = tuple([floor(r() * s) + 1 for _ in range(n)])
        total = sum(faces)
        return faces, total if expr.plain_sum else expr.value(total)

    def extra_face(self, label: str, notation: str, die: int, so_far: int) -> int:
        return floor(self._next() * 6) + 1

    def roll_test(self, test: SuccessTest, label: str) -> tuple[tuple[int, ...], int, bool]:
        """As :meth:`FaceRoller.roll_test` (the same faces from the same seed), without the
        per-die bookkeeping a person typing faces needs."""
        r = self._next
        tn = test.effective_tn
        explode = test.rule_of_six
        flat: list[int] = []
        successes = 0
        all_ones = test.dice > 0
        for _ in range(test.dice):
            face = total = floor(r() * 6) + 1
            flat.append(face)
            if face != 1:
                all_ones = False
            while explode and face == 6 and total < tn:
                face = floor(r() * 6) + 1
                flat.append(face)
                total += face
            if total >= tn:
                successes += 1
        return tuple(flat), successes, all_ones


from _random import Random as _Random  # noqa: E402  (a built-in module: nothing to load)


def _generator(seed: int | str | None) -> _random.Random:
    """``random.Random(seed)``, whose ``random()`` draws the faces.

    For a whole-number seed (``--seed 7``) or none, that is the C generator :mod:`random` is
    built on, seeded with the same number: made directly, so that a single ``crit resolve``
    does not import :mod:`random` (and bisect and a sha512 module with it) at start-up. Other
    seeds (text) go through :class:`random.Random`, which turns them into a number first.
    """
    if seed is None or type(seed) is int:
        return _Random(seed)
    import random

    return random.Random(seed)


def parse_faces(text: str) -> list[int]:
    """Read ``"6,6,5"`` or ``"6 6 5"`` into faces; raises :class:`DiceError` on anything else."""
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    if not parts:
        raise DiceError("no dice faces given: expected e.g. --dice 6,6,5")
    faces: list[int] = []
    for p in parts:
        if not (p.isascii() and p.isdigit()) or len(p) > 6:
            raise DiceError(f"dice face {p[:20]!r} is not a whole number (expected e.g. --dice 6,6,5)")
        faces.append(int(p))
    return faces


class ScriptedRoller(FaceRoller):
    """Faces given in advance, consumed in the order the dice are rolled.

    An exploding die's extra face comes right after it. A face that does not fit the die, or
    running out of faces, is a :class:`DiceError` naming the roll.
    """

    def __init__(self, faces: Iterable[int] | str, then: FaceRoller | None = None) -> None:
        self.script = parse_faces(faces) if isinstance(faces, str) else list(faces)
        self.pos = 0
        self.then = then  # a roller to fall back on when the script runs out (None: error)

    @property
    def unused(self) -> list[int]:
        return self.script[self.pos :]

    def faces(self, sides: int, count: int, label: str, notation: str) -> list[int]:
        out: list[int] = []
        for i in range(count):
            if self.pos >= len(self.script):
                if self.then is not None:
                    return out + self.then.faces(sides, count - i, label, notation)
                need = count - i
                raise DiceError(
                    f"not enough dice faces: {label} ({notation}) needs {need} more "
                    f"(given {len(self.script)} in all)"
                )
            face = self.script[self.pos]
            if not 1 <= face <= sides:
                raise DiceError(
                    f"dice face {face} (number {self.pos + 1} given) does not fit {label} "
                    f"({notation}): a d{sides} shows 1 to {sides}"
                )
            self.pos += 1
            out.append(face)
        return out


class PromptRoller(FaceRoller):
    """Asks a person for each roll by its label (they roll real dice).

    ``ask(prompt) -> str`` reads an answer; ``tell(message)`` reports a problem before asking
    again. For a sum of several dice the person may type the faces or just the total.
    """

    def __init__(self, ask: Callable[[str], str], tell: Callable[[str], None] = print) -> None:
        self.ask = ask
        self.tell = tell

    def _read(self, prompt: str) -> str:
        try:
            return self.ask(prompt)
        except (EOFError, KeyboardInterrupt):
            raise Aborted("stopped while waiting for a die roll (no more input); nothing was saved") from None

    def faces(self, sides: int, count: int, label: str, notation: str) -> list[int]:
        how = f"{count} faces" if count > 1 else "the face"
        while True:
            answer = self._read(f"Roll {notation} for {label} ({how})")
            try:
                faces = parse_faces(answer)
            except DiceError as exc:
                self.tell(str(exc))
                continue
            if len(faces) != count or not all(1 <= f <= sides for f in faces):
                self.tell(f"please type {count} number(s) from 1 to {sides}")
                continue
            return faces

    def roll_sum(self, expr: DiceExpr, label: str) -> tuple[tuple[int, ...], int]:
        n, s = expr.count, expr.sides
        while True:
            answer = self._read(f"Roll {expr.notation} for {label} (the faces, or their sum)")
            try:
                faces = parse_faces(answer)
            except DiceError as exc:
                self.tell(str(exc))
                continue
            if len(faces) == n and all(1 <= f <= s for f in faces):
                return tuple(faces), expr.value(sum(faces))
            if len(faces) == 1 and n > 1 and n <= faces[0] <= n * s:
                return (), expr.value(faces[0])
            self.tell(f"please type {n} face(s) from 1 to {s}, or a sum from {n} to {n * s}")

    def roll_test(self, test: SuccessTest, label: str) -> tuple[tuple[int, ...], int, bool]:
        """All dice at once, then one question per die that must be rolled again."""
        tn = test.effective_tn
        note = reroll_note(test)
        first = self.faces(6, test.dice, label + (f" ({note[2:]})" if note else ""), test.notation) if test.dice else []
        flat: list[int] = []
        successes = 0
        for i, face in enumerate(first, 1):
            flat.append(face)
            total = face
            rolled_again = False
            while test.rule_of_six and face == 6 and total < tn:
                face = self.extra_face(label, test.notation, i, total)
                flat.append(face)
                total += face
                rolled_again = True
            if rolled_again and face == 6:
                # a player who keeps rolling 6s must know when to stop: the die is done
                self.tell(f"die {i} has {total}, TN {tn} reached: it is done, not rolled again even on a 6")
            if total >= tn:
                successes += 1
        return tuple(flat), successes, bool(first) and all(f == 1 for f in first)


# --- the per-resolution record ------------------------------------------------------------


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
                key: Hashable | None = None, merge: Callable[[T], T] | None = None) -> T:
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
        """
        return self.roller.roll_iterate(self, state, step, done, label, key, merge)

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


MAX_SEED_LENGTH = 1000
"""Longest seed, in characters (a whole-number seed: in digits)."""


def parse_seed(text: str | int | None) -> int | str | None:
    """A seed as typed: whole numbers in ASCII digits become ints (``--seed 7`` and ``seed=7``
    agree); any other text is a seed as it is (``--seed goblin``, ``--seed ²``). A seed longer
    than :data:`MAX_SEED_LENGTH` is refused."""
    if isinstance(text, str):
        if len(text) > MAX_SEED_LENGTH:
            raise DiceError(f"--seed: {len(text):,} characters is too long (at most {MAX_SEED_LENGTH:,})")
        body = text[1:] if text[:1] == "-" else text
        if body.isascii() and body.isdigit():
            return int(text)
    elif isinstance(text, int) and not isinstance(text, bool) and text.bit_length() > 3400:
        raise DiceError(f"seed: a number of more than {MAX_SEED_LENGTH:,} digits is too long")
    return text


def make_roller(
    seed: int | str | None = None,
    faces: str | Sequence[int] | None = None,
    prompt: tuple[Callable[[str], str], Callable[[str], None]] | None = None,
) -> Roller:
    """The roller the CLI options ask for: scripted faces, a prompt, or seeded random.

    Only one of the three may be given.
    """
    if (seed is not None) + (faces is not None) + (prompt is not None) > 1:
        raise DiceError("use only one of --seed, --dice and --prompt")
    if faces is not None:
        return ScriptedRoller(faces)
    if prompt is not None:
        return PromptRoller(*prompt)
    return RandomRoller(parse_seed(seed))
