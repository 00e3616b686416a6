"""Config files and target state files."""

import json
import os

import pytest

from critcore.config.settings import load_config
from critcore.errors import ConfigError, StateError
from critcore.targets.state import read_target, save_target, to_toml, write_atomic


def test_project_config_over_user_config(tmp_path, monkeypatch):
    user = tmp_path / "user.toml"
    user.write_text('rules = ["a"]\n[systems.fake]\ncrit_on_19 = false\nother = 1\n')
    monkeypatch.setenv("CRITCORE_CONFIG", str(user))
    project = tmp_path / "proj"
    project.mkdir()
    (project / "critcore.toml").write_text('rules = ["b", "house.toml"]\n[systems.fake]\ncrit_on_19 = true\n')
    cfg = load_config(cwd=str(project))
    assert cfg.rules == ["b", str(project / "house.toml")]  # project rules replace the user's
    assert cfg.system_options("fake") == {"crit_on_19": True, "other": 1}


@pytest.mark.parametrize(
    "text, message",
    [
        ("rules = 'x'\n", "line 1: rules must be a list"),
        ("\nsystem = {}\n", "line 2: unknown setting 'system' \\(did you mean 'systems'"),
        ("[systems]\nfake = 3\n", "line 2: \\[systems.fake\\] must hold"),
        ("rules = [\n", "line 1: not valid TOML"),
    ],
)
def test_broken_config_names_file_and_line(tmp_path, text, message):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message) as err:
        load_config(str(path), user=False)
    assert str(err.value).startswith(str(path))


def test_missing_config_file_given_explicitly(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(str(tmp_path / "nope.toml"), user=False)


def test_toml_writer_quotes_every_key_that_is_not_a_bare_toml_key():
    """A bare TOML key is ASCII letters, digits, "_" and "-", at least one; any other key is
    written quoted, so it reads back the same (a key ending in a newline too: the pattern this
    writer used before let that one through bare)."""
    from critcore.files.toml import parser

    state = {"plain-key_1": 1, "with space": 2, "ends\n": 3, "": 4, "é": 5, "a.b": 6}
    assert parser().loads(to_toml(state)) == state


def test_toml_writer_round_trips_nested_state():
    from critcore.files.toml import parser

    tomllib = parser()

    state = {"name": 'A "quoted" name', "hp": 10, "ratio": 0.5, "alive": True, "tags": ["a", "b"],
             "nothing": None, "pilot": {"hits": 2, "skills": {"gunnery": 4}},
             "injuries": [{"where": "arm", "points": 3}, {"where": "leg", "points": 1, "notes": [1, 2]}],
             "grid": [[1, 2], [3]], "weird key": {"x y": 1}}
    back = tomllib.loads(to_toml(state))
    expected = dict(state)
    del expected["nothing"]  # TOML has no null: such keys are left out
    assert back == expected


def test_read_target_formats_and_errors(tmp_path):
    (tmp_path / "a.json").write_text('{"hp": 1}')
    (tmp_path / "a.toml").write_text("hp = 1\n")
    assert read_target(str(tmp_path / "a.json")) == ({"hp": 1}, "json")
    assert read_target(str(tmp_path / "a.toml")) == ({"hp": 1}, "toml")
    (tmp_path / "b.json").write_text("[1, 2]")
    with pytest.raises(StateError, match="must be a JSON object"):
        read_target(str(tmp_path / "b.json"))
    (tmp_path / "c.toml").write_text("hp = \n")
    with pytest.raises(StateError, match="c.toml, line 1: not valid TOML"):
        read_target(str(tmp_path / "c.toml"))
    with pytest.raises(StateError, match="not found"):
        read_target(str(tmp_path / "missing.json"))
    (tmp_path / "d.xyz").write_text("hello")
    with pytest.raises(StateError, match="unknown target format"):
        read_target(str(tmp_path / "d.xyz"))


def test_system_reader_is_tried_first_and_saves_beside_as_json(tmp_path):
    unit = tmp_path / "atlas.mtf"
    unit.write_text("Version:1.0\nAtlas\n")
    state, fmt = read_target(str(unit), lambda path, text: {"chassis": text.splitlines()[1]})
    assert (state, fmt) == ({"chassis": "Atlas"}, "other")
    dest = save_target(str(unit), state, fmt)
    assert dest == str(tmp_path / "atlas.json") and unit.read_text() == "Version:1.0\nAtlas\n"
    assert json.loads((tmp_path / "atlas.json").read_text()) == {"chassis": "Atlas"}


def test_interrupted_write_leaves_the_old_file(tmp_path, monkeypatch):
    folder = tmp_path / "saves"
    folder.mkdir()
    path = folder / "hero.json"
    path.write_text('{"hp": 5}')

    def crash(src, dst):
        raise OSError("disk pulled out")

    monkeypatch.setattr(os, "replace", crash)
    from critcore.errors import CritcoreError

    with pytest.raises(CritcoreError, match="hero.json: cannot write it: disk pulled out; the old file is unchanged"):
        write_atomic(str(path), '{"hp": 0}')  # one line (issue 29), not the OSError
    assert path.read_text() == '{"hp": 5}'
    assert [p.name for p in folder.iterdir()] == ["hero.json"]  # no temporary file left behind
