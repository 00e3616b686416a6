"""Where dice results come from: the rollers of real dice, each the whole
:class:`~critcore.dice.dice.Roller` protocol.

* :class:`RandomRoller` - seeded pseudo-random faces;
* :class:`ScriptedRoller` - faces typed by a player who rolled real dice (``--dice 6,6,5``);
* :class:`PromptRoller` - asks for each roll by its label;
* :class:`critcore.chance.enumeration.EnumeratingRoller` - branches on every distinct result with its
  exact probability, so exact odds run any plugin's stages unchanged.

Every roller implements the whole protocol, so :class:`~critcore.dice.dice.Dice`
never asks which roller it has, and neither does a plugin. :func:`make_roller` picks one from the
CLI's options.
"""

from __future__ import annotations

import re
from math import floor
from typing import TYPE_CHECKING, Callable, Hashable, Iterable, Sequence, TypeVar

from critcore.errors import Aborted, DiceError

if TYPE_CHECKING:
    import _random
    from fractions import Fraction

    from critcore.dice.dice import Dice, Roller
    from critcore.dice.notation import DiceExpr, SuccessTest

T = TypeVar("T")


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
                     label: str, key: Hashable | None, merge: Callable[[T], T] | None,
                     odds: Callable[[T], Iterable[tuple[T, Fraction]] | None] | None = None) -> T:
        # real dice keep the whole state, story and all, and roll every step: merge and odds are never called
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

    def _typed_faces(self, prompt: str) -> list[int]:
        """Ask until the answer reads as whole numbers, saying what was wrong with each that did not."""
        while True:
            try:
                return parse_faces(self._read(prompt))
            except DiceError as exc:
                self.tell(str(exc))

    def faces(self, sides: int, count: int, label: str, notation: str) -> list[int]:
        how = f"{count} faces" if count > 1 else "the face"
        while True:
            faces = self._typed_faces(f"Roll {notation} for {label} ({how})")
            if len(faces) != count or not all(1 <= f <= sides for f in faces):
                self.tell(f"please type {count} number(s) from 1 to {sides}")
                continue
            return faces

    def roll_sum(self, expr: DiceExpr, label: str) -> tuple[tuple[int, ...], int]:
        n, s = expr.count, expr.sides
        while True:
            faces = self._typed_faces(f"Roll {expr.notation} for {label} (the faces, or their sum)")
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
