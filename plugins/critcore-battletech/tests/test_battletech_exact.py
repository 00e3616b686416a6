"""Exact odds on a unit: interchangeable slots counted as one class, destroyed locations that
forget which of their slots were hit, and cascades that stay exact (checked against simulation).

Testmech TM-1's left torso: XL engine (slots 1-3), LRM 10 (4-5), LRM-10 ammo (6), SRM-6 ammo
(7), Ultra AC/5 ammo (8), heat sink (9), CASE (10), Endo Steel (11), empty (12); structure 12.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any, Iterator

import pytest

from critcore.plugin import freeze

from critcore_battletech import criticals as C
from critcore_battletech import slotodds as S
from critcore_battletech.unitview import Work


@pytest.fixture(scope="module")
def lt_critical_checked() -> Any:
    """Exact odds of a critical in the Testmech's left torso under ``checking_keys`` (every key and
    merge the plugin gives is checked against the enumeration of the rolls): the plugin's own
    odds pass. About a second of work, done once for the tests below that each then break one
    part of the plugin and see the check catch it."""
    import critcore_battletech.plugin as plugin
    from bt_shared import load_unit
    from critcore import testing
    from critcore.testing import Engine, checking_keys, exact_odds

    with checking_keys():  # the Testmech, as the mech fixture gives it
        return exact_odds(Engine("battletech", registry=testing.registry(plugin)), "critical", {"location": "LT"},
                          load_unit("testmech-tm1"))


def lt_classes(unit: dict[str, Any]) -> tuple[int, ...]:
    w = Work(freeze(unit))
    slots = w.loc("LT")["slots"]
    return S.slot_classes(w, slots, list(range(11)))


def test_slots_of_one_item_in_one_half_are_one_class(mech):
    """The three XL engine slots and the two LRM 10 slots are each one class; every other item
    (three different ammunition bins, a heat sink, CASE, Endo Steel) is its own."""
    assert lt_classes(mech) == (0, 0, 0, 3, 3, 5, 6, 7, 8, 9, 10)


def test_identical_single_slot_items_in_one_half_are_one_class(mech):
    """Make the Ultra AC/5 bin (slot 8) a second full SRM-6 bin like slot 7: both lie in the lower
    half, so they are one class; with one shot fired from it, they are not."""
    unit = copy.deepcopy(mech)
    unit["items"]["LT-7"] = {**copy.deepcopy(unit["items"]["LT-6"]), "slots": [7]}
    unit["locations"]["LT"]["slots"][7]["name"] = unit["locations"]["LT"]["slots"][6]["name"]
    assert lt_classes(unit)[6:8] == (6, 6)
    unit["items"]["LT-7"]["ammo"]["shots"] -= 1
    assert lt_classes(unit)[6:8] == (6, 7)


def test_identical_items_in_different_halves_stay_apart(mech):
    """Slot 6 (upper half) and slot 7 (lower half) holding identical bins are not one class:
    the half die treats them differently once other slots are gone."""
    unit = copy.deepcopy(mech)
    unit["items"]["LT-6"] = {**copy.deepcopy(unit["items"]["LT-5"]), "slots": [6]}
    unit["locations"]["LT"]["slots"][6]["name"] = unit["locations"]["LT"]["slots"][5]["name"]
    assert lt_classes(unit)[5:7] == (5, 6)


def test_real_dice_keep_the_hits_of_a_destroyed_location(run, mech):
    """The two-step cascade (Ultra AC/5 bin, then the SRM-6 bin, left torso destroyed): with real
    dice the record sheet keeps both slots marked as hit."""
    out = run("critical", "4,4,4,2,4,4,4,1", unit=mech, location="LT")
    slots = out.target["locations"]["LT"]["slots"]
    assert out.target["locations"]["LT"]["destroyed"]
    assert slots[6]["destroyed"] and slots[7]["destroyed"]


def test_exact_odds_forget_the_hits_of_a_destroyed_location(bt_registry, mech):
    """Under exact odds a destroyed left torso shows its slots as they were before the critical
    (what was hit in it no longer changes anything), its items disabled; the odds stay whole."""
    from critcore.testing import Engine
    from critcore.testing import exact_odds

    odds = exact_odds(Engine("battletech", registry=bt_registry), "critical", {"location": "LT"}, mech)
    assert odds.remainder == 0 and sum((b.probability for b in odds.branches), Fraction(0)) == 1
    before = freeze(mech["locations"]["LT"]["slots"])
    gone = [b for b in odds.branches if b.applied.target["locations"]["LT"]["destroyed"]]
    assert gone
    for b in gone:
        assert b.applied.target["locations"]["LT"]["slots"] == before
        assert all(b.applied.target["items"][i]["disabled"] for i in ("LT-5", "LT-6", "LT-7", "LT-8"))


def test_exact_odds_of_a_cascade_agree_with_simulation(bt_registry, mech):
    """A left-torso critical on Testmech can set off three bins in turn and destroy the 'Mech (its
    XL engine is lost with the torso): the exact chances of the torso lost and of the 'Mech
    destroyed lie within the 95% intervals of 4,000 seeded resolutions."""
    from critcore.testing import Engine
    from critcore.testing import exact_odds
    from critcore.testing import simulate

    engine = Engine("battletech", registry=bt_registry)
    odds = exact_odds(engine, "critical", {"location": "LT"}, mech)
    sim = simulate(engine, "critical", {"location": "LT"}, 4000, 3, target=mech)
    for name, test in (("torso lost", lambda b: bool(b.applied.target["locations"]["LT"]["destroyed"])),
                       ("'Mech destroyed", lambda b: bool(b.applied.target.get("destroyed")))):
        exact = odds.probability(test)
        assert 0 < exact < 1, name
        _, low, high = sim.frequency(test)
        assert low <= float(exact) <= high, name


def test_exact_odds_of_damage_that_sets_off_a_cascade(bt_registry, mech):
    """25 damage to the left torso (16 armor, then 9 of its 12 structure) calls for a check that
    can set off its bins in turn: the exact odds are whole, and the chance that the torso is lost
    lies within the 95% interval of 4,000 seeded resolutions."""
    from critcore.testing import Engine
    from critcore.testing import exact_odds
    from critcore.testing import simulate

    engine = Engine("battletech", registry=bt_registry)
    params = {"location": "LT", "amount": 25}
    odds = exact_odds(engine, "damage", params, mech)
    assert odds.remainder == 0 and sum((b.probability for b in odds.branches), Fraction(0)) == 1
    lost = odds.probability(lambda b: bool(b.applied.target["locations"]["LT"]["destroyed"]))
    assert 0 < lost < 1
    _, low, high = simulate(engine, "damage", params, 4000, 5, target=mech).frequency(
        lambda b: bool(b.applied.target["locations"]["LT"]["destroyed"]))
    assert low <= float(lost) <= high


def _one_or_more_bins(picks: int) -> Fraction:
    """The chance that ``picks`` criticals in Testmech's left torso strike at least one of its
    three bins. Hittable: upper half slots 1-6 (one bin, slot 6), lower half slots 7-9 (bins 7
    and 8, heat sink 9); 1d6 for the half, then a slot not struck yet in it (an exhausted half is
    not rolled)."""
    return {1: Fraction(1, 2) * Fraction(1, 6) + Fraction(1, 2) * Fraction(2, 3),  # 5/12
            # none in two: upper non-bin first (5/12) then none (1/2*4/5 + 1/2*1/3 = 17/30), or
            # the heat sink first (1/6) then an upper non-bin (1/2*5/6): 11/36
            2: 1 - (Fraction(5, 12) * Fraction(17, 30) + Fraction(1, 6) * Fraction(5, 12)),
            # none in three: 5/12 * 17/60 + 1/6 * 1/6 = 7/48 (worked the same way)
            3: 1 - Fraction(7, 48)}[picks]


def test_an_ammunition_explosion_in_a_cascade_is_an_event_under_exact_odds(bt_registry, mech):
    """27 damage to the left torso (16 armor, 11 of its 12 structure) calls for a critical check:
    8-9 one critical (9/36), 10-11 two (5/36), 12 three (1/36). Any bin struck explodes (10 or 12
    damage) and destroys the torso it is in. The ammunition-explosion event has that chance, the
    same as the torso lost: a bin whose own explosion destroys its location (which exact odds put
    back as it was) is still an explosion. (Exact odds once gave it 0.)"""
    from critcore.testing import Engine
    from critcore.testing import exact_odds

    odds = exact_odds(Engine("battletech", registry=bt_registry), "damage", {"location": "LT", "amount": 27}, mech)
    expected = sum((Fraction(n, 36) * _one_or_more_bins(k) for n, k in ((9, 1), (5, 2), (1, 3))), Fraction(0))
    assert odds.event("ammo-explosion") == expected
    assert odds.event("location-destroyed") == expected


def test_a_bin_in_a_location_already_destroyed_does_not_explode(run, mech):
    """Two criticals in the left torso (10 on the check) on the Ultra AC/5 bin (slot 8) and the
    SRM-6 bin (slot 7): the SRM-6 bin, first on the record sheet, explodes (12 damage, the torso's
    12 structure gone); the Ultra AC/5 bin is lost with the torso and does not explode. One
    explosion: the event is there, and the torso's loss is why the second bin stays full."""
    out = run("critical", "5,5,4,2,4,1", unit=mech, location="LT")
    assert "ammo-explosion" in out.applied.tags
    explosions = [c for c in out.applied.changes if "explodes:" in c]  # "BIN (WHERE) explodes: ..."
    assert len(explosions) == 1 and "SRM-6" in explosions[0]  # the SRM-6 bin's, and only it
    assert any("Ultra AC/5" in c and "does not explode" in c for c in out.applied.changes)


# --- one code path: the slots of a roll are one Dice.choose, its odds checked against the rolls ---


def _lt_reach(mech: dict[str, Any]) -> C.Reach:
    """Testmech's left torso as criticals reach it (no transfer): slots 1-9 can take a critical."""
    w = Work(freeze(mech))
    slots = w.loc("LT")["slots"]
    skip = C.roll_again_kinds(_tables()["components"])
    return (("LT", 2, len(slots), tuple(C.hittable(slots, skip, set()))),)


def _tables() -> Any:
    from critcore.testing import Engine

    return Engine("battletech").tables


def test_the_odds_of_a_rolls_slots_are_those_of_rolling_them_one_by_one(mech):
    """The closed form that exact odds branch on: 1, 2 and 3 criticals in the left torso strike
    at least one of its three bins (slots 6-8) with the chances worked out by hand from the
    rolls (1d6 for the half, a slot not yet struck in it, an exhausted half not rolled)."""
    reach = _lt_reach(mech)
    assert reach[0][3] == tuple(range(9))
    half = _tables()["critical-slot-half"]
    for k in (1, 2, 3):
        odds = S.picks_odds(reach, k, "slot", half)
        assert sum((p for _, p in odds), Fraction(0)) == 1
        assert all(len(picks) == k for picks, _ in odds)
        bins = sum((p for picks, p in odds if any(i in (5, 6, 7) for _, i in picks)), Fraction(0))
        assert bins == _one_or_more_bins(k)


def _left_torso_reaches(mech: Any) -> Iterator[tuple[Any, Any]]:
    """The Testmech's left torso, whole and with the XL engine's first slot and the LRM 10 already
    struck (three sets of slots a critical may strike), alone and passing inward to a centre
    torso of the same slots: each reach with its slots' classes."""
    w = Work(freeze(mech))
    slots = w.loc("LT")["slots"]
    for ok in (tuple(range(9)), (1, 2, 5, 6, 7, 8), (7, 8)):
        classes = S.slot_classes(w, slots, ok)
        alone = (("LT", 2, len(slots), ok),)
        inward = alone + (("CT", 3, len(slots), (0, 1, 2)),)
        yield alone, (("LT", 2, ok, classes),)
        yield inward, (("LT", 2, ok, classes), ("CT", 3, (0, 1, 2), (0, 0, 0)))


def test_merged_odds_class_by_class_are_those_of_every_set_of_slots_merged(mech):
    """merged_odds works class by class (how many of each class struck so far); it must give the
    chances of every set of slots rolled one by one (picks_odds) with interchangeable slots
    merged (merge_picks): 1 to 5 criticals in the left torso, whole and with the XL engine's
    first slot and the LRM 10 already struck, alone and passing inward to a centre torso of
    the same slots (more criticals than slots left: -1 picks)."""
    half = _tables()["critical-slot-half"]
    for reach, cls in _left_torso_reaches(mech):
        for k in range(1, 6):
            merged = S.merged_odds(reach, k, "slot", half, cls)
            assert merged == S.merged_by_slots(reach, k, "slot", half, cls)
            assert sum((p for _, p in merged), Fraction(0)) == 1


def test_merged_odds_kept_for_a_smaller_count_are_those_worked_out_for_it(mech):
    """merged_odds carries the chances forward one critical after another and, with ``known``,
    keeps the answers for every smaller count of the same slots (a torso's check asks for three
    criticals first, then two, then one): each kept answer equals the one worked out for that
    count alone (left torso, whole and partly struck, alone and passing inward)."""
    half = _tables()["critical-slot-half"]
    for reach, cls in _left_torso_reaches(mech):
        known = C.Answers()
        first = S.merged_odds(reach, 4, "slot", half, cls, known=known)
        assert first == S.merged_odds(reach, 4, "slot", half, cls)
        for k in (3, 2, 1):
            assert S.merged_odds(reach, k, "slot", half, cls, known=known) == S.merged_odds(reach, k, "slot", half, cls)
        assert S.merged_odds(reach, 4, "slot", half, cls, known=known) is first


def test_interchangeable_slots_merge_into_the_first_of_their_class(mech):
    """The XL engine's slots 1-3 are one class: two criticals on slots 2 and 3 read as slots 1
    and 2 (two engine hits), a critical that found nothing to hit stays where it is."""
    w = Work(freeze(mech))
    slots = w.loc("LT")["slots"]
    ok = tuple(range(9))
    classes = (("LT", 2, ok, S.slot_classes(w, slots, ok)),)
    assert S.merge_picks((("LT", 1), ("LT", 2)), classes) == (("LT", 0), ("LT", 1))
    assert S.merge_picks((("LT", 2), ("LT", -1)), classes) == (("LT", 0), ("LT", -1))


def test_odds_that_differ_from_the_slot_rolls_fail_the_check(bt_registry, mech, monkeypatch, lt_critical_checked):
    """The slot choice is one Dice.choose: with checking_keys on (check_odds_agree) its odds are
    compared with the enumeration of the rolls. Odds that put every critical on the first slot
    a roll can reach are caught, naming the label; the plugin's own odds pass."""
    import pytest
    from critcore.testing import Engine
    from critcore.testing import checking_keys
    from critcore.plugin import PluginError
    from critcore.testing import exact_odds

    right = lt_critical_checked  # the plugin's own odds, under checking_keys
    assert right.remainder == 0

    def first_slot(reach: Any, count: int, reroll: str, half: Any, classes: Any, known: Any = None) -> Any:
        return (((reach[0][0], reach[0][3][0]),) * count, Fraction(1)),

    monkeypatch.setattr(S, "merged_odds", first_slot)
    with checking_keys(), pytest.raises(PluginError, match=r"criticals? \(Left Torso\): the odds given to Dice.choose"):
        exact_odds(Engine("battletech", registry=bt_registry), "critical", {"location": "LT"}, mech)


def test_the_cascade_key_is_checked_and_never_outlives_its_question(bt_registry, mech, monkeypatch):
    """The cascade's Dice.iterate key (Resolver.context_key) lets exact odds share its steps, and
    the Dice.branch key of the check each step starts with shares the check's answers, within one
    question: the plugin's own keys pass ``checking_keys`` on two units whose SRM-6 bins explode
    for 12 and for 2. What a question remembers lasts that question (the core's
    ``enumeration.forget``), so even a key that leaves out the unit (the step's name alone) cannot
    hand one unit's answers to the other: each unit's odds are the same as with the plugin's keys.
    (When sub-enumerations outlived their question, the second unit got the first one's.)"""
    from critcore.testing import Engine
    from critcore.testing import checking_keys
    from critcore.testing import exact_odds

    from critcore_battletech.resolver import Resolver

    weak = copy.deepcopy(mech)
    weak["items"]["LT-6"]["ammo"]["damage_per_shot"] = 2
    params = {"location": "LT", "amount": 27}

    def both() -> list[list[tuple[str, Any]]]:
        return [[(repr(b.to_json()), b.probability) for b in
                 exact_odds(Engine("battletech", registry=bt_registry), "damage", params, unit).branches]
                for unit in (mech, weak)]

    with checking_keys():
        own = both()
    assert own[0] != own[1]  # the two bins do differ
    monkeypatch.setattr(Resolver, "context_key", lambda self, what: (what,))
    assert both() == own


# --- one code path for the cascade: Dice.iterate's merge leaves the story out of exact odds ---


def test_real_dice_tell_the_cascade_and_exact_odds_leave_the_story_out(run, bt_registry, mech):
    """The two-step cascade (8 on the check: one critical, the Ultra AC/5 bin, 10 damage, 12 -> 2
    structure; the check again, 8: the SRM-6 bin, 12 damage, the torso gone). Real dice tell it
    in order and keep the second check's rows (its Determining Critical Hits row and the SRM-6
    bin; the first bin's row is the effect stage's). Exact odds run the same code and leave the
    story out of every outcome, this one included: no changes, no rows."""
    from critcore.testing import Engine
    from critcore.testing import exact_odds

    out = run("critical", "4,4,4,2,4,4,4,1", unit=mech, location="LT")
    told = out.applied.changes
    first = told.index("IS Ultra AC/5 Ammo (Left Torso slot 8) explodes: 20 shots gone, 10 damage to internal structure")
    second = told.index("IS Ammo SRM-6 (Left Torso slot 7) explodes: 15 shots gone, 12 damage to internal structure")
    assert first < told.index("Left Torso internal structure 12 -> 2") < second
    assert second < told.index("Left Torso destroyed (IS Ammo SRM-6 explosion); nothing in it explodes")
    assert [(e.table, e.id) for e in out.applied.effects] == [("determining-critical-hits", "one"),
                                                               ("components", "ammo")]
    assert out.applied.effects[1].data["slot"] == 7

    odds = exact_odds(Engine("battletech", registry=bt_registry), "critical", {"location": "LT"}, mech)
    assert all(b.applied.changes == () and b.applied.effects == () for b in odds.branches)
    same = [b for b in odds.branches if b.applied.target["pilot"]["hits"] == 4
            and b.applied.target["locations"]["LT"]["destroyed"] and b.applied.target["destroyed"]]
    assert same


def test_a_merge_that_forgets_what_the_cascade_reads_is_caught(bt_registry, mech, monkeypatch, lt_critical_checked):
    """Resolver.merged may forget only what nothing after reads. One that also forgot the hits
    of a torso still standing (after the Ultra AC/5 bin's 10 damage the left torso stands with
    2 structure, and its next check must not strike the same slots again) would give wrong odds;
    under checking_keys (check_odds_agree) it is a PluginError naming the cascade."""
    import pytest
    from critcore.testing import Engine
    from critcore.testing import checking_keys
    from critcore.plugin import PluginError
    from critcore.testing import exact_odds
    from critcore.plugin import Data

    from critcore_battletech.resolver import Resolver

    truthful = Resolver.merged

    def forgetful(self: Any, state: Any) -> Any:
        (top, locs, items), *rest = truthful(self, state)
        base = self.w.base_locs
        locs = Data({code: loc.replace(slots=base[code]["slots"]) for code, loc in locs.items()})
        return ((top, locs, items), *rest)

    assert lt_critical_checked.exact  # the plugin's own merge passes the check
    monkeypatch.setattr(Resolver, "merged", forgetful)
    with checking_keys(), pytest.raises(PluginError, match="cascade: the merge given to Dice.iterate leaves out"):
        exact_odds(Engine("battletech", registry=bt_registry), "critical", {"location": "LT"}, mech)


def test_the_odds_of_slot_choices_belong_to_the_engine_that_worked_them_out(bt_registry, mech):
    """Issue 13: the closed-form odds of the slot choices (criticals.Answers) are kept by the
    preparation of the engine whose exact odds worked them out, not at module level: a second
    engine starts with none of them, and its odds are the same."""
    from critcore.testing import Engine
    from critcore.testing import exact_odds

    first = Engine("battletech", registry=bt_registry)
    odds = exact_odds(first, "critical", {"location": "LT"}, mech)
    kept = [p.odds for p in first._prepared.values() if getattr(p, "odds", None) is not None]
    assert kept and len(kept[0]._known) > 0
    second = Engine("battletech", registry=bt_registry)
    assert not [p for p in second._prepared.values() if getattr(p, "odds", None) is not None]
    assert exact_odds(second, "critical", {"location": "LT"}, mech).to_json() == odds.to_json()
    assert not hasattr(S.merged_odds, "cache_info")  # no lru_cache left behind


def test_answers_start_afresh_at_their_limit():
    """An engine that lives long (a bot) keeps at most Answers.LIMIT of them."""
    answers = C.Answers()
    answers.LIMIT = 3
    for n in range(7):
        assert answers.get(("n", n), lambda n=n: n * n) == n * n
    assert len(answers._known) <= 3
    assert answers.get(("n", 6), lambda: -1) == 36  # kept: not worked out again


@pytest.mark.parametrize("reroll", ["slot", "both"])
def test_slot_weights_are_the_slot_odds_in_whole_numbers(reroll):
    """slot_weights (worked out in whole numbers for merged_odds) gives every slot the chance
    slot_odds gives it, for every set of slots left in a six-slot location and every set of up to
    five or at least ten in a twelve-slot one (a few thousand sets, a fraction of a second)."""
    from itertools import combinations

    half = _tables()["critical-slot-half"]
    for size in (6, 12):
        for n in range(1, size + 1):
            if 5 < n < 10:
                continue
            for ok in combinations(range(size), n):
                weights, den = S.slot_weights(size, ok, reroll, half)
                assert [(i, Fraction(w, den)) for i, w in weights] == list(S.slot_odds(size, ok, reroll, half)), ok
