"""Example units (package data for `crit examples`): our own designs, never copies of published data."""
