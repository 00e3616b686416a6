"""The ``crit`` command (click). ``main`` holds the group and the light commands; the procedures'
commands are built from what a system declares (``procedures``); ``campaign``, ``examples`` and
``serve`` load only when named. Errors become one line at this edge (``errors``).

May import: anything in critcore but ``critcore.testing`` and ``critcore.plugin`` (``serve``
imports ``critcore.web`` when it runs).
"""
