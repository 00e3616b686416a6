"""The importer's data, loaded once from the TOML files of this package, and the look-ups on it.

Nothing here knows the .mtf format; :mod:`critcore_battletech.units` asks these questions:
which configuration a ``Config:`` value names, what a slot line is (equipment.toml, ammo.toml),
which engine type an ``Engine:`` text is, what a ``Heat Sinks:`` type means, and the internal
structure of a location for a tonnage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Mapping

from critcore.resources import load_data

#: Slot kinds of the unit state contract (docs/systems/battletech.md).
SLOT_KINDS = frozenset({
    "empty", "roll-again", "engine", "gyro", "cockpit", "life-support", "sensors",
    "shoulder", "upper-arm-actuator", "lower-arm-actuator", "hand-actuator",
    "hip", "upper-leg-actuator", "lower-leg-actuator", "foot-actuator",
    "heat-sink", "jump-jet", "ammo", "weapon", "equipment",
})

#: Tech bases an item can belong to in equipment.toml / ammo.toml.
TECHS = ("is", "clan", "any")

_NOT_ALNUM = re.compile(r"[^a-z0-9]")


def norm(name: str) -> str:
    """A name compared without case, spaces or punctuation: ``"LRM-20"`` -> ``"lrm20"``."""
    return _NOT_ALNUM.sub("", name.lower())


def _keys(name: str, tech: str) -> tuple[list[str], list[str]]:
    """(strong, weak) look-up keys of one spelling of an item of ``tech``."""
    n = norm(name)
    if tech == "is":
        return [n, "is" + n], []
    if tech == "clan":
        return ["cl" + n, "clan" + n, n + "clan"], [n]
    return [n, "is" + n, "cl" + n, "clan" + n, n + "clan"], []


def prefix_order(tech_base: str) -> tuple[str, ...]:
    """Prefixes tried, in order, when looking a bare name up for a unit of ``tech_base``.

    A Clan unit (or a mixed one on a Clan chassis) tries the Clan spelling first.
    """
    low = tech_base.lower()
    if "clan" in low and not ("mixed" in low and "is chassis" in low):
        return ("cl", "", "is")
    return ("", "is", "cl")


@dataclass(frozen=True)
class Equipment:
    """One entry of equipment.toml."""

    name: str
    kind: str
    tech: str
    slots: int  # slots of one item; 0 = variable (a run of identical lines is one item)
    explosion: int = 0
    heat_sinks: int = 1

    @property
    def label(self) -> str:
        return f"{self.name} (Clan)" if self.tech == "clan" else self.name


@dataclass(frozen=True)
class AmmoType:
    """One weapon's ammunition from ammo.toml."""

    weapon: str
    tech: str
    shots_per_ton: int
    damage_per_shot: int
    shots_per_turn: int
    explosive: bool


@dataclass(frozen=True)
class AmmoMatch:
    """What an ammunition slot name says: the weapon, a half-ton bin, munition variants."""

    ammo: AmmoType
    half: bool
    variants: tuple[str, ...]
    shots_factor: float

    @property
    def shots(self) -> int:
        """Shots in a full bin of this kind."""
        shots = self.ammo.shots_per_ton * self.shots_factor
        if self.half:
            shots /= 2
        return int(shots)


@dataclass(frozen=True)
class LocationSpec:
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


@dataclass(frozen=True)
class ConfigSpec:
    id: str
    pattern: re.Pattern[str]
    locations: tuple[LocationSpec, ...]

    def location(self, code: str) -> LocationSpec:
        for loc in self.locations:
            if loc.code == code:
                return loc
        raise KeyError(code)

    def by_header(self, header: str) -> LocationSpec | None:
        low = header.strip().lower()
        for loc in self.locations:
            if any(h.lower() == low for h in loc.headers):
                return loc
        return None


@dataclass(frozen=True)
class EngineSpec:
    type: str
    pattern: re.Pattern[str]
    ct_slots: int
    side_slots_is: int
    side_slots_clan: int

    def side_slots(self, clan: bool) -> int:
        return self.side_slots_clan if clan else self.side_slots_is


@dataclass(frozen=True)
class HeatSinkSpec:
    variant: str
    pattern: re.Pattern[str]
    type: str
    dissipation: int


@dataclass(frozen=True)
class Variant:
    name: str
    pattern: re.Pattern[str]
    shots_factor: float


@dataclass(frozen=True, eq=False)
class Catalog:
    """All importer data. Build it with :func:`catalog` (cached)."""

    structure_head: int
    structure_rows: Mapping[int, Mapping[str, int]]
    configs: tuple[ConfigSpec, ...]
    omni_pattern: re.Pattern[str]
    rear_armor_keys: Mapping[str, str]
    engines: tuple[EngineSpec, ...]
    engine_clan_pattern: re.Pattern[str]
    engine_is_pattern: re.Pattern[str]
    largest_checked_rating: int
    heat_sinks: tuple[HeatSinkSpec, ...]
    equipment_strong: Mapping[str, Equipment]
    equipment_weak: Mapping[str, Equipment]
    ammo_strong: Mapping[str, AmmoType]
    ammo_weak: Mapping[str, AmmoType]
    ammo_strip: tuple[re.Pattern[str], ...]
    ammo_half: re.Pattern[str]
    ammo_variants: tuple[Variant, ...]
    headers: frozenset[str] = field(default=frozenset())

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
        return {"head": self.structure_head, **row}

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

    def equipment(self, name: str, tech_base: str) -> Equipment | None:
        """The equipment.toml entry a slot name means for a unit of ``tech_base``, or None."""
        n = norm(name)
        if not n:
            return None
        result: Equipment | None = self._find(n, prefix_order(tech_base), self.equipment_strong, self.equipment_weak)
        return result

    @staticmethod
    def looks_like_ammo(name: str) -> bool:
        low = name.lower()
        return bool(re.search(r"\bammo\b", low)) or norm(name).endswith("pods")

    def ammo(self, name: str, tech_base: str) -> AmmoMatch | None:
        """What an ammunition slot name holds, or None when the weapon is not in ammo.toml."""
        low = name.lower()
        half = bool(self.ammo_half.search(low))
        low = self.ammo_half.sub(" ", low)
        variants: list[str] = []
        factor = 1.0
        for variant in self.ammo_variants:
            if variant.pattern.search(low):
                variants.append(variant.name)
                factor *= variant.shots_factor
                low = variant.pattern.sub(" ", low)
        for pattern in self.ammo_strip:
            low = pattern.sub(" ", low)
        n = norm(low)
        if not n:
            return None
        found: AmmoType | None = self._find(n, prefix_order(tech_base), self.ammo_strong, self.ammo_weak)
        if found is None:
            return None
        return AmmoMatch(found, half, tuple(variants), factor)


# --- loading ----------------------------------------------------------------------------------

def _read(name: str) -> dict[str, Any]:
    return load_data("critcore_battletech.data", name)  # parsed once, then cached by critcore


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _index(entries: Iterable[tuple[Any, Iterable[str], str]], what: str) -> tuple[dict[str, Any], dict[str, Any]]:
    strong: dict[str, Any] = {}
    weak: dict[str, Any] = {}
    for entry, names, tech in entries:
        if tech not in TECHS:
            raise ValueError(f"{what}: {names!r} has tech {tech!r} (use is, clan or any)")
        for spelling in names:
            s_keys, w_keys = _keys(spelling, tech)
            for key in s_keys:
                if key in strong and strong[key] != entry:
                    raise ValueError(f"{what}: the name {spelling!r} ({key}) is given to two entries")
                strong[key] = entry
            for key in w_keys:
                weak.setdefault(key, entry)
    return strong, weak


def _load_equipment() -> tuple[dict[str, Equipment], dict[str, Equipment]]:
    data = _read("equipment.toml")
    rows: list[tuple[Any, Iterable[str], str]] = []
    for group in data["group"]:
        for item in group["items"]:
            kind = item.get("kind", group["kind"])
            if kind not in SLOT_KINDS:
                raise ValueError(f"equipment.toml: {item['name']!r} has unknown kind {kind!r}")
            entry = Equipment(
                name=item["name"], kind=kind, tech=item["tech"], slots=int(item["slots"]),
                explosion=int(item.get("explosion", 0)), heat_sinks=int(item.get("heat_sinks", 1)),
            )
            rows.append((entry, [item["name"], *item.get("aliases", [])], item["tech"]))
    return _index(rows, "equipment.toml")


def _load_ammo() -> tuple[dict[str, AmmoType], dict[str, AmmoType], dict[str, Any]]:
    data = _read("ammo.toml")
    rows: list[tuple[Any, Iterable[str], str]] = []
    for item in data["ammo"]:
        entry = AmmoType(
            weapon=item["weapon"], tech=item["tech"], shots_per_ton=int(item["shots_per_ton"]),
            damage_per_shot=int(item["damage_per_shot"]), shots_per_turn=int(item["shots_per_turn"]),
            explosive=bool(item["explosive"]),
        )
        rows.append((entry, [item["weapon"], *item.get("aliases", [])], item["tech"]))
    strong, weak = _index(rows, "ammo.toml")
    return strong, weak, data


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The importer's data (read from the package once per process)."""
    structure = _read("structure.toml")
    rows = {
        int(r[0]): {"center_torso": int(r[1]), "side_torso": int(r[2]), "arm": int(r[3]), "leg": int(r[4])}
        for r in structure["rows"]
    }
    cfg = _read("configs.toml")
    configs = tuple(
        ConfigSpec(
            id=c["id"],
            pattern=_rx(c["match"]),
            locations=tuple(
                LocationSpec(
                    code=loc["code"], name=loc["name"], slots=int(loc["slots"]),
                    structure=loc["structure"], rear=bool(loc["rear"]), inner=loc["inner"],
                    aliases=tuple(loc.get("aliases", ())), armor_aliases=tuple(loc.get("armor_aliases", ())),
                )
                for loc in c["locations"]
            ),
        )
        for c in cfg["config"]
    )
    eng = _read("engines.toml")
    engines = tuple(
        EngineSpec(
            type=e["type"], pattern=_rx(e["match"]), ct_slots=int(e["ct_slots"]),
            side_slots_is=int(e["side_slots_is"]), side_slots_clan=int(e["side_slots_clan"]),
        )
        for e in eng["engine"]
    )
    hs = _read("heat_sinks.toml")
    heat_sinks = tuple(
        HeatSinkSpec(variant=h["variant"], pattern=_rx(h["match"]), type=h["type"], dissipation=int(h["dissipation"]))
        for h in hs["heat_sink"]
    )
    eq_strong, eq_weak = _load_equipment()
    ammo_strong, ammo_weak, ammo = _load_ammo()
    headers = frozenset(h.lower() for c in configs for loc in c.locations for h in loc.headers)
    return Catalog(
        structure_head=int(structure["head"]),
        structure_rows=rows,
        configs=configs,
        omni_pattern=_rx(cfg["omni_pattern"]),
        rear_armor_keys=dict(cfg["rear_armor_keys"]),
        engines=engines,
        engine_clan_pattern=_rx(eng["clan_pattern"]),
        engine_is_pattern=_rx(eng["is_pattern"]),
        largest_checked_rating=int(eng["largest_checked_rating"]),
        heat_sinks=heat_sinks,
        equipment_strong=eq_strong,
        equipment_weak=eq_weak,
        ammo_strong=ammo_strong,
        ammo_weak=ammo_weak,
        ammo_strip=tuple(_rx(p) for p in ammo["strip"]),
        ammo_half=_rx(ammo["half_pattern"]),
        ammo_variants=tuple(
            Variant(name=v["name"], pattern=_rx(v["match"]), shots_factor=float(v["shots_factor"]))
            for v in ammo["variant"]
        ),
        headers=headers,
    )
