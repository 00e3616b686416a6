"""critcore-gurps: the GURPS 4th Edition critical tables, injury and recovery for critcore."""

__version__ = "0.1.0"
