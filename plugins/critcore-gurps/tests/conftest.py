import sys
from pathlib import Path

# the shared helpers (gurps_testkit) live beside the tests
HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
