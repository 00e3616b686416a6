"""What passes between the stages: small frozen dataclasses that round-trip through JSON.

Stage results (:class:`Determination`, :class:`Location`, :class:`Effect`, :class:`Applied`,
:class:`Treatment`) are frozen and hashable, so the exact-odds engine can merge equal
outcomes. Keep roll values out of them unless a later stage needs them: the roll record
(:class:`Roll`) already says what was rolled. A target's state is plain JSON data (dicts,
lists, str, int, float, bool, None).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any, Iterator

JSONValue = Any  # a value json.dumps accepts


_PLAIN = (str, int, float, bool, type(None))


def freeze(value: Any) -> Any:
    """Turn JSON-like data into hashable data: dict -> Data, list -> tuple."""
    t = type(value)
    if t in _PLAIN or t is Data:
        return value
    if t is dict:  # the common case, without the generic checks
        return _wrap({k if type(k) is str else str(k): freeze(v) for k, v in value.items()})
    if t is list or t is tuple:
        return tuple([freeze(v) for v in value])
    if isinstance(value, Data):
        return value
    if isinstance(value, Mapping):
        return Data(value)
    if isinstance(value, (list, tuple)):
        return tuple([freeze(v) for v in value])
    return value


def thaw(value: Any) -> Any:
    """Turn frozen data back into plain JSON data: Data -> dict, tuple -> list."""
    t = type(value)
    if t in _PLAIN:
        return value
    if t is Data:
        return {k: thaw(v) for k, v in value._items.items()}
    if t is tuple or t is list:
        return [thaw(v) for v in value]
    if isinstance(value, Data):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


def _wrap(items: dict[str, Any]) -> Data:
    """A Data around an already-frozen dict (no copying, no checks)."""
    data = Data.__new__(Data)
    data._items = items
    data._hash = None
    return data


class Data(Mapping[str, Any]):
    """An immutable, hashable mapping of str to frozen JSON-like values."""

    __slots__ = ("_items", "_hash")

    def __init__(self, items: Mapping[str, Any] | None = None, /, **kwargs: Any) -> None:
        merged = dict(items or {}, **kwargs)
        self._items: dict[str, Any] = {str(k): freeze(v) for k, v in merged.items()}
        self._hash: int | None = None

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._items.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Data):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._items == {k: freeze(v) for k, v in other.items()}
        return NotImplemented

    def __repr__(self) -> str:
        return f"Data({self._items!r})"

    def replace(self, **changes: Any) -> Data:
        """A copy with some keys changed or added (unchanged values are shared, not copied)."""
        items = dict(self._items)
        for k, v in changes.items():
            items[k] = freeze(v)
        return _wrap(items)


EMPTY = Data()


# --- what a system declares -------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """One parameter of a procedure; the CLI turns it into ``--name``.

    ``type`` is one of ``int``, ``float``, ``str``, ``bool``, ``choice``, ``dice``.
    A ``bool`` becomes a flag. ``dice`` is a dice expression checked by critcore's parser.
    """

    name: str
    type: str = "str"
    help: str = ""
    default: Any = None
    choices: tuple[str, ...] = ()
    required: bool = False
    min: float | None = None
    max: float | None = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class Procedure:
    """Something a user can ask a system to do: ``crit resolve SYSTEM NAME`` or ``crit treat``.

    ``verb`` is ``resolve`` (runs determine, locate, effect, apply) or ``treat`` (runs treat).
    ``target`` is ``none``, ``optional`` or ``required``: whether a target state is used.
    """

    name: str
    help: str
    params: tuple[Param, ...] = ()
    verb: str = "resolve"
    target: str = "optional"

    def param(self, name: str) -> Param | None:
        for p in self.params:
            if p.name == name:
                return p
        return None


@dataclass(frozen=True)
class Option:
    """A system-wide rules option, set in ``critcore.toml`` or by a house rule."""

    name: str
    type: str = "bool"
    default: Any = False
    help: str = ""
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class SystemInfo:
    """How a system describes itself: the answer of ``critcore_system``.

    ``tables_package`` names the package whose ``*.toml`` files are the system's tables
    (loaded lazily). ``effect_codes`` lists every effect code the system's engine acts on, so
    a house rule naming another code is refused. ``target_noun`` names what a target is
    (``character``, ``unit``); ``treat_note`` explains a system without treat procedures.
    """

    name: str
    title: str
    procedures: tuple[Procedure, ...]
    version: str = ""
    package: str = ""
    tables_package: str | None = None
    options: tuple[Option, ...] = ()
    effect_codes: frozenset[str] = frozenset()
    url: str = ""
    target_noun: str = "target"  # the CLI adds --NOUN as another name for --target (e.g. --unit)
    treat_note: str = ""  # said by `crit treat SYSTEM` when the system has no treat procedures

    def procedure(self, name: str) -> Procedure | None:
        for p in self.procedures:
            if p.name == name:
                return p
        return None

    def option(self, name: str) -> Option | None:
        for o in self.options:
            if o.name == name:
                return o
        return None


# --- the record ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """One roll as it happened: what it was for, the notation, the faces and the result.

    ``faces`` is empty when the exact-odds engine branched on the total directly.
    For success tests ``successes`` holds the count and ``total`` the same number;
    ``detail`` may say more (e.g. ``"rule of one"``).
    """

    label: str
    notation: str
    faces: tuple[int, ...]
    total: int
    successes: int | None = None
    detail: str = ""

    def to_json(self) -> dict[str, JSONValue]:
        out: dict[str, JSONValue] = {
            "label": self.label,
            "notation": self.notation,
            "faces": list(self.faces),
            "total": self.total,
        }
        if self.successes is not None:
            out["successes"] = self.successes
        if self.detail:
            out["detail"] = self.detail
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Roll:
        return cls(
            label=data["label"],
            notation=data["notation"],
            faces=tuple(data.get("faces", ())),
            total=data["total"],
            successes=data.get("successes"),
            detail=data.get("detail", ""),
        )


@dataclass(frozen=True)
class Note:
    """Something worth telling: a rule that applied, a house rule that changed a result."""

    text: str
    by: str = ""  # the house rule (or plugin) responsible, if any
    stage: str = ""

    def to_json(self) -> dict[str, str]:
        return {"text": self.text, "by": self.by, "stage": self.stage}


def _freeze_fields(obj: Any) -> None:
    """Let plugins pass plain dicts and lists: store them frozen (hashable) instead."""
    for name in ("data", "target"):
        value = getattr(obj, name, None)
        if value is not None and not isinstance(value, Data):
            object.__setattr__(obj, name, Data(value))
    for name in ("changes", "effects"):
        value = getattr(obj, name, None)
        if value is not None and not isinstance(value, tuple):
            object.__setattr__(obj, name, tuple(value))


def _hash_of(obj: Any, names: tuple[str, ...]) -> int:
    """A frozen object's hash, computed once (exact odds hash stage results again and again)."""
    h: int | None = obj.__dict__.get("_hash")
    if h is None:
        h = hash(tuple(getattr(obj, n) for n in names))
        object.__setattr__(obj, "_hash", h)
    return h


# --- stage results ------------------------------------------------------------------------


@dataclass(frozen=True)
class Determination:
    """The answer of ``determine``: is there a critical, and what kind.

    ``kind`` is the system's word for it (``critical-hit``, ``mortal``, ``two-criticals``, ...).
    ``final`` tells the engine that nothing further happens (no later stage is called).
    """

    kind: str
    critical: bool
    summary: str
    final: bool = False
    data: Data = EMPTY

    def __post_init__(self) -> None:
        _freeze_fields(self)

    def __hash__(self) -> int:
        return _hash_of(self, ("kind", "critical", "summary", "final", "data"))


@dataclass(frozen=True)
class Location:
    """The answer of ``locate``: where the critical landed."""

    id: str
    name: str
    summary: str = ""
    data: Data = EMPTY

    def __post_init__(self) -> None:
        _freeze_fields(self)

    def __hash__(self) -> int:
        return _hash_of(self, ("id", "name", "summary", "data"))


@dataclass(frozen=True)
class Effect:
    """A table row that applied, with the numbers the engine acts on.

    ``roll`` (the table roll) is left out of equality so that equal effects reached by
    different rolls merge in exact odds.
    """

    table: str
    id: str
    code: str
    text: str
    roll: int | None = field(default=None, compare=False)
    data: Data = EMPTY

    def __post_init__(self) -> None:
        _freeze_fields(self)

    def __hash__(self) -> int:
        return _hash_of(self, ("table", "id", "code", "text", "data"))

    def to_json(self) -> dict[str, JSONValue]:
        out: dict[str, JSONValue] = {
            "table": self.table,
            "roll": self.roll,
            "id": self.id,
            "effect": self.code,
            "text": self.text,
        }
        out.update(thaw(self.data))
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Effect:
        rest = {k: v for k, v in data.items() if k not in ("table", "roll", "id", "effect", "text")}
        return cls(
            table=data["table"],
            id=data["id"],
            code=data["effect"],
            text=data["text"],
            roll=data.get("roll"),
            data=Data(rest),
        )


@dataclass(frozen=True)
class Applied:
    """The answer of ``apply`` (and ``treat``): what happened to the target.

    ``target`` is the target's new state as frozen data (or None when there is no target);
    ``changes`` are plain-words lines such as ``"HP 12 -> 3"``; ``data`` holds the derived
    numbers a tool may want (injury, penalties, ...). ``effects`` lists table rows rolled
    while applying (an ammunition explosion's critical, a recovery table).
    """

    summary: str
    changes: tuple[str, ...] = ()
    target: Data | None = None
    effects: tuple[Effect, ...] = ()
    data: Data = EMPTY

    def __post_init__(self) -> None:
        _freeze_fields(self)

    def __hash__(self) -> int:
        return _hash_of(self, ("summary", "changes", "target", "effects", "data"))


Treatment = Applied
"""``treat`` answers with the same shape as ``apply``."""


def _stage_json(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, Effect):
        return value.to_json()
    out: dict[str, Any] = {}
    for name in value.__dataclass_fields__:
        v = getattr(value, name)
        if isinstance(v, tuple) and v and isinstance(v[0], Effect):
            out[name] = [e.to_json() for e in v]
        else:
            out[name] = thaw(v)
    return out


@dataclass(frozen=True)
class Step:
    """One stage of the step-by-step record: which stage, what it said, which rolls it made."""

    stage: str
    summary: str
    rolls: tuple[int, ...] = ()  # indexes into Outcome.rolls

    def to_json(self) -> dict[str, Any]:
        return {"stage": self.stage, "summary": self.summary, "rolls": list(self.rolls)}


@dataclass(frozen=True)
class Outcome:
    """Everything one resolution produced. ``to_json`` / ``from_json`` round-trip it."""

    system: str
    procedure: str
    params: Data
    rolls: tuple[Roll, ...]
    steps: tuple[Step, ...]
    determination: Determination | None = None
    location: Location | None = None
    effects: tuple[Effect, ...] = ()
    applied: Applied | None = None
    target: Data | None = None
    notes: tuple[Note, ...] = ()
    rules: tuple[str, ...] = ()
    options: Data = EMPTY

    @property
    def all_effects(self) -> tuple[Effect, ...]:
        """The effect stage's rows followed by those rolled while applying."""
        extra = self.applied.effects if self.applied else ()
        return self.effects + extra

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "procedure": self.procedure,
            "params": thaw(self.params),
            "options": thaw(self.options),
            "rules": list(self.rules),
            "rolls": [r.to_json() for r in self.rolls],
            "effects": [e.to_json() for e in self.all_effects],
            "determination": _stage_json(self.determination),
            "location": _stage_json(self.location),
            "applied": _stage_json(self.applied),
            "steps": [s.to_json() for s in self.steps],
            "notes": [n.to_json() for n in self.notes],
            "target": thaw(self.target),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        def stage(kind: type, raw: Any) -> Any:
            if raw is None:
                return None
            kwargs = dict(raw)
            for key in ("data", "target"):
                if key in kwargs and kwargs[key] is not None:
                    kwargs[key] = Data(kwargs[key])
            if "changes" in kwargs:
                kwargs["changes"] = tuple(kwargs["changes"])
            if "effects" in kwargs:
                kwargs["effects"] = tuple(Effect.from_json(e) for e in kwargs["effects"])
            return kind(**kwargs)

        applied = stage(Applied, data.get("applied"))
        n_applied = len(applied.effects) if applied else 0
        all_effects = tuple(Effect.from_json(e) for e in data.get("effects", ()))
        effects = all_effects[: len(all_effects) - n_applied] if n_applied else all_effects
        target = data.get("target")
        return cls(
            system=data["system"],
            procedure=data["procedure"],
            params=Data(data.get("params", {})),
            options=Data(data.get("options", {})),
            rules=tuple(data.get("rules", ())),
            rolls=tuple(Roll.from_json(r) for r in data.get("rolls", ())),
            steps=tuple(
                Step(s["stage"], s["summary"], tuple(s.get("rolls", ()))) for s in data.get("steps", ())
            ),
            determination=stage(Determination, data.get("determination")),
            location=stage(Location, data.get("location")),
            effects=effects,
            applied=applied,
            target=None if target is None else Data(target),
            notes=tuple(Note(n["text"], n.get("by", ""), n.get("stage", "")) for n in data.get("notes", ())),
        )
