"""Campaigns: every target of a table and a log of every change, with undo. The store
interface (``store``), its SQLite implementation (``sqlite``) and ``Campaign`` (``campaign``).

May import: ``critcore.errors``, ``critcore.files``, ``critcore.engine``, ``critcore.dice``,
``critcore.config``, ``critcore.targets``.
"""
