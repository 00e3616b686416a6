"""BattleTech 'Mech critical hits for critcore (entry point ``battletech``)."""

__version__ = "0.1.0"
