"""Example characters (package data for `crit examples`)."""
