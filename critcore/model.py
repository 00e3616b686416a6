"""What passes between the stages: small frozen dataclasses that round-trip through JSON.

Stage results (:class:`Determination`, :class:`Location`, :class:`Effect`, :class:`Applied`,
:class:`Treatment`) are frozen and hashable, so the exact-odds engine can merge equal
outcomes. Keep roll values out of them unless a later stage needs them: the roll record
(:class:`Roll`) already says what was rolled. A target's state is plain JSON data (dicts,
lists, str, int, float, bool, None).

The classes are dataclasses made by :func:`record` rather than ``@dataclass(frozen=True)``:
the same fields, equality, hashing, ``repr`` and ``dataclasses.fields``/``replace``, without
compiling methods at import (start-up) and with a faster ``__init__`` (every resolution).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, NoReturn

from critcore._speed.records import record as record  # re-exported: systems import them from here
from critcore._speed.records import record_field as record_field
from critcore._speed.records import keeps

JSONValue = Any  # a value json.dumps accepts


_PLAIN = (str, int, float, bool, type(None))

_SCALARS = frozenset(_PLAIN)


def freeze(value: Any) -> Any:
    """Turn JSON-like data into hashable data: dict -> Data, list -> tuple."""
    t = type(value)
    if t in _PLAIN or t is Data:
        return value
    if t is dict:  # the common case, without the generic checks
        return _wrap({k if type(k) is str else str(k): freeze(v) for k, v in value.items()})
    if t is tuple:  # already frozen as it is (a Data's tuple handed back changed): kept, not copied
        for v in value:
            c = v.__class__
            if c is not Data and c not in _SCALARS:
                return tuple([freeze(v) for v in value])
        return value
    if t is list:
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
    if t in _SCALARS:
        return value
    # a scalar inside is taken as it is, without a call (an outcome's JSON thaws a few hundred)
    if t is Data:
        return {k: v if v.__class__ in _SCALARS else thaw(v) for k, v in dict.items(value)}
    if t is tuple or t is list:
        return [v if v.__class__ in _SCALARS else thaw(v) for v in value]
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


_new_dict = dict.__new__
_update = dict.update


def _wrap(items: Mapping[str, Any]) -> Data:
    """A Data holding an already-frozen mapping's entries (no checks)."""
    data: Data = _new_dict(Data)
    _update(data, items)
    data._hash = None
    return data


def frozen_data(items: dict[str, Any]) -> Data:
    """``Data(items)`` for a dict whose keys are text and whose values are frozen already
    (:func:`freeze`): the same Data, without looking at each value again."""
    return _wrap(items)


def _refused(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError("Data is immutable: use .replace(...) for a changed copy")


class Data(dict[str, Any]):
    """An immutable, hashable mapping of str to frozen JSON-like values.

    A dict whose mutating methods are refused: every read (``[]``, ``get``, ``in``, iteration,
    the views) is the dict's own C code, not a Python method (stages read their data often:
    a BattleTech critical on a full unit reads it a few hundred times). Build a changed copy with
    :meth:`replace`.
    """

    __slots__ = ("_hash",)
    _hash: int | None

    def __init__(self, items: Mapping[str, Any] | None = None, /, **kwargs: Any) -> None:
        if items is None:
            merged: Mapping[str, Any] = kwargs
        elif kwargs or type(items) is not dict:
            merged = dict(items or {}, **kwargs)
        else:
            merged = items
        _update(self, {
            k if k.__class__ is str else str(k): v if v.__class__ in _SCALARS else freeze(v)
            for k, v in merged.items()
        })
        self._hash = None

    def __hash__(self) -> int:  # type: ignore[override]
        h = self._hash
        if h is None:
            h = self._hash = hash(frozenset(dict.items(self)))
        return h

    def __eq__(self, other: object) -> bool:
        if other.__class__ is Data:
            return dict.__eq__(self, other)
        if isinstance(other, Mapping):
            return dict.__eq__(self, {k: freeze(v) for k, v in other.items()})
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        same = self.__eq__(other)
        return same if same is NotImplemented else not same

    def __repr__(self) -> str:
        return f"Data({dict.__repr__(self)})"

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy: rebuilt from a plain dict
        return (Data, (dict(self),))

    def __copy__(self) -> Data:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Data:
        return self

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refused

    def replace(self, **changes: Any) -> Data:
        """A copy with some keys changed or added (unchanged values are shared, not copied)."""
        data: Data = _new_dict(Data)
        _update(data, self)
        for k, v in changes.items():
            changes[k] = v if v.__class__ in _SCALARS else freeze(v)
        _update(data, changes)
        data._hash = None
        return data


EMPTY = Data()


# --- what a system declares -------------------------------------------------------------


@record
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
    suggest: tuple[str, ...] = ()  # values shell completion offers for a free-text parameter (not enforced)

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


@record
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


@record
class Option:
    """A system-wide rules option, set in ``critcore.toml`` or by a house rule."""

    name: str
    type: str = "bool"
    default: Any = False
    help: str = ""
    choices: tuple[str, ...] = ()
    min: float | None = None
    max: float | None = None


@record
class Event:
    """A named event players ask about ("ammunition explosion", "critical hit"): an outcome tag
    the system's stages set (``tags`` on a stage result), declared with its plain-words text.
    ``crit odds`` and ``crit simulate`` lead with the probability of each declared event."""

    name: str
    text: str
    procedures: tuple[str, ...] = ()  # the procedures whose outcomes may carry it (empty: every one)


@record
class RuleInfo:
    """What a house-rule plugin says about itself: the answer of its ``critcore_rule`` hook."""

    name: str
    system: str
    summary: str
    changes: tuple[str, ...] = ()  # the stages or tables it changes, for crit systems
    events: tuple[Any, ...] = ()  # critcore.model.Event: tags this rule's stages set, added to the system's


@record
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
    events: tuple[Event, ...] = ()  # the outcome tags its stages set that players ask about
    target_schema: Any = None  # "package:file.toml" (or the parsed table): the target's schema (critcore.tables.schema)
    target_memo: bool = False  # the stages want ctx.memo, kept by the engine per target (critcore.stages.targetmemo)
    writes: tuple[str, ...] = ()  # suffixes (".gcs") of its own formats that critcore_write_target writes back

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


SEVERITIES: tuple[str, ...] = ("none", "minor", "serious", "grave", "deadly")
"""How serious an outcome, or one thing it did, is, least first: ``none`` (nothing happened to
anyone), ``minor`` (a plain hit, a scratch, a clumsy miss), ``serious`` (a critical that costs
something: a major wound, a weapon lost, a hit on the crew), ``grave`` (lasting harm: a limb
crippled, ammunition exploding, a location destroyed, a wound that kills unless treated) and
``deadly`` (someone or something dies). A system says which its outcomes are with the
``critcore_changes`` hook; the report, the terminal's colours and the web page's card follow it."""


# --- the record ---------------------------------------------------------------------------


@record
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


@record
class Note:
    """Something worth telling: a rule that applied, a house rule that changed a result."""

    text: str
    by: str = ""  # the house rule (or plugin) responsible, if any
    stage: str = ""

    def to_json(self) -> dict[str, str]:
        return {"text": self.text, "by": self.by, "stage": self.stage}


@keeps(type(None), Data)
def _data(value: Any) -> Data | None:
    """Let plugins pass plain dicts: store them frozen (hashable) instead."""
    return value if value is None or isinstance(value, Data) else Data(value)


NO_TAGS: frozenset[str] = frozenset()


@keeps(type(None), tuple)
def _tuple(value: Any) -> Any:
    """A list a plugin passes, stored as a tuple (None stays None)."""
    return value if value is None or isinstance(value, tuple) else tuple(value)


@keeps(frozenset)
def _tags(value: Any) -> frozenset[str]:
    """Outcome tags as a frozenset (a plugin may pass any iterable of names)."""
    return value if value.__class__ is frozenset else frozenset(value or ())


# --- stage results ------------------------------------------------------------------------


@record(kept_hash=True)
class Determination:
    """The answer of ``determine``: is there a critical, and what kind.

    ``kind`` is the system's word for it (``critical-hit``, ``mortal``, ``two-criticals``, ...).
    ``final`` tells the engine that nothing further happens (no later stage is called).
    """

    kind: str
    critical: bool
    summary: str
    final: bool = False
    data: Data = record_field(default=EMPTY, convert=_data)  # a plain dict is frozen
    tags: frozenset[str] = record_field(default=NO_TAGS, convert=_tags)


@record(kept_hash=True)
class Location:
    """The answer of ``locate``: where the critical landed."""

    id: str
    name: str
    summary: str = ""
    data: Data = record_field(default=EMPTY, convert=_data)  # a plain dict is frozen
    tags: frozenset[str] = record_field(default=NO_TAGS, convert=_tags)


@record(kept_hash=True)
class Effect:
    """A table row that applied, with the numbers the engine acts on.

    ``roll`` (the table roll) is left out of equality so that equal effects reached by
    different rolls merge in exact odds.
    """

    table: str
    id: str
    code: str
    text: str
    roll: int | None = record_field(default=None, compare=False)
    data: Data = record_field(default=EMPTY, convert=_data)  # a plain dict is frozen
    tags: frozenset[str] = record_field(default=NO_TAGS, convert=_tags)

    def to_json(self) -> dict[str, JSONValue]:
        out: dict[str, JSONValue] = {
            "table": self.table,
            "roll": self.roll,
            "id": self.id,
            "effect": self.code,
            "text": self.text,
        }
        out.update(thaw(self.data))
        if self.tags:
            out["tags"] = sorted(self.tags)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Effect:
        rest = {k: v for k, v in data.items() if k not in ("table", "roll", "id", "effect", "text", "tags")}
        return cls(
            table=data["table"],
            id=data["id"],
            code=data["effect"],
            text=data["text"],
            roll=data.get("roll"),
            data=Data(rest),
            tags=frozenset(data.get("tags", ())),
        )


@record(kept_hash=True)
class Applied:
    """The answer of ``apply`` (and ``treat``): what happened to the target.

    ``target`` is the target's new state as frozen data (or None when there is no target);
    ``changes`` are plain-words lines such as ``"HP 12 -> 3"``; ``data`` holds the derived
    numbers a tool may want (injury, penalties, ...). ``effects`` lists table rows rolled
    while applying (an ammunition explosion's critical, a recovery table).
    """

    summary: str
    changes: tuple[str, ...] = record_field(default=(), convert=_tuple)
    target: Data | None = record_field(default=None, convert=_data)
    effects: tuple[Effect, ...] = record_field(default=(), convert=_tuple)
    data: Data = record_field(default=EMPTY, convert=_data)  # a plain dict is frozen
    tags: frozenset[str] = record_field(default=NO_TAGS, convert=_tags)


Treatment = Applied
"""``treat`` answers with the same shape as ``apply``."""


def outcome_tags(determination: Determination | None, location: Location | None,
                 effects: tuple[Effect, ...] | None, applied: Applied | None) -> frozenset[str]:
    """The union of the tags of an outcome's stage results (the effects rolled while applying too)."""
    found: set[str] = set()
    for part in (determination, location, applied):
        if part is not None and part.tags:
            found |= part.tags
    for e in (effects or ()) + (applied.effects if applied is not None else ()):
        if e.tags:
            found |= e.tags
    return frozenset(found)


def _stage_json(value: Any, keep: Callable[[Any], Any] = thaw) -> Any:
    if value is None:
        return None
    if isinstance(value, Effect):
        return value.to_json()
    out: dict[str, Any] = {}
    # A record's fields in order are its __match_args__: asking for its __dataclass_fields__ would
    # register it with dataclasses (importing it: 0.7 ms of a campaign command or --json). A real
    # dataclass (a plugin's subclass of a record) has them in its own dict, with every field.
    fields = type(value).__dict__.get("__dataclass_fields__")
    for name in fields if isinstance(fields, dict) else value.__match_args__:
        v = getattr(value, name)
        if v.__class__ in _SCALARS:  # most fields (summary, kind, critical): as they are
            out[name] = v
        elif isinstance(v, tuple) and v and isinstance(v[0], Effect):
            out[name] = [e.to_json() for e in v]
        elif isinstance(v, frozenset):
            out[name] = sorted(v)
        else:
            out[name] = keep(v)
    return out


def outcome_object(outcome: Outcome, keep: Callable[[Any], Any] = thaw) -> dict[str, Any]:
    """:meth:`Outcome.to_dict`'s object, each frozen value (``Data``, tuples) passed through
    ``keep``: ``thaw`` copies them into plain dicts and lists; an encoder that writes both alike
    may have them as they are (``crit serve``: :mod:`critcore._speed.outcomejson`)."""
    return {
        "format": OUTCOME_FORMAT,
        "system": outcome.system,
        "procedure": outcome.procedure,
        "params": keep(outcome.params),
        "options": keep(outcome.options),
        "rules": keep(outcome.rules),
        "rolls": [r.to_json() for r in outcome.rolls],
        "effects": [e.to_json() for e in outcome.all_effects],
        "determination": _stage_json(outcome.determination, keep),
        "location": _stage_json(outcome.location, keep),
        "applied": _stage_json(outcome.applied, keep),
        "steps": [s.to_json() for s in outcome.steps],
        "notes": [n.to_json() for n in outcome.notes],
        "target": keep(outcome.target),
        "tags": sorted(outcome.tags),
    }


@record
class Step:
    """One stage of the step-by-step record: which stage, what it said, which rolls it made."""

    stage: str
    summary: str
    rolls: tuple[int, ...] = ()  # indexes into Outcome.rolls

    def to_json(self) -> dict[str, Any]:
        return {"stage": self.stage, "summary": self.summary, "rolls": list(self.rolls)}


OUTCOME_FORMAT = 1
"""Version of the outcome's JSON (``format`` in ``--json`` and :meth:`Outcome.to_dict`). It goes
up only when a key changes meaning or goes away; new keys may appear at any time."""


@record
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

    @property
    def tags(self) -> frozenset[str]:
        """The outcome's tags: every tag its stage results carry (see :class:`Event`). Worked out
        once (the outcome is frozen) and kept beside its fields: a report, its ranking and its
        JSON each ask."""
        found: frozenset[str] | None = self.__dict__.get("_tags")
        if found is None:
            found = self.__dict__["_tags"] = outcome_tags(self.determination, self.location, self.effects,
                                                           self.applied)
        return found

    def to_dict(self) -> dict[str, Any]:
        """The outcome as plain JSON data: the ``--json`` object, ``format`` its version."""
        return outcome_object(self)

    def to_json(self, **dumps: Any) -> str:
        """The outcome as JSON text: ``json.dumps`` of :meth:`to_dict` (``dumps`` passed on)."""
        import json

        dumps.setdefault("ensure_ascii", False)
        return json.dumps(self.to_dict(), **dumps)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        """An outcome from :meth:`to_dict`'s data."""
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str | bytes) -> Outcome:
        """An outcome from JSON text (:meth:`to_json`) or from its data (:meth:`to_dict`)."""
        if isinstance(data, (str, bytes)):
            import json

            data = json.loads(data)
            if not isinstance(data, dict):
                raise ValueError("an outcome's JSON must be an object")
        def stage(kind: type, raw: Any) -> Any:
            if raw is None:
                return None
            kwargs = dict(raw)
            for key in ("data", "target"):
                if key in kwargs and kwargs[key] is not None:
                    kwargs[key] = Data(kwargs[key])
            if "changes" in kwargs:
                kwargs["changes"] = tuple(kwargs["changes"])
            if "tags" in kwargs:
                kwargs["tags"] = frozenset(kwargs["tags"])
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
