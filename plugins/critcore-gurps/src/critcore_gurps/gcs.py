"""GCS (GURPS Character Sheet) files: a ``.gcs`` character read as a GURPS target, and its
injuries written back into the same file.

What critcore reads (format version 5): ``attributes`` (``calc.value`` of ``hp``, ``fp``,
``ht``, ``iq``, ``dx``; ``calc.current`` of the pools), ``profile.name`` and ``profile.gender``,
``settings.body_type`` (locations, slots, penalties, ``calc.dr``), ``traits`` (names, levels,
enabled modifiers) and critcore's own record in ``third_party.critcore``.

What it writes back, and nothing else (checked against GCS's ``model/gurps``: ``attribute.go``
keeps a pool's injury in ``damage`` and shows ``calc.current``; ``entity.go`` keeps
``third_party`` untouched; ``note.go`` reads a note's ``id`` and ``markdown``):

- ``attributes[hp].damage`` and ``attributes[fp].damage`` (HP and FP lost; left out at 0, as
  GCS does), and their ``calc.current``;
- ``third_party.critcore``: critcore's clock, statuses, injuries and owed rolls;
- one note of critcore's (``notes``) listing the statuses and crippled limbs in words.

Every other byte of the file stays as it was (:mod:`.jsonspans`). The file's text travels in
the state (``gcs``), so a campaign can export the character to a ``.gcs`` again.
"""

from __future__ import annotations

import json
import os
from typing import Any, Mapping

from critcore.plugin import StateError

FORMAT_VERSION = 5
SUFFIX = ".gcs"
OWN_KEYS = ("clock", "statuses", "injuries", "owed_rolls")


def _fail(path: str, what: str) -> StateError:
    return StateError(f"{path}: {what}")


def _number(value: Any, path: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _fail(path, f"{where} is {json.dumps(value)[:40]}, not a number")
    if value != value or value in (float("inf"), float("-inf")):
        raise _fail(path, f"{where} is not a number")
    return int(value)


def _attributes(doc: Mapping[str, Any], path: str) -> dict[str, Mapping[str, Any]]:
    attrs = doc.get("attributes")
    if not isinstance(attrs, list):
        raise _fail(path, "a GCS character needs an 'attributes' list")
    out: dict[str, Mapping[str, Any]] = {}
    for n, a in enumerate(attrs):
        if not isinstance(a, Mapping) or not isinstance(a.get("attr_id"), str):
            raise _fail(path, f"attributes[{n}] is not an attribute (no attr_id)")
        out[a["attr_id"]] = a
    return out


def _value(attrs: Mapping[str, Mapping[str, Any]], key: str, path: str, field: str = "value") -> int | None:
    a = attrs.get(key)
    if a is None:
        return None
    calc = a.get("calc")
    if not isinstance(calc, Mapping) or field not in calc:
        if field == "current":
            return None
        raise _fail(path, f"attribute {key!r} has no calc.{field} (open and save it in GCS to compute it)")
    return _number(calc[field], path, f"attribute {key!r} calc.{field}")


def _current(attrs: Mapping[str, Mapping[str, Any]], key: str, value: int, path: str) -> int:
    """A pool's points left: GCS's calc.current, else its value less its damage."""
    current = _value(attrs, key, path, "current")
    if current is not None:
        return current
    damage = attrs[key].get("damage", 0)
    return value - (_number(damage, path, f"attribute {key!r} damage") if damage else 0)


def read(path: str, text: str) -> dict[str, Any] | None:
    """The GURPS state of a ``.gcs`` file (None for another kind of file)."""
    if not path.lower().endswith(SUFFIX):
        return None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(path, f"line {exc.lineno}: not JSON ({exc.msg})") from None
    except RecursionError:
        raise _fail(path, "nested too deeply to be a GCS character") from None
    if not isinstance(doc, dict):
        raise _fail(path, "a GCS character is a JSON object")
    version = doc.get("version")
    if version != FORMAT_VERSION:
        raise _fail(path, f"GCS file format version {json.dumps(version)[:20]}; critcore reads version "
                          f"{FORMAT_VERSION} (open the file in a current GCS and save it)")
    try:
        return _state(doc, path, text)
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
        raise _fail(path, f"not a GCS character critcore can read ({type(exc).__name__}: {str(exc)[:80]})") from None


def _state(doc: Mapping[str, Any], path: str, text: str) -> dict[str, Any]:
    from . import bodies, traits

    attrs = _attributes(doc, path)
    hp = _value(attrs, "hp", path)
    if hp is None:
        raise _fail(path, "the character has no 'hp' attribute")
    state: dict[str, Any] = {}
    profile = doc.get("profile") if isinstance(doc.get("profile"), Mapping) else {}
    name = profile.get("name") if isinstance(profile, Mapping) else None
    state["name"] = str(name) if isinstance(name, str) and name.strip() else os.path.splitext(os.path.basename(path))[0]
    state["hp"] = hp
    current = _current(attrs, "hp", hp, path)
    if current != hp:
        state["current_hp"] = current
    fp = _value(attrs, "fp", path)
    if fp is not None:
        state["fp"] = fp
        current_fp = _current(attrs, "fp", fp, path)
        if current_fp != fp:
            state["current_fp"] = current_fp
    for key in ("ht", "iq", "dx"):
        value = _value(attrs, key, path)
        if value is not None:
            state[key] = value
    gender = profile.get("gender") if isinstance(profile, Mapping) else None
    if isinstance(gender, str) and gender.strip().lower() in ("male", "m", "man"):
        state["male"] = True
    settings = doc.get("settings")
    body_type = settings.get("body_type") if isinstance(settings, Mapping) else None
    if isinstance(body_type, Mapping) and body_type.get("locations"):
        try:
            state["body"] = bodies.from_gcs(body_type)
        except (KeyError, TypeError, ValueError) as exc:
            raise _fail(path, f"settings.body_type: {str(exc)[:80]}") from None
    flags, found = traits.from_gcs(doc.get("traits") or ())
    state.update(flags)
    if found:
        state["traits"] = found
    own = (doc.get("third_party") or {}).get("critcore") if isinstance(doc.get("third_party"), Mapping) else None
    if isinstance(own, Mapping):
        for key in OWN_KEYS:
            if key in own:
                state[key] = own[key]
    state["gcs"] = text
    return state


# --- writing back ------------------------------------------------------------------------------


def _note_id(doc_id: Any) -> str:
    """The id of critcore's note: GCS's form (a kind letter and 16 characters), the same for a
    character every time."""
    import base64
    import hashlib  # only when writing back (OpenSSL's hashlib costs a read about 0.5 ms)

    digest = hashlib.sha256(f"critcore-note:{doc_id}".encode()).digest()
    return "n" + base64.urlsafe_b64encode(digest).decode()[:16]


def note_text(state: Mapping[str, Any]) -> str:
    """The note's words: every status (crippled limbs among them) and owed roll."""
    from . import character, collapse

    lines = ["**critcore** (this note is rewritten each time critcore saves the character)", ""]
    now = state.get("clock", 0)
    for s in state.get("statuses") or ():
        lines.append("- " + character.describe(dict(s), now if isinstance(now, int) else 0))
    for o in state.get("owed_rolls") or ():
        lines.append("- " + collapse.describe(dict(o)))
    return "\n".join(lines)


def write(path: str, state: Mapping[str, Any]) -> str | None:
    """The ``.gcs`` text of ``state``: the file it was read from with HP, FP, critcore's record
    and note changed (None for another kind of file)."""
    from .jsonspans import Doc, SpanError, elements, members

    if not path.lower().endswith(SUFFIX):
        return None
    source = state.get("gcs")
    if not isinstance(source, str):
        raise StateError(f"{path}: this character did not come from a GCS file, so there is no sheet to write "
                         "it into (save to .json)")
    doc = Doc(source)
    try:
        root = doc.root()
        parsed = json.loads(source)
        attrs = doc.get(root, "attributes")
        if attrs is not None:
            for start, _ in elements(source, attrs.start)[0]:
                found = {m.key: m for m in members(source, start)[0]}
                aid = json.loads(source[found["attr_id"].start:found["attr_id"].end]) if "attr_id" in found else None
                if aid == "hp" and "hp" in state:
                    _pool(doc, start, found, int(state["hp"]), int(state.get("current_hp", state["hp"])))
                elif aid == "fp" and "fp" in state:
                    _pool(doc, start, found, int(state["fp"]), int(state.get("current_fp", state["fp"])))
        _own(doc, root, parsed, state)
    except SpanError as exc:
        raise StateError(f"{path}: the GCS text kept with the character is damaged ({exc})") from None
    return doc.text()


def _pool(doc: Any, start: int, found: Mapping[str, Any], value: int, current: int) -> None:
    damage = value - current
    if damage:
        doc.set(start, "damage", damage, after="adj")
    elif "damage" in found:
        doc.remove(start, "damage")
    calc = found.get("calc")
    if calc is not None and doc.source[calc.start] == "{" and doc.get(calc.start, "current") is not None:
        doc.set(calc.start, "current", current)  # a pool's calc (an attribute GCS does not pool has none)


def _own(doc: Any, root: int, parsed: Mapping[str, Any], state: Mapping[str, Any]) -> None:
    """critcore's record (``third_party.critcore``) and its note."""
    from .jsonspans import elements

    record = {k: state[k] for k in OWN_KEYS if k in state and (state[k] or (k == "clock" and state[k]))}
    third = parsed.get("third_party") if isinstance(parsed.get("third_party"), Mapping) else None
    had = third is not None and "critcore" in third
    note_id = _note_id(parsed.get("id"))
    wants_note = bool(state.get("statuses") or state.get("owed_rolls"))
    if record:
        record["note"] = note_id
    if record or had:
        member = doc.get(root, "third_party")
        if member is None:
            doc.set(root, "third_party", {"critcore": record}, after="modified_date")
        elif record:
            doc.set(member.start, "critcore", record)
        elif len(third or {}) == 1:
            doc.remove(root, "third_party")
        else:
            doc.remove(member.start, "critcore")
    notes = doc.get(root, "notes")
    index = None
    if notes is not None:
        for n, item in enumerate(parsed.get("notes") or ()):
            if isinstance(item, Mapping) and item.get("id") == note_id:
                index = n
    entry = {"id": note_id, "markdown": note_text(state)} if wants_note else None
    if index is not None and notes is not None:
        spans = elements(doc.source, notes.start)[0]
        if entry is None:
            if len(spans) == 1:
                doc.remove(root, "notes")
            else:
                doc.drop(notes.start, index)
        else:
            item = {m.key: m for m in __import__("critcore_gurps.jsonspans", fromlist=["members"]).members(
                doc.source, spans[index][0])[0]}
            if "markdown" in item:
                doc.set(spans[index][0], "markdown", entry["markdown"])
            else:
                doc.set(spans[index][0], "markdown", entry["markdown"], after="id")
    elif entry is not None:
        if notes is None:
            doc.set(root, "notes", [entry], after="other_equipment" if "other_equipment" in parsed else
                    "equipment" if "equipment" in parsed else "skills" if "skills" in parsed else "traits")
        else:
            doc.append(notes.start, entry)
