"""The plugin face (issue 24): a plugin imports ``critcore``, ``critcore.plugin`` and, in its
tests, ``critcore.testing``, and nothing else of the core, so the core's packages can move
without breaking a plugin. The face may grow; a name on it is never removed (``FACE_1_0`` is
the face as first published), and each is documented in docs/plugin-face.md."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import critcore.plugin
import critcore.testing

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = {"critcore", "critcore.plugin", "critcore.testing"}
CORE_PARTS = {p.stem for p in (ROOT / "critcore").glob("*.py")} | {p.name for p in (ROOT / "critcore").glob("*/")}

FACE_1_0 = {
    "hookimpl", "RuleInfo", "SYSTEMS_GROUP", "RULES_GROUP", "did_you_mean", "SystemInfo", "Procedure", "Param",
    "Option", "Determination", "Location", "Effect", "Applied", "Event", "Outcome", "Roll", "Data", "EMPTY",
    "freeze", "thaw", "record", "Context", "RollLookup", "Dice", "DiceExpr", "parse", "Table", "Row", "TableSet",
    "load_data", "read_bytes", "Example", "package_examples", "roll_line", "duration", "CritcoreError",
    "InputError", "ParamError", "StateError", "DiceError", "TableError", "ConfigError", "PluginError",
}
TESTING_1_0 = {"Engine", "check_params", "Registry", "scan_entry_points", "cli", "RandomRoller", "ScriptedRoller",
               "exact_odds", "checking_keys", "simulate", "read_target", "render", "Campaign"}


def private_uses(text: str) -> list[tuple[int, str]]:
    """(line, what) for every import of the core beyond the face, and every ``critcore.X.``
    reached through the package itself."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] == "critcore" and node.module not in PUBLIC:
                found.append((node.lineno, f"imports {node.module}"))
            if node.module == "critcore":
                found += [(node.lineno, f"imports critcore.{a.name}") for a in node.names
                          if a.name in CORE_PARTS and f"critcore.{a.name}" not in PUBLIC]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, f"imports {a.name}") for a in node.names
                      if a.name.split(".")[0] == "critcore" and a.name not in PUBLIC]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "critcore":
            if node.attr in CORE_PARTS and f"critcore.{node.attr}" not in PUBLIC:
                found.append((node.lineno, f"uses critcore.{node.attr}"))
    return sorted(found)


def test_the_scan_finds_a_private_import():
    text = ("from critcore.model import Effect\nimport critcore.engine.runner\nfrom critcore import dice, hookimpl\n"
            "x: critcore.model.Outcome\nfrom critcore.plugin import Effect\nfrom critcore import testing\n")
    assert private_uses(text) == [(1, "imports critcore.model"), (2, "imports critcore.engine.runner"),
                                  (3, "imports critcore.dice"), (4, "uses critcore.model")]


def test_the_shipped_plugins_import_only_the_face():
    """Their sources and their tests alike."""
    files = sorted(p for p in (ROOT / "plugins").glob("*/*/**/*.py") if "build" not in p.parts)
    if not files:
        pytest.skip("no plugin sources beside the core (an installed core alone)")
    hits = [f"{p.relative_to(ROOT)}:{line}: {what}" for p in files
            for line, what in private_uses(p.read_text(encoding="utf-8"))]
    assert hits == []


def test_the_face_keeps_every_name_it_ever_had():
    assert FACE_1_0 <= set(critcore.plugin.__all__)
    assert TESTING_1_0 <= set(critcore.testing.__all__)
    for name in critcore.plugin.__all__:
        assert getattr(critcore.plugin, name) is not None
    for name in TESTING_1_0:
        assert getattr(critcore.testing, name) is not None
    assert all(critcore.plugin.SINCE[name] >= (1, 0) for name in FACE_1_0)


def test_an_unknown_face_name_is_one_clear_error():
    with pytest.raises(AttributeError, match="the plugin face lists"):
        critcore.plugin.Nonesuch  # noqa: B018


def test_importing_the_face_loads_nothing_it_is_not_asked_for():
    """Start-up: ``from critcore.plugin import hookimpl`` loads the hook marker's module, not the
    dice, tables, engine or words a plugin has not asked for yet."""
    import subprocess
    import sys

    code = ("import sys; from critcore.plugin import hookimpl; "
            "print(' '.join(m for m in sys.modules if m.startswith('critcore')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(done.stdout.split())
    assert "critcore.stages.loader" in loaded
    assert not loaded & {"critcore.dice.dice", "critcore.dice.notation", "critcore.dice.rollers", "critcore.tables.tableset", "critcore.engine.runner",
                         "critcore.report.render", "critcore.stages.context"}
