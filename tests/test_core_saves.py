"""--save on target files: refused before any die is rolled when it cannot or must not happen,
written through symbolic links, with the user's permissions, keeping TOML comments, under a lock.

The fake system's ``rest`` heals 1d4 hp: ``--dice 1`` heals exactly one.
"""

import json
import os
import stat

import pytest


def one_line_error(result, *needles):
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_save_writes_the_new_state_back(invoke, isolated_config):
    path = isolated_config / "ogre.json"
    path.write_text('{"hp": 10}')
    result = invoke("treat", "fake", "rest", "--dice", "1", "--target", str(path), "--save")
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text()) == {"hp": 11}


def test_a_read_only_file_is_refused_before_any_roll(invoke, isolated_config):
    path = isolated_config / "ogre.json"
    path.write_text('{"hp": 10}')
    path.chmod(0o444)
    result = invoke("treat", "fake", "rest", "--dice", "1", "--target", str(path), "--save")
    one_line_error(result, "read-only", "nothing was rolled")
    assert path.read_text() == '{"hp": 10}'


def test_save_writes_through_a_symbolic_link_to_the_real_file(invoke, isolated_config):
    real = isolated_config / "real.json"
    real.write_text('{"hp": 10}')
    link = isolated_config / "link.json"
    link.symlink_to(real)
    assert invoke("treat", "fake", "rest", "--dice", "2", "--target", str(link), "--save").exit_code == 0
    assert link.is_symlink()
    assert json.loads(real.read_text()) == {"hp": 12}


def test_a_new_file_gets_the_users_usual_permissions(invoke, isolated_config):
    src = isolated_config / "ogre.json"
    src.write_text('{"hp": 10}')
    old = os.umask(0o022)
    try:
        out = isolated_config / "new.json"
        assert invoke("treat", "fake", "rest", "--dice", "1", "--target", str(src), "--save-to", str(out)).exit_code == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644


def test_an_existing_file_keeps_its_permissions(invoke, isolated_config):
    path = isolated_config / "ogre.json"
    path.write_text('{"hp": 10}')
    path.chmod(0o640)
    assert invoke("treat", "fake", "rest", "--dice", "1", "--target", str(path), "--save").exit_code == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_saving_a_unit_file_never_replaces_an_earlier_saved_state(invoke, isolated_config):
    unit = isolated_config / "ogre.fake"  # the fake system's own format, saved as ogre.json
    unit.write_text("hp: 10\n")
    first = invoke("treat", "fake", "rest", "--dice", "1", "--target", str(unit), "--save")
    assert first.exit_code == 0, first.output
    saved = isolated_config / "ogre.json"
    assert json.loads(saved.read_text()) == {"hp": 11}
    again = invoke("treat", "fake", "rest", "--dice", "4", "--target", str(unit), "--save")
    one_line_error(again, "already holds a saved state", f"--target {saved}", "--save-to")
    assert json.loads(saved.read_text()) == {"hp": 11}
    assert invoke("treat", "fake", "rest", "--dice", "4", "--target", str(saved), "--save").exit_code == 0
    assert json.loads(saved.read_text()) == {"hp": 15}


def test_saving_toml_keeps_the_game_masters_comments(invoke, isolated_config):
    path = isolated_config / "ogre.toml"
    path.write_text("# Grug the ogre, session 3\nhp = 10   # after the bridge fight\n")
    assert invoke("treat", "fake", "rest", "--dice", "3", "--target", str(path), "--save").exit_code == 0
    text = path.read_text()
    assert "# Grug the ogre, session 3" in text and "# after the bridge fight" in text
    assert "hp = 13" in text


def test_save_to_a_missing_folder_is_refused_before_any_roll(invoke, isolated_config):
    src = isolated_config / "ogre.json"
    src.write_text('{"hp": 10}')
    result = invoke("treat", "fake", "rest", "--dice", "1", "--target", str(src), "--save-to",
                    str(isolated_config / "nope" / "x.json"))
    one_line_error(result, "does not exist", "nothing was rolled")


def test_save_where_the_user_cannot_write_is_refused_before_any_roll(invoke, isolated_config, monkeypatch):
    src = isolated_config / "ogre.json"
    src.write_text('{"hp": 10}')
    real_access = os.access
    folder = str(isolated_config)
    monkeypatch.setattr(os, "access", lambda p, mode: False if str(p) == folder else real_access(p, mode))
    result = invoke("treat", "fake", "rest", "--dice", "1", "--target", str(src), "--save")
    one_line_error(result, "no permission to write", "nothing was rolled")
    assert src.read_text() == '{"hp": 10}'


def test_a_killed_saves_leftover_temporary_file_is_cleaned_up_by_the_next_save(invoke, isolated_config):
    path = isolated_config / "ogre.json"
    path.write_text('{"hp": 10}')
    leftover = isolated_config / ".ogre.json.crit-deadbeef.tmp"
    leftover.write_text('{"hp": 1')
    other = isolated_config / ".troll.json.crit-deadbeef.tmp"  # another target's: not ours to touch
    other.write_text("x")
    assert invoke("treat", "fake", "rest", "--dice", "1", "--target", str(path), "--save").exit_code == 0
    assert not leftover.exists() and other.exists()


def test_a_file_locked_too_long_is_a_clear_error(invoke, isolated_config, monkeypatch):
    from critcore.files.locks import FileLock

    path = isolated_config / "ogre.json"
    path.write_text('{"hp": 10}')
    monkeypatch.setenv("CRITCORE_BUSY_TIMEOUT", "0.2")
    with FileLock(str(isolated_config / ".ogre.json.lock"), timeout=1):
        result = invoke("treat", "fake", "rest", "--dice", "1", "--target", str(path), "--save")
    assert result.exit_code == 1 and "lock" in result.output and "nothing was changed" in result.output
    assert path.read_text() == '{"hp": 10}'


@pytest.mark.parametrize("value", ["soon", "-1", "99999"])
def test_a_bad_busy_timeout_is_named(invoke, isolated_config, monkeypatch, value):
    path = isolated_config / "ogre.json"
    path.write_text('{"hp": 10}')
    monkeypatch.setenv("CRITCORE_BUSY_TIMEOUT", value)
    result = invoke("treat", "fake", "rest", "--dice", "1", "--target", str(path), "--save")
    one_line_error(result, "CRITCORE_BUSY_TIMEOUT")
