"""GURPS fumbles and spell failures: one handler per effect code (apply.FUMBLES, apply.SPELL_FAILURES),
and the numbers a status carries come from the table rows, so a house-rule file that changes a
row's numbers changes the status."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from critcore import testing

import critcore_gurps.plugin as gurps
from critcore_gurps import apply
from critcore_gurps.reference import SECONDS, TURN_SECONDS

CHARACTER = {"hp": 12, "ht": 11, "iq": 10}
TOLD_IN_WORDS = {"no-effect", "reversed", "demon"}  # spell failures that change nothing on the sheet


def codes(table: str) -> set[str]:
    """The effect codes the shipped ``table``'s rows carry."""
    from critcore.testing import Engine

    return {row.code for row in Engine("gurps", registry=testing.registry(gurps)).tables[table].rows}


def test_every_fumble_code_of_the_miss_tables_has_a_handler() -> None:
    assert codes("critical-miss") | codes("unarmed-miss") <= set(apply.FUMBLES)


def test_every_spell_failure_code_has_a_handler_or_is_told_in_words() -> None:
    assert codes("spell-failure") == set(apply.SPELL_FAILURES) | TOLD_IN_WORDS


def status(out: Any, status_id: str) -> dict[str, Any]:
    return next(s for s in out.target["statuses"] if s["id"] == status_id)


def rule(tmp_path: Path, text: str) -> str:
    path = tmp_path / "ours.toml"
    path.write_text('system = "gurps"\nsummary = "test"\n' + text)
    return str(path)


def test_lose_balance_as_shipped() -> None:
    """Unarmed 9-11: no actions until his next turn, active defenses -2 (the rule document)."""
    out = testing.run(gurps, "unarmed-miss", testing.faces_for("3d6", 10), target=CHARACTER)
    s = status(out, "lost-balance")
    assert s["defense"] == -2 and s["until"] - s["since"] == TURN_SECONDS
    assert "off balance: no actions until his next turn, defenses -2" in out.applied.changes


def test_lose_balance_numbers_come_from_the_row(tmp_path: Path) -> None:
    """A house rule making the 9-11 row two turns at -3 changes the status and its line."""
    ours = rule(tmp_path, '[[tables.unarmed-miss.row]]\nroll = "9-11"\nid = "lose-balance-9-11"\n'
                          'effect = "lose-balance"\ntext = "Worse."\nturns = 2\ndefense_penalty = -3\n')
    out = testing.run(gurps, "unarmed-miss", testing.faces_for("3d6", 10), target=CHARACTER, rules=[ours])
    s = status(out, "lost-balance")
    assert s["defense"] == -3 and s["until"] - s["since"] == 2 * TURN_SECONDS
    assert "off balance: no actions for 2 turns, defenses -3" in out.applied.changes


def test_stumble_and_flee_durations_come_from_the_rows(tmp_path: Path) -> None:
    """Unarmed 7: the stumbler faces away until his next turn (1 turn); an animal of IQ 3-5 that
    rolls 17 flees on its next turn. Both lengths are row numbers."""
    out = testing.run(gurps, "unarmed-miss", testing.faces_for("3d6", 7), target=CHARACTER)
    assert status(out, "facing-away")["until"] - status(out, "facing-away")["since"] == TURN_SECONDS
    animal = dict(CHARACTER, iq=4)
    out = testing.run(gurps, "unarmed-miss", testing.faces_for("3d6", 17), target=animal, iq=4)
    assert status(out, "fleeing")["until"] - status(out, "fleeing")["since"] == TURN_SECONDS
    ours = rule(tmp_path, '[[tables.unarmed-miss.row]]\nroll = 7\nid = "stumble-7"\neffect = "stumble"\n'
                          'text = "Far."\nparry_treat_as = 8\nadvance_yards = 2\nturns = 3\n')
    out = testing.run(gurps, "unarmed-miss", testing.faces_for("3d6", 7), target=CHARACTER, rules=[ours])
    s = status(out, "facing-away")
    assert s["until"] - s["since"] == 3 * TURN_SECONDS and s["text"] == "2 yards past the foe, back to him"


def test_stunned_caster_as_shipped() -> None:
    """Spell failure 9: stunned, an IQ roll at the end of each turn; stunned defenses are -4."""
    out = testing.run(gurps, "spell-failure", testing.faces_for("3d6", 9), target=CHARACTER)
    s = status(out, "stunned")
    assert s["check"]["roll"] == "iq" and s["check"]["every"] == TURN_SECONDS
    assert s["text"] == "stunned (mental): Do Nothing, defenses -4"


def test_forgotten_spell_is_checked_weekly() -> None:
    """Spell failure 17: an IQ roll after a week, then every week."""
    out = testing.run(gurps, "spell-failure", testing.faces_for("3d6", 17), target=CHARACTER, spell="Fireball")
    s = status(out, "forgot-spell")
    assert s["spell"] == "Fireball" and s["check"]["every"] == SECONDS["weeks"]
    assert s["check"]["next"] - s["since"] == SECONDS["weeks"]
    assert "forgets Fireball: an IQ roll after a week, then every week, to remember it" in out.applied.changes


def test_forgotten_spell_first_check_comes_from_the_row(tmp_path: Path) -> None:
    """A house rule making the first check of row 17 come after 3 weeks says so, and sets it so."""
    ours = rule(tmp_path, '[[tables.spell-failure.row]]\nroll = 17\nid = "forgotten-17"\neffect = "forget-spell"\n'
                          'text = "Forgotten for longer."\ncheck_weeks = 3\n')
    out = testing.run(gurps, "spell-failure", testing.faces_for("3d6", 17), target=CHARACTER, spell="Fireball",
                      rules=[ours])
    s = status(out, "forgot-spell")
    assert s["check"]["next"] - s["since"] == 3 * SECONDS["weeks"] and s["check"]["every"] == SECONDS["weeks"]
    assert "forgets Fireball: an IQ roll after 3 weeks, then every week, to remember it" in out.applied.changes
