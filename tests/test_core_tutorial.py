"""The tutorial in docs/writing-a-system.md builds a real plugin: build it from the page's code
blocks and run it, so the tutorial cannot go stale."""

import re
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "writing-a-system.md"


@pytest.fixture
def d20(tmp_path, monkeypatch):
    if not DOC.exists():
        pytest.skip("docs/ not present")
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:python|toml)\n# file: (\S+)\n(.*?)```", text, re.S)
    assert len(blocks) >= 6
    root = tmp_path / "critcore-d20"
    for name, body in blocks:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
    monkeypatch.syspath_prepend(str(root / "src"))
    for mod in [m for m in sys.modules if m.startswith("critcore_d20")]:
        del sys.modules[mod]
    return root


def test_tutorial_pyproject_declares_the_entry_point(d20):
    from critcore.files.toml import parser

    tomllib = parser()

    data = tomllib.loads((d20 / "pyproject.toml").read_text())
    assert data["project"]["entry-points"]["critcore.systems"] == {"d20": "critcore_d20.plugin"}


def test_tutorial_plugin_tests_pass(d20):
    import runpy

    ns = runpy.run_path(str(d20 / "tests" / "test_d20.py"))
    tests = [fn for name, fn in ns.items() if name.startswith("test_")]
    assert len(tests) == 8
    for fn in tests:
        fn()


def test_tutorial_command_line_example(d20, invoke):
    import critcore_d20.plugin

    from critcore.stages.loader import Registry

    reg = Registry.installed(extra_systems={"d20": critcore_d20.plugin}, discover=False)
    result = invoke("resolve", "d20", "attack", "--ac", "15", "--bonus", "5", "--dice", "19,12,5,6", "--threat", "19",
                    obj=reg)
    assert result.exit_code == 0, result.output
    assert "16 damage and bleeding" in result.output
    assert invoke("tables", "d20", obj=reg).exit_code == 0
