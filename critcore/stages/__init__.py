"""The stage contract: the hook specifications (``hookspecs``), what a stage is handed
(``context``, with the per-target memo of ``targetmemo``), how plugins are found through entry
points and loaded one by one (``loader``), and the examples a plugin ships (``examples``).

May import: ``critcore.errors``, ``critcore._speed``, ``critcore.model``, ``critcore.dice``,
``critcore.tables``.
"""
