"""Shadowrun 2nd Edition critical hits for critcore.

The GM's secret Body check turns a wound into a Mortal, Crippling or Critical critical hit (or
none); a critical strikes a body area and a part of it, gets a condition monitor of its own, and
may start a death clock. Medics diagnose and treat, magic and time heal.
"""

__version__ = "0.1.0"
