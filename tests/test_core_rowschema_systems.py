"""Every shipped table of every installed system declares a row schema, and a house-rule file that
rewrites any of its rows at random (hypothesis) either is refused at load, in one line naming the
rule file and a line, or loads with the row as written and resolves: exact odds, which go through
every roll of the table, finish and sum to one. Skipped for systems that are not installed."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from runlength import examples

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from critcore.stages.loader import Registry  # noqa: E402

REGISTRY = Registry.installed()
SHIPPED = [s for s in ("gurps", "shadowrun2", "battletech") if s in REGISTRY.systems]

# the procedure (and its arguments) whose exact odds read each table: every roll is enumerated, so
# the rewritten row is reached whatever its roll; tables read only by treatments are loaded only
REACH: dict[tuple[str, str], list[str]] = {
    ("gurps", "critical-hit"): ["critical-hit", "--location", "torso", "--damage", "2d cut", "--dr", "2"],
    ("gurps", "head-blow"): ["critical-hit", "--location", "skull", "--damage", "1d+1 cr", "--dr", "1"],
    ("gurps", "hit-location"): ["hit-location"],
    ("gurps", "critical-miss"): ["critical-miss"],
    ("gurps", "unarmed-miss"): ["unarmed-miss"],
    ("gurps", "spell-failure"): ["spell-failure"],
    ("battletech", "hit-location"): ["hit-location"],
    ("battletech", "determining-critical-hits"): ["critical", "--location", "CT", "--target", "quillback.mtf"],
    ("battletech", "critical-slot-half"): ["critical", "--location", "CT", "--target", "quillback.mtf"],
    ("battletech", "components"): ["critical", "--location", "CT", "--target", "quillback.mtf"],
}
for _name in ("body-check", "critical-abdomen", "critical-arm", "critical-chest", "critical-head", "critical-leg",
              "hit-location", "lethality", "wound-levels"):
    REACH[("shadowrun2", _name)] = ["wound", "--body", "3", "--severity", "deadly"]


def _tables() -> list[tuple[str, str]]:
    from critcore.engine.runner import Engine

    out = []
    for system in SHIPPED:
        engine = Engine(system, registry=REGISTRY)
        out.extend((system, name) for name in engine.tables.names())
    return out


TABLES = _tables()


def _table(system: str, name: str) -> Any:
    from critcore.engine.runner import Engine

    return Engine(system, registry=REGISTRY).tables[name]


def toml_value(value: Any) -> str:
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + " }"


pytestmark = pytest.mark.skipif(not SHIPPED, reason="no shipped system installed")


@pytest.mark.parametrize("system, name", TABLES)
def test_every_shipped_table_declares_a_schema_for_each_effect_of_its_rows(system, name):
    table = _table(system, name)
    from critcore.tables import rowschema

    schema = rowschema.of(table)
    assert schema is not None, f"{table.source} declares no [row_schema]"
    assert {row.code for row in table.rows} <= set(schema.codes())


@st.composite
def rewrites(draw: Any, table: Any) -> tuple[Any, dict[str, Any]]:
    """A row of ``table`` with one key set (to a value of its kind, a value seen elsewhere in the
    table, or anything), a key taken out, or another effect of the table."""
    from critcore.model import thaw

    row = draw(st.sampled_from(table.rows))
    data = dict(thaw(row.data))
    seen: dict[str, list[Any]] = {}
    for other in table.rows:
        for key, value in thaw(other.data).items():
            seen.setdefault(key, []).append(value)
    keys = sorted(set(seen) | {"effect", "bogus"})
    how = draw(st.sampled_from(["set", "set", "set", "drop", "effect"]))
    code = row.code
    if how == "drop" and data:
        del data[draw(st.sampled_from(sorted(data)))]
    elif how == "effect":
        code = draw(st.sampled_from(sorted({r.code for r in table.rows})))
    else:
        key = draw(st.sampled_from(keys))
        anything = st.one_of(
            st.integers(-10, 40), st.integers(-2**70, 2**70), st.floats(allow_nan=False, allow_infinity=False),
            st.booleans(), st.text(alphabet="abcdefghijklmnopqrstuvwxyzZ0123456789 -", max_size=8),
            st.lists(st.integers(-3, 12), max_size=3), st.just([]), st.just({}),
            st.dictionaries(st.sampled_from(["x", "y"]), st.integers(0, 3), max_size=2))
        plausible = st.sampled_from(seen.get(key) or [0])
        value = draw(st.one_of(plausible, anything))
        if key == "effect":
            code = value if isinstance(value, str) else code
        else:
            data[key] = value
    return row, {"roll": row.roll_text, "id": row.id, "effect": code, "text": row.text, **data}


def _rule_text(system: str, name: str, raw: dict[str, Any]) -> str:
    lines = [f"system = {json.dumps(system)}", "", f"[[tables.{name}.row]]"]
    lines += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in raw.items()]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    from click.testing import CliRunner

    from critcore.cli.main import cli

    where = tmp_path_factory.mktemp("rowschema")
    with CliRunner().isolated_filesystem(temp_dir=where) as inside:
        result = CliRunner().invoke(cli, ["examples"], obj=REGISTRY)
        assert result.exit_code == 0, result.output
    return inside


@pytest.mark.parametrize("system, name", TABLES)
def test_a_rewritten_row_is_refused_at_load_or_resolves(system, name, folder, monkeypatch):
    from click.testing import CliRunner

    from critcore.cli.main import cli
    from critcore.engine.runner import Engine
    from critcore.model import thaw

    monkeypatch.chdir(folder)
    monkeypatch.setenv("CRITCORE_CONFIG", "no-user-config.toml")
    table = _table(system, name)

    @settings(max_examples=examples(8, 40), deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(rewrites(table))
    def check(case: tuple[Any, dict[str, Any]]) -> None:
        row, raw = case
        with open("ours.toml", "w", encoding="utf-8") as fh:
            fh.write(_rule_text(system, name, raw))
        procedure = REACH.get((system, name))
        args = ["odds", system, *procedure, "--json"] if procedure else ["tables", system]
        result = CliRunner().invoke(cli, [*args, "--rule", "ours.toml"], obj=REGISTRY)
        if result.exit_code == 2:
            hypothesis.event("refused at load")
            lines = result.output.splitlines()
            assert len(lines) == 1 and lines[0].startswith("Error: ours.toml, line "), result.output
            return
        assert result.exit_code == 0, (raw, result.output, result.exception)
        hypothesis.event("resolved")
        loaded = Engine(system, rules=["ours.toml"], registry=REGISTRY).tables[name].row(row.id)
        assert loaded.code == raw["effect"]
        assert thaw(loaded.data) == {k: v for k, v in raw.items() if k not in ("roll", "id", "effect", "text")}
        if procedure:
            odds = json.loads(result.output)
            assert sum(Fraction(o["probability"]["fraction"]) for o in odds["outcomes"]) + Fraction(odds["remainder"]["fraction"]) == 1

    check()
