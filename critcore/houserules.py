"""House rules as TOML files: data only, nothing in them is executed.

A rule file names its system and may set options and change table rows::

    system = "gurps"
    summary = "Criticals hurt more at our table"
    overrides = ["gentle-crits"]      # rule files (by name) whose changes this one may replace

    [options]
    extended_critical_range = true

    [tables.critical-hit]
    remove = ["normal-9-11"]          # row ids taken out

    [[tables.critical-hit.row]]       # rows added, or replacing the row of the same id
    roll = "9-10"
    id = "normal-9-10"
    effect = "normal-damage"
    text = "Ordinary damage."

Each added row is checked against its table's row schema (:mod:`critcore.rowschema`: the types
and ranges of the numbers the engine reads), when the file loads, before any roll. After the
changes every table must still cover its roll range exactly once; every error names
the file and line. Rule files apply in the order they are enabled; two files changing the same
row (or option) is an error unless the later one lists the earlier in ``overrides``.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any, Iterable

from . import rowschema
from ._toml import key_line
from .errors import ConfigError, TableError, UnknownNameError
from .model import Note, SystemInfo
from .plugins import did_you_mean
from .tables import Row, Table, TableSet, check_cover, make_row, row_lines

RULE_KEYS = {"system", "name", "summary", "overrides", "options", "tables"}


def is_rule_file(rule: str) -> bool:
    """A rule given as a path (``*.toml`` or containing a path separator) is a TOML rule file."""
    return rule.endswith(".toml") or os.sep in rule or "/" in rule


def split_rules(rules: Iterable[str]) -> tuple[list[str], list[str]]:
    """Separate rule plugin names from rule file paths, keeping the order of each."""
    names: list[str] = []
    files: list[str] = []
    for rule in rules:
        (files if is_rule_file(rule) else names).append(rule)
    return names, files


def rule_name(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def read_rule_file(path: str) -> tuple[dict[str, Any], str]:
    from .files import load_toml, read_text

    if not os.path.lexists(path):
        raise UnknownNameError(f"{path}: house-rule file not found")
    text = read_text(path, "house-rule file", ConfigError)  # size-limited; devices and FIFOs refused
    return load_toml(text, path, ConfigError), text



def apply_rule_files(
    info: SystemInfo, tables: TableSet, paths: Iterable[str]
) -> tuple[TableSet, dict[str, Any], list[Note], dict[str, str]]:
    """Apply rule files for ``info``'s system: new tables, option values, notes, and where each
    option was set (for errors).

    Files written for another system are skipped (a campaign may enable rules for several).
    """
    changed_tables: dict[str, Table] = {}
    options: dict[str, Any] = {}
    option_owner: dict[str, str] = {}
    sources: dict[str, str] = {}
    row_owner: dict[tuple[str, str], str] = {}
    notes: list[Note] = []
    seen: set[str] = set()
    for path in paths:
        real = os.path.realpath(path)
        if real in seen:  # the same file enabled twice (config and --rule): once is enough
            continue
        seen.add(real)
        data, text = read_rule_file(path)
        name = data.get("name", rule_name(path))
        where = path

        def at(key: str, section: str | None = None) -> str:
            line = key_line(text, key, section)
            return f"{where}, line {line}" if line else where

        for key in data:
            if key not in RULE_KEYS:
                raise ConfigError(f"{at(key)}: unknown key {key!r}{did_you_mean(key, RULE_KEYS)} "
                                  f"(a rule file may hold: {', '.join(sorted(RULE_KEYS))})")
        if not isinstance(name, str) or not name:
            raise ConfigError(f"{at('name')}: name must be text (the rule's name)")
        system = data.get("system")
        if not isinstance(system, str):
            raise ConfigError(f"{where}: a house-rule file must say which system it is for (system = \"...\")")
        if system != info.name:
            continue
        overrides = data.get("overrides", [])
        if not isinstance(overrides, list) or not all(isinstance(o, str) for o in overrides):
            raise ConfigError(f"{at('overrides')}: overrides must be a list of rule names")
        summary = data.get("summary", "")
        opts = data.get("options", {})
        if not isinstance(opts, dict):
            raise ConfigError(f"{at('options')}: options must be a table of option = value")
        for key, value in opts.items():
            if info.option(key) is None:
                known = [o.name for o in info.options]
                raise ConfigError(f"{at(key, 'options')}: {info.name} has no option {key!r}"
                                  f"{did_you_mean(key, known)} (options: {', '.join(known) or 'none'})")
            owner = option_owner.get(key)
            if owner is not None and owner not in overrides:
                raise ConfigError(f"{at(key, 'options')}: option {key!r} is already set by house rule "
                                  f"{owner!r}; add overrides = [\"{owner}\"] to let {name!r} replace it")
            option_owner[key] = name
            options[key] = value
            sources[key] = at(key, "options")
            notes.append(Note(f"option {key} = {value!r}", by=name, stage="rules"))
        table_changes = data.get("tables", {})
        if not isinstance(table_changes, dict):
            raise ConfigError(f"{at('tables')}: tables must be a table of [tables.NAME] sections")
        for table_id, change in table_changes.items():
            if table_id not in tables.names():
                raise ConfigError(f"{where}: unknown table {table_id!r}{did_you_mean(table_id, tables.names())}"
                                  f" ({info.name} tables: {', '.join(tables.names())})")
            base = changed_tables.get(table_id) or tables[table_id]
            new_table = _change_table(base, change, name, overrides, row_owner, where, text, table_id,
                                      info.effect_codes or None, notes)
            changed_tables[table_id] = new_table
        notes.append(Note(f"house rule {name!r} enabled" + (f": {summary}" if summary else ""), by=name, stage="rules"))
    return tables.with_overrides(changed_tables), options, notes, sources


def _change_table(
    table: Table, change: Any, name: str, overrides: list[str], row_owner: dict[tuple[str, str], str],
    where: str, text: str, table_id: str, effect_codes: frozenset[str] | None, notes: list[Note],
) -> Table:
    if not isinstance(change, dict):
        raise ConfigError(f"{where}: [tables.{table_id}] must be a table with remove = [...] and/or [[tables.{table_id}.row]]")
    unknown = set(change) - {"remove", "row"}
    if unknown:
        key = sorted(unknown)[0]
        line = key_line(text, key, f"tables.{table_id}")
        raise ConfigError(f"{where}{f', line {line}' if line else ''}: [tables.{table_id}] may hold "
                          f"remove and row, not {key!r}")
    rows = {r.id: r for r in table.rows}

    def claim(row_id: str, at: str) -> None:
        owner = row_owner.get((table_id, row_id))
        if owner is not None and owner != name and owner not in overrides:
            raise ConfigError(f"{at}: row {row_id!r} of {table_id} is already changed by house rule {owner!r}; "
                              f"add overrides = [\"{owner}\"] to let {name!r} replace it")
        row_owner[(table_id, row_id)] = name

    remove = change.get("remove", [])
    if not isinstance(remove, list) or not all(isinstance(r, str) for r in remove):
        raise ConfigError(f"{where}: remove in [tables.{table_id}] must be a list of row ids")
    remove_line = key_line(text, "remove", f"tables.{table_id}")
    at_remove = f"{where}, line {remove_line}" if remove_line else where
    for row_id in remove:
        if row_id not in rows:
            raise ConfigError(f"{at_remove}: {table_id} has no row {row_id!r}{did_you_mean(row_id, rows)}")
        claim(row_id, at_remove)
        del rows[row_id]
        notes.append(Note(f"table {table_id}: row {row_id!r} removed", by=name, stage="rules"))
    raw_rows = change.get("row", [])
    if not isinstance(raw_rows, list):
        raise ConfigError(f"{where}: [[tables.{table_id}.row]] must be an array of tables")
    lines = row_lines(text, f"tables.{table_id}.row")
    checker = rowschema.of(table) if raw_rows else None
    for n, raw in enumerate(raw_rows):
        line = lines[n] if n < len(lines) else None
        at = f"{where}, line {line}" if line else f"{where}, {table_id} row {n + 1}"
        try:
            row = make_row(raw, at, effect_codes, line)
            if checker is not None:  # the numbers the engine reads, checked before any roll
                ids = set(rows) | {r["id"] for r in raw_rows if isinstance(r, dict) and isinstance(r.get("id"), str)}
                checker.check(row.code, row.id, row.data, ids, at, text, line)
        except TableError as exc:
            raise ConfigError(str(exc)) from None
        claim(row.id, at)
        rows[row.id] = replace(row, changed_by=name)

    def row_at(row: Row) -> str:
        if row.changed_by == name:
            return f"{where}, line {row.line}" if row.line else where
        who = f"house rule {row.changed_by!r}" if row.changed_by else "the system"
        return f"{where} (table {table_id}, row {row.id!r} from {who})"

    try:
        check_cover(rows.values(), table.low, table.high, f"{where} (table {table_id} after the rule's changes)", row_at)
    except TableError as exc:
        raise ConfigError(str(exc)) from None
    return replace(table, rows=tuple(sorted(rows.values(), key=lambda r: r.low)), source=f"{table.source} + {where}")

