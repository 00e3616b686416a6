"""No shipped plugin asks which roller it has (issue 13, "one declared way"): a plugin writes one
code path and says what exact odds need through ``Dice`` (``choose`` with its odds and merge,
``iterate`` with its merge), never by importing the enumeration or testing the roller."""

from __future__ import annotations

import re

from shipped_plugins import scan_shipped

FORBIDDEN = (
    ("imports critcore.chance.enumeration", re.compile(r"critcore\.(chance\.)?enumeration|from\s+critcore(\.chance)?\s+import\s[^\n]*\benumeration\b")),
    ("names EnumeratingRoller", re.compile(r"EnumeratingRoller")),
    ("tests which roller it has", re.compile(r"isinstance\s*\([^)]*roller", re.IGNORECASE)),
)


def roller_checks(text: str) -> list[tuple[int, str]]:
    """(line, what) for every place in a module's source that asks which roller it has."""
    found = []
    for what, pattern in FORBIDDEN:
        for m in pattern.finditer(text):
            found.append((text.count("\n", 0, m.start()) + 1, what))
    return sorted(found)


def test_the_scan_finds_a_roller_check():
    """The check BattleTech had (damage._enumerating, removed by issue 13) is found three ways:
    the module name, the class, and the isinstance test over two lines."""
    old = '''def _enumerating(dice):
    enumeration = sys.modules.get("critcore.chance.enumeration")
    return enumeration is not None and isinstance(getattr(dice, "roller", None),
                                                  enumeration.EnumeratingRoller)
'''
    assert roller_checks(old) == [(2, "imports critcore.chance.enumeration"), (3, "tests which roller it has"),
                                  (4, "names EnumeratingRoller")]
    assert roller_checks("from critcore import dice, enumeration\n") == [(1, "imports critcore.chance.enumeration")]
    assert roller_checks("if isinstance(ctx.dice.roller, RandomRoller):\n") == [(1, "tests which roller it has")]
    assert roller_checks("ctx.dice.choose(roll, odds, label)\nctx.dice.iterate(s, step, done, label, merge=m)\n") == []


def test_no_shipped_plugin_asks_which_roller_it_has():
    """Every module of every plugin package under plugins/ (its src/, what a wheel ships)."""
    hits = scan_shipped(roller_checks)
    assert hits == []
