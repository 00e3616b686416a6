"""What people read: the plain-words report of an outcome (``render``), colour for a terminal
(``style``), text made safe to print (``textsafe``) and tables exported for virtual tabletops
(``export``).

May import: ``critcore.errors``, ``critcore._speed``, ``critcore.model``, ``critcore.dice``.
"""
