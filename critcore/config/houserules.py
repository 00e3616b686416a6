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

Each added row is checked against its table's row schema (:mod:`critcore.tables.rowschema`: the types
and ranges of the numbers the engine reads), when the file loads, before any roll. After the
changes every table must still cover its roll range exactly once; every error names
the file and line. Rule files apply in the order they are enabled; two files changing the same
row (or option) is an error unless the later one lists the earlier in ``overrides``.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any, Iterable

from critcore.tables import rowschema
from critcore.files import toml as _toml
from critcore.errors import ConfigError, TableError, UnknownNameError
from critcore.model import Note, SystemInfo
from critcore.stages.loader import did_you_mean
from critcore.tables.tableset import Row, Table, TableSet, check_cover, make_row, row_lines

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
    from critcore.files.reading import load_toml, read_text

    if not os.path.lexists(path):
        raise UnknownNameError(f"{path}: house-rule file not found")
    text = read_text(path, "house-rule file", ConfigError)  # size-limited; devices and FIFOs refused
    return load_toml(text, path, ConfigError), text



class RuleFile:
    """One house-rule file as read: its data and text, its name, and where each key is."""

    def __init__(self, path: str, data: dict[str, Any], text: str) -> None:
        self.path = path
        self.data = data
        self.text = text
        self.name: str = data.get("name", rule_name(path))
        self.overrides: list[str] = []

    def at(self, key: str, section: str | None = None) -> str:
        """The file and the line of ``key`` (in ``section``), for an error."""
        return _toml.at(self.path, self.text, key, section)


class Changes:
    """What the enabled rule files add up to so far, and which rule owns each change (a later
    rule may replace a change only if it lists the owner in ``overrides``)."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self.options: dict[str, Any] = {}
        self.sources: dict[str, str] = {}  # option -> where it was set
        self.option_owner: dict[str, str] = {}
        self.row_owner: dict[tuple[str, str], str] = {}
        self.notes: list[Note] = []


def apply_rule_files(
    info: SystemInfo, tables: TableSet, paths: Iterable[str]
) -> tuple[TableSet, dict[str, Any], list[Note], dict[str, str]]:
    """Apply rule files for ``info``'s system: new tables, option values, notes, and where each
    option was set (for errors).

    Files written for another system are skipped (a campaign may enable rules for several).
    """
    changes = Changes()
    for path in _each_file_once(paths):
        rule = read_rule(path)
        if rule.data["system"] != info.name:
            continue
        rule.overrides = _overrides(rule)
        _apply_options(rule, info, changes)
        _apply_table_changes(rule, info, tables, changes)
        summary = rule.data.get("summary", "")
        changes.notes.append(Note(f"house rule {rule.name!r} enabled" + (f": {summary}" if summary else ""),
                                  by=rule.name, stage="rules"))
    return tables.with_overrides(changes.tables), changes.options, changes.notes, changes.sources


def _each_file_once(paths: Iterable[str]) -> Iterable[str]:
    """The same file enabled twice (config and --rule, or by two paths) counts once."""
    seen: set[str] = set()
    for path in paths:
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            yield path


def read_rule(path: str) -> RuleFile:
    """A rule file read and checked for what every rule file must have (known keys, a name, the
    system it is for), whichever system it is for."""
    data, text = read_rule_file(path)
    rule = RuleFile(path, data, text)
    for key in data:
        if key not in RULE_KEYS:
            raise ConfigError(f"{rule.at(key)}: unknown key {key!r}{did_you_mean(key, RULE_KEYS)} "
                              f"(a rule file may hold: {', '.join(sorted(RULE_KEYS))})")
    if not isinstance(rule.name, str) or not rule.name:
        raise ConfigError(f"{rule.at('name')}: name must be text (the rule's name)")
    if not isinstance(data.get("system"), str):
        raise ConfigError(f"{path}: a house-rule file must say which system it is for (system = \"...\")")
    return rule


def _overrides(rule: RuleFile) -> list[str]:
    overrides = rule.data.get("overrides", [])
    if not isinstance(overrides, list) or not all(isinstance(o, str) for o in overrides):
        raise ConfigError(f"{rule.at('overrides')}: overrides must be a list of rule names")
    return overrides


def _apply_options(rule: RuleFile, info: SystemInfo, changes: Changes) -> None:
    """The rule's ``[options]``: each a known option of the system, not set by another rule
    unless this one overrides it."""
    opts = rule.data.get("options", {})
    if not isinstance(opts, dict):
        raise ConfigError(f"{rule.at('options')}: options must be a table of option = value")
    for key, value in opts.items():
        where = rule.at(key, "options")
        if info.option(key) is None:
            known = [o.name for o in info.options]
            raise ConfigError(f"{where}: {info.name} has no option {key!r}"
                              f"{did_you_mean(key, known)} (options: {', '.join(known) or 'none'})")
        owner = changes.option_owner.get(key)
        if owner is not None and owner not in rule.overrides:
            raise ConfigError(f"{where}: option {key!r} is already set by house rule "
                              f"{owner!r}; add overrides = [\"{owner}\"] to let {rule.name!r} replace it")
        changes.option_owner[key] = rule.name
        changes.options[key] = value
        changes.sources[key] = where
        changes.notes.append(Note(f"option {key} = {value!r}", by=rule.name, stage="rules"))


def _apply_table_changes(rule: RuleFile, info: SystemInfo, tables: TableSet, changes: Changes) -> None:
    """The rule's ``[tables.NAME]`` sections, each applied to the table as earlier rules left it."""
    table_changes = rule.data.get("tables", {})
    if not isinstance(table_changes, dict):
        raise ConfigError(f"{rule.at('tables')}: tables must be a table of [tables.NAME] sections")
    for table_id, change in table_changes.items():
        if table_id not in tables.names():
            raise ConfigError(f"{rule.path}: unknown table {table_id!r}{did_you_mean(table_id, tables.names())}"
                              f" ({info.name} tables: {', '.join(tables.names())})")
        base = changes.tables.get(table_id) or tables[table_id]
        if isinstance(change, dict) and "row_schema" in change:
            base = _widen(base, change["row_schema"], rule, changes, table_id, info.effect_codes or None, tables)
        changes.tables[table_id] = _change_table(base, change, rule, changes, table_id, info.effect_codes or None)


def _change_table(table: Table, change: Any, rule: RuleFile, changes: Changes, table_id: str,
                  effect_codes: frozenset[str] | None) -> Table:
    """``[tables.NAME]``: rows removed, rows added or replaced, then the roll range covered once."""
    where = rule.path
    if not isinstance(change, dict):
        raise ConfigError(f"{where}: [tables.{table_id}] must be a table with remove = [...] and/or [[tables.{table_id}.row]]")
    unknown = set(change) - {"remove", "row", "row_schema"}
    if unknown:
        key = sorted(unknown)[0]
        raise ConfigError(f"{rule.at(key, f'tables.{table_id}')}: [tables.{table_id}] may hold "
                          f"remove, row and row_schema, not {key!r}")
    rows = {r.id: r for r in table.rows}
    _remove_rows(rows, change.get("remove", []), rule, changes, table_id)
    _add_rows(rows, change.get("row", []), table, rule, changes, table_id, effect_codes)
    name = rule.name

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


def _widen(table: Table, declared: Any, rule: RuleFile, changes: Changes, table_id: str,
           effect_codes: frozenset[str] | None, tables: TableSet) -> Table:
    """``[tables.NAME.row_schema.effects]``: more effects the table takes, each in a row type it
    already reads and another table reads that effect in (:func:`critcore.tables.rowschema.widen`),
    applied before the rule's rows are checked."""
    section = f"tables.{table_id}.row_schema"
    if not isinstance(declared, dict) or set(declared) != {"effects"}:
        raise ConfigError(f"{rule.at('row_schema', f'tables.{table_id}')}: [{section}] may hold only "
                          f"[{section}.effects] (CODE = \"row type\")")

    def at(code: str | None) -> str:
        return rule.at(code, f"{section}.effects") if code is not None else rule.path

    try:
        wider = rowschema.widen(table, declared["effects"], at,
                                lambda: rowschema.read_as(tables[name] for name in tables.names()), effect_codes)
    except TableError as exc:
        raise ConfigError(str(exc)) from None
    for code in set(wider["effects"]) - set(table.row_schema["effects"]):
        changes.notes.append(Note(f"table {table_id}: takes effect {code} ({wider['effects'][code]})",
                                  by=rule.name, stage="rules"))
    return replace(table, row_schema=wider)


def _claim(rule: RuleFile, changes: Changes, table_id: str, row_id: str, at: str) -> None:
    """This rule changes the row: refused if another rule changed it and is not overridden."""
    owner = changes.row_owner.get((table_id, row_id))
    if owner is not None and owner != rule.name and owner not in rule.overrides:
        raise ConfigError(f"{at}: row {row_id!r} of {table_id} is already changed by house rule {owner!r}; "
                          f"add overrides = [\"{owner}\"] to let {rule.name!r} replace it")
    changes.row_owner[(table_id, row_id)] = rule.name


def _remove_rows(rows: dict[str, Row], remove: Any, rule: RuleFile, changes: Changes, table_id: str) -> None:
    """``remove = [...]``: the rows taken out, each one the table has."""
    if not isinstance(remove, list) or not all(isinstance(r, str) for r in remove):
        raise ConfigError(f"{rule.path}: remove in [tables.{table_id}] must be a list of row ids")
    at = rule.at("remove", f"tables.{table_id}")
    for row_id in remove:
        if row_id not in rows:
            raise ConfigError(f"{at}: {table_id} has no row {row_id!r}{did_you_mean(row_id, rows)}")
        _claim(rule, changes, table_id, row_id, at)
        del rows[row_id]
        changes.notes.append(Note(f"table {table_id}: row {row_id!r} removed", by=rule.name, stage="rules"))


def _add_rows(rows: dict[str, Row], raw_rows: Any, table: Table, rule: RuleFile, changes: Changes, table_id: str,
              effect_codes: frozenset[str] | None) -> None:
    """``[[tables.NAME.row]]``: each row made and checked against the table's row schema (the
    numbers the engine reads) before any roll, added or replacing the row of its id."""
    if not isinstance(raw_rows, list):
        raise ConfigError(f"{rule.path}: [[tables.{table_id}.row]] must be an array of tables")
    lines = row_lines(rule.text, f"tables.{table_id}.row")
    checker = rowschema.of(table) if raw_rows else None
    for n, raw in enumerate(raw_rows):
        line = lines[n] if n < len(lines) else None
        at = f"{rule.path}, line {line}" if line else f"{rule.path}, {table_id} row {n + 1}"
        try:
            row = make_row(raw, at, effect_codes, line)
            if checker is not None:
                ids = set(rows) | {r["id"] for r in raw_rows if isinstance(r, dict) and isinstance(r.get("id"), str)}
                checker.check(row.code, row.id, row.data, ids, at, rule.text, line)
        except TableError as exc:
            raise ConfigError(str(exc)) from None
        _claim(rule, changes, table_id, row.id, at)
        rows[row.id] = replace(row, changed_by=rule.name)
