"""Traits that change injury (GURPS Basic Set; the numbers in ``data/traits.toml``): read from
a GCS character's trait list into the state's ``traits``, and what they do in the stages.

A character file written by hand may carry ``traits`` too (the same keys), and the flags
``high_pain_threshold`` / ``low_pain_threshold`` of the plain character file.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from critcore.plugin import load_data

from .reference import LocationRule

if TYPE_CHECKING:
    from fractions import Fraction

_RAW: dict[str, Any] = load_data("critcore_gurps.data", "traits.toml")
FAMILIES: dict[str, Mapping[str, Any]] = _RAW["families"]
_BY_NAME: dict[str, str] = {n: fam for fam, spec in FAMILIES.items() for n in spec["names"]}
_BY_VARIANT: dict[str, str] = {v: fam for fam, spec in FAMILIES.items() for v in spec.get("variants", ())}
VULNERABILITY: Mapping[str, Any] = _RAW["vulnerability"]
# as written in the table ("1/5"); a Fraction only where a blow meets it (fractions is not imported at start-up)
IT_WOUNDING: dict[str, dict[str, str]] = _RAW["injury_tolerance"]["wounding"]
DIFFUSE_CAP: Mapping[str, int] = _RAW["injury_tolerance"]["diffuse_cap"]
WITHOUT: tuple[Mapping[str, Any], ...] = tuple(_RAW["injury_tolerance"]["without"])
DEATH: Mapping[str, int] = _RAW["death"]
_LEVEL_IN_NAME = re.compile(r"^(.*?)\s+(\d+)$")
_SPACES = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACES.sub(" ", text.strip().lower())


def _split(name: str) -> tuple[str, list[str], int | None]:
    """``"Fragile (Brittle, Unnatural)"`` -> ("fragile", ["brittle", "unnatural"], None);
    ``"Hard to Kill 2"`` -> ("hard to kill", [], 2)."""
    base, _, rest = name.partition("(")
    variants = [_norm(v) for v in rest.rstrip(") ").split(",") if v.strip()] if rest else []
    base = _norm(base)
    level = None
    m = _LEVEL_IN_NAME.match(base)
    if m and m[1] in _BY_NAME:
        base, level = m[1], int(m[2])
    return base, variants, level


def _enabled_modifiers(mods: Iterable[Any]) -> Iterable[Mapping[str, Any]]:
    for mod in mods or ():
        if not isinstance(mod, Mapping) or mod.get("disabled"):
            continue
        yield mod
        yield from _enabled_modifiers(mod.get("children") or ())


def _walk(traits: Iterable[Any]) -> Iterable[Mapping[str, Any]]:
    for trait in traits or ():
        if not isinstance(trait, Mapping) or trait.get("disabled"):
            continue
        children = trait.get("children")
        if children:
            yield from _walk(children)
        else:
            yield trait


def _level(trait: Mapping[str, Any], named: int | None) -> int:
    value = trait.get("levels")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 1:
        return int(value)
    if isinstance(value, str):
        try:
            return max(1, int(float(value)))
        except ValueError:
            pass
    return named or 1


def _vulnerability(name: str, variants: list[str]) -> tuple[dict[str, Any] | None, str]:
    """The damage types and multiplier of a Vulnerability, or (None, why) when its attack is not
    a damage type critcore knows."""
    words: Mapping[str, list[str]] = VULNERABILITY["words"]
    pattern = str(VULNERABILITY["multiplier_pattern"])
    multiplier = int(VULNERABILITY["default_multiplier"])
    types: list[str] = []
    for v in variants:
        if v.startswith(pattern):
            digits = v[len(pattern):].strip()
            if digits.isdigit():
                multiplier = int(digits)
            continue
        if "@" in v:
            continue
        for word, dtypes in words.items():
            if word in v:
                types.extend(t for t in dtypes if t not in types)
    if not types:
        return None, f"{name}: the attack it names is not a damage type critcore knows; apply it by hand"
    return {"types": types, "multiplier": multiplier, "text": name}, ""


def from_gcs(traits: Iterable[Any]) -> tuple[dict[str, bool], dict[str, Any]]:
    """The pain flags and the ``traits`` of a character's state from GCS's trait list."""
    flags: dict[str, bool] = {}
    out: dict[str, Any] = {}
    sheet: list[str] = []
    missing: list[str] = []
    for trait in _walk(traits):
        name = str(trait.get("name", ""))
        base, variants, named_level = _split(name)
        family = _BY_NAME.get(base)
        if family is None and base in _BY_VARIANT:
            family, variants = _BY_VARIANT[base], [base]
        if family is None:
            continue
        spec = FAMILIES[family]
        mods = [_norm(str(m.get("name", ""))) for m in _enabled_modifiers(trait.get("modifiers") or ())]
        page = spec["page"]
        kind = spec["kind"]
        if kind == "flag":
            if spec["key"] in ("high_pain_threshold", "low_pain_threshold"):
                flags[spec["key"]] = True
            else:
                out[spec["key"]] = True
        elif kind == "level":
            level = _level(trait, named_level)
            for v in variants + mods:
                level = max(level, int(spec.get("variant_levels", {}).get(v, 0)))
            out[spec["key"]] = out.get(spec["key"], 0) + level
        elif kind == "variants":
            known = spec["variants"]
            found = [v for v in variants + mods if v in known]
            todo = spec.get("unimplemented", {})
            for v in found:
                if v in todo:
                    missing.append(f"{name} ({page}): {v}: {todo[v]}")
                elif v not in out.setdefault(spec["key"], []):
                    out[spec["key"]].append(v)
            if not found:
                missing.append(f"{name} ({page}): no variant critcore knows; apply it by hand")
        elif kind == "vulnerability":
            found_v, why = _vulnerability(name, variants + mods)
            if found_v is None:
                missing.append(f"{why} ({page})")
            else:
                out.setdefault(spec["key"], []).append(found_v)
        elif kind == "sheet":
            sheet.append(f"{name} ({page}): {spec['text']}")
            for v in mods:
                why = spec.get("unimplemented_modifiers", {}).get(v)
                if why:
                    missing.append(f"{name} ({page}): {v}: {why}")
        else:
            missing.append(f"{name} ({page}): {spec['text']}")
    if out.get("injury_tolerance") == []:
        del out["injury_tolerance"]
    if out.get("fragile") == []:
        del out["fragile"]
    if sheet:
        out["in_sheet"] = sheet
    if missing:
        out["not_applied"] = missing
    return flags, out


# --- in the stages ----------------------------------------------------------------------------


def of(state: Mapping[str, Any] | None) -> Mapping[str, Any]:
    if state is None:
        return {}
    found = state.get("traits")
    return found if isinstance(found, Mapping) else {}


def has(traits: Mapping[str, Any], family_key: str, variant: str) -> bool:
    return variant in (traits.get(family_key) or ())


def location_as(traits: Mapping[str, Any], rule: LocationRule, base_of: str) -> str | None:
    """The location whose rules a blow at ``rule`` (whose humanoid rule is ``base_of``) takes
    instead, for Injury Tolerance (B61): ``None`` when nothing changes, ``""`` when the
    location cannot be hit at all."""
    it = traits.get("injury_tolerance") or ()
    for entry in WITHOUT:
        if base_of in entry["rules"] and any(v in it for v in entry["variants"]):
            return str(entry["as"])
    return None


def keeps_crippling(base_of: str) -> bool:
    return any(base_of in entry.get("keep_crippling", ()) for entry in WITHOUT)


def wounding(traits: Mapping[str, Any], rule: LocationRule, dtype: str, usual: float) -> Fraction | float:
    """The wounding modifier with Injury Tolerance (Unliving, Homogenous; B60-61): theirs
    replaces the usual one except at the skull and eye, and at limbs the smaller counts."""
    it = traits.get("injury_tolerance") or ()
    if not it:
        return usual
    from fractions import Fraction

    best: Fraction | None = None
    for variant in ("homogenous", "unliving"):
        if variant in it and dtype in IT_WOUNDING[variant]:
            value = Fraction(IT_WOUNDING[variant][dtype])
            best = value if best is None else min(best, value)
    if best is None or rule.wounding in ("skull", "eye"):
        return usual
    if rule.wounding in ("limb", "extremity"):
        return min(Fraction(usual).limit_denominator(100), best)
    return best


def diffuse_cap(traits: Mapping[str, Any], dtype: str) -> int | None:
    """The most injury one blow does to a Diffuse body (B60), or None."""
    if "diffuse" not in (traits.get("injury_tolerance") or ()):
        return None
    return int(DIFFUSE_CAP.get(dtype, DIFFUSE_CAP["other"]))


def no_crippling(traits: Mapping[str, Any]) -> bool:
    """Diffuse bodies are never crippled (B60)."""
    return "diffuse" in (traits.get("injury_tolerance") or ())


def vulnerability(traits: Mapping[str, Any], dtype: str) -> tuple[int, str]:
    """The injury multiplier of a Vulnerability to ``dtype`` (B161), 1 when none, and its name."""
    best, why = 1, ""
    for v in traits.get("vulnerability") or ():
        if dtype in v.get("types", ()) and int(v.get("multiplier", 1)) > best:
            best, why = int(v["multiplier"]), str(v.get("text", "Vulnerability"))
    return best, why


def adjust_owed(traits: Mapping[str, Any], owed: list[dict[str, Any]], before: int, after: int,
                hp: int) -> list[dict[str, Any]]:
    """The rolls (or death) an HP loss brings, with the character's traits:
    Hard to Kill +N to death rolls (B58), Hard to Subdue +N to consciousness rolls (B59),
    Supernatural Durability (B89) and Unkillable (B95) no death rolls and no death at -5xHP
    (Unkillable: destroyed at -10xHP), Fragile (Unnatural) gone at -1xHP (B137)."""
    if not traits:
        return owed
    out: list[dict[str, Any]] = []
    deathless = bool(traits.get("supernatural_durability")) or int(traits.get("unkillable", 0) or 0) > 0
    for item in owed:
        kind = item.get("kind")
        if kind == "death" and deathless:
            continue
        if kind == "dead" and deathless:
            continue
        item = dict(item)
        if kind == "death" and traits.get("hard_to_kill"):
            item["modifier"] = int(item.get("modifier", 0)) + DEATH["hard_to_kill_per_level"] * int(traits["hard_to_kill"])
        if kind == "consciousness" and traits.get("hard_to_subdue"):
            item["modifier"] = (int(item.get("modifier", 0))
                                + DEATH["hard_to_subdue_per_level"] * int(traits["hard_to_subdue"]))
        out.append(item)
    gone = None
    if "unnatural" in (traits.get("fragile") or ()):
        line = DEATH["fragile_unnatural_dead_at"] * hp
        if before > line >= after:
            gone = {"kind": "dead", "why": f"Fragile (Unnatural): down to {DEATH['fragile_unnatural_dead_at']}xHP = {line} HP"}
    if int(traits.get("unkillable", 0) or 0) > 0:
        line = DEATH["unkillable_destroyed_at"] * hp
        if before > line >= after:
            gone = {"kind": "dead", "why": f"Unkillable: down to {DEATH['unkillable_destroyed_at']}xHP = {line} HP, "
                                           "the body is destroyed"}
    if deathless and any(o.get("kind") == "dead" for o in owed) and before > 0 >= after \
            and not any(o.get("kind") == "consciousness" for o in out):
        out.insert(0, {"roll": "ht", "kind": "consciousness", "modifier": int(traits.get("hard_to_subdue", 0) or 0)
                       * DEATH["hard_to_subdue_per_level"], "why": "at 0 HP or less"})
    if gone is not None:
        return [o for o in out if o.get("kind") == "consciousness"] + [gone]
    return out


def injury_terms(state: Mapping[str, Any] | None, rule: LocationRule, dtype: str,
                 changes: list[str]) -> dict[str, Any]:
    """What the character's traits change in one blow's injury (keyword arguments of
    :func:`critcore_gurps.damage.compute_injury`), each said in ``changes``."""
    found = of(state)
    if not found:
        return {}
    out: dict[str, Any] = {}
    from .reference import wounding_modifier

    usual = wounding_modifier(rule, dtype)
    mod = wounding(found, rule, dtype, usual)
    if mod != usual:
        out["wounding"] = mod
        changes.append(f"Injury Tolerance (B60-61): wounding x{mod} for {dtype} at the {rule.name}, not x{usual:g}")
    times, why = vulnerability(found, dtype)
    if times > 1:
        out["multiplier"] = times
        changes.append(f"{why} (B161): injury x{times}")
    cap = diffuse_cap(found, dtype)
    if cap is not None:
        out["most"] = cap
        changes.append(f"Injury Tolerance (Diffuse, B60): at most {cap} injury from one {dtype} blow")
    return out


def show(traits: Mapping[str, Any]) -> list[str]:
    """Lines for ``crit show``: what is applied, what GCS's numbers hold, what is not applied."""
    lines = []
    applied = []
    for key, label in (("hard_to_kill", "Hard to Kill"), ("hard_to_subdue", "Hard to Subdue"),
                       ("unkillable", "Unkillable")):
        if traits.get(key):
            applied.append(f"{label} {traits[key]}")
    if traits.get("supernatural_durability"):
        applied.append("Supernatural Durability")
    for key, label in (("injury_tolerance", "Injury Tolerance"), ("fragile", "Fragile")):
        if traits.get(key):
            applied.append(f"{label} ({', '.join(traits[key])})")
    for v in traits.get("vulnerability") or ():
        applied.append(f"Vulnerability x{v.get('multiplier')} to {', '.join(v.get('types', ()))}")
    if applied:
        lines.append("  traits applied: " + "; ".join(applied))
    for text in traits.get("in_sheet") or ():
        lines.append(f"  trait in the sheet's numbers: {text}")
    for text in traits.get("not_applied") or ():
        lines.append(f"  trait NOT applied by critcore: {text}")
    return lines
