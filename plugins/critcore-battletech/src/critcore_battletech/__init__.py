"""BattleTech 'Mech critical hits for critcore (entry point ``battletech``)."""

__version__ = "0.1.0"

from .loader import load_mtf, loads_mtf  # noqa: E402  (the public .mtf reader; imports nothing heavy)

__all__ = ["__version__", "load_mtf", "loads_mtf"]
