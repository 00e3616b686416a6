"""``crit campaign ...`` and ``--target @NAME``: the campaign from the command line. Every test
with ``where`` runs on both stores: ``critcore.db`` found in the working folder, and a campaign of
the PostgreSQL test database named by ``CRITCORE_CAMPAIGN`` (tests/campaign_stores.py; skipped
loudly without it)."""

import json

import pytest


@pytest.fixture
def where(store_kind, campaign_at, monkeypatch):
    """The campaign the commands use (not made yet): a file found in the working folder, or a
    campaign of the test database that ``CRITCORE_CAMPAIGN`` names."""
    if store_kind == "sqlite":
        return "critcore.db"
    location = campaign_at("cli")
    monkeypatch.setenv("CRITCORE_CAMPAIGN", location)
    return location


def ok(result):
    assert result.exit_code == 0, result.output
    return result.output


def error_line(result, code=2):
    assert result.exit_code == code, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


def setup(invoke, isolated_config, where):
    ok(invoke("campaign", "new", where))
    (isolated_config / "ogre.json").write_text('{"hp": 10}')
    ok(invoke("campaign", "add", "fake", "ogre", "ogre.json"))


def test_a_session_at_the_table(invoke, isolated_config, where):
    setup(invoke, isolated_config, where)
    assert "ogre" in ok(invoke("campaign", "list"))
    # a natural 20 is a critical; confirm 6 "brutal" triples 1d8 = 2: 6 damage, hp 10 -> 4
    out = ok(invoke("resolve", "fake", "attack", "--dice", "20,6,2", "--target", "@ogre"))
    assert "log #2" in out and "crit campaign undo ogre" in out
    assert ok(invoke("campaign", "show", "ogre")).strip() == "hp: 4"
    assert json.loads(ok(invoke("show", "fake", "--target", "@ogre", "--json"))) == {"hp": 4}
    log = json.loads(ok(invoke("campaign", "log", "--json")))
    assert [(e["kind"], e["target"]) for e in log] == [("add", "ogre"), ("resolve", "ogre")]
    assert log[1]["outcome"]["rolls"][0]["faces"] == [20]
    assert "undid #2" in ok(invoke("campaign", "undo", "ogre"))
    assert ok(invoke("campaign", "show", "ogre")).strip() == "hp: 10"
    assert "redid #2" in ok(invoke("campaign", "redo", "ogre"))
    text_log = ok(invoke("campaign", "log", "ogre", "-n", "2"))
    assert text_log.count("\n") == 2 and "undo" in text_log and "redo" in text_log
    ok(invoke("campaign", "export", "ogre", "out.toml"))
    assert (isolated_config / "out.toml").read_text().strip() == "hp = 4"
    ok(invoke("campaign", "remove", "ogre"))
    assert "no targets yet" in ok(invoke("campaign", "list"))


def test_preview_shows_the_result_and_writes_nothing(invoke, isolated_config, where):
    setup(invoke, isolated_config, where)
    out = ok(invoke("treat", "fake", "rest", "--dice", "3", "--target", "@ogre", "--preview"))
    assert "hp 10 -> 13" in out and "nothing was written" in out
    data = json.loads(ok(invoke("treat", "fake", "rest", "--dice", "3", "--target", "@ogre", "--preview", "--json")))
    assert data["preview"] is True and data["target"] == {"hp": 13}
    assert ok(invoke("campaign", "show", "ogre")).strip() == "hp: 10"


def test_json_of_a_campaign_resolution_names_its_log_entry(invoke, isolated_config, where):
    setup(invoke, isolated_config, where)
    data = json.loads(ok(invoke("treat", "fake", "rest", "--dice", "1", "--target", "@ogre", "--json")))
    assert data["log"] == 2 and data["target"] == {"hp": 11}


def test_a_name_and_a_file_are_never_confused(invoke, isolated_config, where):
    setup(invoke, isolated_config, where)
    (isolated_config / "@ogre.json").write_text('{"hp": 50}')  # a file whose name starts with @
    out = ok(invoke("treat", "fake", "rest", "--dice", "1", "--target", "./@ogre.json", "--save"))
    assert json.loads((isolated_config / "@ogre.json").read_text()) == {"hp": 51}
    assert "saved: ./@ogre.json" in out
    assert ok(invoke("campaign", "show", "ogre")).strip() == "hp: 10"


def test_campaign_mistakes_are_one_line(invoke, isolated_config, where, store_kind):
    line = error_line(invoke("resolve", "fake", "attack", "--target", "@ogre"))
    said = "no campaign was found" if store_kind == "sqlite" else "no campaign there"
    assert said in line and "crit campaign new" in line
    setup(invoke, isolated_config, where)
    assert "no target named 'orge' (did you mean 'ogre'?)" in error_line(
        invoke("treat", "fake", "rest", "--target", "@orge"))
    assert "applied and logged without --save" in error_line(
        invoke("treat", "fake", "rest", "--target", "@ogre", "--save"))
    assert "already exists" in error_line(invoke("campaign", "new", where))
    assert "exists already" in error_line(invoke("campaign", "add", "fake", "ogre", "ogre.json"))
    assert "not a usable target name" in error_line(invoke("campaign", "add", "fake", "two words", "ogre.json"))
    assert "nothing to undo" in error_line(invoke("campaign", "undo", "ogre"))
    assert "nothing to redo" in error_line(invoke("campaign", "redo", "ogre"))


def test_no_campaign_for_the_campaign_commands(invoke):
    line = error_line(invoke("campaign", "list"))
    assert "no campaign here" in line and "crit campaign new" in line


def test_campaign_settings_apply_to_every_command_on_it(invoke, isolated_config, where):
    setup(invoke, isolated_config, where)
    ok(invoke("campaign", "set", "fake", "crit_on_19", "true"))
    assert json.loads(ok(invoke("campaign", "settings", "--json"))) == {"rules": [],
                                                                        "options": {"fake": {"crit_on_19": True}}}
    # crit_on_19: a natural 19 is a critical; confirm 3 "solid" doubles 1d8 = 3: 6 damage
    ok(invoke("resolve", "fake", "attack", "--dice", "19,3,3", "--target", "@ogre"))
    assert ok(invoke("campaign", "show", "ogre")).strip() == "hp: 4"
    assert "did you mean 'crit_on_19'" in error_line(invoke("campaign", "set", "fake", "crit_on_91", "true"))
    assert "not enabled" in error_line(invoke("campaign", "disable", "nothing-here"))


def test_a_house_rule_file_enabled_in_the_campaign(invoke, isolated_config, where):
    setup(invoke, isolated_config, where)
    rule = isolated_config / "brutal.toml"
    rule.write_text('name = "brutal"\nsystem = "fake"\n\n[options]\ncrit_on_19 = true\n')
    ok(invoke("campaign", "enable", str(rule)))
    assert str(rule) in ok(invoke("campaign", "settings"))
    ok(invoke("resolve", "fake", "attack", "--dice", "19,3,3", "--target", "@ogre"))
    assert ok(invoke("campaign", "show", "ogre")).strip() == "hp: 4"
    ok(invoke("campaign", "disable", str(rule)))
    assert "house rules: none" in ok(invoke("campaign", "settings"))


def test_the_systems_examples_go_straight_into_the_campaign(invoke, isolated_config, where):
    """The fake system ships one example character, hero.json: added under its file's name."""
    ok(invoke("campaign", "new", where))
    assert "added hero (fake)" in ok(invoke("campaign", "add-examples"))
    log = json.loads(ok(invoke("campaign", "log", "--json")))
    assert log[0]["summary"] == "added from the fake example hero.json"
    assert "exists already" in error_line(invoke("campaign", "add-examples", "fake"))


def test_examples_that_share_a_name_add_nothing(invoke, isolated_config, monkeypatch, where):
    """Two examples named hero (hero.json, hero.toml) cannot both be @hero: refused before any
    is added, so the campaign is left as it was."""
    import fakesystem
    from critcore import hookimpl
    from critcore.stages.examples import Example

    @hookimpl
    def critcore_examples():
        return [Example("hero.json", '{"hp": 12}\n', "one hero"), Example("hero.toml", "hp = 9\n", "another")]

    monkeypatch.setattr(fakesystem, "critcore_examples", critcore_examples)
    ok(invoke("campaign", "new", where))
    assert "nothing was added" in error_line(invoke("campaign", "add-examples"))
    assert "hero" not in ok(invoke("campaign", "list"))


def test_text_from_targets_reaches_the_terminal_escaped(invoke, isolated_config, monkeypatch, where):
    """A log line carries who resolved and what happened: an escape sequence in them is shown escaped."""
    monkeypatch.setenv("CRITCORE_USER", "mallory\x1b]0;owned\x07")
    setup(invoke, isolated_config, where)
    text = ok(invoke("campaign", "log"))
    assert "\x1b" not in text and "\x07" not in text and "mallory" in text


def crit_process(*args, show_modules=False):
    """``crit ARGS`` in a process of its own, through ``critcore.cli.main.main`` as the console script
    runs it, with the fake system; ``show_modules`` prints the modules it imported (on stderr)."""
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import atexit, functools, sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "import fakesystem\n"
        "from critcore.cli import main as cli\n"
        "from critcore.stages.loader import Registry\n"
        "registry = Registry.installed(extra_systems={'fake': fakesystem}, discover=False)\n"
        "cli.cli = functools.partial(cli.cli, obj=registry)\n"
        "sys.argv = ['crit', *sys.argv[1:]]\n"
        + ("atexit.register(lambda: print(' '.join(sorted(sys.modules)), file=sys.stderr))\n" if show_modules else "")
        + "cli.main()\n"
    )
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True)


def test_a_crit_process_closes_its_campaign_however_the_command_ends(invoke, isolated_config):
    """(A campaign file's write-ahead log: SQLite only.)"""
    """`crit` skips Python's last garbage collection at exit (cli.main), so a campaign left open
    would stay open: its write-ahead log would stay beside the file, never checkpointed. The
    command closes it itself, after a change and after an error alike."""
    setup(invoke, isolated_config, "critcore.db")
    for args, code in ((["resolve", "fake", "attack", "--dice", "20,6,2", "--target", "@ogre"], 0),
                       (["resolve", "fake", "attack", "--dice", "x", "--target", "@ogre"], 2),
                       (["campaign", "log"], 0)):
        done = crit_process(*args)
        assert done.returncode == code, done.stderr
        assert sorted(p.name for p in isolated_config.glob("critcore.db*")) == ["critcore.db"], args
    assert ok(invoke("campaign", "show", "ogre")).strip() == "hp: 4"


def test_a_command_imports_only_what_its_target_needs(invoke, isolated_config):
    """Start-up (design.md, "Budgets"): sqlite3 and the campaign modules only when a campaign is
    used; and a campaign change needs neither target files (critcore.targets.state), nor getpass (it
    imports termios), nor dataclasses (an outcome's JSON), nor another command's module. No command imports locale (click's
    gettext would, for the help texts critcore's commands give as they are). psycopg never: a
    campaign file is as fast to open as before PostgreSQL campaigns came."""
    campaign_parts = {"sqlite3", "critcore.campaign.campaign", "critcore.campaign.store", "critcore.campaign.sqlite"}
    setup(invoke, isolated_config, "critcore.db")  # a campaign file: what the budget is about

    def imported(*args):
        done = crit_process(*args, show_modules=True)
        assert done.returncode == 0, done.stderr
        return set(done.stderr.split())

    plain = imported("resolve", "fake", "attack", "--dice", "20,6,2")
    on_file = imported("resolve", "fake", "attack", "--dice", "20,6,2", "--target", "ogre.json")
    assert not campaign_parts & (plain | on_file)
    on_campaign = imported("resolve", "fake", "attack", "--dice", "20,6,2", "--target", "@ogre")
    assert campaign_parts <= on_campaign
    assert not {"critcore.targets.state", "getpass", "termios", "dataclasses", "critcore.cli.examples",
                "critcore.cli.campaign"} & (on_campaign - plain)  # (what Python itself imports aside)
    assert "locale" not in plain | on_file | on_campaign
    assert not {m for m in plain | on_file | on_campaign if m.startswith(("psycopg", "critcore.campaign.postgres"))}


def test_a_campaign_target_of_another_system_is_refused_by_name(invoke, isolated_config, registry, where):
    """The target's system is checked in the transaction that reads it, before any stage runs."""
    from critcore.campaign.campaign import Campaign
    from critcore.engine.runner import Engine
    from critcore.errors import CampaignError

    setup(invoke, isolated_config, where)
    engine = Engine("fake", registry=registry)
    with Campaign(where, registry=registry) as camp:
        with camp.store.transaction(write=True) as tx:  # as if a system named "ghost" had added it
            row = tx.new_target("stranger", "ghost", "2026-12-01T00:00:00+00:00")
            tx.set_head(row.id, tx.add_state(row.id, "ghost", "1.0", {"hp": 3}))
        with pytest.raises(CampaignError, match=r"stranger is a ghost target, not a fake one"):
            with camp.session("stranger", engine=engine):
                pass  # pragma: no cover - never reached
    line = error_line(invoke("resolve", "fake", "attack", "--dice", "20,6,2", "--target", "@stranger"))
    shown = "#" + where.split("#")[-1] if "#" in where else "critcore.db"
    assert line.endswith(f"{shown}: stranger is a ghost target, not a fake one (resolve it with the ghost system)")
    assert ok(invoke("campaign", "log", "--json")).count('"resolve"') == 0  # nothing was resolved or logged


# --- crit campaign keys -------------------------------------------------------------------------


def _keys(output):
    lines = output.strip().splitlines()
    assert lines[0].startswith("new keys for ") and "shown this once" in lines[0], output
    token = lines[1].split("game master's token: ")[1]
    key = lines[2].split("players' key: ")[1]
    assert len(token) >= 32 and len(key) >= 32 and token != key
    return token, key


def test_keys_makes_a_new_token_and_players_key_kept_only_as_digests(invoke, isolated_config, where, registry):
    """Shown once, kept as SHA-256 digests; each run replaces the last (the old ones gone)."""
    from campaign_stores import raw
    from critcore.campaign.store import digest

    setup(invoke, isolated_config, where)
    secrets_rows = "SELECT key, value FROM meta WHERE key IN ('gm_token_sha256', 'players_key_sha256') ORDER BY key"
    first = _keys(ok(invoke("campaign", "keys")))
    kept = dict(raw(where, secrets_rows))
    assert kept == {"gm_token_sha256": digest(first[0]), "players_key_sha256": digest(first[1])}
    second = _keys(ok(invoke("campaign", "keys")))
    assert set(second).isdisjoint(first)
    assert dict(raw(where, secrets_rows)) == {"gm_token_sha256": digest(second[0]),
                                             "players_key_sha256": digest(second[1])}
    dump = json.dumps(raw(where, "SELECT * FROM meta"))
    assert not any(secret in dump for secret in first + second)  # never the secrets themselves
    assert ok(invoke("campaign", "show", "ogre")).strip() == "hp: 10"  # the campaign itself untouched


def test_keys_mistakes_are_one_line_and_change_nothing(invoke, isolated_config, where, store_kind):
    line = error_line(invoke("campaign", "keys"))
    assert ("no campaign" in line) and "crit campaign new" in line
    assert not (isolated_config / "critcore.db").exists()  # nothing made
    setup(invoke, isolated_config, where)
    from campaign_stores import raw

    before = raw(where, "SELECT key, value FROM meta ORDER BY key")
    assert "unexpected extra argument" in error_line(invoke("campaign", "keys", "again")).lower()
    if store_kind == "postgresql":  # the database without a campaign's name
        line = error_line(invoke("campaign", "--campaign", where.split("#")[0], "keys"))
        assert "name the campaign after '#'" in line
    assert raw(where, "SELECT key, value FROM meta ORDER BY key") == before
