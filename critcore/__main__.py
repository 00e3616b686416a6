"""``python -m critcore`` works like ``crit``."""

from critcore.cli import main

main()
