"""Campaigns: named targets in one SQLite file, the log, undo and redo, settings, versions.
Every test with ``camp`` or ``campaign_at`` runs on both stores: an SQLite file and a campaign of
a PostgreSQL database (tests/campaign_stores.py).

The fake system (tests/fakesystem.py): ``rest`` heals 1d4 hp, so ``--dice 1`` heals exactly one
and a target's hp count the changes that reached it.
"""

import json
import sqlite3

import pytest

from campaign_stores import raw, set_format
from critcore.campaign.campaign import Campaign, find_campaign
from critcore.errors import CampaignError, StateError, UnknownNameError
from critcore.stages.loader import Registry


@pytest.fixture
def camp(registry, campaign_at):
    c = Campaign.new(campaign_at(), registry=registry, who="gm")
    c.add("fake", "ogre", {"hp": 10})
    yield c
    c.close()


@pytest.fixture
def sqlite_camp(registry, isolated_config):
    """A campaign file, for what only SQLite has (its journal)."""
    c = Campaign.new(str(isolated_config / "critcore.db"), registry=registry, who="gm")
    c.add("fake", "ogre", {"hp": 10})
    yield c
    c.close()


def test_resolve_on_a_campaign_target_applies_and_logs_in_one_step(camp):
    # a natural 20 is a critical; confirm 6 is "brutal", triple damage; 1d8 = 2 -> 6 damage
    outcome = camp.resolve("ogre", "attack", dice="20,6,2")
    assert outcome.target["hp"] == 4
    assert camp.state("ogre") == {"hp": 4}
    kinds = [(e.kind, e.procedure) for e in camp.log("ogre")]
    assert kinds == [("add", ""), ("resolve", "attack")]
    entry = camp.log("ogre")[-1]
    assert entry.who == "gm" and entry.outcome["rolls"][0]["faces"] == [20]
    assert "target" not in entry.outcome  # the state lives in the states table, once
    assert outcome.applied.target["hp"] == 4 and entry.outcome["applied"]["target"] is None  # not here either
    assert entry.outcome["applied"]["summary"] == outcome.applied.summary


def test_preview_changes_nothing(camp):
    outcome = camp.resolve("ogre", "attack", dice="20,6,2", preview=True)
    assert outcome.target["hp"] == 4
    assert camp.state("ogre") == {"hp": 10}
    assert [e.kind for e in camp.log()] == ["add"]


def test_undo_takes_back_the_latest_change_and_redo_brings_it_back(camp):
    camp.treat("ogre", "rest", dice="1")  # 11
    camp.treat("ogre", "rest", dice="2")  # 13
    undo = camp.undo("ogre")
    assert camp.state("ogre") == {"hp": 11} and undo.kind == "undo"
    camp.undo("ogre")
    assert camp.state("ogre") == {"hp": 10}
    with pytest.raises(CampaignError, match="nothing to undo"):
        camp.undo("ogre")  # adding is not undone: remove the target for that
    camp.redo("ogre")
    assert camp.state("ogre") == {"hp": 11}
    camp.redo("ogre")
    assert camp.state("ogre") == {"hp": 13}
    with pytest.raises(CampaignError, match="nothing to redo"):
        camp.redo("ogre")
    assert [e.kind for e in camp.log("ogre")] == ["add", "treat", "treat", "undo", "undo", "redo", "redo"]


def test_a_new_change_after_an_undo_clears_the_redo(camp):
    camp.treat("ogre", "rest", dice="1")
    camp.undo("ogre")
    camp.treat("ogre", "rest", dice="4")
    with pytest.raises(CampaignError, match="nothing to redo"):
        camp.redo("ogre")
    assert camp.state("ogre") == {"hp": 14}


def test_remove_keeps_the_history_and_undo_brings_the_target_back(camp):
    camp.treat("ogre", "rest", dice="3")
    camp.remove("ogre")
    assert camp.targets() == []
    with pytest.raises(CampaignError, match="no target named 'ogre'"):
        camp.state("ogre")
    camp.undo("ogre")
    assert camp.state("ogre") == {"hp": 13}


def test_names_are_checked_and_unique(camp):
    with pytest.raises(CampaignError, match="exists already"):
        camp.add("fake", "ogre", {"hp": 1})
    for bad in ("", "@ogre", "a b", "x" * 65, "-lead"):
        with pytest.raises(CampaignError, match="not a usable target name"):
            camp.add("fake", bad, {"hp": 1})
    with pytest.raises(CampaignError, match="did you mean 'ogre'"):
        camp.state("orge")


def test_export_writes_the_current_state_and_never_over_a_file_unasked(camp, isolated_config):
    camp.treat("ogre", "rest", dice="2")
    out = isolated_config / "ogre.json"
    camp.export("ogre", str(out))
    assert json.loads(out.read_text()) == {"hp": 12}
    with pytest.raises(CampaignError, match="exists already"):
        camp.export("ogre", str(out))
    camp.export("ogre", str(isolated_config / "ogre.toml"))
    assert (isolated_config / "ogre.toml").read_text().strip() == "hp = 12"


def test_settings_enable_options_for_the_whole_campaign(camp):
    camp.set_option("fake", "crit_on_19", "true")
    assert camp.options("fake") == {"crit_on_19": True}
    # with crit_on_19 a natural 19 is a critical: confirm 3 is "solid" (double), 1d8 = 3 -> 6 damage
    assert camp.resolve("ogre", "attack", dice="19,3,3").target["hp"] == 4
    with pytest.raises(Exception, match="no option 'crit_on_91'.*did you mean 'crit_on_19'"):
        camp.set_option("fake", "crit_on_91", "true")
    assert [e.kind for e in camp.log()][-2:] == ["settings", "resolve"]


def test_a_newer_campaign_format_is_a_clear_error(campaign_at, registry):
    path = campaign_at()
    Campaign.new(str(path), registry=registry).close()
    set_format(path, 99)
    with pytest.raises(CampaignError, match="newer critcore.*format 99.*upgrade critcore"):
        Campaign(str(path), registry=registry)


@pytest.mark.parametrize("content, message", [
    (b"just some text\n" * 10, "not a critcore campaign"),
    (None, "an SQLite file, but not a critcore campaign"),
])
def test_a_file_that_is_not_a_campaign_is_refused(isolated_config, registry, content, message):
    path = isolated_config / "other.db"
    if content is None:
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE x (y)")
        db.commit()
        db.close()
    else:
        path.write_bytes(content)
    with pytest.raises(CampaignError, match=message):
        Campaign(str(path), registry=registry)


def test_opening_a_missing_campaign_says_how_to_make_one(isolated_config, registry):
    with pytest.raises(CampaignError, match="crit campaign new"):
        Campaign(str(isolated_config / "nope.db"), registry=registry)


def test_a_state_of_an_uninstalled_system_is_listed_and_kept(camp, isolated_config):
    path = camp.path
    camp.close()
    empty = Registry.installed(discover=False)
    c = Campaign(path, registry=empty)
    [info] = c.targets()
    assert (info.name, info.system, info.installed) == ("ogre", "fake", False)
    with pytest.raises(UnknownNameError):
        c.resolve("ogre", "attack", dice="20,1,1")
    c.close()
    assert json.loads(raw(path, "SELECT state FROM states")[0][0]) == {"hp": 10}


def test_a_plugin_upgrades_states_its_older_versions_wrote(camp):
    """The fake game's 0.x versions called hp 'hit_points' (see fakesystem.critcore_upgrade_state)."""
    raw(camp.path, "UPDATE states SET plugin_version = '0.9', state = '{\"hit_points\": 7}'")
    assert camp.state("ogre") == {"hp": 7}
    camp.treat("ogre", "rest", dice="1")
    assert raw(camp.path, "SELECT plugin_version, state FROM states ORDER BY id DESC")[0] == ("1.0", '{"hp":8}')
    assert raw(camp.path, "SELECT state FROM states ORDER BY id")[0] == ('{"hit_points": 7}',)  # kept as written


def test_the_campaign_is_found_in_the_working_folder_or_a_parent(isolated_config, monkeypatch, registry):
    Campaign.new(str(isolated_config / "critcore.db"), registry=registry).close()
    deep = isolated_config / "a" / "b"
    deep.mkdir(parents=True)
    monkeypatch.delenv("CRITCORE_CAMPAIGN", raising=False)
    assert find_campaign(str(deep)) is not None
    assert find_campaign(str(deep)).endswith("critcore.db")
    monkeypatch.setenv("CRITCORE_CAMPAIGN", "elsewhere.db")
    assert find_campaign(str(deep)) == "elsewhere.db"


def test_adding_from_a_file_reads_the_systems_own_format(camp, isolated_config):
    (isolated_config / "troll.fake").write_text("hp: 30\n")
    camp.add("fake", "troll", str(isolated_config / "troll.fake"))
    assert camp.state("troll") == {"hp": 30}
    (isolated_config / "bad.fake").write_text("hq: x\n")
    with pytest.raises(StateError, match="bad.fake, line 1"):
        camp.add("fake", "bad", str(isolated_config / "bad.fake"))
    assert [t.name for t in camp.targets()] == ["ogre", "troll"]


# --- a campaign edited by hand ------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from critcore.errors import CritcoreError  # noqa: E402

_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                     max_leaves=10)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stored=st.one_of(_json.map(json.dumps), st.text(max_size=30), st.binary(max_size=30)))
def test_a_hand_edited_state_is_a_clean_error_or_read_as_it_is(camp, stored):
    """Whatever the state column holds, reading the target gives the state or one clean error."""
    raw(camp.path, "UPDATE states SET state = ?", stored)
    stored = raw(camp.path, "SELECT state FROM states")[0][0]  # as the store keeps it
    try:
        state = camp.state("ogre")
    except CritcoreError as exc:
        assert "\n" not in str(exc) and camp.path in str(exc)
    else:
        assert isinstance(state, dict) and state == json.loads(stored)


@pytest.mark.parametrize("damage", [
    "DROP TABLE log",
    "DROP TABLE states",
    "UPDATE targets SET head = 999",
    "UPDATE settings SET value = '{x' WHERE true",
    "INSERT INTO settings VALUES ('rules', 'not json')",
])
def test_a_damaged_campaign_is_one_clean_line(camp, damage, invoke):
    raw(camp.path, damage)
    for args in (["campaign", "--campaign", camp.path, "list"], ["campaign", "--campaign", camp.path, "log"],
                 ["treat", "fake", "rest", "--dice", "1", "--target", "@ogre", "--campaign", camp.path]):
        result = invoke(*args)
        assert result.exit_code in (0, 2), result.output
        if result.exit_code:
            assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_an_option_another_process_sets_reaches_a_campaign_kept_open(camp, registry):
    """A bot keeps its Campaign open; the game master sets crit_on_19 from another process: the
    bot's next resolution plays by it (a natural 19, confirm 3 'solid' doubles 1d8 = 3: 6 damage)."""
    # without the option a 19 is an ordinary hit (19 reaches AC 10): 1d8 = 3 damage, no confirmation roll
    assert camp.resolve("ogre", "attack", dice="19,3", preview=True).target["hp"] == 7
    with Campaign(camp.path, registry=registry) as other:
        other.set_option("fake", "crit_on_19", "true")
    assert camp.resolve("ogre", "attack", dice="19,3,3").target["hp"] == 4


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null"])
def test_a_device_is_no_campaign(registry, path):
    with pytest.raises(CampaignError, match="not a campaign file"):
        Campaign(path, registry=registry)


def test_the_log_names_who_made_a_change_as_getpass_would(monkeypatch):
    """CRITCORE_USER first, then getpass.getuser's variables in its order, then the password
    database (getpass itself is not imported: it imports termios for its prompt)."""
    import getpass
    import os

    from critcore.campaign.campaign import _who

    for variable in ("CRITCORE_USER", "LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.delenv(variable, raising=False)
    if os.name == "posix":
        import pwd

        assert _who() == pwd.getpwuid(os.getuid()).pw_name == getpass.getuser()
    monkeypatch.setenv("USERNAME", "windows-name")
    monkeypatch.setenv("USER", "unix-name")
    assert _who() == getpass.getuser() == "unix-name"
    monkeypatch.setenv("CRITCORE_USER", "the gm")
    assert _who() == "the gm"


def test_a_campaign_is_a_write_ahead_log_synced_at_every_commit(sqlite_camp):
    """Durability as the issue asks: WAL, set once when the campaign is made (it stays in the
    file), with synchronous=FULL and foreign keys set on every connection."""
    db = sqlite_camp.store._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with sqlite3.connect(sqlite_camp.path) as other:  # a fresh connection sees WAL from the file itself
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_campaign_switched_to_another_journal_is_a_write_ahead_log_again_when_opened(sqlite_camp):
    """A tool (or a copy) may turn the file's journal to another mode; the next open sets WAL back."""
    from critcore.campaign.campaign import Campaign

    path = sqlite_camp.path
    sqlite_camp.close()
    other = sqlite3.connect(path)
    other.execute("PRAGMA journal_mode=delete")
    other.close()
    with Campaign(path) as again:
        assert again.store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_outcome_json_does_not_import_dataclasses():
    """Records become dataclasses only when asked (critcore._speed.records); writing an outcome's JSON,
    as every campaign change does for its log, must not ask."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from critcore.model import Applied, Data, Determination, Location, Outcome\n"
            "o = Outcome('s', 'p', Data(), (), (), determination=Determination('k', True, 'x'),\n"
            "            location=Location('torso', 'torso'), applied=Applied('hurt', ('HP 3 -> 1',)))\n"
            "d = o.to_dict()\n"
            "assert d['determination']['kind'] == 'k' and d['location']['id'] == 'torso', d\n"
            "assert d['applied']['changes'] == ['HP 3 -> 1'], d\n"
            "print('dataclasses' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_outcome_json_of_a_plugins_dataclass_stage_result_keeps_its_own_fields():
    """A frozen dataclass may subclass a stage result (critcore._speed.records): its JSON has every field,
    its own ones too, as before."""
    import dataclasses

    from critcore.model import Data, Determination, Outcome

    @dataclasses.dataclass(frozen=True)
    class Tagged(Determination):
        tag: str = ""
        note: str = dataclasses.field(default="n", init=False)

    out = Outcome("s", "p", Data(), (), (), determination=Tagged("k", True, "x", tag="t")).to_dict()
    assert out["determination"]["kind"] == "k" and out["determination"]["tag"] == "t"
    assert out["determination"]["note"] == "n"


def test_a_log_summary_says_a_stage_summary_repeated_by_the_next_stage_once():
    """The log line joins each stage's summary; a stage that only repeats the one before it (a
    critical table row with no damage given: the apply stage's summary is the row's text again)
    adds nothing, while the same words after another stage's are kept."""
    from types import SimpleNamespace

    from critcore.campaign.campaign import _summary

    def outcome(*summaries):
        return SimpleNamespace(procedure="p", steps=[SimpleNamespace(summary=s) for s in summaries])

    assert _summary(outcome("torso", "Ordinary damage.", "Ordinary damage.")) == "torso; Ordinary damage."
    assert _summary(outcome("torso", "", "6 injury")) == "torso; 6 injury"
    assert _summary(outcome("a", "b", "a")) == "a; b; a"
    assert _summary(outcome("", "")) == "p: nothing happened"


def test_a_settings_window_trusts_the_settings_it_read_for_that_long(camp, registry, monkeypatch):
    """crit serve's campaigns (settings_window, 10 ms there) do not ask the store again within
    the window: an option another process sets applies from the first call after the window has
    passed since the settings were last read; a campaign without a window (the CLI's, a bot's)
    plays by it at once (the test above). (The clock is time.monotonic, stood in for here.)"""
    import sys
    import time

    now = [time.monotonic() + 1]  # a second on from anything the fixture read
    monkeypatch.setattr(sys.modules["critcore.campaign.campaign"], "monotonic", lambda: now[0])
    camp.settings_window = 0.010
    assert camp.resolve("ogre", "attack", dice="19,3", preview=True).target["hp"] == 7  # the settings read now
    with Campaign(camp.path, registry=registry) as other:
        other.set_option("fake", "crit_on_19", "true")
    now[0] += 0.009  # inside the window: the settings read 9 ms ago
    assert camp.resolve("ogre", "attack", dice="19,3", preview=True).target["hp"] == 7
    now[0] += 0.002  # 11 ms after they were read: read again, and the option applies
    assert camp.resolve("ogre", "attack", dice="19,3,3", preview=True).target["hp"] == 4


def test_crit_serves_campaigns_keep_the_servers_settings_window(camp, registry):
    """Each thread's campaign of crit serve trusts its settings for SETTINGS_WINDOW (10 ms)."""
    from critcore.web.service import SETTINGS_WINDOW, Service

    service = Service(camp.path, registry=registry)
    try:
        assert SETTINGS_WINDOW == 0.010 and service.campaign().settings_window == SETTINGS_WINDOW
    finally:
        service.close()
    assert Campaign(camp.path, registry=registry).settings_window == 0
