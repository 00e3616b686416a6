"""The stage contract and the engine that runs it.

Holds the hook specifications (``hookspecs``), the frozen records passed between stages
(``model``), what a stage is handed (``context``), how plugins are found and loaded from entry
points (``loader``), the examples a plugin ships (``examples``) and the engine that checks a
procedure's parameters and calls the stages in order (``runner``).

May import: ``critcore.errors``, ``critcore._speed``, ``critcore.dice``, ``critcore.tables``,
``critcore.files``, ``critcore.config`` (house rules are composed into an engine).
"""
