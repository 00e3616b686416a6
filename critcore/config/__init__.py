"""House rules in TOML (``houserules``) and the settings files, ``critcore.toml`` and the user's
config (``settings``).

May import: ``critcore.errors``, ``critcore.files``, ``critcore.tables``, ``critcore.engine.model``,
``critcore.engine.loader``.
"""
