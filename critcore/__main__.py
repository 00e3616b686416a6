"""``python -m critcore`` works like ``crit``."""

from critcore.cli.main import console

console()
