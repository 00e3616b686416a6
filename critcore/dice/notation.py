"""Dice notation (``2d6+1``, ``1d6x10``, ``3d6/2``) and success tests (``6d6`` against a target
number, with the Rule of Six and the Rule of One): what is rolled, read and checked, and each
one's exact distribution. Rolling them is :mod:`critcore.dice.rollers`' business.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from critcore.errors import DiceError
from critcore.model import record

if TYPE_CHECKING:
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
