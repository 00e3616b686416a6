"""How long critcore waits for another process's lock, on a target file or a campaign.

A module of its own so that a campaign command does not import :mod:`critcore.targets.state` (target
files) only to read one environment variable.
"""

from __future__ import annotations

import os


def busy_timeout() -> float:
    """Seconds to wait for another process's lock on a target file or campaign
    (``CRITCORE_BUSY_TIMEOUT``, 10 by default)."""
    from critcore.errors import ConfigError

    raw = os.environ.get("CRITCORE_BUSY_TIMEOUT", "")
    try:
        value = float(raw) if raw else 10.0
    except ValueError:
        raise ConfigError(f"CRITCORE_BUSY_TIMEOUT: {raw[:40]!r} is not a number of seconds") from None
    if not 0 <= value <= 3600:
        raise ConfigError("CRITCORE_BUSY_TIMEOUT: give between 0 and 3600 seconds")
    return value
