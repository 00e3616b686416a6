"""Roll-range tables, kept as TOML data inside each system's package.

A table file looks like this (keys other than the ones named here become the row's numbers)::

    id = "critical-hit"          # defaults to the file name without .toml
    title = "Critical Hit Table"
    dice = "3d6"                 # the roll that reads the table
    range = [3, 18]              # optional; defaults to the dice's lowest and highest result
    lookup = false               # optional; true: a table found by number or id, never rolled

    [[row]]
    roll = "3"                   # a number, "9-11", or a list of them
    id = "triple-damage"         # stable id, unique in the table
    effect = "damage-multiplier" # the effect code the engine acts on
    text = "Triple damage."      # a short text in our own words
    multiplier = 3

Loading checks that every row has an id and an effect, that ids are unique, and that the rows
cover the roll range exactly once; a table that declares a ``[row_schema]`` (:mod:`critcore.tables.rowschema`)
has each row's numbers checked against it too. Every error names the file and the row's line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping

from critcore.errors import DiceError, TableError
from critcore.model import EMPTY, Data, Effect, record, record_field

_ID_FIRST = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_ID_CHARS = _ID_FIRST | frozenset("_.-")
ROW_KEYS = {"roll", "id", "effect", "text"}
MAX_SPAN = 10_000


@record
class Row:
    """One row: the rolls it covers, its id, effect code, text and numbers."""

    low: int
    high: int
    id: str
    code: str
    text: str
    data: Data = EMPTY
    line: int | None = record_field(default=None, compare=False)
    changed_by: str = record_field(default="", compare=False)  # house rule that put this row here
    rolls: tuple[int, ...] = ()  # when the row covers scattered rolls ("3, 18")

    def __hash__(self) -> int:
        # computed once: systems cache stage results by row (exact odds ask again and again)
        h: int | None = self.__dict__.get("_hash")
        if h is None:
            h = self.__dict__["_hash"] = hash((self.low, self.high, self.id, self.code, self.text, self.data,
                                               self.rolls))
        return h

    def covers(self) -> tuple[int, ...]:
        return self.rolls or tuple(range(self.low, self.high + 1))

    @property
    def roll_text(self) -> str:
        if self.rolls:
            return ", ".join(str(r) for r in self.rolls)
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"

    def effect(self, table: str, roll: int | None = None, **extra: Any) -> Effect:
        """This row as an :class:`~critcore.model.Effect` (``extra`` adds or overrides numbers).

        Without ``extra`` the same (frozen) Effect is handed back for the same table and roll,
        made once: exact odds ask for it once per enumerated run, and a new one must be hashed
        anew each time it is merged."""
        if not extra:
            made: dict[tuple[str, int | None], Effect] | None = self.__dict__.get("_effects")
            if made is None:
                made = self.__dict__["_effects"] = {}
            found = made.get((table, roll))
            if found is None:
                found = made[(table, roll)] = self._effect(table, roll, {})
            return found
        return self._effect(table, roll, extra)

    def _effect(self, table: str, roll: int | None, extra: dict[str, Any]) -> Effect:
        data = self.data.replace(**extra) if extra else self.data
        if self.changed_by:
            data = data.replace(changed_by=self.changed_by)
        return Effect(table, self.id, self.code, self.text, roll, data)


@record
class Table:
    """A validated roll-range table. ``lookup(total)`` finds the row for a roll."""

    id: str
    title: str
    dice: str
    low: int
    high: int
    rows: tuple[Row, ...]
    source: str = ""
    _index: tuple[Row, ...] = record_field(default=(), repr=False, compare=False)
    row_schema: Any = record_field(default=None, repr=False, compare=False)  # [row_schema] as declared
    row_types: Any = record_field(default=None, repr=False, compare=False)  # the system's (SystemTypes)
    lookup_only: bool = record_field(default=False, compare=False)  # `lookup = true`: found by number or id, never rolled

    def __post_init__(self) -> None:
        v = self.__dict__
        low = self.low
        index: list[Row | None] = [None] * (self.high - low + 1)
        for row in self.rows:
            for r in row.covers():
                index[r - low] = row
        v["_index"] = tuple(index)  # the row of each roll, from the lowest (whatever was given)
        by_id: dict[str, Row] = {}
        for row in self.rows:
            by_id.setdefault(row.id, row)
        v["_by_id"] = by_id  # the row of each id (not a field)

    if TYPE_CHECKING:

        @property
        def _by_id(self) -> dict[str, Row]: ...

    def __hash__(self) -> int:
        # computed once: tables are used as cache keys on hot paths (exact odds)
        h: int | None = self.__dict__.get("_hash")
        if h is None:
            h = self.__dict__["_hash"] = hash((self.id, self.title, self.dice, self.low, self.high, self.rows))
        return h

    def lookup(self, roll: int) -> Row:
        """The row covering ``roll``."""
        i = roll - self.low
        if i < 0 or i >= len(self._index):
            raise TableError(f"{self.source or self.id}: no row for roll {roll} (table covers {self.low}-{self.high})")
        return self._index[i]

    def row(self, row_id: str) -> Row:
        """The row with this id."""
        found = self._by_id.get(row_id)
        if found is None:
            raise TableError(f"{self.source or self.id}: no row with id {row_id!r}")
        return found

    def roll_on(self, dice: Any, label: str | None = None, **extra: Any) -> Effect:
        """Roll the table's dice with ``dice`` (a :class:`~critcore.dice.dice.Dice`) and return the row's effect."""
        roll = dice.roll(self.dice, label or self.title)
        return self.lookup(roll.total).effect(self.id, roll.total, **extra)

    def to_json(self) -> dict[str, Any]:
        from critcore.model import thaw

        return {
            "id": self.id,
            "title": self.title,
            "dice": self.dice,
            "range": [self.low, self.high],
            **({"lookup": True} if self.lookup_only else {}),
            "rows": [
                {"roll": r.roll_text, "id": r.id, "effect": r.code, "text": r.text, **thaw(r.data),
                 **({"changed_by": r.changed_by} if r.changed_by else {})}
                for r in self.rows
            ],
        }


def row_lines(text: str, header: str = "row") -> list[int]:
    """Line numbers (1-based) of each ``[[header]]`` in a TOML text, in order."""
    return [i for i, line in enumerate(text.splitlines(), 1) if _is_header(line, header)]


def _is_header(line: str, header: str) -> bool:
    """Does ``line`` start with ``[[ header ]]`` (spaces allowed)? String tests, not a regex:
    a table is read on most commands and compiling a pattern costs more than reading."""
    rest = line.lstrip()
    if not rest.startswith("[["):
        return False
    rest = rest[2:].lstrip()
    return rest.startswith(header) and rest[len(header):].lstrip().startswith("]]")


def read_roll(text: str) -> tuple[int, int] | None:
    """``(low, high)`` of a roll written ``7``, ``-2``, ``9-11``, ``9 – 11``, ``-3..-1`` (a
    whole number, or two joined by ``-``, ``–`` or ``..``, with whitespace around the parts);
    None when ``text`` is neither. Read part by part: a regular expression for it cost every
    command reading a table with ranges about 1 M instructions to compile
    (``tests/test_core_roll_ranges.py`` holds it to that expression)."""
    n = len(text)

    def number(i: int) -> tuple[int | None, int]:  # a whole number (a leading "-") at i, and where it ends
        j = i + 1 if i < n and text[i] == "-" else i
        k = j
        while k < n and text[k].isdecimal():
            k += 1
        return (int(text[i:k]), k) if k > j else (None, i)

    def space(i: int) -> int:
        while i < n and text[i].isspace():
            i += 1
        return i

    low, i = number(space(0))
    if low is None:
        return None
    i = space(i)
    if i == n:
        return low, low
    if text.startswith("..", i):
        i += 2
    elif text[i] in "-–":
        i += 1
    else:
        return None
    high, i = number(space(i))
    return (low, high) if high is not None and space(i) == n else None


def parse_rolls(value: Any, where: str) -> tuple[int, int, tuple[int, ...]]:
    """Read a row's ``roll``: ``7``, ``"9-11"``, ``"3, 18"`` or ``[3, 18]``."""
    if isinstance(value, bool):
        raise TableError(f"{where}: roll must be a number or a range like \"9-11\"")
    if isinstance(value, int):
        return value, value, ()
    parts: list[Any]
    if isinstance(value, str):
        parts = [p for p in value.split(",") if p.strip()]
    elif isinstance(value, list):
        parts = value
    else:
        raise TableError(f"{where}: roll must be a number or a range like \"9-11\", not {value!r}")
    if not parts:
        raise TableError(f"{where}: roll is empty")
    covered: list[int] = []
    for p in parts:
        if isinstance(p, bool):
            raise TableError(f"{where}: roll {p!r} is not a number")
        if isinstance(p, int):
            covered.append(p)
            continue
        if not isinstance(p, str):
            raise TableError(f"{where}: roll {p!r} is not a number or range")
        p = p.strip()
        read = read_roll(p)
        if read is None:
            raise TableError(f"{where}: cannot read roll {p!r} (expected e.g. 7 or \"9-11\")")
        lo, hi = read
        if lo > hi or hi - lo > MAX_SPAN:
            raise TableError(f"{where}: roll range {p!r} runs backwards or is too wide")
        covered.extend(range(lo, hi + 1))
    lo, hi = min(covered), max(covered)
    if len(set(covered)) != len(covered):
        raise TableError(f"{where}: roll {value!r} names the same result twice")
    if sorted(covered) == list(range(lo, hi + 1)):
        return lo, hi, ()
    return lo, hi, tuple(sorted(covered))


def make_row(raw: Any, where: str, effect_codes: frozenset[str] | None = None, line: int | None = None) -> Row:
    """Check one raw row (a dict from TOML) and build a :class:`Row`."""
    if not isinstance(raw, dict):
        raise TableError(f"{where}: a row must be a table of keys, not {type(raw).__name__}")
    for key in ("roll", "id", "effect"):
        if key not in raw:
            raise TableError(f"{where}: row has no {key!r}")
    row_id, code, text = raw["id"], raw["effect"], raw.get("text", "")
    if not isinstance(row_id, str) or not row_id or row_id[0] not in _ID_FIRST or not _ID_CHARS.issuperset(row_id):
        raise TableError(f"{where}: row id {row_id!r} must be lower-case letters, digits, '-', '_' or '.'")
    if not isinstance(code, str) or not code:
        raise TableError(f"{where}: row {row_id!r} needs an effect code (text)")
    if effect_codes and code not in effect_codes:
        known = ", ".join(sorted(effect_codes))
        raise TableError(f"{where}: row {row_id!r} has unknown effect code {code!r} (known: {known})")
    if not isinstance(text, str) or not text.strip():
        raise TableError(f"{where}: row {row_id!r} needs a text (a few words saying what happens)")
    lo, hi, scattered = parse_rolls(raw["roll"], f"{where}: row {row_id!r}")
    data = {k: v for k, v in raw.items() if k not in ROW_KEYS}
    return Row(lo, hi, row_id, code, text, Data(data), line, "", scattered)


def check_cover(rows: Iterable[Row], low: int, high: int, source: str,
                where: Callable[[Row], str] | None = None) -> None:
    """Every roll from ``low`` to ``high`` covered by exactly one row, and nothing outside.

    ``where(row)`` says where a row was written (file and line) for the error; by default
    ``source`` and the row's line.
    """
    if where is None:
        def where(row: Row) -> str:
            return f"{source}" + (f", line {row.line}" if row.line else "")

    seen: dict[int, Row] = {}
    for row in rows:
        for r in row.covers():
            if not low <= r <= high:
                raise TableError(f"{where(row)}: row {row.id!r} covers roll {r}, outside the table's range {low}-{high}")
            if r in seen:
                # point at the row a house rule wrote, if one of the two is
                blame = seen[r] if seen[r].changed_by and not row.changed_by else row
                raise TableError(f"{where(blame)}: rows {seen[r].id!r} and {row.id!r} both cover roll {r}")
            seen[r] = row
    missing = [r for r in range(low, high + 1) if r not in seen]
    if missing:
        raise TableError(f"{source}: no row covers roll(s) {', '.join(map(str, missing))}")


def build_table(
    data: Mapping[str, Any],
    source: str,
    text: str | None = None,
    default_id: str = "",
    effect_codes: frozenset[str] | None = None,
    check_rows: bool = True,
    row_types: SystemTypes | None = None,
) -> Table:
    """Validate parsed TOML ``data`` as a table; ``source`` names the file in every error.

    A declared ``[row_schema]`` is checked against the rows unless ``check_rows`` is False
    (a shipped table read from a cache entry, made only from data that passed it); it may use
    the system's named row types ``row_types`` (a :class:`SystemTypes`).
    """
    from critcore.dice.notation import parse

    if not isinstance(data, Mapping):
        raise TableError(f"{source}: a table file must hold keys at the top level")
    table_id = data.get("id", default_id)
    if not isinstance(table_id, str) or not table_id:
        raise TableError(f"{source}: the table needs an id (text)")
    dice_text = data.get("dice")
    if not isinstance(dice_text, str):
        raise TableError(f"{source}: the table needs dice = \"...\" (e.g. \"3d6\")")
    try:
        expr = parse(dice_text)
    except DiceError as exc:
        raise TableError(f"{source}: {exc}") from None
    low, high = expr.minimum, expr.maximum
    if "range" in data:
        rng = data["range"]
        if (not isinstance(rng, list) or len(rng) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in rng) or rng[0] > rng[1]):
            raise TableError(f"{source}: range must be [lowest, highest], e.g. [3, 18]")
        low, high = rng
        if high - low > MAX_SPAN:
            raise TableError(f"{source}: range {low}-{high} is too wide")
    raw_rows = data.get("row")
    if not isinstance(raw_rows, list) or not raw_rows:
        raise TableError(f"{source}: the table has no [[row]] entries")
    lines = row_lines(text) if text else []
    rows: list[Row] = []
    ids: set[str] = set()
    for n, raw in enumerate(raw_rows):
        line = lines[n] if n < len(lines) else None
        where = f"{source}, line {line}" if line else f"{source}, row {n + 1}"
        row = make_row(raw, where, effect_codes, line)
        if row.id in ids:
            raise TableError(f"{where}: row id {row.id!r} is used twice")
        ids.add(row.id)
        rows.append(row)
    check_cover(rows, low, high, source)
    compiled = None
    declared = data.get("row_schema")
    if declared is not None and check_rows:
        from critcore.tables.rowschema import RowSchema, check_rows as check

        compiled = RowSchema(declared, source, row_types, text)
        check(compiled, rows, source, text)
    rows.sort(key=lambda r: r.low)
    lookup = data.get("lookup", False)
    if not isinstance(lookup, bool):
        raise TableError(f"{source}: lookup must be true or false")
    table = Table(table_id, str(data.get("title", table_id)), dice_text, low, high, tuple(rows), source,
                  row_schema=declared, row_types=row_types, lookup_only=lookup)
    if compiled is not None:
        table.__dict__["_row_checker"] = compiled  # kept for house rules (see rowschema.of)
    return table


def load_table_text(text: str, source: str, default_id: str = "",
                    effect_codes: frozenset[str] | None = None) -> Table:
    from critcore.tables.resources import load_toml_text

    return build_table(load_toml_text(text, source), source, text, default_id, effect_codes)


TYPES_FILE = "row-types"
"""``row-types.toml`` in a system's tables folder holds its named row types (not a table)."""


class SystemTypes:
    """A system's named row types: the ``[types]`` of ``row-types.toml`` in its tables folder
    (:mod:`critcore.tables.rowschema`).

    Made from the file's text, which the cache entries of the system's tables depend on; parsed
    and checked only when a table is parsed or a house-rule file changes one, so a cached
    start-up reads the file but neither parses it nor imports :mod:`critcore.tables.rowschema`.
    """

    def __init__(self, location: str, source: str, text: str) -> None:
        self.location = location
        self.source = source
        self.text = text
        self._types: Mapping[str, Any] | None = None

    @property
    def types(self) -> Mapping[str, Any]:
        if self._types is None:
            from critcore.tables.resources import load_toml
            from critcore.tables.rowschema import check_types_file

            data = load_toml(self.location, self.source, self.text,
                             lambda parsed: check_types_file(parsed, self.source, self.text))
            self._types = data.get("types", {})
        return self._types

    def at(self, name: str) -> str:
        """The file and line where type ``name`` is declared."""
        from critcore.tables.rowschema import Place

        return Place(self.source, self.text).at("types", name)


_BUILT: dict[tuple[str, frozenset[str] | None], tuple[str, str, Table]] = {}
"""Each shipped table file's Table, with the texts it was built from (its own and the system's
row types'), shared by every TableSet of the process while both are unchanged: engines of one
system (with and without house rules, ``--compare``) then hand the stages the same objects, so
systems' caches keyed by a table hit by identity instead of comparing two equal tables row by
row (a second engine cost 2.3x)."""


class TableSet(Mapping[str, Table]):
    """A system's tables by id, loaded from its package on first use (``row-types.toml`` there
    is the system's named row types, not a table).

    ``overrides`` (from house rules) replace whole tables by id.
    """

    def __init__(self, package: str | None, effect_codes: frozenset[str] | None = None,
                 overrides: Mapping[str, Table] | None = None) -> None:
        self.package = package
        self.effect_codes = effect_codes
        self._loaded: dict[str, Table] = dict(overrides or {})
        self._names: tuple[str, ...] | None = None
        self._paths: dict[str, str] | None = None
        self._types: tuple[SystemTypes, str] | None = None

    def _files(self) -> dict[str, str]:
        if self.package is None:
            return {}
        if self._paths is None:
            from critcore.tables.resources import list_files

            self._paths = list_files(self.package, ".toml")
            types = self._paths.pop(TYPES_FILE, None)
            if types is not None:
                from critcore.tables.resources import read_text

                text = read_text(types)
                self._types = SystemTypes(types, f"{self.package}/{TYPES_FILE}.toml", text), text
        return self._paths

    def names(self) -> tuple[str, ...]:
        if self._names is None:
            self._names = tuple(sorted(set(self._files()) | set(self._loaded)))
        return self._names

    def __getitem__(self, name: str) -> Table:
        table = self._loaded.get(name)
        if table is not None:
            return table
        files = self._files()
        if name not in files:
            raise KeyError(name)
        from critcore.tables.resources import load_toml, read_text

        location = files[name]
        source = f"{self.package}/{name}.toml"
        text = read_text(location)
        row_types, types_text = self._types or (None, "")
        key = (location, self.effect_codes)
        shared = _BUILT.get(key)
        if shared is not None and shared[0] == text and shared[1] == types_text:  # the same files: the same Table
            self._loaded[name] = shared[2]
            return shared[2]
        built: list[Table] = []

        def check(data: dict[str, Any]) -> None:  # on a fresh parse only: rows and row schema
            built.append(build_table(data, source, text, name, self.effect_codes, row_types=row_types))

        # the entry depends on the row types too: checked rows stay checked only while both are unchanged
        data = load_toml(location, source, text, check, depends=types_text)
        table = built[0] if built else build_table(data, source, text, name, self.effect_codes, check_rows=False,
                                                   row_types=row_types)
        self._loaded[name] = table
        _BUILT[key] = (text, types_text, table)
        return table

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    def with_overrides(self, overrides: Mapping[str, Table]) -> TableSet:
        """A new set where ``overrides`` replace tables of the same id."""
        new = TableSet(self.package, self.effect_codes, {**self._loaded, **overrides})
        new._paths, new._types = self._paths, self._types
        return new


def replace_rows(table: Table, rows: Iterable[Row], source: str) -> Table:
    """A copy of ``table`` with new rows, checked for cover."""
    from dataclasses import replace

    rows = sorted(rows, key=lambda r: r.low)
    check_cover(rows, table.low, table.high, source)
    return replace(table, rows=tuple(rows))
