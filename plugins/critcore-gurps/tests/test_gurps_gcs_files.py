"""GCS files as GURPS targets: read with the CLI, written back with --save and campaign export
(every byte not changed stays), and bad files refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from critcore.testing import cli
from hypothesis import given, settings
from hypothesis import strategies as st

from critcore_gurps import gcs
from gcs_testkit import sheet
from gurps_testkit import REG


def crit(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), obj=REG)
    return result.exit_code, result.output


def test_hp_fp_ht_and_current_hp_come_from_gcs_calc(tmp_path: Path) -> None:
    """HP 12 with 5 damage (calc.current 7), FP 11, HT 11, IQ 10, DX 12."""
    state = gcs.read("w.gcs", sheet(hp=12, hp_damage=5))
    assert state is not None
    assert (state["hp"], state["current_hp"], state["fp"], state["ht"], state["iq"], state["dx"]) == (12, 7, 11, 11, 10, 12)
    assert state["name"] == "Wren" and "male" not in state


def test_another_format_version_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "old.gcs"
    path.write_text(sheet(version=4), encoding="utf-8")
    code, out = crit("show", "gurps", "--target", str(path))
    assert code == 2
    assert out.strip().splitlines() == [f"Error: {path}: GCS file format version 4; critcore reads version 5 "
                                        "(open the file in a current GCS and save it)"]


def test_save_writes_the_injury_and_keeps_every_other_byte(tmp_path: Path) -> None:
    """A critical hit saved into the sheet: attributes[hp].damage and calc.current, critcore's
    record and note change; nothing else does, and the file reads back to the same state."""
    original = sheet()
    path = tmp_path / "wren.gcs"
    path.write_text(original, encoding="utf-8")
    code, out = crit("resolve", "gurps", "critical-hit", "--location", "left-arm", "--damage", "2d cr",
                     "--target", str(path), "--dice", "4,3,3,2,2", "--save")
    assert code == 0, out
    assert f"saved: {path}" in out
    after = path.read_text(encoding="utf-8")
    old, new = json.loads(original), json.loads(after)
    hp = next(a for a in new["attributes"] if a["attr_id"] == "hp")
    assert hp["damage"] == 2 and hp["calc"]["current"] == 10
    assert new["third_party"]["critcore"]["injuries"][0]["injury"] == 2
    note = new["notes"][-1]
    assert note["id"].startswith("n") and len(note["id"]) == 17 and "shock" in note["markdown"]
    for key in old:
        if key not in ("attributes", "notes"):
            assert new[key] == old[key], key
    assert new["notes"][0] == old["notes"][0]
    # byte for byte: the lines of the original are all there, in order, and the new ones are few
    import difflib

    removed = [l for l in difflib.ndiff(original.splitlines(), after.splitlines()) if l.startswith("- ")]
    assert removed == ['- \t\t\t\t"current": 12,']
    assert "\\u0026" in after and "UklGRg\\u003c\\u0026\\u003e" in after
    reread = gcs.read(str(path), after)
    assert reread is not None and reread["current_hp"] == 10 and reread["statuses"]


def test_healed_back_to_full_the_sheet_is_as_it_was_but_for_the_record(tmp_path: Path) -> None:
    """Heal the HP lost and let the statuses run out: damage is gone again (GCS leaves it out at 0)."""
    path = tmp_path / "wren.gcs"
    original = sheet()
    path.write_text(original, encoding="utf-8")
    crit("resolve", "gurps", "critical-hit", "--damage", "1d cr", "--target", str(path), "--dice", "4,3,3,2", "--save")
    crit("treat", "gurps", "heal", "--hp", "2", "--target", str(path), "--save")
    crit("treat", "gurps", "wait", "--seconds", "5", "--target", str(path), "--save")
    new = json.loads(path.read_text(encoding="utf-8"))
    hp = next(a for a in new["attributes"] if a["attr_id"] == "hp")
    assert "damage" not in hp and hp["calc"]["current"] == 12
    assert len(new["notes"]) == 1  # nothing left to say: critcore's note is gone


def test_a_sheet_read_and_saved_unchanged_is_byte_identical(tmp_path: Path) -> None:
    state = gcs.read("w.gcs", sheet())
    assert state is not None
    assert gcs.write("w.gcs", state) == sheet()


def test_campaign_add_and_export_to_gcs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("wren.gcs").write_text(sheet(), encoding="utf-8")
    assert crit("campaign", "new")[0] == 0
    code, out = crit("campaign", "add", "gurps", "wren", "wren.gcs")
    assert code == 0, out
    code, out = crit("resolve", "gurps", "critical-hit", "--damage", "1d cr", "--target", "@wren", "--dice", "4,3,3,5")
    assert code == 0, out
    code, out = crit("campaign", "export", "wren", "out.gcs")
    assert code == 0, out
    new = json.loads(Path("out.gcs").read_text(encoding="utf-8"))
    assert next(a for a in new["attributes"] if a["attr_id"] == "hp")["calc"]["current"] == 9  # 1d cr rolled 5 against DR 2


def test_a_plain_json_character_cannot_be_exported_to_gcs() -> None:
    from critcore.plugin import StateError

    with pytest.raises(StateError, match="did not come from a GCS file"):
        gcs.write("x.gcs", {"hp": 10})


def _mangle(text: str, data: st.DataObject) -> str:
    kind = data.draw(st.sampled_from(["cut", "swap", "value"]))
    if kind == "cut":
        return text[: data.draw(st.integers(0, len(text) - 1))]
    doc = json.loads(text)
    if kind == "swap":
        key = data.draw(st.sampled_from(sorted(doc)))
        doc[key] = data.draw(st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=2)))
    else:
        attr = data.draw(st.integers(0, len(doc["attributes"]) - 1))
        doc["attributes"][attr]["calc"] = data.draw(st.one_of(
            st.none(), st.text(max_size=3), st.fixed_dictionaries({"value": st.one_of(st.text(max_size=2), st.none(),
                                                                                     st.floats(), st.integers())})))
    return json.dumps(doc, indent="\t")


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_malformed_gcs_file_is_one_line_exit_2(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    """Whatever is wrong in a .gcs file: exit 2 and one line naming the file, or it reads."""
    path = tmp_path_factory.mktemp("bad") / "bad.gcs"
    path.write_text(_mangle(sheet(), data), encoding="utf-8")
    code, out = crit("show", "gurps", "--target", str(path))
    assert code in (0, 2), out
    if code == 2:
        lines = out.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in out
