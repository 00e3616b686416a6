"""Build data/megamek-names.toml from MegaMek's equipment definitions.

Usage: python tools/megamek_names.py FOLDER [FOLDER ...] [--check]

Each FOLDER holds Java text saved from MegaMek/megamek (never committed here): weapon classes
(one class a file: ``public class ISLRM5 extends LRMWeapon {`` with ``name =``,
``setInternalName`` / ``addLookupName``, ``criticalSlots``, ``explosive``, ``explosionDamage``;
abstract parents as ``public abstract class LRMWeapon extends MissileWeapon {``) and factories
of ``AmmoType`` and ``MiscType`` (``static AmmoType createISNarcAmmo() { ... }``). Each file's
first line may be a ``//`` comment naming where the text came from (``MegaMek/megamek <path> @
<commit>``); it is carried into the output as the entry's ``source``. A class or factory saved
twice (two MegaMek versions, two folders) is one entry with the names of both; the first file
(in name order) gives its numbers.

The file is its own record. The Java text is kept nowhere (a scratch folder, gone after the
pass that read it), so every run starts from the file as it is: an entry whose class or
factory is not in the folders given is written back unchanged, and one that is is written anew
from its Java text. A pass that reads only weapon classes keeps every AmmoType and MiscType entry
of the passes before it. ``--check`` builds the same way and only says whether the file on disk
is up to date.

Weapon classes inherit. The ``extends`` chain is followed through the saved classes: what a
class does not state itself (its slots, ``criticalSlots`` or the older ``criticals``; whether it
is explosive; its explosion) comes from the nearest saved parent that states it; the chain stops
at a class not saved (named on stderr, but for MegaMek's bases ``Weapon``/``WeaponType``) and is
written as the entry's ``extends``. A class that is or extends one of ``not_explosive`` in
megamek-facts.toml (``ACWeapon``, ``RACWeapon``, ``PPCWeapon``: MegaMek's flag there stands for
incendiary ammunition, a jam, a charged capacitor) does not explode. A weapon's tech is its class
name's IS/CL prefix, else the prefix all its prefixed names agree on, else its MegaMek folder
(``.../clan/...``, ``.../innerSphere/...``). A class under ``battlearmor/``, ``infantry/``,
``capitalweapons/`` or ``bayweapons/`` is not a 'Mech weapon (``mek = false``): a name it shares
with a 'Mech item the tables know keeps the tables' item, and the catalog prefers a 'Mech class
of the same name. Abstract parents (no names) are no entries.

For every class or factory the script writes its names (``name``, the internal name, the lookup
names) and what the plugin makes of it: the slot kind, and for a weapon or piece of equipment
its label, tech, slots and explosion; for a bin its weapon label, shots a ton, damage a shot and
whether it explodes. The plugin's own tables are asked first (equipment.toml, the families of
families.toml and ammo.toml) for every name of the class; what MegaMek states outright (critical
slots, ``explosive`` / ``explosionDamage``, shots and damage of a bin) wins over a family's
guess, except where megamek-facts.toml records that critcore departs from MegaMek on purpose
(``departs``: the heavy flamer's bin explodes for the weapon's damage, not MegaMek's 2). For a
``MiscType`` factory the script also reads ``spreadable = true`` and the ``flags`` statement: a
name the tables know keeps the tables' slots when the factory is not 'Mech equipment (no
``F_MEK_EQUIPMENT``: a ProtoMek's or a vehicle's "Jump Jet") or is spread over locations
(``spreadable``, or ``F_SPLITABLE``: its stated slots are the total; the tables' 0 makes a run of
lines in one location one item), and a spread item the tables lack gets 0 for the same reason.
An item the tables lack whose factory says ``hittable = false`` is a slot a critical hit rolls
again on (kind "roll-again", like CASE). A name known outright to the tables goes before a
family's guess at another name of the factory. Factories that take arguments
(``createChainDrape(String, ...)``, names built with ``formatted``) are not read, nor names
MegaMek gives through constants (``setInternalName(Sensor.EW_EQUIPMENT)``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, Iterable, Sequence

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "src" / "critcore_battletech" / "data" / "megamek-names.toml"

_CLASS = re.compile(r"public\s+(?:abstract\s+|final\s+)*class\s+(\w+)(?:\s*<[^>{]*>)?(?:\s+extends\s+(\w+))?")
_FACTORY = re.compile(r"static\s+(AmmoType|MiscType)\s+(create\w+)\s*\(\s*\)\s*\{")
_STR = r'"((?:[^"\\]|\\.)*)"'
_NAME = re.compile(r"(?<![\w.])(?:\w+\.)?name\s*=\s*" + _STR)
_INTERNAL = re.compile(r"setInternalName\(\s*(?:" + _STR + r"|((?:this\.)?name))\s*\)")
_LOOKUP = re.compile(r"addLookupName\(\s*" + _STR + r"\s*\)")
_INT = {k: re.compile(r"(?<![\w])(?:\w+\.)?" + k + r"\s*=\s*(\d+)") for k in
        ("criticalSlots", "criticals", "explosionDamage", "damagePerShot", "rackSize", "shots")}
_EXPLOSIVE = re.compile(r"(?<![\w])(?:\w+\.)?explosive\s*=\s*(true|false)")
_HITTABLE = re.compile(r"(?<![\w])(?:\w+\.)?hittable\s*=\s*false")
_SPREADABLE = re.compile(r"(?<![\w])(?:\w+\.)?spreadable\s*=\s*true")
_FLAGS = re.compile(r"(?<![\w])(?:\w+\.)?flags\s*=\s*([^;]*);")


def _blocks(text: str) -> list[tuple[str, str, str, str]]:
    """(MegaMek class or factory, which of WeaponType/AmmoType/MiscType, its body, the class it
    extends or "") in a file."""
    out: list[tuple[str, str, str, str]] = []
    factories = list(_FACTORY.finditer(text))
    if factories:
        for i, m in enumerate(factories):
            end = factories[i + 1].start() if i + 1 < len(factories) else len(text)
            out.append((f"{m.group(1)}.{m.group(2)}", m.group(1), text[m.end():end], ""))
        return out
    m = _CLASS.search(text)
    if m:
        out.append((m.group(1), "WeaponType", text[m.end():], m.group(2) or ""))
    return out


def parse(body: str) -> dict[str, Any]:
    """The names and the numbers MegaMek states in one class body or factory."""
    found: dict[str, Any] = {}
    m = _NAME.search(body)
    name = m.group(1) if m else ""
    names = [name] if name else []
    for m in _INTERNAL.finditer(body):
        names.append(m.group(1) if m.group(1) is not None else name)
    names += [m.group(1) for m in _LOOKUP.finditer(body)]
    found["names"] = list(dict.fromkeys(n for n in names if n))
    for key, rx in _INT.items():
        m = rx.search(body)
        if m:
            found[key] = int(m.group(1))
    m = _EXPLOSIVE.search(body)
    if m:
        found["explosive"] = m.group(1) == "true"
    if _HITTABLE.search(body):
        found["hittable"] = False
    if _SPREADABLE.search(body):
        found["spreadable"] = True
    m = _FLAGS.search(body)
    if m and not re.search(r"\.or\(\s*F_MEK_EQUIPMENT\s*\)", m.group(1)):
        found["mek"] = False
    if m and re.search(r"\.or\(\s*F_SPLITABLE\s*\)", m.group(1)):
        found["splitable"] = True
    return found


def _prefix_tech(name: str) -> str:
    if re.match(r"(?:CL|Clan)(?=[A-Z0-9 ])", name):
        return "clan"
    if re.match(r"IS(?=[A-Z0-9 ])", name):
        return "is"
    return "any"


def _tech(megamek: str, names: Iterable[str] = (), source: str = "") -> str:
    """Whose item a class or factory is: its own name's IS/CL prefix, else the prefix all its
    prefixed names agree on, else its folder in MegaMek (``.../clan/...``, ``.../innerSphere/...``)."""
    tech = _prefix_tech(megamek.rsplit(".", 1)[-1].removeprefix("create"))
    if tech != "any":
        return tech
    votes = {_prefix_tech(n) for n in names} - {"any"}
    if len(votes) == 1:
        return votes.pop()
    path = source.split(" @ ")[0]
    if "/clan/" in path:
        return "clan"
    if "/innerSphere/" in path or "/is/" in path:
        return "is"
    return "any"


def _departs() -> dict[str, dict[str, Any]]:
    """The ammunition families where critcore deliberately differs from MegaMek
    (megamek-facts.toml, ``departs``): family id -> the numbers critcore uses."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    facts = tomllib.loads((OUT.parent / "megamek-facts.toml").read_text(encoding="utf-8"))
    return {fid: fam["departs"] for fid, fam in facts.get("family", {}).items() if "departs" in fam}


def _not_explosive() -> dict[str, str]:
    """The weapon classes whose ``explosive`` critcore does not take as an explosion on a critical
    hit (megamek-facts.toml, ``not_explosive``): class -> why."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    facts = tomllib.loads((OUT.parent / "megamek-facts.toml").read_text(encoding="utf-8"))
    return {k: v for k, v in facts.get("not_explosive", {}).items() if k != "source"}


def resolve(cat: Any, megamek: str, where: str, found: dict[str, Any],
            departs: dict[str, dict[str, Any]] | None = None, source: str = "") -> dict[str, Any]:
    """What the plugin makes of one MegaMek class: the tables first, MegaMek's own numbers over
    a family's guess, except where critcore departs from MegaMek on purpose (``departs``)."""
    tech = _tech(megamek, found["names"], source) if where == "WeaponType" else _tech(megamek)
    if where == "WeaponType" and any(f"/{folder}/" in source.split(" @ ")[0] for folder in NOT_MEK_FOLDERS):
        found["mek"] = False
    base = "Clan" if tech == "clan" else "Inner Sphere"
    entry: dict[str, Any] = {"megamek": megamek, "defined_in": where, "names": found["names"]}
    if where == "AmmoType":
        match = None
        for n in found["names"]:
            match = cat.ammo(n, base, megamek_names=False)
            if match is not None:
                break
        shots = found.get("shots")
        per_shot = found.get("damagePerShot", 0) * found.get("rackSize", 1)
        explosive = found.get("explosive", True)
        entry["kind"] = "ammo"
        entry["tech"] = tech
        if match is not None:
            entry["weapon"] = match.ammo.weapon
            entry["family"] = match.ammo.family
            entry["shots"] = shots if shots is not None else match.shots
            entry["damage_per_shot"] = per_shot or match.damage_per_shot
            if "damage" in (departs or {}).get(match.ammo.family, {}):
                entry["damage_per_shot"] = match.damage_per_shot
            entry["explosive"] = explosive if "explosive" in found else match.ammo.explosive
        else:
            entry["weapon"] = found["names"][0].removesuffix(" Ammo").strip()
            entry["family"] = ""
            entry["shots"] = shots or 1
            entry["damage_per_shot"] = per_shot
            entry["explosive"] = explosive
        return entry
    # a name the tables know outright goes before a family's guess at another of its names
    # (MegaMek's "QuadVee Wheels" is the table's "Wheels", not any piece of equipment)
    looked = [(n, cat.equipment(n, base, megamek_names=False)) for n in found["names"]]
    tabled = [i for n, i in looked if i is not None and i != cat.equipment_family(n, base)]
    item = tabled[0] if tabled else next((i for _, i in looked if i is not None), None)
    stated = slots = found.get("criticalSlots", found.get("criticals"))
    explosion = found.get("explosionDamage", 0) if found.get("explosive") else 0
    # spread over locations, or split over neighbouring ones (a factory's F_SPLITABLE): its stated
    # slots are the total
    spread = found.get("spreadable", False) or (where == "MiscType" and found.get("splitable", False))
    if tabled and (spread or not found.get("mek", True)):
        # a 'Mech file means the 'Mech item by a name the tables know: a ProtoMek's or a vehicle's
        # factory of that name does not change it, nor does the total of an item spread over
        # locations (the tables' 0: a run of lines in one location is one item)
        slots = None
    elif spread:
        slots = 0
    if item is not None:
        entry["kind"] = item.kind
        # a family that only says what sort of thing it is ("laser, PPC or flamer") gives way to
        # MegaMek's own name
        entry["label"] = item.name if item.slots or (stated is None and tabled) else found["names"][0]
        entry["tech"] = item.tech if tech == "any" else tech
        entry["slots"] = slots if slots is not None else item.slots
        entry["explosion"] = explosion or item.explosion
    else:
        entry["kind"] = "weapon" if where == "WeaponType" else "equipment"
        entry["label"] = found["names"][0]
        entry["tech"] = tech
        entry["slots"] = slots or 0
        entry["explosion"] = explosion
    if not tabled and found.get("hittable") is False:
        # MegaMek's "hittable = false": a critical hit on the slot rolls again, like CASE
        entry["kind"] = "roll-again"
    return entry


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_str(x) for x in v) + "]"
    return _toml_str(str(v))


#: MegaMek's folders of weapons that are not 'Mech weapons (battle armour, infantry, capital and
#: bay weapons): a name such a class shares with a 'Mech weapon the tables know keeps the tables'
#: item, and the catalog prefers a 'Mech class where both have a name.
NOT_MEK_FOLDERS = ("battlearmor", "infantry", "capitalweapons", "bayweapons")

#: MegaMek's base classes of every weapon: they state no slots nor explosion.
BASES = ("Weapon", "WeaponType", "EquipmentType")

#: What a weapon class takes from the saved classes it extends when it does not state it itself
#: (one group of MegaMek field names each: older classes say ``criticals``, newer ``criticalSlots``).
INHERITED = (("criticalSlots", "criticals"), ("explosive",), ("explosionDamage",))


def inherit(read: dict[str, "_Read"], not_explosive: Iterable[str] = ()) -> list[str]:
    """Give every weapon class what its saved parents state and it does not (INHERITED), the
    nearest parent first; record the chain in ``found["extends"]``. A class that is or extends
    one of ``not_explosive`` does not explode, whatever it or its parents state. Returns the
    classes extended but not saved (the chain stops there), for the script to name."""
    not_explosive = set(not_explosive)
    missing: set[str] = set()
    for megamek, r in read.items():
        if r.where != "WeaponType":
            continue
        chain: list[str] = []
        parent = r.parent
        while parent and parent not in chain and parent != megamek:
            chain.append(parent)
            if parent not in read:
                missing.add(parent)
                break
            parent = read[parent].parent
        r.found["extends"] = chain
        if not_explosive & {megamek, *chain}:
            r.found["explosive"] = False
            r.found.pop("explosionDamage", None)
        for group in INHERITED:
            if any(k in r.found for k in group):
                continue
            for ancestor in chain:
                stated = {k: read[ancestor].found[k] for k in group if ancestor in read and k in read[ancestor].found}
                if stated:
                    r.found.update(stated)
                    break
    return sorted(missing)


class _Read:
    """One class or factory as read from the saved Java text."""

    __slots__ = ("where", "found", "sources", "parent")

    def __init__(self, where: str, found: dict[str, Any], source: str, parent: str) -> None:
        self.where = where
        self.found = found
        self.sources = [source]
        self.parent = parent


def read_folders(folders: Sequence[Path]) -> dict[str, _Read]:
    """Every class and factory of the folders' ``.java`` files (a class without names too: an
    abstract parent others inherit from)."""
    read: dict[str, _Read] = {}
    for path in sorted(p for folder in folders for p in folder.rglob("*.java")):
        text = path.read_text(encoding="utf-8")
        first = text.splitlines()[0] if text else ""
        src = first[2:].strip() if first.startswith("//") else path.name
        for megamek, where, body, parent in _blocks(text):
            found = parse(body)
            if megamek in read:
                # a class or factory saved twice (two MegaMek versions, two folders): one entry,
                # the names of both, the first's numbers
                seen = read[megamek]
                seen.found["names"] = list(dict.fromkeys(seen.found["names"] + found["names"]))
                for key, value in found.items():
                    seen.found.setdefault(key, value)
                if src not in seen.sources:
                    seen.sources.append(src)
                seen.parent = seen.parent or parent
            else:
                read[megamek] = _Read(where, found, src, parent)
    return read


def build(folders: Path | Sequence[Path], keep: str | None = None) -> str:
    """The text of megamek-names.toml from the Java text in ``folders``. ``keep``: the file as it
    is; its entries for classes not in the folders are carried over unchanged (the Java text
    they were read from is not kept anywhere, so the file is their only record)."""
    sys.path.insert(0, str(HERE.parent / "src"))
    from critcore_battletech.data.catalog import catalog

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    cat = catalog()
    read = read_folders([folders] if isinstance(folders, Path) else folders)
    missing = [m for m in inherit(read, _not_explosive()) if m not in BASES]
    if missing:
        print(f"extended but not saved (nothing inherited from them): {', '.join(missing)}", file=sys.stderr)
    departs = _departs()
    entries: list[dict[str, Any]] = []
    for megamek, r in read.items():
        if not r.found["names"]:
            continue  # an abstract parent: what it states went to its subclasses
        src = "; ".join(r.sources)
        entry = resolve(cat, megamek, r.where, r.found, departs, src)
        entry["source"] = src
        if r.found.get("extends"):
            entry["extends"] = r.found["extends"]
        if r.where == "WeaponType" and r.found.get("mek") is False:
            entry["mek"] = False  # (a factory's flags are not read for this: many 'Mech items omit the flag)
        entries.append(entry)
    kept = [dict(e) for e in tomllib.loads(keep).get("class", ()) if e["megamek"] not in read] if keep else []
    entries += kept
    entries.sort(key=lambda e: (e["defined_in"], e["megamek"]))
    return render(entries)


def render(entries: list[dict[str, Any]]) -> str:
    names = sum(len(e["names"]) for e in entries)
    lines = [
        "# GENERATED by tools/megamek_names.py from MegaMek's equipment definitions (MegaMek/megamek:",
        "# the weapon classes under megamek/common/weapons/, the AmmoType and MiscType factories); do not",
        "# edit by hand: save the Java text in a scratch folder and run the script again (an entry whose",
        "# Java text is not in the folders given is kept as it is here).",
        "#",
        "# One [[class]] per MegaMek class or factory (`megamek`), defined in `defined_in`; `names` are its",
        "# name, internal name and lookup names; `extends`, of a weapon class, the classes it extends",
        "# (what it does not state itself, its slots and explosion, comes from the nearest that does);",
        "# `mek = false`: a weapon class that is not a 'Mech weapon (battle-armour, infantry, capital), so",
        "# a name it shares with a 'Mech item means the 'Mech item.",
        "# The importer reads this file only for a slot name its own tables (equipment.toml; for",
        "# ammunition the families of ammo.toml) do not know, and then uses what the entry says: `kind`,",
        "# and `label`, `tech`, `slots`, `explosion` of an item, or `weapon`, `family` (of ammo.toml, empty",
        "# when none), `shots` (a ton), `damage_per_shot`, `explosive` of a bin. The numbers are MegaMek's",
        "# where it states them, else the plugin's family.",
        "",
        f"classes = {len(entries)}",
        f"names = {names}",
        "",
    ]
    order = ("megamek", "defined_in", "source", "extends", "mek", "names", "kind", "label", "weapon", "family", "tech",
             "slots", "explosion", "shots", "damage_per_shot", "explosive")
    for e in entries:
        lines.append("[[class]]")
        for key in order:
            if key in e:
                lines.append(f"{key} = {_value(e[key])}")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    if not args or not all(Path(a).is_dir() for a in args) or any(a not in ("--check",) for a in argv if a.startswith("--")):
        print("usage: python tools/megamek_names.py FOLDER [FOLDER ...] [--check]", file=sys.stderr)
        return 2
    text = build([Path(a) for a in args], OUT.read_text(encoding="utf-8") if OUT.exists() else None)
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT.name} is out of date")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
