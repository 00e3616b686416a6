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

from critcore.plugin import ParamError
from critcore.plugin import thaw

DEFAULT_ATTRIBUTE = 10  # DX or IQ not given: an average human


def state_of(ctx: Any) -> dict[str, Any] | None:
    """The target as a plain dict we may change, or None when there is no target.

    critcore checked the target against ``data/target-schema.toml`` before any stage ran, so
    every key present has the declared type and range; only the lists are filled in here.
    """
    if ctx.target is None:
        return None
    state: dict[str, Any] = thaw(ctx.target)
    for key in ("statuses", "injuries", "owed_rolls"):
        state.setdefault(key, [])
    return state


def _int(state: dict[str, Any] | None, key: str, default: int | None) -> int | None:
    """A whole number of the (checked) target, or ``default`` when it is not there."""
    if state is None:
        return default
    value = state.get(key)
    return default if value is None else value


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
    if hp < 1 and (ctx.params.get("hp") is not None or state is None or "hp" not in state):  # --hp or default_hp
        raise ParamError(f"--hp: {hp} is too low: hit points must be at least 1")
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
    dr = state["dr"]  # a whole number of 0 or more, or a table of them by location (the schema says)
    if isinstance(dr, dict):
        dr = dr.get(location, dr.get("all", 0))
    return dr  # type: ignore[no-any-return]


def clock(state: dict[str, Any] | None) -> int:
    return int(state.get("clock", 0)) if state is not None else 0


def add_status(state: dict[str, Any] | None, changes: list[str], status: dict[str, Any], line: str) -> None:
    """Record a status on the target (when there is one) and say so."""
    changes.append(line)
    if state is not None:
        status.setdefault("since", clock(state))
        same = {k: v for k, v in status.items() if k != "since"}
        # the same status again says nothing more: the one in force since earlier stays (issue 25)
        if not any({k: v for k, v in s.items() if k != "since"} == same for s in state["statuses"]):
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
    from critcore.plugin import duration

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
    fp = f"FP {data.get('current_fp', data['fp'])}/{data['fp']}, " if "fp" in data else ""
    lines = [f"{data.get('name', 'character')}: HP {data.get('current_hp', hp)}/{hp}, {fp}"
             f"HT {data.get('ht', default(ctx, 'ht'))}, game time {_span(now)}"]
    if "body" in data or "traits" in data:
        from .bodies import show_body
        from .traits import show as show_traits

        lines.extend(show_body(data.get("body")) + show_traits(data.get("traits") or {}))
    for s in data.get("statuses", []):
        lines.append("  status: " + describe(s, now))
    from .collapse import describe as owed_line

    for owed in data.get("owed_rolls", []):
        lines.append("  " + owed_line(owed))
    for inj in data.get("injuries", []):
        lines.append(f"  injury: {inj.get('injury')} to the {inj.get('location')} ({inj.get('why', '')})")
    return lines
