"""Private: an outcome's JSON object for an encoder, without copying its frozen data first.

:meth:`critcore.model.Outcome.to_dict` answers plain JSON data: every ``Data`` copied into a
``dict`` and every tuple into a ``list`` (``thaw``), which a caller may change. ``crit serve``
only encodes it, and both encoders it uses (orjson, and json without it:
:mod:`critcore._speed.jsonbytes`) write a ``dict`` subclass as an object and a tuple as an array,
exactly as they write the copies. So it asks the model for the same object with :func:`as_is` in
place of ``thaw`` (:func:`critcore.model.outcome_object`): the same keys in the same order, the
same bytes once encoded; about 6 us less for a GURPS attack (13 against 7 us; the parameters alone
are 26 values), of a request that costs about 110 us in-process (docs/architecture.md, "Speed
machinery").

Frozen data holds only ``Data``, tuples and scalars (``critcore.model.freeze`` makes it so), and
anything else ``thaw`` leaves as it is, so the two differ only in the containers' types.
``tests/test_core_outcomejson.py`` holds the bytes to ``to_dict``'s on generated outcomes of every
installed system.

May import: the standard library only.
"""

from __future__ import annotations

from typing import Any


def as_is(value: Any) -> Any:
    """A frozen value handed to the encoder as it is (see the module's docstring)."""
    return value
