"""What the GURPS tests share: the plugin registered on its own, scripted 3d6 faces, a runner
(all from :mod:`critcore.testing`)."""

from __future__ import annotations

from typing import Any

from critcore import testing
from critcore.plugin import Outcome

import critcore_gurps.plugin as gurps

REG = testing.registry(gurps)


def faces(total: int) -> list[int]:
    """Three d6 faces that add up to ``total`` (3 to 18), for scripting a 3d6 roll."""
    return testing.faces_for("3d6", total)


def run(proc: str, dice: list[int] | str, target: dict[str, Any] | None = None, **params: Any) -> Outcome:
    """Resolve a GURPS procedure with scripted dice (its verb decides resolve or treat). The row
    tests pad the faces for rolls a row may or may not make, so faces left over are allowed."""
    return testing.run(gurps, proc, dice, target=target, all_dice_used=False, **params)
