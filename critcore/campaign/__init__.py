"""Campaigns: every target of a table and a log of every change, with undo. The store
interface (``store``), its SQLite implementation (``sqlite``) and ``Campaign`` (``campaign``).

May import: ``critcore.errors``, ``critcore._speed``, ``critcore.model``, ``critcore.files``,
``critcore.dice``, ``critcore.targets``, ``critcore.stages``, ``critcore.config``,
``critcore.engine``.
"""
