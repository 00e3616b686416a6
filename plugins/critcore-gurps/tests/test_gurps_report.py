"""How serious each line of a GURPS outcome is (critcore_changes, report.py): the first severity,
deadly before grave before serious, whose words a line holds, whatever its case; a line holding
none is minor. (The words are the plugin's own choice of what each of its lines means.)"""

from __future__ import annotations

from critcore_gurps.report import rank_line


def test_each_line_ranks_by_the_worst_words_it_holds() -> None:
    """Death outranks crippling, crippling outranks a roll owed; a line of none of the words is minor."""
    assert rank_line("down to -5xHP = -50 HP: dead") == "deadly"
    assert rank_line("Right arm crippled (roll after the fight)") == "grave"
    assert rank_line("owes an HT-1 roll to avoid death (down to -1xHP = -10 HP)") == "grave"
    assert rank_line("owes an HT roll against knockdown and stunning (major wound to the torso)") == "serious"
    assert rank_line("12 basic cut damage against DR 0: 12 through, x1.5 at the torso = 18 injury") == "minor"
