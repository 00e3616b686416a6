"""Step 5.2: magical healing. Successes erase boxes on the Physical track and the critical
monitors; a healer who does not know of the criticals splits evenly (remainder to the physical
wound) or puts everything on the physical wound; the new box count gives the new lethality.

The worked example: serious physical (6), moderate stun (3), two crippling criticals (6 each).
18 successes heal him completely (the stun stays); 10 successes split 6/1/3 or 4/3/3.
"""

from __future__ import annotations

from typing import Any

import critcore
import critcore_shadowrun2.plugin as sr2
import pytest
from critcore.plugin import ParamError, StateError
from critcore.plugin import Outcome
from critcore.testing import Registry

REG = Registry.installed(extra_systems={"shadowrun2": sr2}, discover=False)


def crit(n: int, lethality: str = "crippling", boxes: int = 6, **changes: Any) -> dict[str, Any]:
    out = {"id": n, "lethality": lethality, "boxes": boxes, "location": "chest", "location_name": "chest",
           "area": "chest", "part_id": "chest-lung", "part": "lung", "cause": "IB", "diagnosis_tn": 4,
           "diagnosed": True}
    out.update(changes)
    return out


def example(**changes: Any) -> dict[str, Any]:
    char = {"name": "Slot", "body": 4, "physical": 6, "stun": 3, "criticals": [crit(1), crit(2)]}
    char.update(changes)
    return char


def heal(target: dict[str, Any], **params: Any) -> Outcome:
    return critcore.treat("shadowrun2", "heal-magic", seed=1, registry=REG, target=target, **params)


def boxes(out: Outcome) -> dict[str, int]:
    assert out.target is not None
    found = {"physical": out.target["physical"], "stun": out.target["stun"]}
    found.update({f"#{c['id']}": c["boxes"] for c in out.target["criticals"]})
    return found


def test_eighteen_successes_heal_the_example_completely() -> None:
    """18 successes heal the example character completely; magic cannot touch the stun wound."""
    out = heal(example(), successes=18, allocate="physical=6,1=6,2=6")
    assert boxes(out) == {"physical": 0, "stun": 3}


def test_eighteen_successes_split_evenly_also_heal_everything() -> None:
    """An even split of 18 over the wound and two criticals is 6 each: everything healed."""
    out = heal(example(), successes=18, split="even")
    assert boxes(out) == {"physical": 0, "stun": 3}


def test_ten_successes_six_one_three() -> None:
    """Knowing healer: 6 to the first critical, 1 to the other, 3 to the physical wound.

    The first critical (6 boxes, 6 successes) is healed and the second (6 - 1 = 5 boxes) is a
    Moderate wound, i.e. of Critical lethality; the physical wound is Moderate (3 boxes). The
    document's text names these the other way round (see "Where the rules are silent").
    """
    out = heal(example(), successes=10, allocate="1=6,2=1,physical=3")
    assert boxes(out) == {"physical": 3, "stun": 3, "#2": 5}
    (second,) = out.target["criticals"]  # type: ignore[index]
    assert second["lethality"] == "critical" and second["crippled"] is False
    assert out.applied is not None and "moderate" in out.applied.changes[1]  # physical now moderate


def test_ten_successes_even_split_four_three_three() -> None:
    """Unknowing healer, even split of 10 over three: 3 each, the remainder 1 to the physical wound."""
    out = heal(example(), successes=10, split="even")
    assert boxes(out) == {"physical": 2, "stun": 3, "#1": 3, "#2": 3}
    assert out.applied is not None and out.applied.changes[0] == "plan: physical 4, critical #1 3, critical #2 3"
    assert [c["lethality"] for c in out.target["criticals"]] == ["critical", "critical"]  # type: ignore[index]


def test_ten_successes_all_on_the_physical_wound() -> None:
    """Unknowing healer, everything on the damage: 6 boxes healed, 4 successes find nothing."""
    out = heal(example(), successes=10, split="physical")
    assert boxes(out) == {"physical": 0, "stun": 3, "#1": 6, "#2": 6}
    assert out.applied is not None and out.applied.data["used"] == 6


@pytest.mark.parametrize("healed,left,lethality", [(1, 9, "crippling"), (4, 6, "crippling"), (5, 5, "critical"),
                                                    (7, 3, "critical"), (8, 2, "critical"), (9, 1, "critical")])
def test_mortal_brought_down(healed: int, left: int, lethality: str) -> None:
    """A Mortal (Deadly, 10 boxes) down 1 box is Serious = Crippling; down 5 it is Moderate =
    Critical; down to Light it stays Critical until healed completely."""
    char = example(criticals=[crit(1, "mortal", 10, death_at=600)])
    out = heal(char, successes=healed, allocate=f"1={healed}")
    (c,) = out.target["criticals"]  # type: ignore[index]
    assert (c["boxes"], c["lethality"]) == (left, lethality)
    assert "death_at" not in c  # no longer Mortal: the death clock stops
    assert c["treatment"] == "magic"


def test_critical_at_light_keeps_critical_lethality_with_plus_one() -> None:
    """A Critical (Moderate) brought to Light is still 'Critical', with a +1 penalty."""
    char = example(physical=0, stun=0, criticals=[crit(1, "critical", 3)])
    out = heal(char, successes=1, allocate="1=1")
    (c,) = out.target["criticals"]  # type: ignore[index]
    assert (c["boxes"], c["lethality"]) == (2, "critical")
    assert "+1" in out.applied.changes[1]  # type: ignore[union-attr]


def test_more_successes_allocated_than_rolled() -> None:
    """Allocating 11 of 10 successes is refused."""
    with pytest.raises(ParamError, match="11 successes allocated but the spell has only 10"):
        heal(example(), successes=10, allocate="physical=5,1=6")


def test_unknown_critical_cannot_be_given_successes() -> None:
    """A healer who does not know of a critical cannot allocate successes to it."""
    char = example(criticals=[crit(1), crit(2, diagnosed=False)])
    with pytest.raises(StateError, match="not been diagnosed"):
        heal(char, successes=10, allocate="physical=3,2=6")


@pytest.mark.parametrize("allocate,message", [
    ("stun=3", "Stun"), ("physical=7", "only 6 boxes"), ("1=7", "only 6 boxes"), ("9=1", "no critical #9"),
    ("physical=1,physical=1", "named twice"), ("lung=2", "cannot read"),
])
def test_bad_allocations(allocate: str, message: str) -> None:
    """Allocations must name the physical wound or a critical, within their boxes."""
    with pytest.raises((ParamError, StateError), match=message):
        heal(example(), successes=10, allocate=allocate)


def test_allocate_or_split_must_be_said() -> None:
    """The healer says how he spends the successes; --split takes even or physical."""
    with pytest.raises(ParamError, match="needs --allocate"):
        heal(example(), successes=4)
    with pytest.raises(ParamError, match="not a way to split"):
        heal(example(), successes=4, split="half")
    with pytest.raises(ParamError, match="not both"):
        heal(example(), successes=4, split="even", allocate="physical=1")


def test_critical_numbers_may_be_written_with_hash_or_zeros() -> None:
    """`#1=6` and `01=6` name the same critical as `1=6`."""
    for spec in ("#1=6,2=6,physical=6", "01=6,#2=6,physical=6"):
        assert boxes(heal(example(), successes=18, allocate=spec)) == {"physical": 0, "stun": 3}


def test_unallocated_successes_are_reported_unused() -> None:
    """Successes the healer does not allocate are simply not used."""
    out = heal(example(), successes=10, allocate="physical=2")
    assert out.applied is not None and "8 success(es) not allocated: unused" in out.applied.changes
