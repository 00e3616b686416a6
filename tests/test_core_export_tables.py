"""Foundry VTT and CSV exports of tables (issue 17): the Foundry RollTable's result ranges cover
the table's rolls exactly, each roll once, and each roll leads to the row the table gives it."""

import csv
import io
import json

import pytest

from critcore.engine.runner import Engine
from critcore.report.export import csv_text, foundry_formula, foundry_id, foundry_table, roll20_table, runs
from critcore.stages.loader import Registry


def _all_tables():
    reg = Registry.installed()
    out = []
    for system in sorted(reg.systems):
        engine = Engine(system, registry=reg)
        out.extend((system, engine.tables[name]) for name in engine.tables.names())
    return out


def _fake_tables(registry):
    engine = Engine("fake", registry=registry)
    return [("fake", engine.tables[n]) for n in engine.tables.names()]


def _check_round_trip(system, table):
    doc = json.loads(json.dumps(foundry_table(table, system)))  # what a file holds
    seen = {}
    for result in doc["results"]:
        low, high = result["range"]
        assert low <= high and result["weight"] == high - low + 1
        for roll in range(low, high + 1):
            assert roll not in seen, f"{table.id}: roll {roll} in two results"
            seen[roll] = result["flags"]["critcore"]["row"]
    assert sorted(seen) == list(range(table.low, table.high + 1))
    for roll, row_id in seen.items():
        assert table.lookup(roll).id == row_id
    for result in doc["results"]:
        assert result["description"] == table.row(result["flags"]["critcore"]["row"]).text
        assert result["type"] == "text" and result["drawn"] is False
        assert len(result["_id"]) == 16 and result["_id"].isalnum()
    assert doc["name"] == table.title and doc["formula"]
    assert len({r["_id"] for r in doc["results"]}) == len(doc["results"])


def test_foundry_export_of_the_fake_tables_covers_every_roll_once(registry):
    tables = _fake_tables(registry)
    assert tables
    for system, table in tables:
        _check_round_trip(system, table)


@pytest.mark.parametrize("system,table", _all_tables(), ids=lambda x: getattr(x, "id", x))
def test_foundry_export_of_every_installed_table_covers_every_roll_once(system, table):
    _check_round_trip(system, table)


def test_scattered_rolls_become_one_result_per_run():
    """A row covering 2 and 12 (Shadowrun's head) is two results, [2, 2] and [12, 12]."""
    assert runs([12, 2]) == [(2, 2), (12, 12)]
    assert runs([3, 4, 5, 18]) == [(3, 5), (18, 18)]


def test_formula_in_foundry_notation():
    assert foundry_formula("2d6") == "2d6"
    assert foundry_formula("1d6+1") == "1d6+1"
    assert foundry_formula("1d6x10") == "(1d6)*10"
    assert foundry_formula("1d6/2") == "ceil((1d6)/2)"


def test_ids_are_stable_and_foundry_shaped():
    assert foundry_id("a", "b") == foundry_id("a", "b") != foundry_id("a", "c")
    assert len(foundry_id("x")) == 16


def test_csv_has_a_line_per_run_and_round_trips(registry):
    tables = [t for _, t in _fake_tables(registry)]
    rows = list(csv.DictReader(io.StringIO(csv_text(tables))))
    for table in tables:
        mine = [r for r in rows if r["table"] == table.id]
        covered = sorted(x for r in mine for x in range(int(r["low"]), int(r["high"]) + 1))
        assert covered == list(range(table.low, table.high + 1))
        for r in mine:
            assert table.lookup(int(r["low"])).id == r["id"]


def test_cli_format_foundry_and_csv(invoke):
    result = invoke("tables", "fake", "confirm", "--format", "foundry")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["results"]
    result = invoke("tables", "fake", "--format", "csv")
    assert result.exit_code == 0 and result.output.startswith("table,low,high,")


def test_cli_format_foundry_needs_one_table(invoke):
    result = invoke("tables", "fake", "--format", "foundry")
    assert result.exit_code == 2
    assert "name the table" in result.output


# Foundry VTT v13's TableResult fields. Source: Foundry VTT issue #12049 "Change several fields in
# `TableResult` schema" (foundryvtt/foundryvtt, a breaking change of v13): `text` split into `name`
# and `description`, `documentId` + `documentCollection` merged into `documentUuid`, the
# "compendium" type gone; with the fields v13 kept from v12 (`_id`, `type`, `img`, `weight`,
# `range`, `drawn`, `flags`; https://foundryvtt.com/api/ TableResultData).
FOUNDRY_V13_RESULT_FIELDS = {"_id", "type", "name", "description", "documentUuid", "img", "weight", "range",
                             "drawn", "flags"}
FOUNDRY_V13_RESULT_TYPES = {"text", "document"}  # CONST.TABLE_RESULT_TYPES
FOUNDRY_V12_RESULT_FIELDS = {"_id", "type", "text", "img", "documentCollection", "documentId", "weight", "range",
                             "drawn", "flags"}
# RollTableData (https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.RollTableData.html)
FOUNDRY_TABLE_FIELDS = {"_id", "_stats", "name", "description", "displayRoll", "flags", "folder", "formula", "img",
                        "ownership", "replacement", "results", "sort"}


@pytest.mark.parametrize("system,table", _all_tables(), ids=lambda x: getattr(x, "id", x))
def test_foundry_export_has_the_v13_shape(system, table):
    doc = foundry_table(table, system)
    assert set(doc) <= FOUNDRY_TABLE_FIELDS and {"name", "formula", "results"} <= set(doc)
    for result in doc["results"]:
        assert set(result) <= FOUNDRY_V13_RESULT_FIELDS, set(result) - FOUNDRY_V13_RESULT_FIELDS
        assert "text" not in result  # deprecated in v13
        assert result["type"] in FOUNDRY_V13_RESULT_TYPES
        row = table.row(result["flags"]["critcore"]["row"])
        assert result["description"] == row.text and result["name"] in (row.text, row.id)
    old = foundry_table(table, system, version=12)
    for result in old["results"]:
        assert set(result) <= FOUNDRY_V12_RESULT_FIELDS and "name" not in result and "description" not in result


def test_foundry_version_option_and_its_bad_value(invoke):
    new = json.loads(invoke("tables", "fake", "confirm", "--format", "foundry").output)
    old = json.loads(invoke("tables", "fake", "confirm", "--format", "foundry", "--foundry-version", "12").output)
    assert "description" in new["results"][0] and "text" in old["results"][0]
    bad = invoke("tables", "fake", "confirm", "--format", "foundry", "--foundry-version", "11")
    assert bad.exit_code == 2


def test_a_lookup_table_is_exported_as_a_lookup():
    """BattleTech's components table is found by slot kind; its numbers are only an index."""
    reg = Registry.installed()
    if "battletech" not in reg.systems:
        pytest.skip("needs battletech")
    table = Engine("battletech", registry=reg).tables["components"]
    doc = foundry_table(table, "battletech")
    assert doc["flags"]["critcore"]["lookup"] is True and doc["displayRoll"] is False
    assert "lookup table" in doc["description"] and "roll 1d30" not in doc["description"]
    rolled = foundry_table(Engine("battletech", registry=reg).tables["determining-critical-hits"], "battletech")
    assert rolled["flags"]["critcore"]["lookup"] is False and rolled["displayRoll"] is True
    r20 = roll20_table(table, "battletech")
    assert r20["critcore"]["lookup"] is True
    assert [i["weight"] for i in r20["tableitems"]] == [len(row.covers()) for row in table.rows]


# The Roll20 API's objects (https://help.roll20.net/hc/en-us/articles/360037772793-API-Objects):
# a `rollabletable` has `_id`, `_type`, `name`, `showplayers`; a `tableitem` has `_id`, `_type`,
# `_rollabletableid`, `avatar`, `name`, `weight`. The export leaves out what Roll20 assigns (`_id`,
# `_type`, `_rollabletableid`): a script or the API creates the objects from the rest.
ROLL20_TABLE_FIELDS = {"name", "showplayers"}
ROLL20_ITEM_FIELDS = {"name", "weight", "avatar"}


@pytest.mark.parametrize("system,table", _all_tables(), ids=lambda x: getattr(x, "id", x))
def test_roll20_export_has_the_api_shape_and_the_dice_weights(system, table):
    doc = json.loads(json.dumps(roll20_table(table, system)))
    assert set(doc["rollabletable"]) == ROLL20_TABLE_FIELDS
    assert " " not in doc["rollabletable"]["name"]  # a roll names the table: [[1t[NAME]]]
    assert len(doc["tableitems"]) == len(table.rows)
    for item, row in zip(doc["tableitems"], table.rows):
        assert set(item) == ROLL20_ITEM_FIELDS
        assert isinstance(item["weight"], int) and item["weight"] >= 0
        assert item["name"].startswith(f"{row.roll_text}: ")


def test_roll20_weights_follow_the_dice():
    """2d6: a 7 comes up six ways in 36, a 2 one way; the weights add up to 36."""
    reg = Registry.installed()
    if "battletech" not in reg.systems:
        pytest.skip("needs battletech")
    table = Engine("battletech", registry=reg).tables["determining-critical-hits"]
    doc = roll20_table(table, "battletech")
    assert sum(i["weight"] for i in doc["tableitems"]) == 36
    by_roll = {row.roll_text: item["weight"] for row, item in zip(table.rows, doc["tableitems"])}
    assert by_roll["2-7"] == 21  # 1+2+3+4+5+6
    assert by_roll["8-9"] == 9   # 5+4
