"""The Shadowrun 2nd Edition critical-hit tables (TOML files read by critcore)."""
