"""The step's closed form reads a check's answers without their story (issue 25, eighth round).

``CascadeOdds._step_odds`` takes each answer of the check a step starts with from
``CascadeOdds._check_steps``: the state, the queue, the events and the tags after the check's row
and slots and the actions they call for up to the next roll (``_walked``), never the changes told
or the rows rolled, which the step's merge drops. The check's own closed form with its story
(``_check_odds``, the ``odds`` of the check's ``Dice.choose``) is what real dice and
``checking_keys`` meet. These tests hold the one to the other: the same answers less their story,
in the same order, with the same chances (so none merged away and the step visits them as it
did), and an act that only tells or a check that does not roll, which ``_walked`` and the step
take off the queue without a look-up, leaves the state as it was, queues nothing and notes no
event.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

CASES = [  # each with checks in its cascade (ammunition explosions into the next location)
    ("critical", {"location": "LT"}),
    ("damage", {"location": "LT", "amount": 27}),
    ("damage", {"location": "RT", "amount": 27}),
    ("damage", {"location": "CT", "amount": 27}),
]


@pytest.mark.parametrize("procedure,params", CASES, ids=[f"{c[0]}-{c[1]['location']}" for c in CASES])
def test_a_step_reads_each_answer_of_its_check_less_the_story_in_the_same_order(bt_registry, mech, monkeypatch,
                                                                                 procedure, params):
    from critcore.testing import Engine, exact_odds
    from critcore_battletech.cascadeodds import CascadeOdds

    real = CascadeOdds._check_steps
    compared: list[int] = []

    def both(self: CascadeOdds, overlay: Any, action: Any) -> Any:
        weights, den = real(self, overlay, action)
        full = self._check_odds(overlay, action)
        assert [a for a, _ in weights] == [(a[0], a[1], a[4], a[5]) for a, _ in full]
        assert [Fraction(w, den) for _, w in weights] == [p for _, p in full]
        compared.append(len(full))
        return weights, den

    monkeypatch.setattr(CascadeOdds, "_check_steps", both)
    exact_odds(Engine("battletech", registry=bt_registry), procedure, params, copy.deepcopy(mech))
    assert compared and max(compared) > 1


def test_what_the_walk_takes_off_the_queue_changes_nothing_but_the_story(bt_registry, mech, monkeypatch):
    """Every act that only tells and every check that does not roll met in a cascade, carried out
    on its state: the same state object, nothing queued, no event, no tag."""
    from critcore.testing import Engine, exact_odds
    from critcore_battletech.cascadeodds import ACTING, NO_TAGS, CascadeOdds

    met: list[tuple[Any, Any, Any]] = []
    real = CascadeOdds._walked

    def spy(self: CascadeOdds, found: tuple[Any, ...]) -> Any:
        now, queue = found[0], found[1]
        while queue and not self.rolls_on(now, queue[0]):
            action = queue[0]
            done = self.acted(action, now)
            if action[0] == "check" or (action[0] == "act" and action[1].code not in ACTING):
                met.append((action, now, done))
            now = done[0]
            queue = done[1] + queue[1:]
        return real(self, found)

    monkeypatch.setattr(CascadeOdds, "_walked", spy)
    for location in ("LT", "RT", "CT"):
        exact_odds(Engine("battletech", registry=bt_registry), "damage", {"location": location, "amount": 27},
                   copy.deepcopy(mech))
    kinds = {action[0] for action, _, _ in met}
    assert kinds == {"act", "check"}  # both kinds are met in these cascades
    for action, before, done in met:
        assert done[0] is before and done[1] == () and done[4] == () and done[5] == NO_TAGS, action
