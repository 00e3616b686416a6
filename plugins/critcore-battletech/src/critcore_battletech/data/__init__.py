"""Data the unit importer reads: internal structure, 'Mech configurations, engines, heat sinks,
equipment and ammunition (TOML files in this package, loaded by :mod:`.catalog`)."""
