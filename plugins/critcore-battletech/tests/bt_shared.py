"""Where the real unit files are: ``../shared`` beside the checkout, or beside the folder of git
worktrees that holds it (``mtf-samples``, the ten sample units; ``mtf-corpus/units``, about 2,000).
They are never copied into the project: a test that needs them skips when they are absent."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent  # plugins/critcore-battletech/tests
SHARED = next((p / "shared" for p in _HERE.parents[2:5] if (p / "shared").is_dir()), Path("/nonexistent"))
SAMPLES = SHARED / "mtf-samples"
CORPUS = SHARED / "mtf-corpus" / "units"
