"""The BattleTech system's tables (TOML package data)."""
