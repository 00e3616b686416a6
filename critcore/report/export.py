"""A system's tables in other programs' formats: ``crit tables SYSTEM TABLE --format foundry|roll20|csv``.

**Foundry VTT.** :func:`foundry_table` writes a RollTable document as Foundry Virtual Tabletop
imports it ("Import Data" on a roll table): ``RollTableData`` (``name``, ``description``,
``formula``, ``replacement``, ``displayRoll``, ``img``, ``results``, ``folder``, ``sort``,
``flags``) and for each result the v13 ``TableResult`` fields (``_id``, ``type``, ``name``,
``description``, ``img``, ``weight``, ``range``, ``drawn``, ``flags``: v13 split the older
``text`` into ``name`` and ``description``); ``version=12`` writes the older ``text`` instead.
A lookup table (:func:`is_lookup`) is exported as one: not shown as a roll, said so in its
description and ``flags.critcore.lookup``.

**Roll20.** :func:`roll20_table` writes a rollable table as the Roll20 API's objects: the
``rollabletable`` and its ``tableitem`` entries, weighted as the dice fall.

In a Foundry export a row covering scattered rolls ("3, 18") becomes one result per run of
consecutive rolls, so the ranges cover the table's rolls exactly, once each. Ids are 16
letters and digits derived from the table and row (the same export gives the same ids).
critcore's own row id, effect code and numbers travel in ``flags.critcore``.

**CSV.** :func:`csv_text`: one line per row, or per run of consecutive rolls of a row covering
scattered rolls (``table, low, high, rolls, id, effect, text, data, changed_by``; ``rolls`` is
every roll of the row as the table writes it, ``data`` the row's numbers as JSON).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

FOUNDRY_ICON = "icons/svg/d20-grey.svg"
RESULT_ICON = "icons/svg/d20-black.svg"
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def foundry_id(*parts: str) -> str:
    """A Foundry document id (16 letters and digits), the same for the same parts."""
    import hashlib

    digest = int.from_bytes(hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest(), "big")
    out = []
    for _ in range(16):
        digest, i = divmod(digest, len(_ALPHABET))
        out.append(_ALPHABET[i])
    return "".join(out)


def runs(rolls: Iterable[int]) -> list[tuple[int, int]]:
    """Consecutive rolls as ``(low, high)`` runs: 3, 4, 5, 18 -> (3, 5), (18, 18)."""
    out: list[tuple[int, int]] = []
    for r in sorted(set(rolls)):
        if out and r == out[-1][1] + 1:
            out[-1] = (out[-1][0], r)
        else:
            out.append((r, r))
    return out


def foundry_formula(dice: str) -> str:
    """critcore's notation as a Foundry roll formula: ``2d6+1``; ``1d6x10`` -> ``(1d6)*10``;
    ``1d6/2`` (rounded up) -> ``ceil((1d6)/2)``."""
    from critcore.dice.notation import parse

    expr = parse(dice)
    text = f"{expr.count}d{expr.sides}" + (f"{expr.plus:+d}" if expr.plus else "")
    if expr.times != 1:
        text = f"({text})*{expr.times}"
    if expr.divide != 1:
        text = f"ceil(({text})/{expr.divide})"
    return text


FOUNDRY_VERSIONS = (12, 13)
"""The shapes :func:`foundry_table` writes: 13 for Foundry VTT v13 and later (each result's
``name`` and ``description``), 12 for the versions before it (each result's ``text``)."""


def is_lookup(table: Any) -> bool:
    """A table found by number or id rather than rolled: declared ``lookup = true``, or one whose
    range is not what its dice roll."""
    from critcore.dice.notation import parse

    if getattr(table, "lookup_only", False):
        return True
    expr = parse(table.dice)
    return (expr.minimum, expr.maximum) != (table.low, table.high)


def _about(table: Any, system: str) -> str:
    if is_lookup(table):
        return (f"critcore {system} table {table.id}: a lookup table, not rolled on: find the row by its number "
                f"({table.low} to {table.high}).")
    return f"critcore {system} table {table.id} (roll {table.dice})."


def foundry_table(table: Any, system: str, version: int = 13) -> dict[str, Any]:
    """The table as a Foundry VTT RollTable document (plain JSON data), in the shape of Foundry
    ``version`` (13: v13 and later, each result's ``name`` and ``description``; 12: the older
    ``text``). A lookup table keeps its numbered ranges (Foundry draws a given number with
    "Draw Specific Result"), is not shown as a roll in chat, and says so in its description."""
    from critcore.model import thaw

    if version not in FOUNDRY_VERSIONS:
        from critcore.errors import InputError

        raise InputError(f"--foundry-version: {version} is not one of {', '.join(map(str, FOUNDRY_VERSIONS))} "
                         "(13: Foundry VTT v13 and later; 12: the versions before)")
    lookup = is_lookup(table)
    results = []
    for row in table.rows:
        for low, high in runs(row.covers()):
            result: dict[str, Any] = {"_id": foundry_id(system, table.id, row.id, str(low)), "type": "text"}
            if version >= 13:
                result["name"] = row.id if len(row.text) > 60 else row.text
                result["description"] = row.text
            else:
                result["text"] = row.text
            result.update({
                "img": RESULT_ICON,
                "weight": high - low + 1,
                "range": [low, high],
                "drawn": False,
                "flags": {"critcore": {"row": row.id, "effect": row.code, "data": thaw(row.data),
                                       **({"changed_by": row.changed_by} if row.changed_by else {})}},
            })
            results.append(result)
    return {
        "_id": foundry_id(system, table.id),
        "name": table.title,
        "img": FOUNDRY_ICON,
        "description": _about(table, system),
        "formula": foundry_formula(table.dice) if not lookup else f"1d{table.high - table.low + 1}"
                   + (f"{table.low - 1:+d}" if table.low != 1 else ""),
        "replacement": True,
        "displayRoll": not lookup,
        "results": results,
        "folder": None,
        "sort": 0,
        "flags": {"critcore": {"system": system, "table": table.id, "range": [table.low, table.high],
                               "rolled": not lookup, "lookup": lookup}},
    }


def roll20_name(table: Any, system: str) -> str:
    """A Roll20 table name: no spaces (a roll names it as ``[[1t[NAME]]]``)."""
    import re

    return re.sub(r"[^A-Za-z0-9_-]+", "-", f"{system}-{table.id}").strip("-")


def _ways(dice: str, low: int, high: int) -> dict[int, int]:
    """How many ways the dice show each total from ``low`` to ``high`` (weights for a table whose
    entries a roll does not pick evenly: 2d6 shows 7 six times as often as 2)."""
    from critcore.dice.notation import parse

    expr = parse(dice)
    counts = {0: 1}
    for _ in range(expr.count):
        nxt: dict[int, int] = {}
        for total, n in counts.items():
            for face in range(1, expr.sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + n
        counts = nxt
    out: dict[int, int] = {}
    for total, n in counts.items():
        value = (total + expr.plus) * expr.times
        if expr.divide != 1:
            value = -(-value // expr.divide)
        if low <= value <= high:
            out[value] = out.get(value, 0) + n
    return out


def roll20_table(table: Any, system: str) -> dict[str, Any]:
    """The table as a Roll20 rollable table: the API's ``rollabletable`` object (``name``,
    ``showplayers``) and its ``tableitem`` objects (``name``, ``weight``, ``avatar``), one per row.

    Roll20 draws an item by weight, with no ranges: each row weighs as many as the ways the
    table's dice show its rolls, so ``[[1t[NAME]]]`` draws rows as often as the dice would. Each
    item's name starts with its rolls (``"6-8: ..."``), so the table can also be read by number.
    A lookup table (not rolled) gives every row the weight of one roll per number it covers and
    says in ``critcore.lookup`` that it is not for drawing."""
    lookup = is_lookup(table)
    ways = {} if lookup else _ways(table.dice, table.low, table.high)
    items = []
    for row in table.rows:
        weight = sum(1 if lookup else ways.get(r, 0) for r in row.covers())
        items.append({"name": f"{row.roll_text}: {row.text}", "weight": weight, "avatar": ""})
    return {
        "rollabletable": {"name": roll20_name(table, system), "showplayers": False},
        "tableitems": items,
        "critcore": {"system": system, "table": table.id, "title": table.title, "dice": table.dice,
                     "range": [table.low, table.high], "lookup": lookup},
    }


CSV_COLUMNS = ("table", "low", "high", "rolls", "id", "effect", "text", "data", "changed_by")


def csv_text(tables: Sequence[Any]) -> str:
    """Every row of the tables as CSV (header first)."""
    import csv
    import io
    import json

    from critcore.model import thaw

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for table in tables:
        for row in table.rows:
            data = json.dumps(thaw(row.data), ensure_ascii=False, sort_keys=True) if row.data else ""
            for low, high in runs(row.covers()):
                writer.writerow([table.id, low, high, row.roll_text, row.id, row.code, row.text, data, row.changed_by])
    return buffer.getvalue()
