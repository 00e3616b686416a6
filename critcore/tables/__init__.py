"""A system's TOML roll tables: loading and validation (``tableset``), row schemas
(``rowschema``), and data files read from an installed package (``resources``).

May import: ``critcore.errors``, ``critcore._speed``, ``critcore.model``, ``critcore.files``,
``critcore.dice``.
"""
