"""Reading MegaMek's text format for 'Mechs (``.mtf``) into a frozen record of what the file says.

The format is line based: ``key:value`` lines (keys matched without case), a location header
(``Left Arm:``) followed by one line per critical slot, and free text (fluff). Two header styles
exist: the legacy one (``Version:1.0`` and then the chassis and model on bare lines) and the
current one (``chassis:`` and ``model:`` keys). A ``Weapons:N`` line is followed by N summary
lines, which are kept but not needed (the slot lines say where everything is).

:func:`parse_mtf` checks the syntax and the numbers and keeps everything with its line number.
What the lines MEAN (configuration, slot kinds, engine slots) is decided in
:mod:`critcore_battletech.units`, which raises errors with the same ``FILE, line N:`` form.
"""

from __future__ import annotations

from typing import Iterator

from critcore.plugin import StateError, load_data

from .records import Fields, Pattern

__all__ = ["MtfArmor", "MtfFile", "MtfLocation", "MtfSlot", "MtfValue", "parse_mtf", "fail"]

#: Keys whose value is free text that may go on over the following lines.
FLUFF_KEYS = frozenset({
    "overview", "capabilities", "deployment", "history", "notes", "manufacturer", "primaryfactory",
})

#: Every key MegaMek writes or reads in a 'Mech file (lower case, without the colon).
KNOWN_KEYS = frozenset({
    "version", "generator", "chassis", "model", "clanname", "mul id", "config", "techbase", "era",
    "source", "rules level", "role", "quirk", "weaponquirk", "mass", "engine", "structure",
    "myomer", "cockpit", "gyro", "motive", "ejection", "heat sink kit", "lam", "heat sinks",
    "base chassis heat sinks", "walk mp", "jump mp", "armor", "weapons", "nocrit", "bv",
    "fluffimage", "imagefile", "icon", "systemmanufacturer", "systemmode",
}) | FLUFF_KEYS

#: Keys that may appear many times; the others keep their last value (with a note).
REPEATABLE_KEYS = frozenset({"quirk", "weaponquirk", "systemmanufacturer", "systemmode", "nocrit"})

_MOST_DIGITS = 9  # in a number: no real unit needs more, and int() stays cheap
# An unknown "Something:" line naming a body part is a location header we do not know.
_LOCATION_WORDS = Pattern(
    r"\b(arm|leg|torso|head|wing|wings|turret|body|nose|fuselage|pod|tail|front|rear)\b", ignore_case=True
)  # compiled only if a line needs it
ARMOR_CODES = frozenset({
    "HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL", "CL", "FLL", "FRL", "RLL", "RRL", "RTL", "RTR", "RTC",
})


# The three checks below are string methods rather than regular expressions: each expression
# compiled costs about 0.2 ms of a command that imports a unit file (docs/performance-log.md).

def _armor_code(key: str) -> str | None:
    """``"la"`` for the key ``"la armor"`` (lower case, single spaces): two or three letters, then ``armor``."""
    code, _, word = key.partition(" ")
    if word == "armor" and 2 <= len(code) <= 3 and code.isascii() and code.isalpha():
        return code
    return None


def _is_count(text: str) -> bool:
    """A whole number of zero or more, at most nine digits, an optional ``+`` before it."""
    digits = text[1:] if text.startswith("+") else text
    return 1 <= len(digits) <= _MOST_DIGITS and digits.isascii() and digits.isdigit()


def _leading_count(text: str) -> tuple[int, str] | None:
    """``(300, "XL Engine")`` for ``"300 XL Engine"``: the number at the start (at most nine
    digits) and the rest, trimmed; None when the text does not start with a number."""
    text = text.strip()
    end = 0
    while end < len(text) and "0" <= text[end] <= "9":
        end += 1
    if not 1 <= end <= _MOST_DIGITS:
        return None
    return int(text[:end]), text[end:].strip()


def _looks_like_header(s: str) -> bool:
    """``Left Wing:``: a short line ending in a colon that names a body part."""
    return (
        s.endswith(":") and s.count(":") == 1 and len(s.split()) <= 4 and bool(_LOCATION_WORDS.search(s))
    )


def fail(source: str, line: int, what: str) -> StateError:
    """The importer's error: ``FILE, line N: what is wrong``."""
    return StateError(f"{source}, line {line}: {what}")


# The records of a parsed file are plain classes with slots, not named tuples: defining a
# NamedTuple compiles code, about 0.2 ms a class at every start-up that imports a unit file.

class MtfValue:
    """One ``key:value`` line: the key in lower case, the value as written (trimmed)."""

    __slots__ = ("key", "value", "line")

    def __init__(self, key: str, value: str, line: int) -> None:
        self.key = key
        self.value = value
        self.line = line


class MtfArmor:
    """An armor line, ``LA Armor:34`` (``code`` upper case; ``armor_type`` for patchwork armor)."""

    __slots__ = ("code", "points", "line", "armor_type")

    def __init__(self, code: str, points: int, line: int, armor_type: str = "") -> None:
        self.code = code
        self.points = points
        self.line = line
        self.armor_type = armor_type


class MtfSlot:
    """One critical slot line as written (trimmed)."""

    __slots__ = ("text", "line")

    def __init__(self, text: str, line: int) -> None:
        self.text = text
        self.line = line


class MtfLocation:
    """A location header (``Left Arm``, as written, without the colon) and its slot lines."""

    __slots__ = ("header", "line", "slots")

    def __init__(self, header: str, line: int, slots: tuple[MtfSlot, ...]) -> None:
        self.header = header
        self.line = line
        self.slots = slots


class MtfFile(Fields):
    """What an .mtf file says. Numbers are checked; meanings are left to :mod:`.units`."""

    source: str
    header_style: str  # "legacy" (Version: + bare lines) or "keys" (chassis:/model:)
    version: str
    chassis: str
    model: str
    config: str
    tech_base: str
    mass: int
    engine_rating: int
    engine_text: str  # the Engine: value after the rating, e.g. "XL (Clan) Engine(IS)"
    heat_sink_count: int
    heat_sink_text: str  # e.g. "Single", "Double", "Laser"
    walk_mp: int
    jump_mp: int
    armor_type: str
    armor: tuple[MtfArmor, ...]
    locations: tuple[MtfLocation, ...]
    values: tuple[MtfValue, ...]  # every key:value line (known keys), in file order
    extra: tuple[MtfValue, ...]  # key:value lines with keys this reader does not know
    weapons: tuple[str, ...]  # the summary lines after Weapons:N
    fluff: tuple[tuple[str, str], ...]  # (key, text) with continuation lines joined
    notes: tuple[str, ...]  # things worth telling the user that are not errors
    line_count: int
    warnings: tuple[str, ...] = ()  # things the user must see (bytes read as cp1252, ...)

    def get(self, key: str, default: str = "") -> str:
        """The last value of ``key`` (lower case), or ``default``."""
        found = default
        for v in self.values:
            if v.key == key:
                found = v.value
        return found

    def line_of(self, key: str) -> int:
        """The line of the last ``key`` line, or the file's last line when it has none."""
        line = self.line_count
        for v in self.values:
            if v.key == key:
                line = v.line
        return line

    def all(self, key: str) -> tuple[MtfValue, ...]:
        return tuple(v for v in self.values if v.key == key)

    def armor_for(self, code: str) -> MtfArmor | None:
        for a in self.armor:
            if a.code == code:
                return a
        return None

    def location(self, header: str) -> MtfLocation | None:
        low = header.lower()
        for loc in self.locations:
            if loc.header.lower() == low:
                return loc
        return None


class _Reader:
    """The state of one pass over the file."""

    def __init__(self, text: str, source: str, headers: frozenset[str]) -> None:
        self.source = source
        if text.startswith("\ufeff"):
            text = text[1:]
        self.lines = text.splitlines()
        self.warnings: list[str] = []
        if not text.isascii() and _has_stray_bytes(text):
            self.repair()
        self.headers = headers  # every location header of every configuration, lower case
        self.values: list[MtfValue] = []
        self.first_line: dict[str, int] = {}  # the first line of each key (for "a second ... line")
        self.extra: list[MtfValue] = []
        self.armor: dict[str, MtfArmor] = {}
        self.locations: list[tuple[str, int, list[MtfSlot]]] = []
        self.weapons: list[str] = []
        self.fluff: list[list[str]] = []  # [key, text]
        self.notes: list[str] = []
        self.header_style = "keys"
        self.version = ""
        self.legacy_chassis: tuple[str, int] | None = None
        self.legacy_model: tuple[str, int] | None = None

    def error(self, line: int, what: str) -> StateError:
        return fail(self.source, line, what)

    def repair(self) -> None:
        """Lines holding bytes that are not UTF-8 (kept as surrogate escapes) read as cp1252, or
        as latin-1 where cp1252 has no character for a byte; a warning names each line."""
        for i, line in enumerate(self.lines):
            if not _STRAY.search(line):
                continue
            raw = line.encode("utf-8", "surrogateescape")
            try:
                self.lines[i] = raw.decode("cp1252")
                how = "cp1252"
            except UnicodeDecodeError:
                self.lines[i] = raw.decode("latin-1")
                how = "latin-1"
            self.warnings.append(f"line {i + 1}: bytes that are not UTF-8, read as {how}")

    # --- classification of one line ---------------------------------------------------------
    def header_of(self, s: str) -> str | None:
        """The location name when ``s`` is a known location header line."""
        if s.endswith(":") and s[:-1].strip().lower() in self.headers:
            return s[:-1].strip()
        return None

    @staticmethod
    def key_of(s: str) -> tuple[str, str] | None:
        """(key, value) when ``s`` is a ``key:value`` line with a key this reader knows."""
        if ":" not in s:
            return None
        key, value = s.split(":", 1)
        key = " ".join(key.lower().split())
        if key in KNOWN_KEYS or _armor_code(key):
            return key, value.strip()
        return None

    # --- the pass ---------------------------------------------------------------------------
    def numbered(self) -> Iterator[tuple[int, str]]:
        for number, raw in enumerate(self.lines, 1):
            yield number, raw.strip()

    def run(self) -> None:
        lines = [(number, raw.strip()) for number, raw in enumerate(self.lines, 1)]
        i = 0
        # The legacy header: Version: then (Generator:) chassis and model on bare lines.
        while i < len(lines) and (not lines[i][1] or lines[i][1].startswith("#")):
            i += 1
        if i < len(lines) and lines[i][1].lower().startswith("version:"):
            self.version = lines[i][1].split(":", 1)[1].strip()
            self.values.append(MtfValue("version", self.version, lines[i][0]))
            self.first_line["version"] = lines[i][0]
            i = self.legacy_names(lines, i + 1)

        section: tuple[str, int] | None = None  # ("loc", index) or ("fluff", index)
        last_loc: int | None = None
        weapons_left = 0
        in_weapons = False  # inside the summary list after Weapons:N
        while i < len(lines):
            number, s = lines[i]
            i += 1
            if s.startswith("#"):
                continue
            if weapons_left or in_weapons:
                if s and not self.header_of(s) and not self.key_of(s):
                    if not weapons_left:
                        self.notes.append(f"line {number}: more weapon lines than 'Weapons:' says: "
                                          f"'{s}' is read as one of them")
                    self.weapons.append(s)
                    weapons_left = max(weapons_left - 1, 0)
                    continue
                weapons_left = 0
                in_weapons = False
            if not s:
                if section and section[0] == "loc":
                    section = None
                continue
            if section is not None and section[0] == "loc" and ":" not in s:
                self.add_slot(section[1], s, number)  # most lines: a slot (no header or key has no colon)
                continue
            header = self.header_of(s)
            if header is not None:
                for name, first, _ in self.locations:
                    if name.lower() == header.lower():
                        raise self.error(number, f"a second '{header}:' section (the first is at line {first})")
                self.locations.append((header, number, []))
                section = ("loc", len(self.locations) - 1)
                last_loc = section[1]
                continue
            kv = self.key_of(s)
            if kv is not None:
                key, value = kv
                section = None
                weapons_left = self.take_key(key, value, number)
                in_weapons = key == "weapons"
                if key in FLUFF_KEYS:
                    self.fluff.append([key, value])
                    section = ("fluff", len(self.fluff) - 1)
                continue
            if section and section[0] == "fluff":
                self.fluff[section[1]][1] += "\n" + s
                continue
            if _looks_like_header(s):
                raise self.error(number, f"unknown location header '{s}' (expected one of: "
                                 + ", ".join(sorted({h.title() for h in self.headers})) + ")")
            if section and section[0] == "loc":
                self.add_slot(section[1], s, number)
                continue
            if ":" in s and not s.startswith(":"):
                key, value = s.split(":", 1)
                self.extra.append(MtfValue(" ".join(key.lower().split()), value.strip(), number))
                continue
            if last_loc is not None and len(self.locations[last_loc][2]) < 12:
                # A blank line inside a location: MegaMek reads on, and so do we.
                self.add_slot(last_loc, s, number)
                section = ("loc", last_loc)
                continue
            raise self.error(number, f"'{s}' is not a 'key:value' line, a location header or a slot of a location")

    def legacy_names(self, lines: list[tuple[int, str]], i: int) -> int:
        """Read the bare chassis and model lines after ``Version:``; returns the next index."""
        self.header_style = "legacy"

        def skip_comments(j: int) -> int:
            while j < len(lines) and lines[j][1].startswith("#"):
                j += 1
            return j

        i = skip_comments(i)
        if i < len(lines) and lines[i][1].lower().startswith("generator:"):
            self.values.append(MtfValue("generator", lines[i][1].split(":", 1)[1].strip(), lines[i][0]))
            self.first_line["generator"] = lines[i][0]
            i = skip_comments(i + 1)
        if i >= len(lines) or self.key_of(lines[i][1]) or self.header_of(lines[i][1]):
            # "Version:" followed by chassis:/model: keys: the current style after all.
            self.header_style = "keys"
            return i
        self.legacy_chassis = (lines[i][1], lines[i][0])
        i = skip_comments(i + 1)
        if i < len(lines) and not self.key_of(lines[i][1]) and not self.header_of(lines[i][1]):
            self.legacy_model = (lines[i][1], lines[i][0])
            return i + 1
        return i

    def take_key(self, key: str, value: str, number: int) -> int:
        """Record one known key line. Returns the number of weapon summary lines that follow."""
        armor = _armor_code(key)
        if armor:
            code = armor.upper()
            if code not in ARMOR_CODES:
                raise self.error(number, f"unknown armor location '{code}' in '{key}:' (expected one of: "
                                 + ", ".join(sorted(ARMOR_CODES)) + ")")
            points_text = value.rsplit(":", 1)[-1].strip()
            armor_type = value.rsplit(":", 1)[0].strip() if ":" in value else ""
            points = self.number(points_text, f"{code} Armor", number)
            if code in self.armor:
                self.notes.append(f"line {number}: a second '{code} Armor:' line replaces line {self.armor[code].line}")
            self.armor[code] = MtfArmor(code, points, number, armor_type)
            return 0
        if key not in REPEATABLE_KEYS and key not in FLUFF_KEYS:
            first = self.first_line.get(key)
            if first is not None:
                self.notes.append(f"line {number}: a second '{key}:' line replaces line {first}")
            else:
                self.first_line[key] = number
        self.values.append(MtfValue(key, value, number))
        if key == "weapons":
            if not value:
                return 0
            return self.number(value, "Weapons", number)
        return 0

    def number(self, text: str, what: str, line: int) -> int:
        if not _is_count(text.strip()):
            raise self.error(line, f"'{what}:' needs a whole number of zero or more, not '{text.strip()}'")
        return int(text.strip())

    def add_slot(self, loc: int, s: str, number: int) -> None:
        header, _, slots = self.locations[loc]
        if len(slots) >= 12:
            raise self.error(number, f"too many slots in '{header}': a location has at most 12 slot lines, "
                             f"'{s}' would be the 13th")
        slots.append(MtfSlot(s, number))

    # --- the result ---------------------------------------------------------------------------
    def last(self, key: str) -> MtfValue | None:
        found = None
        for v in self.values:
            if v.key == key:
                found = v
        return found

    def required(self, key: str, label: str, meaning: str) -> MtfValue:
        v = self.last(key)
        if v is None or not v.value:
            line = v.line if v is not None else len(self.lines) or 1
            where = "is empty" if v is not None else "is missing"
            raise self.error(line, f"the '{label}:' line ({meaning}) {where}")
        return v

    def build(self) -> MtfFile:
        if self.legacy_chassis is not None:
            chassis, chassis_line = self.legacy_chassis
            if self.last("chassis") is None:
                self.values.append(MtfValue("chassis", chassis, chassis_line))
            if self.legacy_model is not None and self.last("model") is None:
                self.values.append(MtfValue("model", self.legacy_model[0], self.legacy_model[1]))
        chassis_v = self.last("chassis")
        if chassis_v is None or not chassis_v.value:
            line = chassis_v.line if chassis_v else 1
            raise self.error(line, "no chassis name (a 'chassis:' line, or the line after 'Version:')")
        mass_v = self.required("mass", "Mass", "the 'Mech's tonnage")
        mass = self.number(mass_v.value, "Mass", mass_v.line)
        engine_v = self.required("engine", "Engine", "rating and type, like '300 Fusion Engine'")
        m = _leading_count(engine_v.value)
        if not m:
            raise self.error(engine_v.line, f"'Engine:' should start with the engine rating, like "
                             f"'300 Fusion Engine', not '{engine_v.value}'")
        hs_v = self.required("heat sinks", "Heat Sinks", "how many and which kind, like '10 Single'")
        hs = _leading_count(hs_v.value)
        if not hs:
            raise self.error(hs_v.line, f"'Heat Sinks:' should start with the number of heat sinks, like "
                             f"'10 Single', not '{hs_v.value}'")
        walk_v = self.required("walk mp", "Walk MP", "walking movement points")
        walk = self.number(walk_v.value, "Walk MP", walk_v.line)
        jump_v = self.last("jump mp")
        jump = self.number(jump_v.value, "Jump MP", jump_v.line) if jump_v is not None and jump_v.value else 0
        if jump_v is None:
            self.notes.append("no 'Jump MP:' line: jumping MP 0")
        base_v = self.last("base chassis heat sinks")
        if base_v is not None and base_v.value:
            self.number(base_v.value, "Base Chassis Heat Sinks", base_v.line)
        config_v = self.last("config")
        config = config_v.value if config_v is not None and config_v.value else ""
        if not config:
            config = "Biped"
            self.notes.append("no 'Config:' line: read as a biped 'Mech")
        tech_v = self.last("techbase")
        tech = tech_v.value if tech_v is not None and tech_v.value else ""
        if not tech:
            tech = "Inner Sphere"
            self.notes.append("no 'TechBase:' line: read as Inner Sphere")
        model_v = self.last("model")
        armor_v = self.last("armor")
        return MtfFile(
            source=self.source,
            header_style=self.header_style,
            version=self.version,
            chassis=chassis_v.value.strip(),
            model=model_v.value.strip() if model_v is not None else "",
            config=config,
            tech_base=tech,
            mass=mass,
            engine_rating=m[0],
            engine_text=m[1],
            heat_sink_count=hs[0],
            heat_sink_text=hs[1],
            walk_mp=walk,
            jump_mp=jump,
            armor_type=armor_v.value if armor_v is not None else "",
            armor=tuple(self.armor.values()),
            locations=tuple(MtfLocation(h, n, tuple(slots)) for h, n, slots in self.locations),
            values=tuple(self.values),
            extra=tuple(self.extra),
            weapons=tuple(self.weapons),
            fluff=tuple((k, t) for k, t in self.fluff),
            notes=tuple(self.notes),
            line_count=max(len(self.lines), 1),
            warnings=tuple(self.warnings),
        )


_STRAY = Pattern("[\udc80-\udcff]")  # compiled only for a file with stray bytes


def _has_stray_bytes(text: str) -> bool:
    """Whether ``text`` holds bytes kept as surrogate escapes (:func:`decode`): text without
    surrogates encodes as UTF-8, and that check needs no regular expression compiled."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def decode(data: bytes) -> str:
    """The text of a file's bytes: UTF-8, with any other byte kept as a surrogate escape (the
    reader then reads those lines as cp1252 or latin-1, with a warning)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape")


def location_headers() -> frozenset[str]:
    """Every location header of every configuration (lower case, without the colon), from the
    configurations' data file (``data/configs.toml``: each location's name and aliases). Which
    configuration the headers belong to is the catalog's question, asked after parsing."""
    cfg = load_data("critcore_battletech.data", "configs.toml")
    return frozenset(h.lower() for c in cfg["config"] for loc in c["locations"]
                     for h in (loc["name"], *loc.get("aliases", ())))


def parse_mtf(text: str | bytes, source: str, headers: frozenset[str] | None = None) -> MtfFile:
    """Read the text of an .mtf file. ``source`` names the file in error messages; ``headers``,
    the location headers to know (:func:`location_headers` when not given).

    Raises :class:`~critcore.errors.StateError` (``"FILE, line N: what is wrong"``) for a file
    that does not parse: a bad number, an unknown location header or armor location, more than
    12 slot lines in a location, a stray line, or a missing chassis, Mass, Engine, Heat Sinks or
    Walk MP line.
    """
    if isinstance(text, (bytes, bytearray)):
        text = decode(bytes(text))
    reader = _Reader(text, source, location_headers() if headers is None else headers)
    reader.run()
    return reader.build()
