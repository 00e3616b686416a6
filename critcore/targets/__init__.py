"""Targets: the state of a character or unit a procedure acts on. Declared target schemas
(``schema``), reading and saving target files (``state``), and a file's read-change-save session
(``sessions``).

May import: ``critcore.errors``, ``critcore.model``, ``critcore.files``.
"""
