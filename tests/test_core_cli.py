"""The generic CLI through click's runner, with the fake system."""

import json
import subprocess
import sys

from critcore.stages.loader import Registry


def test_systems_with_nothing_installed_says_how_to_install(invoke):
    result = invoke("systems", obj=Registry())
    assert result.exit_code == 0
    assert "No game systems are installed" in result.output and "pip install critcore-gurps" in result.output


def test_systems_lists_the_fake_system(invoke):
    result = invoke("systems")
    assert result.exit_code == 0 and "fake  Fake d20" in result.output and "attack" in result.output
    data = json.loads(invoke("systems", "--json").output)
    assert data[0]["name"] == "fake" and {"name", "title", "version", "package", "procedures"} <= set(data[0])


def test_systems_renders_what_the_api_returns(invoke, registry, isolated_config):
    """crit systems shows critcore.systems(): its JSON is the API's to_json(), and the API lists
    the systems (iterating gives them), the installed rule plugins and the enabled rule files."""
    import critcore

    (isolated_config / "critcore.toml").write_text('rules = ["ours.toml"]\n')
    found = critcore.systems(registry, ["ours.toml", "theirs.toml"])
    assert [e.name for e in found] == ["fake"] and found.systems[0].info.title == "Fake d20"
    assert found.rule_files == ["ours.toml", "theirs.toml"] and found.rules == []
    assert json.loads(invoke("systems", "--json", "--rule", "theirs.toml").output) == found.to_json()
    text = invoke("systems", "--rule", "theirs.toml").output
    assert f"House-rule files enabled here: {isolated_config / 'ours.toml'}, theirs.toml" in text  # config: from its folder


def test_resolve_help_lists_the_procedure_options(invoke):
    result = invoke("resolve", "fake", "attack", "--help")
    assert result.exit_code == 0
    for opt in ("--ac", "--bonus", "--damage", "--where", "--seed", "--dice", "--json", "--explain", "--target",
                "--save", "--rule", "--prompt", "--character"):
        assert opt in result.output


def test_resolve_in_plain_words(invoke):
    result = invoke("resolve", "fake", "attack", "--dice", "20,6,8")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "attack roll: 1d20 -> 20" in out
    assert "confirm table, 6: A brutal blow" in out and "critical confirmation: 1d6 -> 6" in out
    assert "24 damage" in out


def test_resolve_json_contract(invoke):
    result = invoke("resolve", "fake", "attack", "--dice", "20,3,2", "--json")
    data = json.loads(result.output)
    assert {"system", "procedure", "rolls", "effects", "target"} <= set(data)
    assert data["rolls"][1] == {"label": "critical confirmation", "notation": "1d6", "faces": [3], "total": 3}
    assert data["effects"][0]["id"] == "solid" and data["effects"][0]["roll"] == 3
    assert data["target"] is None


def test_unknown_system_is_one_line_with_did_you_mean(invoke):
    result = invoke("resolve", "fak", "attack")
    assert result.exit_code == 2
    assert "did you mean 'fake'" in result.output and "installed: fake" in result.output
    assert "Traceback" not in result.output


def test_unknown_procedure_exit_2(invoke):
    result = invoke("resolve", "fake", "atack")
    assert result.exit_code == 2 and "did you mean 'attack'" in result.output


def test_bad_option_exit_2(invoke):
    assert invoke("resolve", "fake", "attack", "--ac", "99").exit_code == 2
    assert invoke("resolve", "fake", "attack", "--damage", "2q6").exit_code == 2
    assert invoke("resolve", "fake", "attack", "--where", "tail").exit_code == 2


def test_bad_dice_exit_2_naming_the_roll(invoke):
    result = invoke("resolve", "fake", "attack", "--dice", "21")
    assert result.exit_code == 2 and "attack roll" in result.output
    result = invoke("resolve", "fake", "attack", "--dice", "20")
    assert result.exit_code == 2 and "not enough dice faces" in result.output
    result = invoke("resolve", "fake", "attack", "--dice", "2,x")
    assert result.exit_code == 2


def test_seed_and_dice_together_is_bad_usage(invoke):
    assert invoke("resolve", "fake", "attack", "--dice", "3", "--seed", "1").exit_code == 2


def test_seed_reproduces_output(invoke):
    a = invoke("resolve", "fake", "attack", "--seed", "11", "--json").output
    b = invoke("resolve", "fake", "attack", "--seed", "11", "--json").output
    assert a == b


def test_prompt_asks_for_each_roll(invoke):
    result = invoke("resolve", "fake", "attack", "--prompt", input="20\n2\n7\n")
    assert result.exit_code == 0, result.output
    assert "Roll 1d20 for attack roll" in result.output and "7 damage" in result.output


def test_target_and_save_write_the_new_state(invoke, isolated_config):
    path = isolated_config / "hero.json"
    path.write_text(json.dumps({"hp": 20}))
    result = invoke("resolve", "fake", "attack", "--dice", "20,1,5", "--target", str(path), "--save")
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text()) == {"hp": 15}
    assert "hp 20 -> 15" in result.output


def test_toml_target_saved_as_toml(invoke, isolated_config):
    path = isolated_config / "hero.toml"
    path.write_text('hp = 8\nname = "Ann"\n')
    assert invoke("treat", "fake", "rest", "--dice", "2", "--character", str(path), "--save").exit_code == 0
    assert path.read_text() == 'hp = 10\nname = "Ann"\n'


def test_bad_target_file_exit_2_and_unchanged(invoke, isolated_config):
    path = isolated_config / "hero.json"
    path.write_text('{"hp": 20,')
    result = invoke("resolve", "fake", "attack", "--dice", "20,1,5", "--target", str(path), "--save")
    assert result.exit_code == 2 and "hero.json, line 1" in result.output
    assert path.read_text() == '{"hp": 20,'


def test_bad_input_leaves_the_target_unchanged(invoke, isolated_config):
    path = isolated_config / "hero.json"
    path.write_text('{"hp": 20}')
    result = invoke("resolve", "fake", "attack", "--dice", "20,1", "--target", str(path), "--save")
    assert result.exit_code == 2 and path.read_text() == '{"hp": 20}'


def test_save_without_target_is_bad_usage(invoke):
    assert invoke("resolve", "fake", "attack", "--dice", "10,2", "--save").exit_code == 2


def test_treat_and_show(invoke, isolated_config):
    path = isolated_config / "hero.json"
    path.write_text('{"hp": 3}')
    result = invoke("treat", "fake", "rest", "--dice", "4", "--target", str(path), "--json")
    assert json.loads(result.output)["target"] == {"hp": 7}
    assert invoke("show", "fake", "--target", str(path)).output.strip() == "hp: 3"


def test_tables_prints_rows(invoke):
    result = invoke("tables", "fake")
    assert result.exit_code == 0 and "Fake critical table" in result.output and "brutal" in result.output
    assert json.loads(invoke("tables", "fake", "confirm", "--json").output)[0]["rows"][2]["id"] == "brutal"
    bad = invoke("tables", "fake", "confrim")
    assert bad.exit_code == 2 and "did you mean 'confirm'" in bad.output


def test_config_options_and_broken_config(invoke, isolated_config):
    (isolated_config / "critcore.toml").write_text("[systems.fake]\ncrit_on_19 = true\n")
    assert json.loads(invoke("resolve", "fake", "attack", "--dice", "19,1,1", "--json").output)["determination"]["critical"]
    (isolated_config / "critcore.toml").write_text("[systems.fake]\n\ncrit_on_91 = true\n")
    result = invoke("resolve", "fake", "attack", "--dice", "19,1,1")
    assert result.exit_code == 2 and "critcore.toml, line 3" in result.output and "crit_on_19" in result.output


def test_explain_says_more(invoke):
    """--explain adds row ids and notes; options show only where they differ from the defaults."""
    plain = invoke("resolve", "fake", "attack", "--dice", "20,6,8").output
    result = invoke("resolve", "fake", "attack", "--dice", "20,6,8", "--explain")
    assert "[brutal]" in result.output and "[brutal]" not in plain
    assert "options changed" not in result.output  # every option at its default


def test_version():
    result = subprocess.run([sys.executable, "-m", "critcore", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("crit (critcore) ")


def test_system_reads_its_own_target_format_and_saves_json_beside_it(invoke, isolated_config):
    path = isolated_config / "hero.fake"
    path.write_text("hp: 12")
    result = invoke("resolve", "fake", "attack", "--dice", "10,4", "--target", str(path), "--save")
    assert result.exit_code == 0, result.output
    assert json.loads((isolated_config / "hero.json").read_text()) == {"hp": 8}
    assert path.read_text() == "hp: 12"
    path.write_text("hp: lots")
    bad = invoke("resolve", "fake", "attack", "--dice", "10,4", "--target", str(path))
    assert bad.exit_code == 2 and "hero.fake, line 1" in bad.output


def test_player_view_shows_only_what_the_character_notices(invoke):
    gm = invoke("resolve", "fake", "attack", "--dice", "20,6,8").output
    player = invoke("resolve", "fake", "attack", "--dice", "20,6,8", "--view", "player").output
    assert "brutal" in gm and player.strip() == "Something terrible happened!"


def test_click_usage_errors_are_one_line_exit_2(invoke):
    for args in (["resolve", "fake", "attack", "--where", "tail"], ["resolve", "fake", "attack", "--ac", "x"],
                 ["tables"], ["resolve", "fake", "attack", "--nope"]):
        result = invoke(*args)
        assert result.exit_code == 2, args
        assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("Error:"), result.output


def test_player_json_carries_only_the_player_report(invoke):
    data = json.loads(invoke("resolve", "fake", "attack", "--dice", "20,6,8", "--view", "player", "--json").output)
    assert data == {"format": 1, "system": "fake", "procedure": "attack", "view": "player",
                    "report": ["Something terrible happened!"]}


def test_help_shows_each_numbers_range(invoke):
    """Issue 14: ranges are declared with the parameters and show in --help (an undeclared one
    has the engine's plus or minus 1,000,000,000)."""
    out = invoke("resolve", "fake", "attack", "--help").output
    assert "[range: 1 to 40]" in out and "None" not in out
    assert "[default: (" not in out and "[default: 10]" in out
