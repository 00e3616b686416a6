"""docs/house-rules.md builds a rule file and a rule package from its code blocks: build them here
and run them, so the tutorial cannot go stale (skipped where the docs are not present)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import critcore
import pytest
try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib
from critcore.testing import Engine
from critcore.plugin import ConfigError
from critcore.testing import Registry

DOC = Path(__file__).resolve().parents[3] / "docs" / "house-rules.md"


@pytest.fixture
def files(tmp_path, monkeypatch) -> dict[str, Path]:
    if not DOC.exists():
        pytest.skip("docs/ not present")
    monkeypatch.setenv("CRITCORE_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.chdir(tmp_path)
    out = {}
    for name, body in re.findall(r"```(?:python|toml)\n# file: (\S+)\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        path = tmp_path / name  # the rule package's files are in hard-to-kill/
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
        out[Path(name).name] = path
    assert {"our-gurps.toml", "gritty.toml", "critcore.toml", "critcore_hard_to_kill.py", "pyproject.toml",
            "test_hard_to_kill.py"} <= set(out)
    return out


def test_rule_file_does_what_the_page_says(files) -> None:
    """our-gurps.toml: the extended range is on and a 10 on the Critical Hit table is maximum damage."""
    engine = Engine("gurps", rules=[str(files["our-gurps.toml"])])
    assert engine.options["extended_critical_range"] is True
    row = engine.tables["critical-hit"].lookup(10)
    assert row.changed_by == "our-gurps" and row.data["maximum"] is True


def test_two_files_conflict_until_one_overrides(files) -> None:
    both = [str(files["our-gurps.toml"]), str(files["gritty.toml"])]
    with pytest.raises(ConfigError, match="already changed by house rule 'our-gurps'"):
        Engine("gurps", rules=both)
    text = files["gritty.toml"].read_text().replace('summary = "Gritty: criticals cripple"\n',
                                                    'summary = "Gritty: criticals cripple"\noverrides = ["our-gurps"]\n')
    files["gritty.toml"].write_text(text)
    assert Engine("gurps", rules=both).tables["critical-hit"].lookup(10).changed_by == "gritty"


def test_package_pyproject_declares_the_rule(files) -> None:
    data = tomllib.loads(files["pyproject.toml"].read_text())
    assert data["project"]["entry-points"]["critcore.rules"] == {"hard-to-kill": "critcore_hard_to_kill"}
    assert data["tool"]["setuptools"]["py-modules"] == ["critcore_hard_to_kill"]


def test_package_module_and_its_tests(files, monkeypatch) -> None:
    """Load the page's module as the rule, then run the page's own tests against it."""
    spec = importlib.util.spec_from_file_location("critcore_hard_to_kill", files["critcore_hard_to_kill.py"])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    info = module.critcore_rule()
    assert info.name == "hard-to-kill" and info.system == "shadowrun2"
    registry = Registry.installed(extra_rules={"hard-to-kill": module})
    real = critcore.resolve
    monkeypatch.setattr(critcore, "resolve", lambda *a, **k: real(*a, registry=registry, **k))
    spec = importlib.util.spec_from_file_location("doc_test_hard_to_kill", files["test_hard_to_kill.py"])
    tests = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tests)
    tests.test_mortal_becomes_crippling()
    tests.test_not_enabled_the_rules_as_written()
    odds = critcore.odds("shadowrun2", "wound", body=1, severity="moderate", rules=["hard-to-kill"], registry=registry)
    assert odds.probability(lambda b: b.determination.kind == "crippling") == 1
    sys.modules.pop("critcore_hard_to_kill", None)
