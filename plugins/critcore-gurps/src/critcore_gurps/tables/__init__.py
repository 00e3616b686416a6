"""The GURPS tables (TOML package data, loaded by critcore)."""
