"""How many generated examples a property test draws: the README's ``pytest`` (the default run,
which must finish in 90 s on two cores) or ``.ci/run``'s long run (``CRITCORE_LONG=1``, step 7),
which draws many more of the same cases. A failure either run finds is a failure of both: the
strategies are the same, only their number changes."""

from __future__ import annotations

import os

LONG = bool(os.environ.get("CRITCORE_LONG"))


def examples(default: int, long: int) -> int:
    """``default`` examples in the default run, ``long`` in the long one."""
    return long if LONG else default
