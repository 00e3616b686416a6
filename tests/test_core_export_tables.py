"""Foundry VTT and CSV exports of tables (issue 17): the Foundry RollTable's result ranges cover
the table's rolls exactly, each roll once, and each roll leads to the row the table gives it."""

import csv
import io
import json

import pytest

from critcore.engine.runner import Engine
from critcore.report.export import csv_text, foundry_formula, foundry_id, foundry_table, runs
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
        assert result["text"] == table.row(result["flags"]["critcore"]["row"]).text
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
