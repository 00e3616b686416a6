"""Small plain-words helpers (kept apart so the wound procedure imports little)."""

from __future__ import annotations


def successes_text(n: int) -> str:
    return f"{n} success" if n == 1 else f"{n} successes"


def clock_text(seconds: int | float) -> str:
    """``1 d 2 h 05 min 30 s`` style text for a span of game time."""
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = []
    if days:
        parts.append(f"{days} d")
    if hours or (days and (minutes or secs)):
        parts.append(f"{hours} h")
    if minutes or secs:
        parts.append(f"{minutes} min")
    if secs:
        parts.append(f"{secs} s")
    return " ".join(parts)
