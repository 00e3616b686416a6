"""Building the unit state (the shape shared with the rules engine) from an .mtf file.

:func:`unit_from_mtf` reads the file with :func:`critcore_battletech.mtf.parse_mtf`, then:

- finds the configuration (biped, quad, tripod, LAM, QuadVee) and checks that the file has
  exactly that configuration's locations (a quad may name its front legs as arms, like MegaMek);
- keeps every slot where the file puts it (a 6-slot location padded to 12 lines keeps its first
  6; the padding must be empty), reads the suffixes ``(R)`` rear, ``(T)`` turret, ``(OMNIPOD)``,
  ``(ARMORED)``, ``(SPLIT)`` and ``:SIZE:n``, and gives each line its slot kind from the data;
- cuts runs of identical lines into items of the item's slot count (equipment.toml); a run that
  does not divide evenly continues in the neighbouring location when that location holds the
  rest (a weapon split between an arm and its side torso, say): one item, one id, slots in both
  locations (``split``); otherwise the odd part is one item and an import note says so;
- reads ammunition bins (ammo.toml), internal structure from the tonnage (structure.toml), armor
  from the file, and checks the engine slots in the torsos against the engine type (a
  difference is a note, not an error).

Every error is a :class:`~critcore.errors.StateError` reading ``FILE, line N: what is wrong``.
"""

from __future__ import annotations

from typing import Any

from .data.catalog import AmmoMatch, Catalog, ConfigSpec, Equipment, LocationSpec, catalog
from .mtf import MtfFile, MtfLocation, fail, parse_mtf
from .records import Pattern, Record, norm

__all__ = ["KIND", "FORMAT", "SlotName", "parse_slot_name", "unit_from_mtf", "unit_from_parsed"]

KIND = "battletech-mech"
FORMAT = 1

# the suffixes of a slot line, read without a regular expression (each costs start-up)
_SUFFIXES = frozenset({"r", "t", "omnipod", "armored", "armoured", "split", "fl", "fr", "rl", "rr"})
# compiled the first time a slot line carries a size
_SIZE = Pattern(r"\s*:size:\s*([0-9]*\.?[0-9]+)\s*", ignore_case=True)
_FLAGS = {"r": "rear", "t": "turret", "omnipod": "omnipod", "armored": "armored", "armoured": "armored"}
_EMPTY = frozenset({"-empty-", "empty", "-"})
_TECH_BASES = (("mixed", "Mixed"), ("clan", "Clan"), ("inner sphere", "Inner Sphere"), ("is", "Inner Sphere"))


class SlotName(Record):
    """A slot line taken apart: the name as written without suffixes, flags, size."""

    __slots__ = ("name", "flags", "size", "split", "empty")

    def __init__(self, name: str, flags: tuple[str, ...] = (), size: float | None = None, split: bool = False,
                 empty: bool = False) -> None:
        self.name = name
        self.flags = flags
        self.size = size
        self.split = split  # marked "(Split)" in the file
        self.empty = empty  # an empty slot ("-Empty-")


_EMPTY_SLOT = SlotName("-Empty-", empty=True)


def parse_slot_name(text: str) -> SlotName:
    """``"CLERMediumLaser (T) (OMNIPOD)"`` -> name ``CLERMediumLaser``, flags turret, omnipod."""
    name = text.strip()
    size: float | None = None
    m = _SIZE.search(name) if ":" in name else None
    if m:
        size = float(m.group(1))
        name = (name[: m.start()] + " " + name[m.end():]).strip()
    flags: list[str] = []
    split = False
    while True:
        start = name.rfind("(") if name.endswith(")") else -1
        word = name[start + 1:-1].lower() if start >= 0 else ""
        if word not in _SUFFIXES:
            break
        if word == "split":
            split = True
        elif word in _FLAGS:
            if _FLAGS[word] not in flags:
                flags.append(_FLAGS[word])
        # (FL) (FR) (RL) (RR) give a grenade launcher's facing: not needed for criticals.
        name = name[:start].rstrip()
    order = ("rear", "turret", "omnipod", "armored")
    empty = name.strip().lower() in _EMPTY or not name.strip()
    return SlotName(name, tuple(f for f in order if f in flags), size, split, empty)


class _Slot:
    """One resolved slot of a location (a plain class: a NamedTuple compiles code at import)."""

    __slots__ = ("code", "pos", "line", "slot", "kind", "entry", "ammo", "second", "shown", "key")

    def __init__(self, code: str, pos: int, line: int, slot: SlotName, kind: str, entry: Equipment | None,
                 ammo: AmmoMatch | None, second: _Slot | None = None, shown: str = "", key: str = "") -> None:
        self.code = code
        self.pos = pos  # the slot's index in its location
        self.line = line
        self.slot = slot
        self.kind = kind
        self.entry = entry
        self.ammo = ammo
        self.second = second  # the other item of a superheavy's double slot ("A|B")
        self.shown = shown  # a double slot's line as written
        self.key = key  # the name's look-up form (norm), "" for an empty slot

    @property
    def run_key(self) -> tuple[str, tuple[str, ...], float | None, str]:
        return (self.key, self.slot.flags, self.slot.size, self.kind)

    @property
    def item_slots(self) -> int:
        """Slots of one item of this kind; 0 = a run of identical lines is one item."""
        if self.kind == "ammo" or self.second is not None:
            return 1
        return self.entry.slots if self.entry is not None else 0


def _tech_base(text: str, notes: list[str]) -> str:
    low = text.strip().lower()
    for word, name in _TECH_BASES:
        if low == word or low.startswith(word + " ") or (word != "is" and low.startswith(word)):
            return name
    notes.append(f"tech base '{text}' is not Inner Sphere, Clan or Mixed: kept as written")
    return text.strip()


def _match_locations(mtf: MtfFile, spec: ConfigSpec) -> dict[str, MtfLocation]:
    found: dict[str, MtfLocation] = {}
    for loc in mtf.locations:
        where = spec.by_header(loc.header)
        if where is None:
            names = ", ".join(f"'{ls.name}:'" for ls in spec.locations)
            raise fail(mtf.source, loc.line, f"'{loc.header}:' is not a location of a {spec.id} 'Mech "
                       f"(its locations are {names})")
        if where.code in found:
            raise fail(mtf.source, loc.line, f"'{loc.header}:' is the {where.name} again "
                       f"(already given at line {found[where.code].line})")
        found[where.code] = loc
    for ls in spec.locations:
        if ls.code not in found:
            raise fail(mtf.source, mtf.line_count, f"the file has no '{ls.name}:' section "
                       f"(every {spec.id} 'Mech has one)")
    return found


_Answer = tuple[str, Equipment | None, AmmoMatch | None]


class _Names:
    """What the slot names of one file came to (a unit repeats its lines: an LRM 20 is five)."""

    __slots__ = ("cat", "slot_names", "classified")

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.slot_names: dict[str, SlotName] = {}
        self.classified: dict[tuple[str, str], _Answer] = {}

    def slot_name(self, text: str) -> SlotName:
        found = self.slot_names.get(text)
        if found is None:
            found = self.slot_names[text] = parse_slot_name(text)
        return found

    def classify(self, name: str, tech_base: str) -> _Answer:
        found = self.classified.get((name, tech_base))
        if found is None:
            found = self.classified[(name, tech_base)] = _classify(self.cat, name, tech_base)
        return found


def _resolve(mtf: MtfFile, ls: LocationSpec, loc: MtfLocation, names: _Names, notes: list[str],
             warnings: list[str], unknown: list[str]) -> list[_Slot]:
    slots: list[_Slot] = []
    for index, line in enumerate(loc.slots):
        sn = names.slot_name(line.text)
        if index >= ls.slots:
            if not sn.empty:
                raise fail(mtf.source, line.line, f"too many slots: the {ls.name} has {ls.slots} slots, "
                           f"but '{line.text}' would be slot {index + 1}")
            continue
        if sn.empty:
            slots.append(_Slot(ls.code, index, line.line, sn, "empty", None, None))
            continue
        if "|" in sn.name:
            first, other = (p.strip() for p in sn.name.split("|", 1))
            a = _what(mtf, ls, index, line.line, SlotName(first, sn.flags, sn.size), names, notes, warnings, unknown)
            b = _what(mtf, ls, index, line.line, SlotName(other, sn.flags, sn.size), names, notes, warnings, unknown)
            slots.append(_Slot(ls.code, index, line.line, a.slot, a.kind, a.entry, a.ammo, b, sn.name, a.key))
            continue
        slots.append(_what(mtf, ls, index, line.line, sn, names, notes, warnings, unknown))
    for index in range(len(slots), ls.slots):
        slots.append(_Slot(ls.code, index, loc.line, _EMPTY_SLOT, "empty", None, None))
    return slots


def _what(mtf: MtfFile, ls: LocationSpec, index: int, number: int, sn: SlotName, names: _Names,
          notes: list[str], warnings: list[str], unknown: list[str]) -> _Slot:
    """One slot name read: ammunition, known equipment, or an unrecognised plain component."""
    kind, entry, match = names.classify(sn.name, mtf.tech_base)
    key = norm(sn.name)
    if kind == "ammo":
        assert match is not None
        if match.unknown:
            told = (f"{match.ammo.damage_per_shot} damage, the number in its name" if match.guessed
                    else f"{match.ammo.damage_per_shot} damage, the smallest any bin does")
            warnings.append(f"line {number}: unrecognised ammunition '{sn.name}' in the {ls.name}: an explosive "
                            f"bin of one shot of {told} (set its numbers in the saved unit)")
            if sn.name not in unknown:
                unknown.append(sn.name)
        elif match.variants:
            notes.append(f"line {number}: '{sn.name}' is {', '.join(match.variants)} ammunition: "
                         f"{match.shots} shots, {match.damage_per_shot} damage a shot")
        return _Slot(ls.code, index, number, sn, "ammo", None, match, key=key)
    if entry is None:
        warnings.append(f"line {number}: unrecognised equipment '{sn.name}' in the {ls.name}: kept as a plain "
                        "component that a critical hit knocks out (it does not explode)")
        if sn.name not in unknown:
            unknown.append(sn.name)
    return _Slot(ls.code, index, number, sn, kind, entry, None, key=key)


def _classify(cat: Catalog, name: str, tech_base: str) -> _Answer:
    """(slot kind, equipment entry, ammunition) of a slot name for a tech base."""
    if cat.looks_like_ammo(name):
        return ("ammo", None, cat.ammo(name, tech_base) or cat.unknown_ammo(name))
    entry = cat.equipment(name, tech_base)
    return ("equipment", None, None) if entry is None else (entry.kind, entry, None)


def _runs(slots: list[_Slot]) -> list[list[_Slot]]:
    runs: list[list[_Slot]] = []
    for s in slots:
        if s.kind == "empty":
            continue
        if runs and runs[-1][-1].pos == s.pos - 1 and runs[-1][-1].run_key == s.run_key:
            runs[-1].append(s)
        else:
            runs.append([s])
    return runs


class _Item:
    __slots__ = ("parts",)

    def __init__(self, parts: tuple[tuple[_Slot, ...], ...]) -> None:
        self.parts = parts  # one tuple of slots per location, primary first

    @property
    def first(self) -> _Slot:
        return self.parts[0][0]

    @property
    def id(self) -> str:
        first = self.parts[0][0]
        return f"{first.code}-{first.pos}"


def _cut(spec: ConfigSpec, by_code: dict[str, list[_Slot]], notes: list[str]) -> list[_Item]:
    """Cut the runs of every location into items; join split remainders of neighbours."""
    items: list[_Item] = []
    rest: list[tuple[_Slot, ...]] = []
    for ls in spec.locations:
        for run in _runs(by_code[ls.code]):
            k = run[0].item_slots or len(run)
            whole = len(run) // k * k
            for j in range(0, whole, k):
                items.append(_Item((tuple(run[j:j + k]),)))
            if whole < len(run):
                rest.append(tuple(run[whole:]))
    used: set[int] = set()
    for i, a in enumerate(rest):
        if i in used:
            continue
        used.add(i)
        k = a[0].item_slots
        partner = None
        for j, b in enumerate(rest):
            if j in used or b[0].run_key[0] != a[0].run_key[0] or b[0].entry != a[0].entry:
                continue
            if len(a) + len(b) != k:
                continue
            if spec.location(a[0].code).inner == b[0].code or spec.location(b[0].code).inner == a[0].code:
                partner = j
                break
        if partner is not None:
            used.add(partner)
            b = rest[partner]
            outer, inner = (a, b) if spec.location(a[0].code).inner == b[0].code else (b, a)
            items.append(_Item((outer, inner)))
        else:
            notes.append(f"line {a[0].line}: '{a[0].slot.name}' fills {len(a)} slot(s) in the "
                         f"{spec.location(a[0].code).name}, but one needs {k}: kept as one item")
            items.append(_Item((a,)))
    order = {ls.code: i for i, ls in enumerate(spec.locations)}
    items.sort(key=lambda it: (order[it.first.code], it.first.pos))
    return items


def _ammo_state(s: _Slot) -> dict[str, Any]:
    m = s.ammo
    assert m is not None
    out: dict[str, Any] = {
        "weapon": m.ammo.weapon, "shots": m.shots, "shots_per_ton": m.ammo.shots_per_ton,
        "damage_per_shot": m.damage_per_shot, "shots_per_turn": m.ammo.shots_per_turn,
        "tons": 0.5 if m.half else 1.0,
    }
    if m.ammo.ammunition_damage_per_shot:  # the ammunition record's own figure (option heavy_flamer_explosion)
        out["ammunition_damage_per_shot"] = m.ammo.ammunition_damage_per_shot
    if m.variants:
        out["munition"] = ", ".join(m.variants)
    if m.unknown:
        out["unrecognised"] = True
    return out


def _item_state(item: _Item) -> dict[str, Any]:
    s = item.first
    flags: list[str] = []
    for part in item.parts:
        for slot in part:
            flags += [f for f in slot.slot.flags if f not in flags]
    out: dict[str, Any] = {
        "name": s.slot.name,
        "label": s.entry.label if s.entry is not None else (
            s.ammo.ammo.weapon + " ammo" if s.ammo and not s.ammo.unknown else s.slot.name),
        "kind": s.kind,
        "location": s.code,
        "slots": [x.pos for x in item.parts[0]],
        "disabled": False,
        "explosive": False,
        "explosion_damage": 0,
        "flags": flags,
    }
    if s.kind == "ammo":
        out["explosive"] = s.ammo.ammo.explosive if s.ammo is not None else True
        if not out["explosive"]:
            out["explosion_damage"] = 0
        out["ammo"] = _ammo_state(s)
    elif s.entry is not None and s.entry.explosion > 0:
        out["explosive"] = True
        out["explosion_damage"] = s.entry.explosion
    if s.kind == "heat-sink":
        out["heat_sinks"] = s.entry.heat_sinks if s.entry is not None else 1
    if s.slot.size is not None:
        out["size"] = s.slot.size
    if len(item.parts) > 1:
        out["split"] = {part[0].code: [x.pos for x in part] for part in item.parts[1:]}
    return out


def _slot_state(s: _Slot, item_of: dict[tuple[str, int], str]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": s.shown or s.slot.name, "kind": s.kind, "item": item_of.get((s.code, s.pos)),
                           "destroyed": False, "flags": list(s.slot.flags)}
    if s.second is not None:
        out["item2"] = f"{s.code}-{s.pos}b"
        out["kind2"] = s.second.kind
    return out


def _second_items(slots: dict[str, list[_Slot]]) -> dict[str, Any]:
    """The second items of superheavy double slots (one item each, in that one slot)."""
    out: dict[str, Any] = {}
    for ss in slots.values():
        for s in ss:
            if s.second is not None:
                out[f"{s.code}-{s.pos}b"] = _item_state(_Item(((s.second,),)))
    return out


def _armor(mtf: MtfFile, ls: LocationSpec, cat: Catalog) -> tuple[int, int | None]:
    front = mtf.armor_for(ls.code)
    for alias in ls.armor_aliases:
        front = front or mtf.armor_for(alias)
    if front is None:
        raise fail(mtf.source, mtf.line_of("armor"), f"no '{ls.code} Armor:' line (the armor of the {ls.name})")
    if not ls.rear:
        return front.points, None
    key = cat.rear_armor_keys[ls.code]
    rear = mtf.armor_for(key)
    if rear is None:
        raise fail(mtf.source, mtf.line_of("armor"), f"no '{key} Armor:' line (the rear armor of the {ls.name})")
    return front.points, rear.points


def _engine(mtf: MtfFile, cat: Catalog, slots: dict[str, list[_Slot]], notes: list[str]) -> dict[str, Any]:
    spec = cat.engine(mtf.engine_text)
    clan = cat.engine_is_clan(mtf.engine_text, mtf.tech_base)
    line = mtf.line_of("engine")
    if spec is None:
        notes.append(f"line {line}: engine type '{mtf.engine_text}' is not known: type 'other', slots not checked")
        return {"rating": mtf.engine_rating, "type": "other", "clan": clan}
    count = {code: sum(1 for s in ss if s.kind == "engine") for code, ss in slots.items()}
    elsewhere = [code for code, n in count.items() if n and code not in ("CT", "LT", "RT")]
    if elsewhere:
        notes.append(f"engine slots outside the torso in {', '.join(elsewhere)}: kept where the file puts them")
    if mtf.engine_rating <= cat.largest_checked_rating:
        side = spec.side_slots(clan)
        want = {"CT": spec.ct_slots, "LT": side, "RT": side}
        have = {code: count.get(code, 0) for code in want}
        if have != want:
            tech = "Clan" if clan else "Inner Sphere"
            notes.append(
                f"line {line}: an {tech} {spec.type} engine has {want['CT']} slots in the centre torso and "
                f"{side} in each side torso, but the file has CT {have['CT']}, LT {have['LT']}, RT {have['RT']}: "
                "the slots are kept as the file has them")
    return {"rating": mtf.engine_rating, "type": spec.type, "clan": clan}


def _case(slots: list[_Slot]) -> str:
    names = {s.key for s in slots if s.kind == "roll-again"}
    if any(n.endswith("caseii") for n in names):
        return "case-ii"
    if any(n.endswith("case") for n in names):
        return "case"
    return "none"


def unit_from_parsed(mtf: MtfFile, cat: Catalog | None = None) -> dict[str, Any]:
    """The unit state for a parsed file (see :func:`unit_from_mtf`)."""
    if cat is None:
        cat = catalog()
    notes = list(mtf.notes)
    spec = cat.config(mtf.config)
    if spec is None:
        raise fail(mtf.source, mtf.line_of("config"), f"unknown configuration '{mtf.config}' "
                   "(expected Biped, Quad, Tripod, LAM or QuadVee, with 'Omnimech' for an OmniMech)")
    structure = cat.structure(mtf.mass)
    if structure is None:
        raise fail(mtf.source, mtf.line_of("mass"), f"{mtf.mass} tons is not on the internal structure table "
                   "(10 to 200 tons in steps of 5)")
    tech_base = _tech_base(mtf.tech_base, notes)
    file_locs = _match_locations(mtf, spec)
    warnings = list(mtf.warnings)
    unknown: list[str] = []
    names = _Names(cat)
    slots = {ls.code: _resolve(mtf, ls, file_locs[ls.code], names, notes, warnings, unknown) for ls in spec.locations}
    items = _cut(spec, slots, notes)
    item_of: dict[tuple[str, int], str] = {}
    for item in items:
        item_id = item.id
        for part in item.parts:
            for s in part:
                item_of[(s.code, s.pos)] = item_id

    locations: dict[str, Any] = {}
    for ls in spec.locations:
        armor, rear = _armor(mtf, ls, cat)
        points = structure[ls.structure]
        locations[ls.code] = {
            "name": ls.name,
            "armor": armor, "max_armor": armor,
            "rear_armor": rear, "max_rear_armor": rear,
            "structure": points, "max_structure": points,
            "destroyed": False,
            "blown_off": False,
            "case": _case(slots[ls.code]),
            "slots": [_slot_state(s, item_of) for s in slots[ls.code]],
        }
    known = {ls.code for ls in spec.locations} | {a for ls in spec.locations for a in ls.armor_aliases}
    known |= {cat.rear_armor_keys[ls.code] for ls in spec.locations if ls.rear}
    for extra in mtf.armor:
        if extra.code not in known:
            notes.append(f"line {extra.line}: '{extra.code} Armor:' is not a location of a {spec.id} 'Mech: ignored")

    for odd in mtf.extra:
        notes.append(f"line {odd.line}: the key '{odd.key}' is not one this importer uses: ignored")
    if mtf.walk_mp != mtf.engine_rating // mtf.mass:
        notes.append(f"line {mtf.line_of('walk mp')}: Walk MP {mtf.walk_mp}, but a {mtf.engine_rating}-rated engine "
                     f"in a {mtf.mass}-ton 'Mech gives {mtf.engine_rating // mtf.mass}: the file's value is kept")
    hs = cat.heat_sink(mtf.heat_sink_text)
    if hs is None:
        notes.append(f"line {mtf.line_of('heat sinks')}: heat sink type '{mtf.heat_sink_text}' is not known: "
                     "counted as single")
    unit: dict[str, Any] = {
        "kind": KIND,
        "format": FORMAT,
        "chassis": mtf.chassis,
        "model": mtf.model,
        "config": spec.id,
        "omni": cat.is_omni(mtf.config),
        "tech_base": tech_base,
        "tonnage": mtf.mass,
        "superheavy": cat.superheavy(mtf.mass),
        "engine": _engine(mtf, cat, slots, notes),
        "heat_sinks": {
            "count": mtf.heat_sink_count,
            "type": hs.type if hs else "single",
            "variant": hs.variant if hs else mtf.heat_sink_text.lower(),
        },
        "walk_mp": mtf.walk_mp,
        "jump_mp": mtf.jump_mp,
        "locations": locations,
        "items": {**{item.id: _item_state(item) for item in items}, **_second_items(slots)},
        "pilot": {"hits": 0, "dead": False, "conscious": True},
        "heat": 0,
        "damage": {"engine_hits": 0, "gyro_hits": 0, "sensor_hits": 0, "life_support_hit": False,
                   "heat_sinks_destroyed": 0, "jump_jets_destroyed": 0},
        "destroyed": False,
        "destroyed_reason": "",
        "armor_type": mtf.armor_type,
        "structure_type": mtf.get("structure"),
        "gyro_type": mtf.get("gyro"),
        "cockpit_type": mtf.get("cockpit"),
        "source": mtf.source,
        "import_notes": notes,
        "import_warnings": warnings,
        "unrecognised": unknown,
    }
    if spec.id == "lam":
        unit["lam_type"] = (mtf.get("lam") or "Standard").strip().lower()
    if spec.id == "quadvee":
        unit["motive"] = (mtf.get("motive") or "Track").strip().lower()
    return unit


def unit_from_mtf(text: str | bytes, source: str, cat: Catalog | None = None) -> dict[str, Any]:
    """The unit state (docs/systems/battletech.md, "The unit state") of an .mtf file's text.

    ``source`` names the file in error messages. Raises :class:`~critcore.errors.StateError`
    with ``FILE, line N: what is wrong`` for a file that does not parse or does not describe a
    'Mech this importer can build. Unknown equipment is kept by name as kind ``equipment``.
    The three steps run one way: the file is parsed (:mod:`.mtf`), each name classified (the
    catalog, :mod:`.data.catalog`), and the unit built from the answers (here). ``cat``: a catalog
    kept by the caller for many units (:func:`~.data.catalog.catalog`; built afresh without one).
    """
    if cat is None:
        cat = catalog()
    return unit_from_parsed(parse_mtf(text, source, cat.location_headers), cat)
