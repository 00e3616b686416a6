"""Exact odds and seeded simulation for any system: the enumerating roller, every distinct run with
its exact weight (``exact``), Monte Carlo (``montecarlo``) and what their reports share.

May import: ``critcore.errors``, ``critcore._speed``, ``critcore.model``, ``critcore.dice``,
``critcore.stages``, ``critcore.engine``.
"""
