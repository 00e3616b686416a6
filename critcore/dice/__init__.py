"""Dice: the notation (``2d6+1``, ``3d6``), rollers (random from a seed, faces typed in, a prompt
roll by roll, scripted for tests) and ``Dice``, what a stage rolls with.

May import: ``critcore.errors``, ``critcore.model``.
"""
