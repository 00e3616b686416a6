"""A system's tables in other programs' formats: ``crit tables SYSTEM TABLE --format foundry|csv``.

**Foundry VTT.** :func:`foundry_table` writes a RollTable document as Foundry Virtual Tabletop
imports it ("Import Data" on a roll table), with the fields its documentation (API version 14)
lists for ``RollTableData`` (``name``, ``description``, ``formula``, ``replacement``,
``displayRoll``, ``img``, ``results``, ``folder``, ``sort``, ``flags``) and for each
``TableResultData`` (``_id``, ``type``, ``text``, ``img``, ``weight``, ``range``, ``drawn``,
``flags``). A row covering scattered rolls ("3, 18") becomes one result per run of
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
    from critcore.dice.dice import parse

    expr = parse(dice)
    text = f"{expr.count}d{expr.sides}" + (f"{expr.plus:+d}" if expr.plus else "")
    if expr.times != 1:
        text = f"({text})*{expr.times}"
    if expr.divide != 1:
        text = f"ceil(({text})/{expr.divide})"
    return text


def foundry_table(table: Any, system: str) -> dict[str, Any]:
    """The table as a Foundry VTT RollTable document (plain JSON data)."""
    from critcore.dice.dice import parse
    from critcore.model import thaw

    results = []
    for row in table.rows:
        for low, high in runs(row.covers()):
            results.append({
                "_id": foundry_id(system, table.id, row.id, str(low)),
                "type": "text",
                "text": row.text,
                "img": RESULT_ICON,
                "weight": high - low + 1,
                "range": [low, high],
                "drawn": False,
                "flags": {"critcore": {"row": row.id, "effect": row.code, "data": thaw(row.data),
                                       **({"changed_by": row.changed_by} if row.changed_by else {})}},
            })
    expr = parse(table.dice)
    rolled = (expr.minimum, expr.maximum) == (table.low, table.high)
    note = "" if rolled else (f" Looked up by a number from {table.low} to {table.high} rather than rolled "
                              f"on {table.dice}.")
    return {
        "_id": foundry_id(system, table.id),
        "name": table.title,
        "img": FOUNDRY_ICON,
        "description": f"critcore {system} table {table.id} (roll {table.dice}).{note}",
        "formula": foundry_formula(table.dice),
        "replacement": True,
        "displayRoll": True,
        "results": results,
        "folder": None,
        "sort": 0,
        "flags": {"critcore": {"system": system, "table": table.id, "range": [table.low, table.high],
                               "rolled": rolled}},
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
