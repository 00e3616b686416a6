"""Reading and writing files safely: size and depth limits on what is read (``reading``), TOML
helpers (``toml``), file locks (``locks``) and the time limits on waiting for them (``timeouts``).

May import: ``critcore.errors``.
"""
