"""Declared schemas: the shape of a system's target state, written once as data and checked here.

A system names a TOML file in ``SystemInfo.target_schema`` (``"package:file.toml"``, or the
parsed mapping itself). The file declares named types; the ``root`` one is the target::

    format = 1
    root = "character"

    [identify]                       # how another system's check recognises this system's targets
    noun = "character"
    keys = ["hp", "statuses"]        # keys no other system's target has
    values = { kind = "my-mech" }    # key = value pairs that mark a target as ours

    [types.character]
    type = "table"
    [types.character.fields]
    name = "str"                                 # a field given by its type alone
    hp = { type = "int", min = 1, max = 100000 }
    dr = { type = ["int", "dr_table"] }          # one of several types
    statuses = { type = "list", items = "status" }

    [types.dr_table]
    type = "map"
    values = { type = "int", min = 0 }

Types: ``int`` (whole numbers; a float is refused), ``number`` (int or float), ``str``,
``bool``, ``list``, ``map`` (a table of any keys, one value type), ``table`` (a record of
declared ``fields``), ``any`` (any JSON value), or a named type. Field keys: ``type``,
``required``, ``nullable``, ``min``/``max`` (numbers), ``choices`` (text), ``max_length``,
``items`` (lists), ``min_items``/``max_items`` (lists and maps), ``keys``/``values`` (maps:
``keys`` is a field spec for the key text), ``fields``/``extra`` (tables: ``extra = "keep"`` lets unknown keys
through, checked only as JSON; the default ``"refuse"`` names them with a did-you-mean),
``ref`` (the value must be a key of the map at that dotted path from the root, e.g.
``"items"``), and ``doc``. Numbers are always finite and, unless a bound says otherwise,
within ±2**53 (what a JSON reader keeps exactly).

Checking walks the value once and returns it frozen (:func:`critcore.model.freeze`), so a
checked target costs no second walk. Every failure is one :class:`~critcore.errors.StateError`
line: ``SOURCE: PATH: what is wrong`` with the path written as ``statuses[1].check.every`` or
``items["LT-1"]`` (list entries counted from 1, as they stand in the file). The form is not tied to targets: a table row type can be declared the same way.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Callable

from critcore.errors import PluginError
from critcore.model import Data, _wrap
from critcore.tables.walk import LIMIT, Bad, Checker, Walk, did_you_mean, plain, show

BASIC = ("int", "number", "str", "bool", "list", "map", "table", "any")
FIELD_KEYS = frozenset({"type", "required", "nullable", "min", "max", "choices", "max_length", "items",
                        "min_items", "max_items", "keys", "values", "fields", "extra", "ref", "doc"})
KIND_WORDS = {"int": "a whole number", "number": "a number", "str": "text", "bool": "true or false",
              "list": "a list", "map": "a table", "table": "a table", "any": "a value"}


def _hint(name: str, known: list[str]) -> str:
    """A did-you-mean, or else the keys there are (the first twelve)."""
    close = did_you_mean(name, known)
    if close or not known:
        return close
    more = ", ..." if len(known) > 12 else ""
    return f" (the keys here are: {', '.join(known[:12])}{more})"


# --- the schema ---------------------------------------------------------------------------------


class Schema:
    """A compiled schema: ``check(value, source)`` returns the value frozen or raises StateError."""

    extra_types: tuple[str, ...] = ()  # type names a subclass adds to BASIC (handled in its _one)

    def referable(self) -> list[str]:
        """The named types a spec may refer to (what an unknown type's did-you-mean offers)."""
        return list(self.types)

    def __init__(self, spec: Mapping[str, Any], origin: str, lazy: bool = False) -> None:
        """``lazy``: a spec known to compile (:func:`load_schema`'s kept entry says so) compiles
        each field of a table the first time a value has that key, not all of them now."""
        self.origin = origin
        self.spec = spec
        self._lazy = lazy
        if not isinstance(spec, Mapping):
            raise PluginError(f"{origin}: a schema must be a table")
        unknown = set(spec) - {"format", "root", "identify", "types", "doc"}
        if unknown:
            raise PluginError(f"{origin}: unknown schema key(s) {', '.join(sorted(unknown))}")
        if spec.get("format", 1) != 1:
            raise PluginError(f"{origin}: schema format {spec.get('format')!r} is newer than this critcore reads")
        types = spec.get("types", {})
        if not isinstance(types, Mapping):
            raise PluginError(f"{origin}: [types] must be a table of named types")
        self.types: Mapping[str, Any] = types
        self._compiled: dict[str, Checker] = {}
        self._basic: dict[str, Checker] = {}  # the checker of each basic type name given alone
        self._building: set[str] = set()
        root = spec.get("root")
        if not isinstance(root, str) or root not in types:
            raise PluginError(f"{origin}: root must name one of the [types] ({', '.join(types) or 'none'})")
        self.root_name = root
        ident = spec.get("identify", {})
        if not isinstance(ident, Mapping) or set(ident) - {"noun", "what", "keys", "values"}:
            raise PluginError(f"{origin}: [identify] takes noun, what, keys and values")
        self.noun: str = str(ident.get("noun", "target"))
        self.what: str = str(ident.get("what", ""))
        marks, values = ident.get("keys", []), ident.get("values", {})
        if not _texts(marks) or not isinstance(values, Mapping):
            raise PluginError(f"{origin}: [identify] keys must be a list of key names and values a table")
        self.marks: tuple[str, ...] = tuple(marks)
        self.mark_values: dict[str, Any] = dict(values)
        for name in types:
            seen = [name]
            while True:  # a type that is only another type's name: follow it, refusing a loop
                declared = types[seen[-1]]
                alias = (declared if isinstance(declared, str)
                         else declared.get("type") if isinstance(declared, Mapping) else None)
                if not isinstance(alias, str) or alias in BASIC or alias not in types:
                    break
                if alias in seen:
                    raise PluginError(f"{origin}: type {name} refers to itself ({' -> '.join(seen + [alias])})")
                seen.append(alias)
        for name in types:
            self.named(name)
        self.root = self.named(root)

    # -- compiling ------------------------------------------------------------------------------
    def named(self, name: str) -> Checker:
        found = self._compiled.get(name)
        if found is not None:
            return found
        if name in self._building:
            # a recursive type: look it up when called (compiled by then)
            return lambda value, walk: self._compiled[name](value, walk)
        self._building.add(name)
        spec = self.types[name]
        if isinstance(spec, str):
            spec = {"type": spec}
        checker = self.compile(spec, f"type {name}")
        self._compiled[name] = checker
        self._building.discard(name)
        return checker

    def _bad(self, where: str, what: str) -> PluginError:
        return PluginError(f"{self.origin}: {where}: {what}")

    def compile(self, spec: Any, where: str) -> Checker:
        """One field spec (a type name or a table of field keys) as a checker function."""
        if isinstance(spec, str):
            if spec in BASIC:  # a field given by a basic type alone ("str"): one checker serves them all
                found = self._basic.get(spec)
                if found is None:
                    found = self._basic[spec] = self.compile({"type": spec}, where)
                return found
            spec = {"type": spec}
        if type(spec) is not dict and not isinstance(spec, Mapping):
            raise self._bad(where, "a field must be a type name or a table")
        if not FIELD_KEYS.issuperset(spec):
            raise self._bad(where, f"unknown field key(s) {', '.join(sorted(set(spec) - FIELD_KEYS))}")
        kinds = spec.get("type", "any")
        if isinstance(kinds, str):
            kinds = [kinds]
        elif not _texts(kinds) or not kinds:
            raise self._bad(where, "type must be a type name or a list of them")
        options = [self._one(kind, spec, where) for kind in kinds]
        nullable = bool(spec.get("nullable", False))
        ref = spec.get("ref")
        if len(options) == 1:
            checker = options[0][1]
        else:
            checker = self._union(options)
        if ref is not None:
            if not isinstance(ref, str):
                raise self._bad(where, "ref must be a dotted path (e.g. \"items\")")
            inner = checker

            def checker(value: Any, walk: Walk) -> Any:
                out = inner(value, walk)
                if out is not None:
                    keys = walk.ref_keys(ref)
                    if keys is None or out not in keys:
                        have = ", ".join(list(keys)[:12]) if keys else "none"
                        raise Bad(f"{show(out)} is not one of the {ref} ({have})")
                return out

        if nullable:
            inner2 = checker

            def checker(value: Any, walk: Walk) -> Any:
                return None if value is None else inner2(value, walk)

        return checker

    def _union(self, options: list[tuple[str, Checker]]) -> Checker:
        """One of several types: the first whose kind fits the value's JSON kind checks it."""
        words = " or ".join(dict.fromkeys(KIND_WORDS.get(self._base(k), k) for k, _ in options))
        accepts = {"any": ("int", "number", "str", "bool", "list", "map", "null", "other"),
                   "map": ("map",), "table": ("map",), "number": ("number", "int")}
        by_kind: dict[str, Checker] = {}
        for k, fn in options:
            base = self._base(k)
            for kind in accepts.get(base, (base,)):
                by_kind.setdefault(kind, fn)
        by_type = {t: by_kind[kind] for t, kind in ((int, "int"), (float, "number"), (str, "str"), (bool, "bool"),
                                                    (list, "list"), (tuple, "list"), (dict, "map"), (Data, "map"))
                   if kind in by_kind}

        def checker(value: Any, walk: Walk) -> Any:
            fn = by_type.get(type(value)) or by_kind.get(json_kind(value))
            if fn is None:
                raise Bad(f"must be {words}, not {show(value)}")
            return fn(value, walk)

        return checker

    def _base(self, kind: str) -> str:
        while kind not in BASIC:
            spec = self.types.get(kind)
            if spec is None:
                return kind
            kind = spec if isinstance(spec, str) else spec.get("type", "any")
            if not isinstance(kind, str):
                return "any"
        return kind

    def _one(self, kind: Any, spec: Mapping[str, Any], where: str) -> tuple[str, Checker]:
        if not isinstance(kind, str):
            raise self._bad(where, f"type {kind!r} is not a type name")
        if kind not in BASIC:
            if kind not in self.types:
                named = self.referable()
                hint = did_you_mean(kind, [*BASIC, *self.extra_types, *named]) or (
                    f" (basic types: {', '.join((*BASIC, *self.extra_types))}; named: {', '.join(named) or 'none'})")
                raise self._bad(where, f"unknown type {kind!r}{hint}")
            extra = set(spec) - {"type", "required", "nullable", "ref", "doc"}
            if extra:
                raise self._bad(where, f"{', '.join(sorted(extra))} cannot refine the named type {kind!r}; "
                                       "declare another named type")
            return kind, self.named(kind)
        maker = getattr(self, "_make_" + kind)
        return kind, maker(spec, where)

    def _bound(self, spec: Mapping[str, Any], key: str, where: str, default: float) -> float:
        value = spec.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self._bad(where, f"{key} must be a number")
        return value

    def _count(self, spec: Mapping[str, Any], key: str, where: str) -> int | None:
        value = spec.get(key)
        if value is not None and (type(value) is not int or value < 0):
            raise self._bad(where, f"{key} must be a whole number of 0 or more")
        return value

    def _make_int(self, spec: Mapping[str, Any], where: str) -> Checker:
        lo = self._bound(spec, "min", where, -LIMIT)
        hi = self._bound(spec, "max", where, LIMIT)

        def check_int(value: Any, walk: Walk) -> Any:
            if type(value) is not int:
                if isinstance(value, int) and not isinstance(value, bool):
                    value = int(value)
                else:
                    raise Bad(f"must be a whole number, not {show(value)}")
            if value < lo or value > hi:
                raise Bad(_range(value, lo, hi))
            return value

        return check_int

    def _make_number(self, spec: Mapping[str, Any], where: str) -> Checker:
        lo = self._bound(spec, "min", where, -LIMIT)
        hi = self._bound(spec, "max", where, LIMIT)

        def check_number(value: Any, walk: Walk) -> Any:
            t = type(value)
            if t is not int and t is not float:
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    value = float(value) if isinstance(value, float) else int(value)
                else:
                    raise Bad(f"must be a number, not {show(value)}")
            if value - value != 0:
                raise Bad(f"{show(value)} is not a number critcore can use (it must be finite)")
            if value < lo or value > hi:
                raise Bad(_range(value, lo, hi))
            return value

        return check_number

    def _make_str(self, spec: Mapping[str, Any], where: str) -> Checker:
        choices = spec.get("choices", [])
        if not _texts(choices):
            raise self._bad(where, "choices must be a list of texts")
        choices = tuple(choices)
        allowed = frozenset(choices)
        longest = self._count(spec, "max_length", where)

        def check_str(value: Any, walk: Walk) -> Any:
            if type(value) is not str:
                if not isinstance(value, str):
                    raise Bad(f"must be text, not {show(value)}")
                value = str(value)  # a str subclass (an enum member, say) as plain text
            if allowed and value not in allowed:
                raise Bad(f"{show(value)} is not one of {', '.join(choices)}"
                                f"{did_you_mean(value, list(choices))}")
            if longest is not None and len(value) > longest:
                raise Bad(f"text of {len(value)} characters is longer than {longest}")
            return value

        return check_str

    def _make_bool(self, spec: Mapping[str, Any], where: str) -> Checker:
        def check_bool(value: Any, walk: Walk) -> Any:
            if value is not True and value is not False:
                raise Bad(f"must be true or false, not {show(value)}")
            return value

        return check_bool

    def _make_any(self, spec: Mapping[str, Any], where: str) -> Checker:
        return plain

    def _make_list(self, spec: Mapping[str, Any], where: str) -> Checker:
        item = self.compile(spec.get("items", "any"), f"{where}.items")
        low = self._count(spec, "min_items", where) or 0
        high = self._count(spec, "max_items", where)

        def check_list(value: Any, walk: Walk) -> Any:
            t = type(value)
            if t is not list and t is not tuple and not isinstance(value, (list, tuple)):
                raise Bad(f"must be a list, not {show(value)}")
            n = len(value)
            if n < low:
                raise Bad(f"needs at least {low} entries, has {n}")
            if high is not None and n > high:
                raise Bad(f"has {n} entries, at most {high} are allowed")
            out = []
            i = 0
            try:
                for v in value:
                    out.append(item(v, walk))
                    i += 1
            except Bad as bad:
                bad.parts.append(i + 1)
                raise
            return tuple(out)

        return check_list

    def _make_map(self, spec: Mapping[str, Any], where: str) -> Checker:
        values = self.compile(spec.get("values", "any"), f"{where}.values")
        keys_spec = spec.get("keys")
        keys = self.compile(keys_spec, f"{where}.keys") if keys_spec is not None else None
        low = self._count(spec, "min_items", where) or 0
        high = self._count(spec, "max_items", where)

        def check_map(value: Any, walk: Walk) -> Any:
            t = type(value)
            if t is not dict and t is not Data and not isinstance(value, Mapping):
                raise Bad(f"must be a table, not {show(value)}")
            n = len(value)
            if n < low:
                raise Bad(f"needs at least {low} entr{'y' if low == 1 else 'ies'}, has {n}")
            if high is not None and n > high:
                raise Bad(f"has {n} entries, at most {high} are allowed")
            out = {}
            for k, v in value.items():
                if type(k) is not str:
                    raise Bad(f"key {show(k)} must be text")
                try:
                    if keys is not None:
                        keys(k, walk)
                    out[k] = values(v, walk)
                except Bad as bad:
                    bad.parts.append(k)
                    raise
            return _wrap(out)

        return check_map

    def _make_table(self, spec: Mapping[str, Any], where: str) -> Checker:
        fields = spec.get("fields", {})
        if not isinstance(fields, Mapping):
            raise self._bad(where, "fields must be a table of field specs")
        extra = spec.get("extra", "refuse")
        if extra not in ("refuse", "keep"):
            raise self._bad(where, "extra must be \"refuse\" or \"keep\"")
        lazy = self._lazy
        checkers = {} if lazy else {name: self.compile(f, f"{where}.{name}") for name, f in fields.items()}
        required = tuple(n for n, f in fields.items() if isinstance(f, Mapping) and f.get("required"))
        known = list(fields)
        keep = extra == "keep"
        compile_field = self.compile

        def field(key: Any) -> Checker | None:  # a field's checker, compiled when first needed
            fn = checkers.get(key)
            if fn is None and key in fields:
                fn = checkers[key] = compile_field(fields[key], f"{where}.{key}")
            return fn

        get: Callable[[Any], Checker | None] = field if lazy else checkers.get
        # fields that take any text or true/false as it is are checked in the loop (most fields of a unit)
        simple = {name: _PLAIN_TYPES[f if type(f) is str else f["type"]] for name, f in fields.items() if _plain(f)}
        simple_type = simple.get

        def check_table(value: Any, walk: Walk) -> Any:
            t = type(value)
            if t is not dict and t is not Data and not isinstance(value, Mapping):
                raise Bad(f"must be a table, not {show(value)}")
            out = {}
            for k, v in value.items():
                if type(v) is simple_type(k):
                    out[k] = v
                    continue
                fn = get(k)
                if fn is None:
                    if type(k) is not str:
                        raise Bad(f"key {show(k)} must be text")
                    if not keep:
                        raise Bad(f"unknown key {k!r}{_hint(k, known)}")
                    fn = plain
                try:
                    out[k] = fn(v, walk)
                except Bad as bad:
                    # a fault of this table itself (a misspelt or missing key) explains more than a
                    # fault deeper down that may follow from it (a reference to the missing key)
                    for other in value:
                        if other not in fields and not keep:
                            raise Bad(f"unknown key {other!r}{_hint(str(other), known)}") from None
                    for name in required:
                        if name not in value:
                            raise Bad(f"needs {name!r}") from None
                    bad.parts.append(k)
                    raise
            for name in required:
                if out.get(name) is None:
                    raise Bad(f"needs {name!r}" + (" (it is null)" if name in out else ""))
            return _wrap(out)

        return check_table

    # -- checking ---------------------------------------------------------------------------------
    def check(self, value: Any, source: str, reserved: Mapping[str, Checker] | None = None) -> Any:
        """``value`` checked against the root type and returned frozen; StateError otherwise.

        ``reserved`` checks root keys that critcore itself owns (``system``) before the schema.
        """
        walk = Walk(value)
        try:
            if reserved and isinstance(value, Mapping) and not reserved.keys().isdisjoint(value.keys()):
                rest = {}
                kept = {}
                for k, v in value.items():
                    if k in reserved:
                        try:
                            kept[k] = reserved[k](v, walk)
                        except Bad as bad:
                            bad.parts.append(k)
                            raise
                    else:
                        rest[k] = v
                out = self.root(rest, walk)
                return _wrap({**kept, **out})
            return self.root(value, walk)
        except Bad as bad:
            raise bad.error(source) from None



_PLAIN_TYPES = {"str": str, "bool": bool}
_PLAIN_KEYS = frozenset({"type", "required", "nullable", "doc"})  # none of them changes what text or a bool may be


def _plain(spec: Any) -> bool:
    """Whether any text, or true and false, passes a field as it is (``"str"``, ``{ type = "str",
    required = true }``; a compiled spec is a str or a dict). A null where one is allowed, and a
    missing required field, are still seen to by the field's checker and the table's."""
    if type(spec) is dict and _PLAIN_KEYS.issuperset(spec):
        spec = spec.get("type")
    return type(spec) is str and spec in _PLAIN_TYPES


def _texts(value: Any) -> bool:
    """A list of texts (what a schema gives for choices, identify keys, a union of types)."""
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(x)


def _range(value: Any, lo: float, hi: float) -> str:
    if lo > -LIMIT and hi < LIMIT:
        return f"{show(value)} is out of range ({_num(lo)} to {_num(hi)})"
    if lo > -LIMIT:
        return f"{show(value)} is below the lowest allowed, {_num(lo)}"
    if hi < LIMIT:
        return f"{show(value)} is above the highest allowed, {_num(hi)}"
    return f"{show(value)} is too large (at most {LIMIT:,} either way)"


def json_kind(value: Any) -> str:
    """The JSON kind of a value: int, number, str, bool, list, map, null or other."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "str"
    if isinstance(value, Mapping):
        return "map"
    if isinstance(value, (list, tuple)):
        return "list"
    return "other"


_LOADED: dict[Any, Schema] = {}


def load_schema(declared: str | Mapping[str, Any]) -> Schema:
    """The compiled schema a ``SystemInfo.target_schema`` names (``"package:file.toml"``), cached."""
    if isinstance(declared, Mapping):
        key: Any = id(declared)
        found = _LOADED.get(key)
        if found is not None and found.spec is declared:
            return found
        schema = Schema(declared, "target schema")
    else:
        found = _LOADED.get(declared)
        if found is not None:
            return found
        package, sep, name = declared.partition(":")
        if not sep or not name:
            raise PluginError(f"target_schema {declared!r} must read \"package:file.toml\"")
        from critcore.errors import TableError
        from critcore.tables.resources import load_toml, package_dir

        origin = f"{package}/{name}"
        compiled: list[Schema] = []

        def compile_all(data: dict[str, Any]) -> None:  # when the file is parsed, not when its entry is used
            compiled.append(Schema(data, origin))

        try:
            folder = package_dir(package)
            location = os.path.join(folder, name) if folder is not None else f"{package}:{name}"
            # the entry is kept only for a file that compiled whole, by this schema.py (_compiler):
            # read from it, the fields are compiled as targets use them (see Schema's lazy)
            compiler = _compiler()  # its own entry too: two checkers sharing a plugin do not take turns
            spec = load_toml(location, origin, check=compile_all, depends=compiler, entry=f"\0{compiler}")
        except (OSError, ImportError, TableError) as exc:
            raise PluginError(f"target schema {declared}: cannot be read: {exc}") from None
        schema = compiled[0] if compiled else Schema(spec, origin, lazy=True)
        key = declared
    _LOADED[key] = schema
    return schema


def _compiler() -> str:
    """What a target schema's kept entry says compiled it: this module, by its size and date (a
    schema compiled by another version of the checker is compiled again)."""
    try:
        st = os.stat(__file__)
        return f"target schema compiled\0{st.st_size}\0{st.st_mtime_ns}"
    except OSError:
        return "target schema compiled\0-"
