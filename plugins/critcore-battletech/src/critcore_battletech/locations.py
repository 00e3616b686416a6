"""Where things are on a 'Mech: location codes, names, kinds, slot counts and damage transfer.

This is the layout of the record sheet, shared by every procedure. Rule numbers live in the
TOML tables; this module only says which location is which.
"""

from __future__ import annotations

from typing import Mapping

NAMES: Mapping[str, str] = {
    "HD": "Head",
    "CT": "Center Torso",
    "LT": "Left Torso",
    "RT": "Right Torso",
    "LA": "Left Arm",
    "RA": "Right Arm",
    "LL": "Left Leg",
    "RL": "Right Leg",
    "CL": "Center Leg",
    "FLL": "Front Left Leg",
    "FRL": "Front Right Leg",
    "RLL": "Rear Left Leg",
    "RRL": "Rear Right Leg",
}
CODES: tuple[str, ...] = tuple(NAMES)

KIND: Mapping[str, str] = {
    "HD": "head",
    "CT": "torso", "LT": "torso", "RT": "torso",
    "LA": "arm", "RA": "arm",
    "LL": "leg", "RL": "leg", "CL": "leg", "FLL": "leg", "FRL": "leg", "RLL": "leg", "RRL": "leg",
}

# Damage passes inward when a location is destroyed; None: the 'Mech is destroyed instead.
INWARD: Mapping[str, str | None] = {
    "HD": None, "CT": None,
    "LT": "CT", "RT": "CT",
    "LA": "LT", "RA": "RT", "LL": "LT", "RL": "RT", "CL": "CT",
    "FLL": "LT", "RLL": "LT", "FRL": "RT", "RRL": "RT",
}

# A destroyed side torso takes the arm on its side with it (not a four-legged 'Mech's legs).
ARM_OF_TORSO: Mapping[str, str] = {"LT": "LA", "RT": "RA"}

# Four-legged 'Mechs read the hit location table's arm results as front legs, leg results as
# rear legs.
QUAD_MAP: Mapping[str, str] = {"LA": "FLL", "RA": "FRL", "LL": "RLL", "RL": "RRL"}
QUAD_CONFIGS = frozenset({"quad", "quadvee"})

TORSOS_WITH_REAR = frozenset({"CT", "LT", "RT"})
VITAL = frozenset({"HD", "CT"})


def slot_count(code: str) -> int:
    """Critical slots of a location on the record sheet: 6 for the head and legs, else 12."""
    return 6 if KIND[code] in ("head", "leg") else 12


def kind(code: str) -> str:
    return KIND[code]


def name(code: str) -> str:
    return NAMES.get(code, code)


def is_quad(config: str | None) -> bool:
    return (config or "").lower() in QUAD_CONFIGS
