"""House rules in TOML (``houserules``) and the settings files, ``critcore.toml`` and the user's
config (``settings``).

May import: ``critcore.errors``, ``critcore.model``, ``critcore.files``, ``critcore.tables``,
``critcore.stages``.
"""
