"""The engine: a procedure's parameters checked against what the system declares (``params``),
the stages called in order with their answers checked at the boundary (``runner``,
``answers``).

May import: ``critcore.errors``, ``critcore._speed``, ``critcore.model``, ``critcore.dice``,
``critcore.tables``, ``critcore.report``, ``critcore.stages``, ``critcore.config``.
"""
