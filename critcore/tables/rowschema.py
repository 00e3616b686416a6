"""Row schemas: what the engine reads from a table's rows, declared in the table file and checked at load.

A table file declares, for each effect code its rows carry, the numbers and words a row of
that effect holds (besides ``roll``, ``id``, ``effect`` and ``text``), in the form of
:mod:`critcore.tables.schema` (the one target schemas use)::

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

Named row types, declared once for a whole system: a file ``row-types.toml`` in the system's
tables folder (it is not a table) holds ``[types]`` in the same form, which every table of the
system (and every house-rule file) may use by name. A type whose ``type = "table"`` is a *row
type*, the shape of a row, and an effect names it instead of listing its fields::

    # row-types.toml
    [types.mortal-critical]
    type = "table"
    [types.mortal-critical.fields]
    part = { type = "str", max_length = 80, required = true }
    diagnosis_tn = { type = "target_number", required = true }

    [types.target_number]
    type = "int"
    min = 1
    max = 100

    # critical-head.toml
    [row_schema.effects]
    brain = "mortal-critical"
    artery = "mortal-critical"

A house-rule file may let a table take another of the system's effects in a row type the table
already reads and another table reads that effect in
(``[tables.critical-abdomen.row_schema.effects] heart = "mortal-critical"``: see :func:`widen`). A reference to a type that is not declared is one line naming the file and the
line, with a did-you-mean.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Iterable, Protocol

from critcore.files.toml import at, key_line
from critcore.errors import PluginError, TableError

ROW_SCHEMA_KEYS = frozenset({"effects", "types", "one_of", "together", "doc"})
"""The file (``row-types.toml``) in a system's tables folder that holds its named row types."""
TYPES_FILE_KEYS = frozenset({"types", "doc"})
DICE = "dice"  # the one type row schemas add to critcore.tables.schema's
EFFECT = "effect "  # the prefix of the named type each effect's own fields are compiled as


def _types() -> type:
    """The schema class rows are checked with: :class:`critcore.tables.schema.Schema` plus ``dice``."""
    from critcore.tables.schema import Schema
    from critcore.tables.walk import LIMIT, Bad, show

    class RowTypes(Schema):
        """Schema types, plus ``dice``: text critcore's dice read (``"2d6"``, ``"1d-3"``), whose
        lowest and highest totals must lie within ``min`` and ``max``."""

        extra_types = (DICE,)

        def referable(self) -> list[str]:  # not the names this module gives the effects' own rows
            return [n for n in self.types if not n.startswith(EFFECT)]

        def _one(self, kind: Any, spec: Mapping[str, Any], where: str) -> Any:
            if kind == "dice":
                return "str", self._make_dice(spec, where)
            return super()._one(kind, spec, where)

        def _bad(self, where: str, what: str) -> PluginError:
            return _Fault(self.origin, where, what)

        def _base(self, kind: str) -> str:
            return "str" if kind == "dice" else super()._base(kind)

        def _make_dice(self, spec: Mapping[str, Any], where: str) -> Any:
            lo = self._bound(spec, "min", where, -LIMIT)
            hi = self._bound(spec, "max", where, LIMIT)

            def check_dice(value: Any, walk: Any) -> Any:
                from critcore.dice.notation import parse
                from critcore.errors import DiceError

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


class _Fault(PluginError):
    """A fault in a schema, with where the schema code found it (``type NAME.FIELD``): the line
    of the file is worked out from that."""

    def __init__(self, origin: str, where: str, what: str) -> None:
        super().__init__(f"{origin}: {where}: {what}")
        self.where = where
        self.what = what


class Place:
    """A TOML file's name and text, to point an error at a line: ``at(section, key)``."""

    def __init__(self, source: str, text: str | None) -> None:
        self.source = source
        self.text = text

    def line(self, section: str | None, key: str) -> int | None:
        """The line of ``key = ...`` in ``[section]`` (at the top with None; None if not found)."""
        return None if self.text is None else key_line(self.text, key, section)

    def at(self, section: str, key: str | None = None) -> str:
        """``"file, line N"`` (see :func:`critcore.files.toml.at`)."""
        return at(self.source, self.text, key, section)


def row_fields(known: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    """The fields of the row type ``name`` (a named type whose ``type = "table"``, directly or
    through other names), or None if it is not one."""
    seen = {name}
    spec = known.get(name)
    while True:
        if isinstance(spec, str):
            spec = {"type": spec}
        if not isinstance(spec, Mapping):
            return None
        kind = spec.get("type", "any")
        if kind == "table":
            fields = spec.get("fields", {})
            return fields if isinstance(fields, Mapping) else None
        if not isinstance(kind, str) or kind not in known or kind in seen:
            return None
        seen.add(kind)
        spec = known[kind]


def _row_type_error(known: Mapping[str, Any], name: Any, at: str, what: str) -> TableError:
    """``name`` names no row type: unknown (with a did-you-mean), or a type that is not a row."""
    from critcore.tables.walk import did_you_mean

    rows = [n for n in known if row_fields(known, n) is not None]
    if isinstance(name, str) and name in known:
        return TableError(f"{at}: {what}: type {name!r} is not a row type (a row type is a named type with "
                          f"type = \"table\" and its fields; row types here: {', '.join(rows) or 'none'})")
    hint = (did_you_mean(name, rows) if isinstance(name, str) else "") or f" (row types here: {', '.join(rows) or 'none'})"
    return TableError(f"{at}: {what}: unknown row type {name!r}{hint}")


Locate = Callable[[str], tuple[str, str]]


def _compile(schema_class: Any, named: Mapping[str, Any], root: str, origin: str, locate: Locate) -> Any:
    """``schema_class`` built over ``named``; a fault is one TableError at its file and line
    (``locate(where)`` gives ``(file and line, dotted name)`` for the schema's ``type NAME.FIELD``)."""
    try:
        return schema_class({"types": named, "root": root}, origin)
    except _Fault as fault:
        at, name = locate(fault.where[5:] if fault.where.startswith("type ") else fault.where)
        raise TableError(f"{at}: {name}: {fault.what}") from None
    except PluginError as exc:
        raise TableError(str(exc)) from None


def _locate_in(place: Place, section: str, types: Mapping[str, Any]) -> Locate:
    """For :func:`_compile`: a fault in named type ``NAME.FIELD...`` (or ``NAME.items`` and the
    like, for a type without fields) of ``[section]``, whose types are ``types``: the field's
    line, else the type's."""
    def locate(name: str) -> tuple[str, str]:
        type_name, _, rest = name.partition(".")
        spec = types.get(type_name)
        has_fields = isinstance(spec, Mapping) and isinstance(spec.get("fields"), Mapping)
        field = rest.split(".", 1)[0]
        at = place.at(f"{section}.{type_name}.fields", field) if field and has_fields else place.source
        if at == place.source:  # a field written inline, or a fault in the type itself: the type's line
            at = place.at(section, type_name)
        inside = ".fields" if rest and has_fields else ""
        return at, f"{section}.{type_name}{inside}.{rest}" if rest else f"{section}.{type_name}"
    return locate


def check_types_file(data: Mapping[str, Any], source: str, text: str | None = None) -> None:
    """A ``row-types.toml``: ``[types]`` (and ``doc``), each type well formed; one line at the
    offending key otherwise."""
    place = Place(source, text)
    for key in data:
        if key not in TYPES_FILE_KEYS:
            raise TableError(f"{at(source, text, key)}: a row-types file holds [types] "
                             f"(and doc), not {key!r}")
    types = data.get("types", {})
    if not isinstance(types, Mapping):
        raise TableError(f"{place.at('types')}: types must be a table of named types ([types.NAME])")
    if types:
        _compile(_types(), types, next(iter(types)), source, _locate_in(place, "types", types))


class NamedTypes(Protocol):
    """A system's named row types, as :class:`critcore.tables.tableset.SystemTypes` holds them."""

    @property
    def types(self) -> Mapping[str, Any]: ...

    def at(self, name: str) -> str: ...


class RowSchema:
    """A table's compiled row schema: ``check(row, where, text)`` refuses a row in one line.

    ``system`` holds the system's named row types (``row-types.toml``), which the table may use
    besides its own ``[row_schema.types]``; ``text`` (the table file's) lets an error in the
    schema name its line.
    """

    def __init__(self, spec: Any, origin: str, system: NamedTypes | None = None, text: str | None = None) -> None:
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
        place = Place(origin, text)
        shared: Mapping[str, Any] = system.types if system is not None else {}
        for name in types:
            if system is not None and name in shared:
                raise TableError(f"{place.at('row_schema.types', name)}: row_schema.types.{name}: the system's "
                                 f"row types ({system.at(name)}) already declare {name!r}; give this one another name")
        known: dict[str, Any] = {**shared, **types}
        named: dict[str, Any] = dict(known)
        fields_of: dict[str, Mapping[str, Any]] = {}
        self.shapes: dict[str, str | None] = {}  # effect code -> the row type it names (None: its own fields)
        for code, declared in effects.items():
            if isinstance(declared, str):
                found = row_fields(known, declared)
                if found is None:
                    raise _row_type_error(known, declared, place.at("row_schema.effects", code),
                                          f"row_schema.effects.{code}")
                named[f"{EFFECT}{code}"] = declared
                fields_of[code] = found
                self.shapes[code] = declared
            elif isinstance(declared, Mapping):
                named[f"{EFFECT}{code}"] = {"type": "table", "fields": declared}
                fields_of[code] = declared
                self.shapes[code] = None
            else:
                raise TableError(f"{place.at('row_schema.effects', code)}: row_schema.effects.{code} must be a "
                                 "table of field = type, or the name of a row type")

        def locate(name: str) -> tuple[str, str]:
            if name.startswith(EFFECT):
                code, _, rest = name[len(EFFECT):].partition(".")
                field = rest.split(".", 1)[0]
                at = place.at(f"row_schema.effects.{code}", field) if field else place.source
                if at == place.source:  # a field written inline, or the effect itself
                    at = place.at("row_schema.effects", code)
                return at, f"row_schema.effects.{name[len(EFFECT):]}"
            if name.partition(".")[0] in shared and system is not None:
                return system.at(name.partition(".")[0]), f"types.{name}"
            return _locate_in(place, "row_schema.types", types)(name)

        self.schema = _compile(_RowTypes, named, f"{EFFECT}{next(iter(effects))}", f"{origin}: row_schema", locate)
        self.types: Mapping[str, Any] = known
        self.checkers = {code: self.schema.named(f"{EFFECT}{code}") for code in effects}
        self.fields = {code: frozenset(fields) for code, fields in fields_of.items()}
        self.one_of = _key_groups(spec, "one_of", fields_of, origin)
        self.together = _key_groups(spec, "together", fields_of, origin)
        self.origin = origin

    def codes(self) -> tuple[str, ...]:
        return tuple(self.checkers)

    def check(self, code: str, row_id: str, data: Mapping[str, Any], ids: Iterable[str], where: str,
              text: str | None = None, line: int | None = None) -> None:
        """Refuse a row (TableError) whose numbers do not fit its effect's schema.

        ``where`` names the file (and the row's line); given the file's ``text`` and the row's
        ``line``, the error points at the line of the offending key instead.
        """
        from critcore.tables.walk import Bad, Walk, path_text

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
    """The compiled row schema of a :class:`critcore.tables.tableset.Table` (None if it declares none),
    compiled on first use and kept on the table."""
    found: RowSchema | None = table.__dict__.get("_row_checker")
    if found is None and table.row_schema is not None:
        found = table.__dict__["_row_checker"] = RowSchema(table.row_schema, table.source or table.id,
                                                           table.row_types)
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
    """Check rows (:class:`critcore.tables.tableset.Row`) against ``schema``; errors name ``source`` and the line."""
    rows = list(rows)
    ids = [r.id for r in rows]
    for row in rows:
        where = f"{source}, line {row.line}" if row.line else source
        schema.check(row.code, row.id, row.data, ids, where, text, row.line)


def read_as(tables: Iterable[Any]) -> dict[str, set[str]]:
    """For each effect code, the row types ``tables`` (:class:`critcore.tables.tableset.Table`) read it as."""
    found: dict[str, set[str]] = {}
    for table in tables:
        schema = of(table)
        for code, name in (schema.shapes.items() if schema is not None else ()):
            if name is not None:
                found.setdefault(code, set()).add(name)
    return found


def widen(table: Any, effects: Any, at: Callable[[str | None], str], system_reads: Callable[[], Mapping[str, set[str]]],
          effect_codes: frozenset[str] | None = None) -> dict[str, Any]:
    """A house rule's ``[tables.NAME.row_schema.effects]``: the table's ``[row_schema]`` with more
    effects, each ``CODE = "row type"``.

    A house rule cannot declare keys the engine would not read, nor give an effect a shape its
    engine code has never read it in: a table may take another of the system's effects only in a
    row type the table already reads *and* another table of the system reads that effect in (a
    Shadowrun abdomen hit that stops the heart: ``heart = "mortal-critical"``, as the chest
    table reads it). ``at(code)`` says where the rule wrote ``code`` (file and line), for the
    error; ``system_reads()`` gives :func:`read_as` of the system's tables.
    """
    schema = of(table)
    if schema is None:
        raise TableError(f"{at(None)}: table {table.id} declares no row_schema, so it has no row types to give")
    if not isinstance(effects, Mapping) or not effects:
        raise TableError(f"{at(None)}: [tables.{table.id}.row_schema.effects] must give CODE = \"row type\" pairs")
    uses = sorted({name for name in schema.shapes.values() if name is not None})
    wider = dict(table.row_schema["effects"])
    for code, name in effects.items():
        where, what = at(code), f"row_schema.effects.{code}"
        if not isinstance(name, str):
            raise TableError(f"{where}: {what}: give the name of a row type (a house rule cannot declare the keys "
                             "of a row; the engine reads only what the system declares)")
        if row_fields(schema.types, name) is None:
            raise _row_type_error(schema.types, name, where, what)
        if name not in uses:
            raise TableError(f"{where}: {what}: table {table.id} reads rows of row type "
                             f"{' or '.join(map(repr, uses)) or '(none: its effects list their own keys)'}, "
                             f"not {name!r}")
        if effect_codes and code not in effect_codes:
            from critcore.tables.walk import did_you_mean

            raise TableError(f"{where}: {what}: unknown effect code {code!r}{did_you_mean(code, sorted(effect_codes))}"
                             f" (known: {', '.join(sorted(effect_codes))})")
        if code not in schema.shapes and name not in system_reads().get(code, ()):
            raise TableError(f"{where}: {what}: no table of the system reads effect {code!r} as row type {name!r} "
                             f"(a house rule can move an effect only to a table that reads it alike)")
        if code in schema.shapes and schema.shapes[code] != name:
            now = repr(schema.shapes[code]) if schema.shapes[code] else "its own keys"
            raise TableError(f"{where}: {what}: table {table.id} already takes effect {code!r}, as {now}")
        wider[code] = name
    return {**table.row_schema, "effects": wider}
