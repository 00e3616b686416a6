"""Row schemas: what the engine reads from a table's rows, declared in the table file and checked at load.

A table file declares, for each effect code its rows carry, the numbers and words a row of
that effect holds (besides ``roll``, ``id``, ``effect`` and ``text``), in the form of
:mod:`critcore.schema` (the one target schemas use)::

    [row_schema.effects.damage]                     # the rows whose effect = "damage"
    multiplier = { type = "int", min = 1, max = 100 }
    dr_factor = { type = "number", min = 0, max = 1 }
    drop_held = "bool"

    [row_schema.effects.location]
    location = { type = "str", choices = ["skull", "face", "torso"], required = true }

    [row_schema.types]                              # named types the effects share (optional)
    turns = { type = "int", min = 1, max = 100 }

Each ``effects.CODE`` is the field table of a ``type = "table"`` schema type: a key not declared
is refused (with a did-you-mean), ``required = true`` marks the keys the engine cannot do
without, and every number is finite and within its bounds. A row whose effect has no entry is
refused, so a row moved to a table whose engine code does not read it fails at load, not at
the roll. ``ref = "rows"`` makes a value name another row of the same table (by id).

Besides the schema types, ``type = "dice"`` takes a dice roll text (``"1d-3"``) whose lowest and
highest totals lie within ``min`` and ``max``. ``[row_schema.one_of]`` names, for an effect, keys
of which a row needs at least one (``fail-injury = ["injury", "injury_dice"]``: a fixed injury,
else a roll); ``[row_schema.together]`` keys a row has all of or none of.

A table that declares no ``[row_schema]`` has its rows checked for shape only (roll, id, effect,
text): the systems shipped with critcore all declare one (a test checks it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Iterable

from .errors import PluginError, TableError

ROW_SCHEMA_KEYS = frozenset({"effects", "types", "one_of", "together", "doc"})


def _types() -> type:
    """The schema class rows are checked with: :class:`critcore.schema.Schema` plus ``dice``."""
    from .schema import LIMIT, Bad, Schema, show

    class RowTypes(Schema):
        """Schema types, plus ``dice``: text critcore's dice read (``"2d6"``, ``"1d-3"``), whose
        lowest and highest totals must lie within ``min`` and ``max``."""

        def _one(self, kind: Any, spec: Mapping[str, Any], where: str) -> Any:
            if kind == "dice":
                return "str", self._make_dice(spec, where)
            return super()._one(kind, spec, where)

        def _base(self, kind: str) -> str:
            return "str" if kind == "dice" else super()._base(kind)

        def _make_dice(self, spec: Mapping[str, Any], where: str) -> Any:
            lo = self._bound(spec, "min", where, -LIMIT)
            hi = self._bound(spec, "max", where, LIMIT)

            def check_dice(value: Any, walk: Any) -> Any:
                from .dice import parse
                from .errors import DiceError

                if not isinstance(value, str):
                    raise Bad(f"must be a dice roll like \"2d6\", not {show(value)}")
                try:
                    expr = parse(value)
                except DiceError as exc:
                    raise Bad(f"{show(value)} is not a dice roll ({exc})") from None
                if expr.minimum < lo or expr.maximum > hi:
                    allowed = (f"at most {_num(hi)}" if lo <= -LIMIT else f"at least {_num(lo)}" if hi >= LIMIT
                               else f"{_num(lo)} to {_num(hi)}")
                    raise Bad(f"{show(value)} rolls {expr.minimum} to {expr.maximum}; this field allows {allowed}")
                return str(value)

            return check_dice

    return RowTypes


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(x)


class RowSchema:
    """A table's compiled row schema: ``check(row, where, text)`` refuses a row in one line."""

    def __init__(self, spec: Any, origin: str) -> None:
        _RowTypes = _types()
        if not isinstance(spec, Mapping):
            raise TableError(f"{origin}: row_schema must be a table with [row_schema.effects.CODE] sections")
        unknown = set(spec) - ROW_SCHEMA_KEYS
        if unknown:
            raise TableError(f"{origin}: row_schema takes effects, types, one_of, together and doc, not {', '.join(sorted(unknown))}")
        effects = spec.get("effects", {})
        types = spec.get("types", {})
        if not isinstance(effects, Mapping) or not effects or not isinstance(types, Mapping):
            raise TableError(f"{origin}: row_schema needs [row_schema.effects.CODE] tables (and types a table)")
        named: dict[str, Any] = dict(types)
        for code, fields in effects.items():
            if not isinstance(fields, Mapping):
                raise TableError(f"{origin}: row_schema.effects.{code} must be a table of field = type")
            named[f"effect {code}"] = {"type": "table", "fields": fields}
        try:
            self.schema = _RowTypes({"types": named, "root": f"effect {next(iter(effects))}"}, f"{origin}: row_schema")
        except PluginError as exc:
            raise TableError(str(exc)) from None
        self.checkers = {code: self.schema.named(f"effect {code}") for code in effects}
        self.fields = {code: frozenset(fields) for code, fields in effects.items()}
        self.one_of = _key_groups(spec, "one_of", effects, origin)
        self.together = _key_groups(spec, "together", effects, origin)
        self.origin = origin

    def codes(self) -> tuple[str, ...]:
        return tuple(self.checkers)

    def check(self, code: str, row_id: str, data: Mapping[str, Any], ids: Iterable[str], where: str,
              text: str | None = None, line: int | None = None) -> None:
        """Refuse a row (TableError) whose numbers do not fit its effect's schema.

        ``where`` names the file (and the row's line); given the file's ``text`` and the row's
        ``line``, the error points at the line of the offending key instead.
        """
        from .schema import Bad, Walk, path_text

        checker = self.checkers.get(code)
        if checker is None:
            raise TableError(f"{where}: row {row_id!r}: this table's rows take effect "
                             f"{' or '.join(self.checkers)}, not {code!r} (its row_schema declares no other)")
        try:
            checker(data, Walk({"rows": dict.fromkeys(ids, True)}))
        except Bad as bad:
            parts = bad.parts[::-1]
            at = where
            # the key at fault: the first of the path, else (a key not declared) the first unknown one
            key = parts[0] if parts else next((k for k in data if k not in self.fields[code]), None)
            if key is not None and text is not None and line is not None:
                key_at = field_line(text, line, str(key))
                if key_at is not None:
                    at = _with_line(where, key_at)
            path = path_text(parts)
            raise TableError(f"{at}: row {row_id!r}: {path + ': ' if path else ''}{bad.what}") from None
        keys = self.one_of.get(code)
        if keys is not None and not any(data.get(k) is not None for k in keys):
            raise TableError(f"{where}: row {row_id!r}: a row of effect {code!r} needs one of "
                             f"{', '.join(map(repr, keys))}")
        keys = self.together.get(code)
        if keys is not None and 0 < sum(k in data for k in keys) < len(keys):
            missing = [k for k in keys if k not in data]
            raise TableError(f"{where}: row {row_id!r}: {', '.join(map(repr, keys))} go together "
                             f"(this row has no {', '.join(map(repr, missing))})")


def _key_groups(spec: Mapping[str, Any], name: str, effects: Mapping[str, Any], origin: str
                ) -> dict[str, tuple[str, ...]]:
    """``[row_schema.one_of]`` or ``[row_schema.together]``: for an effect, a list of its keys."""
    groups = spec.get(name, {})
    if not isinstance(groups, Mapping) or not all(
            isinstance(code, str) and code in effects and isinstance(keys, list) and keys
            and all(isinstance(k, str) and k in effects[code] for k in keys)
            for code, keys in groups.items()):
        raise TableError(f"{origin}: row_schema.{name} must give, for an effect, a list of its declared keys")
    return {code: tuple(keys) for code, keys in groups.items()}


def of(table: Any) -> RowSchema | None:
    """The compiled row schema of a :class:`critcore.tables.Table` (None if it declares none),
    compiled on first use and kept on the table."""
    found: RowSchema | None = table.__dict__.get("_row_checker")
    if found is None and table.row_schema is not None:
        found = table.__dict__["_row_checker"] = RowSchema(table.row_schema, table.source or table.id)
    return found


def field_line(text: str, header_line: int, key: str) -> int | None:
    """The line of ``key = ...`` in the TOML table that starts at ``header_line`` (1-based)."""
    lines = text.splitlines()
    for number in range(header_line, len(lines)):  # the lines after the header
        stripped = lines[number].lstrip()
        if stripped.startswith("["):
            return None
        name = stripped.split("=", 1)[0].strip().strip("\"'") if "=" in stripped else None
        if name == key:
            return number + 1
    return None


def _with_line(where: str, line: int) -> str:
    """``"file, line 10"`` -> ``"file, line 12"`` (or the line added)."""
    head, sep, tail = where.rpartition(", line ")
    if sep and tail.isdigit():
        return f"{head}, line {line}"
    return f"{where}, line {line}"


def check_rows(schema: RowSchema, rows: Iterable[Any], source: str, text: str | None = None) -> None:
    """Check rows (:class:`critcore.tables.Row`) against ``schema``; errors name ``source`` and the line."""
    rows = list(rows)
    ids = [r.id for r in rows]
    for row in rows:
        where = f"{source}, line {row.line}" if row.line else source
        schema.check(row.code, row.id, row.data, ids, where, text, row.line)
