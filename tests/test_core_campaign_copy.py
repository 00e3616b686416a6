"""``crit campaign copy``: SQLite -> PostgreSQL -> SQLite keeps every state, log entry and undo
mark under its id; the PostgreSQL store's own format upgrade, keys and listing; and a command on
an SQLite campaign never imports psycopg."""

import json
import subprocess
import sys

import pytest

from campaign_stores import drop, new_location, postgres_dsn, raw
from critcore.campaign.campaign import Campaign
from critcore.campaign.store import COLUMNS


def _fill(camp):
    camp.add("fake", "ogre", {"hp": 10})
    camp.add("fake", "troll", {"hp": 30})
    camp.treat("ogre", "rest", dice="1")
    camp.resolve("ogre", "attack", dice="20,6,2")
    camp.undo("ogre")
    camp.treat("troll", "rest", dice="3")
    camp.remove("troll")
    camp.set_option("fake", "crit_on_19", "true")
    camp.undo("troll")
    camp.redo("ogre")


def _everything(location):
    return {table: raw(location, f"SELECT {', '.join(columns)} FROM {table} ORDER BY {columns[0]}")
            for table, columns in COLUMNS.items() if table != "meta"}


@pytest.fixture
def pg():
    made = []

    def where(stem):
        made.append(new_location("postgresql", None, stem))
        return made[-1]

    postgres_dsn()
    yield where
    for location in made:
        drop(location)


def test_copy_round_trips_sqlite_postgresql_sqlite_exactly(isolated_config, registry, invoke, pg):
    first = str(isolated_config / "first.db")
    with Campaign.new(first, registry=registry, who="gm") as camp:
        _fill(camp)
        log_before = [e.to_dict() for e in camp.log()]
    there, back = pg("copy"), str(isolated_config / "back.db")
    result = invoke("campaign", "copy", first, there)
    assert result.exit_code == 0, result.output
    assert "2 target(s), 10 log entries" in result.output
    assert invoke("campaign", "copy", there, back).exit_code == 0
    rows = _everything(first)
    assert _everything(there) == rows and _everything(back) == rows  # every row, under its id
    for location in (there, back):
        with Campaign(location, registry=registry, who="gm") as camp:
            assert [e.to_dict() for e in camp.log()] == log_before
            assert camp.state("ogre") == {"hp": 5} and camp.state("troll") == {"hp": 33}
            assert camp.options("fake") == {"crit_on_19": True}
            camp.undo("ogre")  # the undo history goes on where it was
            assert camp.state("ogre") == {"hp": 11}
            camp.treat("ogre", "rest", dice="1")  # and new ids follow the copied ones
            assert camp.log()[-1].id == 12


def test_copy_refuses_an_existing_destination_and_a_missing_source(isolated_config, registry, invoke, pg):
    first = str(isolated_config / "first.db")
    Campaign.new(first, registry=registry).close()
    there = pg("exists")
    assert invoke("campaign", "copy", first, there).exit_code == 0
    result = invoke("campaign", "copy", first, there)
    assert result.exit_code == 2 and "already exists" in result.output
    result = invoke("campaign", "copy", str(isolated_config / "nope.db"), str(isolated_config / "x.db"))
    assert result.exit_code == 2 and "no campaign there" in result.output
    assert not (isolated_config / "x.db").exists()


def test_a_format_1_campaign_in_postgresql_is_upgraded_on_open(registry, pg):
    """A campaign made as the first format (no per-target counters, no partial indexes) is
    brought to this critcore's format in one transaction on open, its rows read as they were."""
    location = pg("old")
    with Campaign.new(location, registry=registry) as camp:
        _fill(camp)
        listed = [t.to_dict() for t in camp.targets()]
    for statement in ("DROP INDEX log_in_force", "DROP INDEX log_undos", "DROP INDEX log_removals",
                      "ALTER TABLE targets DROP COLUMN entries", "ALTER TABLE targets DROP COLUMN updated",
                      "UPDATE meta SET value = '1' WHERE key = 'format'"):
        raw(location, statement)
    with Campaign(location, registry=registry) as camp:
        assert [t.to_dict() for t in camp.targets()] == listed
        assert raw(location, "SELECT value FROM meta WHERE key = 'format'") == [("2",)]
        assert raw(location, "SELECT count(*) FROM meta WHERE key = 'upgraded_from_1'") == [(1,)]


def test_many_campaigns_in_one_database_each_with_its_own_keys(invoke, pg):
    a, b = pg("alpha"), pg("beta")
    made = [invoke("campaign", "new", a), invoke("campaign", "new", b)]
    assert all(r.exit_code == 0 for r in made)
    tokens = [r.output.split("game master's token: ")[1].split()[0] for r in made]
    assert tokens[0] != tokens[1]
    assert raw(a, "SELECT value FROM meta WHERE key = 'gm_token_sha256'") != \
        raw(b, "SELECT value FROM meta WHERE key = 'gm_token_sha256'")
    assert tokens[0] not in json.dumps(raw(a, "SELECT * FROM meta"))  # kept only as a digest
    listed = invoke("campaign", "--campaign", a.split("#")[0], "list", "--json")
    names = [c["name"] for c in json.loads(listed.output)]
    assert a.split("#")[1] in names and b.split("#")[1] in names
    assert invoke("campaign", "new", a).exit_code == 2
    bad = invoke("campaign", "new", a.split("#")[0] + "#Bad-Name")
    assert bad.exit_code == 2 and "not a usable campaign name" in bad.output


def test_a_command_on_an_sqlite_campaign_never_imports_psycopg(isolated_config, registry):
    path = str(isolated_config / "c.db")
    with Campaign.new(path, registry=registry) as camp:
        camp.add("fake", "ogre", {"hp": 10})
    code = ("import sys, runpy; sys.argv = ['fake_crit', '1', 'treat', 'fake', 'rest', '--dice', '1', '--target', "
            f"'@ogre', '--campaign', {path!r}]\n"
            "import fake_crit\n"
            "assert fake_crit.main() == 0\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('psycopg', 'psycopg_pool')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=str(isolated_config), env={**__import__("os").environ,
                                                         "PYTHONPATH": str(__import__("pathlib").Path(__file__).parent)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
    with Campaign(path, registry=registry) as camp:
        assert camp.state("ogre") == {"hp": 11}  # it did the change
