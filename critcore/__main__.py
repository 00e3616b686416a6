"""``python -m critcore`` works like ``crit``."""

from critcore.cli.console import main

main()
