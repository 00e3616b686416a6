"""Private: machinery that exists only for speed, behind one seam. Each piece here shows the
milliseconds it saves on a user's command (docs/architecture.md, "Speed machinery") and is
tested against what it replaces. Nothing outside this package touches the internals of
``dataclasses``, ``json``, ``importlib`` or ``pluggy``.

May import: the standard library only (and orjson, when installed, in jsonbytes; twocores uses quickexit).
"""
