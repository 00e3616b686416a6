"""A GURPS character's state as critcore carries it (plain JSON data), and the helpers that read
and change it. A character file looks like::

    name = "Sir Bertram"
    hp = 12            # the HP attribute
    current_hp = 12    # HP left (defaults to hp)
    ht = 11
    iq = 10
    dx = 12
    dr = 2             # or a table per location: dr = { torso = 4, skull = 4 }
    male = true
    high_pain_threshold = false
    low_pain_threshold = false
    clock = 0          # seconds of game time; statuses expire against it
    statuses = []      # what the tables did to him (see docs/systems/gurps.md)
    injuries = []
    owed_rolls = []    # HT rolls still to make: kind "knockdown" (crit treat gurps knockdown),
                       # "consciousness" or "death" (crit treat gurps survive)
"""

from __future__ import annotations

from typing import Any, Iterable

from critcore.errors import ParamError, StateError
from critcore.model import thaw

DEFAULT_ATTRIBUTE = 10  # DX or IQ not given: an average human
OWED_KINDS = ("knockdown", "consciousness", "death")


def state_of(ctx: Any) -> dict[str, Any] | None:
    """The target as a plain dict we may change, or None when there is no target."""
    if ctx.target is None:
        return None
    state: dict[str, Any] = thaw(ctx.target)
    for key in ("statuses", "injuries", "owed_rolls"):
        value = state.setdefault(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise StateError(f"target: {key!r} must be a list of tables")
    _int(state, "clock", 0)
    for n, status in enumerate(state["statuses"], 1):
        _check_status(status, n)
    for n, owed in enumerate(state["owed_rolls"], 1):
        _int(owed, "modifier", 0, f"owed_rolls[{n}]")
        if owed.get("kind", "knockdown") not in OWED_KINDS:
            raise StateError(f"target: owed_rolls[{n}].kind must be one of {', '.join(OWED_KINDS)}, "
                             f"not {owed.get('kind')!r}")
    return state


def _check_status(status: dict[str, Any], n: int) -> None:
    where = f"statuses[{n}]"
    if not isinstance(status.get("id"), str):
        raise StateError(f"target: {where} needs an id (text)")
    _int(status, "until", None, where)
    check = status.get("check")
    if check is not None:
        if not isinstance(check, dict) or check.get("roll") not in ("ht", "iq", "dx"):
            raise StateError(f"target: {where}.check must be a table with roll = \"ht\", \"iq\" or \"dx\"")
        for key in ("every", "next"):
            if _int(check, key, None, f"{where}.check") is None:
                raise StateError(f"target: {where}.check needs {key} (seconds)")
        if check["every"] <= 0:
            raise StateError(f"target: {where}.check.every must be above 0")
        _int(check, "modifier", 0, f"{where}.check")


def _int(state: dict[str, Any] | None, key: str, default: int | None, where: str = "") -> int | None:
    if state is None or key not in state:
        return default
    value = state[key]
    if isinstance(value, bool) or not isinstance(value, int):
        name = f"{where}.{key}" if where else repr(key)
        raise StateError(f"target: {name} must be a whole number, not {value!r}")
    return value


def number(ctx: Any, state: dict[str, Any] | None, key: str, default: int | None) -> int | None:
    """A number from the parameters first, then the target file, then ``default``."""
    value = ctx.params.get(key)
    if value is not None:
        return int(value)
    return _int(state, key, default)


def default(ctx: Any, key: str) -> int:
    """The value assumed for ``hp`` or ``ht`` when neither a parameter nor the file gives it
    (options ``default_hp`` / ``default_ht``)."""
    return int(ctx.options.get("default_" + key, DEFAULT_ATTRIBUTE))


def hp_of(ctx: Any, state: dict[str, Any] | None) -> int:
    hp = number(ctx, state, "hp", default(ctx, "hp"))
    assert hp is not None
    if hp < 1:
        if ctx.params.get("hp") is not None:
            raise ParamError(f"--hp: {hp} is too low: hit points must be at least 1")
        raise StateError(f"target: hp must be at least 1, not {hp}")
    return hp


def current_hp(state: dict[str, Any], hp: int) -> int:
    value = _int(state, "current_hp", hp)
    assert value is not None
    return value


def flag(ctx: Any, state: dict[str, Any] | None, key: str) -> bool:
    if ctx.params.get(key):
        return True
    return bool(state.get(key)) if state is not None else False


def dr_at(ctx: Any, state: dict[str, Any] | None, location: str) -> int:
    """DR at ``location``: the --dr parameter, else the target's dr (a number or a table)."""
    value = ctx.params.get("dr")
    if value is not None:
        return int(value)
    if state is None or "dr" not in state:
        return 0
    dr = state["dr"]
    if isinstance(dr, dict):
        dr = dr.get(location, dr.get("all", 0))
    if isinstance(dr, bool) or not isinstance(dr, int) or dr < 0:
        raise StateError(f"target: dr must be a whole number of 0 or more (or a table of them), not {dr!r}")
    return dr


def clock(state: dict[str, Any] | None) -> int:
    return int(state.get("clock", 0)) if state is not None else 0


def add_status(state: dict[str, Any] | None, changes: list[str], status: dict[str, Any], line: str) -> None:
    """Record a status on the target (when there is one) and say so."""
    changes.append(line)
    if state is not None:
        status.setdefault("since", clock(state))
        state["statuses"].append(status)


def find_status(state: dict[str, Any], status_id: str) -> dict[str, Any] | None:
    for s in state["statuses"]:
        if s.get("id") == status_id:
            found: dict[str, Any] = s
            return found
    return None


def remove(state: dict[str, Any], doomed: Iterable[dict[str, Any]]) -> None:
    gone = [id(s) for s in doomed]
    state["statuses"] = [s for s in state["statuses"] if id(s) not in gone]


def _span(seconds: Any) -> str:
    from critcore.render import duration

    return duration(seconds) if isinstance(seconds, int) and not isinstance(seconds, bool) else str(seconds)


def describe(status: dict[str, Any], now: int = 0) -> str:
    """One line for ``crit show``; times in game units, counted from ``now`` (the clock)."""
    parts = [status.get("id", "?")]
    if "location" in status:
        parts.append(f"({status['location']})")
    if status.get("text"):
        parts.append(f"- {status['text']}")
    until = status.get("until")
    if isinstance(until, int) and not isinstance(until, bool):
        parts.append(f"[ends in {_span(until - now)}]" if until > now else "[ends now]")
    check = status.get("check")
    if isinstance(check, dict):
        nxt = check.get("next")
        when = f"next in {_span(nxt - now)}" if isinstance(nxt, int) and nxt > now else "next one due now"
        parts.append(f"[{str(check.get('roll', '')).upper()} roll every {_span(check.get('every'))}, {when}]")
    if status.get("duration"):
        parts.append(f"[{status['duration']}]")
    return " ".join(parts)


def show(ctx: Any) -> list[str]:
    data = thaw(ctx.target)
    hp = data.get("hp", default(ctx, "hp"))
    now = data.get("clock", 0)
    now = now if isinstance(now, int) else 0
    lines = [f"{data.get('name', 'character')}: HP {data.get('current_hp', hp)}/{hp}, HT {data.get('ht', default(ctx, 'ht'))}, "
             f"game time {_span(now)}"]
    for s in data.get("statuses", []):
        lines.append("  status: " + describe(s, now))
    from .collapse import describe as owed_line

    for owed in data.get("owed_rolls", []):
        lines.append("  " + owed_line(owed))
    for inj in data.get("injuries", []):
        lines.append(f"  injury: {inj.get('injury')} to the {inj.get('location')} ({inj.get('why', '')})")
    return lines
