"""The importer's data, loaded once from the TOML files of this package, and the look-ups on it.

Nothing here knows the .mtf format; :mod:`critcore_battletech.units` asks these questions:
which configuration a ``Config:`` value names, what a slot line is (equipment.toml, ammo.toml),
which engine type an ``Engine:`` text is, what a ``Heat Sinks:`` type means, and the internal
structure of a location for a tonnage.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any, Callable, Iterable, Mapping, Sequence

from critcore.plugin import load_data

from ..records import SLOT_KINDS, TECHS, Fields, Found, Pattern, Record, norm

__all__ = ["SLOT_KINDS", "TECHS", "Catalog", "Equipment", "AmmoType", "AmmoMatch", "ConfigSpec", "LocationSpec",
           "HeatSinkSpec", "EngineSpec", "Fields", "Pattern", "Record", "norm", "catalog", "prefix_order"]

def prefix_order(tech_base: str) -> tuple[str, ...]:
    """Prefixes tried, in order, when looking a bare name up for a unit of ``tech_base``.

    A Clan unit (or a mixed one on a Clan chassis) tries the Clan spelling first.
    """
    low = tech_base.lower()
    if "clan" in low and not ("mixed" in low and "is chassis" in low):
        return ("cl", "", "is")
    return ("", "is", "cl")


class Equipment(Record):
    """One entry of equipment.toml."""

    __slots__ = ("name", "kind", "tech", "slots", "explosion", "heat_sinks")

    def __init__(self, name: str, kind: str, tech: str, slots: int, explosion: int = 0, heat_sinks: int = 1) -> None:
        self.name = name
        self.kind = kind
        self.tech = tech
        self.slots = slots  # slots of one item; 0 = variable (a run of identical lines is one item)
        self.explosion = explosion
        self.heat_sinks = heat_sinks

    @property
    def label(self) -> str:
        return f"{self.name} (Clan)" if self.tech == "clan" else self.name


class AmmoType(Record):
    """What a bin of one weapon's ammunition holds (from a family of ammo.toml)."""

    __slots__ = ("weapon", "tech", "shots_per_ton", "damage_per_shot", "shots_per_turn", "explosive", "family",
                 "ammunition_damage_per_shot")

    def __init__(self, weapon: str, tech: str, shots_per_ton: int, damage_per_shot: int, shots_per_turn: int,
                 explosive: bool, family: str = "", ammunition_damage_per_shot: int = 0) -> None:
        self.weapon = weapon
        self.tech = tech
        self.shots_per_ton = shots_per_ton
        self.damage_per_shot = damage_per_shot
        self.shots_per_turn = shots_per_turn
        self.explosive = explosive
        self.family = family
        # a shot's damage as MegaMek's ammunition record carries it, where it differs (0: it does not)
        self.ammunition_damage_per_shot = ammunition_damage_per_shot


class AmmoMatch(Record):
    """What an ammunition slot name says: the weapon, a half-ton bin, munition variants.

    ``unknown`` is True when no family matched: the bin is kept explosive with the damage its
    name tells (``guessed`` says whether a number in the name gave it)."""

    __slots__ = ("ammo", "half", "variants", "shots_factor", "damage_factor", "named_shots", "unknown", "guessed")

    def __init__(self, ammo: AmmoType, half: bool, variants: tuple[str, ...], shots_factor: float,
                 damage_factor: float = 1.0, named_shots: int | None = None, unknown: bool = False,
                 guessed: bool = False) -> None:
        self.ammo = ammo
        self.half = half
        self.variants = variants
        self.shots_factor = shots_factor
        self.damage_factor = damage_factor
        self.named_shots = named_shots  # a shot count written in the name, "(100)"
        self.unknown = unknown
        self.guessed = guessed

    @property
    def shots(self) -> int:
        """Shots in a full bin of this kind."""
        if self.named_shots is not None:
            return self.named_shots
        shots = self.ammo.shots_per_ton * self.shots_factor
        if self.half:
            shots /= 2
        return int(shots)

    @property
    def damage_per_shot(self) -> int:
        return int(self.ammo.damage_per_shot * self.damage_factor)


class AmmoFamily(Fields):
    """One family of ammo.toml: a pattern and the numbers it gives by launcher size."""

    id: str
    label: str
    pattern: Pattern
    shots: Mapping[int, int]
    shots_per_ton: int
    clan_shots_per_ton: int
    damage_per_shot: int
    damage_per_unit: int
    shots_per_turn: int
    explosive: bool
    ammunition_damage_per_shot: int

    def bin(self, size: int | None, clan: bool) -> AmmoType | None:
        """The ammunition of this family for a launcher of ``size`` (None: a size it lacks)."""
        if self.shots:
            if size is None or size not in self.shots:
                return None
            shots = self.shots[size]
            damage = self.damage_per_unit * size
        else:
            shots = self.clan_shots_per_ton if clan and self.clan_shots_per_ton else self.shots_per_ton
            damage = self.damage_per_shot
        label = self.label.replace("{size}", str(size)) if size is not None else self.label
        return AmmoType(label, "clan" if clan else "is", shots, damage, self.shots_per_turn, self.explosive,
                        self.id, self.ammunition_damage_per_shot)


class EquipmentFamily(Fields):
    """One family of families.toml."""

    label: str
    pattern: Pattern
    kind: str
    slots: int
    clan_slots: int
    explosion: int
    slots_by_size: Mapping[int, int]
    explosion_by_size: Mapping[int, int]

    def item(self, size: int | None, clan: bool) -> Equipment:
        slots = self.clan_slots if clan and self.clan_slots else self.slots
        if size is not None and size in self.slots_by_size:
            slots = self.slots_by_size[size]
        explosion = self.explosion_by_size.get(size, self.explosion) if size is not None else self.explosion
        label = self.label.replace("{size}", str(size)) if size is not None else self.label
        return Equipment(label, self.kind, "clan" if clan else "is", slots, explosion)


class LocationSpec(Fields):
    code: str
    name: str
    slots: int
    structure: str  # column of structure.toml: head, center_torso, side_torso, arm, leg
    rear: bool
    inner: str
    aliases: tuple[str, ...] = ()
    armor_aliases: tuple[str, ...] = ()

    @property
    def headers(self) -> tuple[str, ...]:
        return (self.name,) + self.aliases


class ConfigSpec(Fields):
    id: str
    pattern: Pattern
    table: list[Mapping[str, Any]]  # its [[config.locations]] of configs.toml

    @cached_property
    def locations(self) -> tuple[LocationSpec, ...]:
        """The configuration's locations, made the first time they are asked for: a unit needs
        those of one configuration of the five."""
        return tuple(
            LocationSpec(
                code=loc["code"], name=loc["name"], slots=int(loc["slots"]),
                structure=loc["structure"], rear=bool(loc["rear"]), inner=loc["inner"],
                aliases=tuple(loc.get("aliases", ())), armor_aliases=tuple(loc.get("armor_aliases", ())),
            )
            for loc in self.table
        )

    def location(self, code: str) -> LocationSpec:
        return self._maps()[0][code]

    def by_header(self, header: str) -> LocationSpec | None:
        return self._maps()[1].get(header.strip().lower())

    def _maps(self) -> tuple[dict[str, LocationSpec], dict[str, LocationSpec]]:
        """The locations by code and by header (lower case), made on first use and kept here."""
        found: tuple[dict[str, LocationSpec], dict[str, LocationSpec]] | None = self.__dict__.get("_by")
        if found is None:
            by_header: dict[str, LocationSpec] = {}
            for loc in self.locations:
                for h in loc.headers:
                    by_header.setdefault(h.lower(), loc)
            found = self.__dict__["_by"] = ({loc.code: loc for loc in self.locations}, by_header)
        return found


class EngineSpec(Fields):
    type: str
    pattern: Pattern
    ct_slots: int
    side_slots_is: int
    side_slots_clan: int

    def side_slots(self, clan: bool) -> int:
        return self.side_slots_clan if clan else self.side_slots_is


class HeatSinkSpec(Fields):
    variant: str
    pattern: Pattern
    type: str
    dissipation: int


class Variant(Fields):
    name: str
    pattern: Pattern
    shots_factor: float
    damage_factor: float = 1.0


class Catalog(Fields):
    """All importer data, built by :func:`catalog` (read-only once built)."""

    structure_head: int
    structure_rows: Mapping[int, Mapping[str, int]]
    configs: tuple[ConfigSpec, ...]
    location_headers: frozenset[str]  # every location header of every configuration, lower case
    omni_pattern: Pattern
    rear_armor_keys: Mapping[str, str]
    engines: tuple[EngineSpec, ...]
    engine_clan_pattern: Pattern
    engine_is_pattern: Pattern
    largest_checked_rating: int
    heat_sinks: tuple[HeatSinkSpec, ...]
    equipment_rows: Sequence[tuple[Any, ...]]  # the entries of equipment.toml, each as Equipment's arguments
    strong_keys: Mapping[str, int]  # look-up key -> row (see _keys)
    weak_keys: Mapping[str, int]
    ammo_rows: tuple[tuple[Pattern, tuple[Any, ...]], ...]  # each family's pattern and AmmoFamily's arguments
    ammo_strip: tuple[Pattern, ...]
    ammo_half: Pattern
    ammo_count: Pattern
    prefix: Pattern
    ammo_variants: tuple[Variant, ...]
    unknown_damage: int
    family_rows: tuple[tuple[Pattern, tuple[Any, ...]], ...]  # the same of families.toml

    # the records are made when a name asks for them (a unit needs a few of the hundreds)
    @cached_property
    def equipment_strong(self) -> Mapping[str, Equipment]:
        """Every strong look-up key and its entry."""
        return {k: Equipment(*self.equipment_rows[i]) for k, i in self.strong_keys.items()}

    @cached_property
    def equipment_weak(self) -> Mapping[str, Equipment]:
        return {k: Equipment(*self.equipment_rows[i]) for k, i in self.weak_keys.items()}

    @cached_property
    def ammo_families(self) -> tuple[AmmoFamily, ...]:
        """The families of ammo.toml, in order."""
        return tuple(_ammo_family(p, row) for p, row in self.ammo_rows)

    @cached_property
    def equipment_families(self) -> tuple[EquipmentFamily, ...]:
        """The families of families.toml, in order."""
        return tuple(_equipment_family(p, row) for p, row in self.family_rows)

    # --- configurations and structure -------------------------------------------------------
    def config(self, text: str) -> ConfigSpec | None:
        for spec in self.configs:
            if spec.pattern.search(text):
                return spec
        return None

    def is_omni(self, text: str) -> bool:
        return bool(self.omni_pattern.search(text))

    def structure(self, tons: int) -> Mapping[str, int] | None:
        """Internal structure per structure column for ``tons``, or None off the table."""
        row = self.structure_rows.get(tons)
        if row is None:
            return None
        return dict(row)

    def superheavy(self, tons: int) -> bool:
        return tons > max(t for t, row in self.structure_rows.items() if row["head"] == self.structure_head)

    # --- engines and heat sinks -------------------------------------------------------------
    def engine(self, text: str) -> EngineSpec | None:
        for spec in self.engines:
            if spec.pattern.search(text):
                return spec
        return None

    def engine_is_clan(self, text: str, tech_base: str) -> bool:
        if self.engine_clan_pattern.search(text):
            return True
        low = tech_base.lower()
        if low == "clan":
            return True
        if "mixed" in low and "clan chassis" in low:
            return not self.engine_is_pattern.search(text)
        return False

    def heat_sink(self, text: str) -> HeatSinkSpec | None:
        for spec in self.heat_sinks:
            if spec.pattern.search(text):
                return spec
        return None

    # --- slot names -------------------------------------------------------------------------
    @staticmethod
    def _find(n: str, order: Iterable[str], strong: Mapping[str, Any], weak: Mapping[str, Any]) -> Any:
        candidates = [p + n for p in order]
        for key in candidates:
            if key in strong:
                return strong[key]
        for key in candidates:
            if key in weak:
                return weak[key]
        return None

    def equipment(self, name: str, tech_base: str, megamek_names: bool = True) -> Equipment | None:
        """The equipment.toml entry a slot name means for a unit of ``tech_base``, or the item
        MegaMek's class of that name is (megamek-names.toml, read only here, for a name the table
        lacks), or the item its family (families.toml) says it is, or None when none knows it.
        ``megamek_names=False`` leaves MegaMek's names out (the script that writes them asks so)."""
        n = norm(name)
        if not n:
            return None
        row: int | None = self._find(n, prefix_order(tech_base), self.strong_keys, self.weak_keys)
        result = None if row is None else Equipment(*self.equipment_rows[row])
        if result is None and megamek_names:
            entry = self.megamek_class(name, tech_base, ammo=False)
            if entry is not None:
                result = Equipment(entry["label"], entry["kind"], entry["tech"], int(entry["slots"]),
                                   int(entry.get("explosion", 0)))
        if result is None:
            result = self.equipment_family(name, tech_base)
        return result

    def megamek_class(self, name: str, tech_base: str = "", ammo: bool | None = None) -> Mapping[str, Any] | None:
        """The entry of megamek-names.toml (one MegaMek class or factory) that has ``name`` among
        its names, or None; ``ammo`` True or False: only a bin's, or only an item's. When several
        have it, a 'Mech class before one that is not (``mek = false``: a battle-armour laser is
        named "Medium Laser" too), then the one of the unit's tech base (MegaMek names the Inner
        Sphere and the Clan class alike): ``prefix_order``'s first tech, then "any", then the
        other. The file is read the first time a name needs it, then kept here."""
        index: dict[str, list[Mapping[str, Any]]] | None = self.__dict__.get("_megamek")
        if index is None:
            index = {}
            for entry in _read("megamek-names.toml").get("class", ()):
                for spelling in dict.fromkeys(norm(s) for s in entry["names"]):
                    index.setdefault(spelling, []).append(entry)
            self.__dict__["_megamek"] = index
        n = norm(name)
        found = index.get(n, [])
        if not found:
            # a tech prefix MegaMek does not write with this name ("IS Wrecking Ball"): the name
            # without it, the prefix's tech first; or one it writes and the file does not
            # ("TSEMP_OS" for "ISTSEMPOS"), the unit's first
            rest, clan = self.split_prefix(name, tech_base)
            if rest != name.strip():
                found = index.get(norm(rest), [])
                tech_base = "Clan" if clan else "Inner Sphere"
            else:
                found = next((index[p + n] for p in prefix_order(tech_base) if p and p + n in index), [])
        if ammo is not None:
            found = [e for e in found if (e["kind"] == "ammo") == ammo]
        if not found:
            return None
        if len(found) > 1:
            first = "clan" if _clan_unit(tech_base) else "is"
            rank = {first: 0, "any": 1}
            return min(found, key=lambda e: (e.get("mek", True) is False, rank.get(e.get("tech", "any"), 2)))
        return found[0]

    def split_prefix(self, name: str, tech_base: str) -> tuple[str, bool]:
        """(the name without its tech prefix, whether it is a Clan item)."""
        text = name.strip()
        m = self.prefix.match(text)
        clan = _clan_unit(tech_base)
        if m:
            clan = m.group(0).strip().upper().startswith("CL")
            text = text[m.end():]
        if "(clan)" in text.lower():
            clan = True
        return text, clan

    def equipment_family(self, name: str, tech_base: str) -> Equipment | None:
        text, clan = self.split_prefix(name, tech_base)
        n = norm(text)
        for pattern, row in self.family_rows:
            m = pattern.search(n)
            if m:
                return _equipment_family(pattern, row).item(_size(m), clan)
        return None

    @staticmethod
    def looks_like_ammo(name: str) -> bool:
        """A bin: "ammo" anywhere in the name (also glued: "ISArrowIVAmmo"), or Narc pods."""
        low = name.lower()
        return "ammo" in low or ("narc" in low and bool(_NARC_PODS.search(low)))

    def ammo(self, name: str, tech_base: str, megamek_names: bool = True) -> AmmoMatch | None:
        """What an ammunition slot name holds, or None when no family of ammo.toml knows it nor
        MegaMek's factory of that name (megamek-names.toml, read only for a name no family knows)."""
        text, clan = self.split_prefix(name, tech_base)
        low = text.lower()
        half = bool(self.ammo_half.search(low))
        low = self.ammo_half.sub(" ", low)
        count: int | None = None
        m = self.ammo_count.search(low)
        if m:
            count = int(m.group(1))
            low = low[: m.start()]
        variants: list[str] = []
        factor = damage = 1.0
        for variant in self.ammo_variants:
            if variant.pattern.search(low):
                variants.append(variant.name)
                factor *= variant.shots_factor
                damage *= variant.damage_factor
                low = variant.pattern.sub(" ", low)
        for pattern in self.ammo_strip:
            low = pattern.sub(" ", low)
        n = norm(low)
        for pattern, row in self.ammo_rows if n else ():
            found = pattern.search(n)
            if found:
                ammo = _ammo_family(pattern, row).bin(_size(found), clan)
                if ammo is None:
                    continue
                if count is not None and not half and count < ammo.shots_per_ton:
                    half = True
                return AmmoMatch(ammo, half, tuple(variants), factor, damage, count)
        entry = self.megamek_class(name, tech_base, ammo=True) if megamek_names else None
        if entry is not None:
            return self._megamek_bin(entry, half, count)
        return None

    def _megamek_bin(self, entry: Mapping[str, Any], half: bool, count: int | None) -> AmmoMatch:
        """A bin of a MegaMek ammunition factory no family of ammo.toml matched by name: MegaMek's
        shots a ton and damage a shot (its munition is in them), the family's shots a turn."""
        per_turn = next((row[7] for _, row in self.ammo_rows if row[0] == entry["family"]), 1)
        ammo = AmmoType(entry["weapon"], entry["tech"], int(entry["shots"]), int(entry["damage_per_shot"]), per_turn,
                        bool(entry["explosive"]), entry["family"])
        if count is not None and not half and count < ammo.shots_per_ton:
            half = True
        return AmmoMatch(ammo, half, (), 1.0, 1.0, count)

    def unknown_ammo(self, name: str) -> AmmoMatch:
        """An explosive bin for a name no family knows: one shot of the largest number in the
        name, or of the smallest damage any bin does."""
        numbers = [int(x) for x in re.findall(r"\d+", name)]
        guessed = bool(numbers)
        damage = max(numbers) if numbers else self.unknown_damage
        label = name.strip()
        ammo = AmmoType(label, "", 1, damage, 1, True, "")
        return AmmoMatch(ammo, False, (), 1.0, 1.0, None, unknown=True, guessed=guessed)




def _ammo_family(pattern: Pattern, row: tuple[Any, ...]) -> AmmoFamily:
    i, lb, sh, spt, cspt, dps, dpu, turn, ex, adps = row
    return AmmoFamily(id=i, label=lb, pattern=pattern, shots=sh, shots_per_ton=spt, clan_shots_per_ton=cspt,
                      damage_per_shot=dps, damage_per_unit=dpu, shots_per_turn=turn, explosive=ex,
                      ammunition_damage_per_shot=adps)


def _equipment_family(pattern: Pattern, row: tuple[Any, ...]) -> EquipmentFamily:
    lb, k, sl, csl, ex, sbs, ebs = row
    return EquipmentFamily(label=lb, pattern=pattern, kind=k, slots=sl, clan_slots=csl, explosion=ex,
                           slots_by_size=sbs, explosion_by_size=ebs)


def _clan_unit(tech_base: str) -> bool:
    return prefix_order(tech_base)[0] == "cl"


def _size(m: Found) -> int | None:
    for g in m.groups():
        if g:
            return int(g)
    return None


# --- loading ----------------------------------------------------------------------------------

def _read(name: str) -> dict[str, Any]:
    return load_data("critcore_battletech.data", name)  # parsed once, then cached by critcore


_NARC_PODS = Pattern(r"narc.*pods?\b")  # "ISNarc Pods", also glued: "ISNarc ExplosivePods"


def catalog(keep: Callable[[Callable[[], dict[str, Any]]], dict[str, Any]] | None = None) -> Catalog:
    """The importer's data, built from the package's data files (the files are parsed once and
    kept by critcore). Read-only once built: a caller that imports many units keeps one and
    passes it on (the plugin keeps it in the engine's reader memo; no module keeps one).

    ``keep``: a keeper of the catalog's frame (:func:`frame`) between processes, called with the
    function that builds it (the plugin passes :func:`critcore_battletech.unitcache.kept_frame`)."""
    return _build(keep)


def _build(keep: Callable[[Callable[[], dict[str, Any]]], dict[str, Any]] | None = None) -> Catalog:
    return from_frame(_frame() if keep is None else keep(_frame))


def _frame() -> dict[str, Any]:
    from .frame import frame  # the data files are read only when no kept frame serves

    return frame()


def _patterns(f: Mapping[str, Any]) -> Callable[..., Pattern]:
    """A maker of the frame's patterns with their filters (case ignored unless told)."""
    lower, exact = f["filters"], f["exact_filters"]

    def make(text: str, ignore_case: bool = True) -> Pattern:
        return Pattern(text, ignore_case, (lower if ignore_case else exact).get(text))
    return make


def from_frame(f: Mapping[str, Any]) -> Catalog:
    """The catalog of a frame (:func:`critcore_battletech.data.frame.frame`)."""
    _rx = _patterns(f)
    return Catalog(
        structure_head=f["structure_head"],
        structure_rows=f["structure_rows"],
        configs=tuple(ConfigSpec(id=i, pattern=_rx(m), table=locs) for i, m, locs in f["configs"]),
        location_headers=frozenset(f["headers"]),
        omni_pattern=_rx(f["omni_pattern"]),
        rear_armor_keys=f["rear_armor_keys"],
        engines=tuple(EngineSpec(type=t, pattern=_rx(m), ct_slots=ct, side_slots_is=si, side_slots_clan=sc)
                      for t, m, ct, si, sc in f["engines"]),
        engine_clan_pattern=_rx(f["engine_clan_pattern"]),
        engine_is_pattern=_rx(f["engine_is_pattern"]),
        largest_checked_rating=f["largest_checked_rating"],
        heat_sinks=tuple(HeatSinkSpec(variant=v, pattern=_rx(m), type=t, dissipation=d)
                         for v, m, t, d in f["heat_sinks"]),
        equipment_rows=f["equipment"],
        strong_keys=f["strong"],
        weak_keys=f["weak"],
        ammo_rows=tuple((_rx(row[2], False), row[:2] + row[3:]) for row in f["ammo_families"]),
        ammo_strip=tuple(_rx(p) for p in f["ammo_strip"]),
        ammo_half=_rx(f["ammo_half"]),
        ammo_count=_rx(f["ammo_count"]),
        prefix=_rx(f["prefix"], False),
        ammo_variants=tuple(Variant(name=n, pattern=_rx(m), shots_factor=sf, damage_factor=df)
                            for n, m, sf, df in f["ammo_variants"]),
        unknown_damage=f["unknown_damage"],
        family_rows=tuple((_rx(row[1], False), row[:1] + row[2:]) for row in f["equipment_families"]),
    )
