"""What the GURPS tests share: the plugin registered on its own, scripted 3d6 faces, a runner."""

from __future__ import annotations

from typing import Any

import critcore
from critcore.model import Outcome
from critcore.plugins import Registry

import critcore_gurps.plugin as gurps

REG = Registry.installed(extra_systems={"gurps": gurps}, discover=False)


def faces(total: int) -> list[int]:
    """Three d6 faces that add up to ``total`` (3 to 18), for scripting a 3d6 roll."""
    a = min(6, total - 2)
    b = min(6, total - a - 1)
    return [a, b, total - a - b]


def run(proc: str, dice: list[int], target: dict[str, Any] | None = None, **params: Any) -> Outcome:
    """Resolve a GURPS procedure with scripted dice (its verb decides resolve or treat)."""
    return critcore.resolve("gurps", proc, dice=dice, target=target, registry=REG, **params)
