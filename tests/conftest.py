import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture
def registry():
    """A registry holding only the fake system (no installed plugins)."""
    from critcore.plugins import Registry
    from tests import fakesystem

    return Registry.installed(extra_systems={"fake": fakesystem}, discover=False)
