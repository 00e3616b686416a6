"""docs/writing-a-system.md followed from an empty folder, as a reader would: write the files the
page shows, ``pip install`` the package they make (into a folder of its own, put on PYTHONPATH, so
the environment running the tests is left as it was), then run every command the page shows with
``crit`` itself and compare what it prints with the text (the doc harness's rules: ``...`` lines,
``[...]`` in a line, ``# exit N``). The page's console blocks carry a doc-test skip marker, because
the plain doc run (tests/test_core_docs_run.py) has no d20 package; here they all run, in order."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from doc_harness import blocks, matches, run

DOC = Path(__file__).resolve().parent.parent / "docs" / "writing-a-system.md"
PACKAGE = "critcore-d20"


def _pip_install(package: Path, site: Path) -> None:
    """``pip install --no-deps --target site package``: without build isolation when this
    environment can build the wheel itself (fast, offline), else with it (pip fetches setuptools)."""
    base = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check",
            "--target", str(site)]
    done = subprocess.run([*base, "--no-build-isolation", str(package)], capture_output=True, text=True)
    if done.returncode != 0:
        done = subprocess.run([*base, str(package)], capture_output=True, text=True)
    assert done.returncode == 0, f"pip install ./{package.name} failed:\n{done.stdout}\n{done.stderr}"


def _write(folder: Path, name: str, text: str) -> None:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory):
    """The empty folder after the page's files are written and its package installed, and the
    folder pip installed into."""
    if not DOC.exists():
        pytest.skip("docs/ not present (installed-package run)")
    folder = tmp_path_factory.mktemp("reader")
    for block in blocks(DOC):
        if block.commands:  # the reader installs before the first command: what comes later is not there yet
            break
        if block.file is not None:
            _write(folder, block.file, block.text)
    assert (folder / PACKAGE / "pyproject.toml").is_file(), "the page shows no critcore-d20/pyproject.toml"
    site = tmp_path_factory.mktemp("site")
    _pip_install(folder / PACKAGE, site)
    return folder, site


def test_the_page_shows_every_file_of_its_layout():
    """Section 1's layout lists exactly the files the page then shows (and no file is shown twice)."""
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else pytest.skip("docs/ not present")
    layout = re.search(r"```\n(critcore-d20/\n.*?)```", text, re.S)
    assert layout, "no layout block"
    listed = {f"{PACKAGE}/{line.strip()}" for line in layout.group(1).splitlines()[1:] if line.strip()}
    shown = [b.file for b in blocks(DOC) if b.file is not None]
    assert len(shown) == len(set(shown))
    assert listed == set(shown)


def test_the_page_imports_only_the_plugin_face():
    """The plugin and its tests import from critcore.plugin, critcore.testing and critcore alone."""
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else pytest.skip("docs/ not present")
    imports = re.findall(r"^\s*(?:from|import) (critcore(?:\.\w+)*)(?!\w)", text, re.M)
    assert imports, "the page imports nothing from critcore"
    assert set(imports) <= {"critcore", "critcore.plugin", "critcore.testing"}, sorted(set(imports))


def test_the_page_names_the_entry_point_groups():
    from critcore.plugin import RULES_GROUP, SYSTEMS_GROUP

    text = DOC.read_text(encoding="utf-8") if DOC.exists() else pytest.skip("docs/ not present")
    assert f"`{SYSTEMS_GROUP}`" in text and f"`{RULES_GROUP}`" in text


def test_the_page_documents_every_table_key():
    """The table format section names every top-level key and row key the loader reads."""
    from critcore.tables.tableset import ROW_KEYS

    text = DOC.read_text(encoding="utf-8") if DOC.exists() else pytest.skip("docs/ not present")
    section = text[text.index("### The table format"):text.index("### Declaring row schemas")]
    for key in ("id", "title", "dice", "range", "[[row]]", "[row_schema]", *sorted(ROW_KEYS)):
        assert f"| `{key}` |" in section, key


def test_the_pyproject_declares_the_entry_point(tutorial):
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib

    folder, _ = tutorial
    data = tomllib.loads((folder / PACKAGE / "pyproject.toml").read_text(encoding="utf-8"))
    assert data["project"]["entry-points"]["critcore.systems"] == {"d20": "critcore_d20.plugin"}


def test_every_command_on_the_page_prints_what_it_shows(tutorial, monkeypatch):
    """Every console block, in order, in the reader's folder, with the package installed as it
    stood at the first command: a command that needs a file a later section adds fails here."""
    folder, site = tutorial
    monkeypatch.setenv("PYTHONPATH", str(site))
    problems: list[str] = []
    ran = 0
    for block in blocks(DOC):
        if block.file is not None:  # a file the page shows after the install (the package's tests)
            _write(folder, block.file, block.text)
            continue
        for cmd in block.commands:
            code, out = run(cmd.text, folder)
            ran += 1
            where = f"{DOC.name}:{cmd.line}: $ {cmd.text}"
            if code != cmd.exit_code:
                problems.append(f"{where}\n  exit {code}, expected {cmd.exit_code}\n" + "\n".join(out))
            elif cmd.expected and not matches(cmd.expected, out):
                problems.append(f"{where}\n  the doc shows:\n" + "\n".join(cmd.expected) + "\n  it printed:\n"
                                + "\n".join(out))
    assert ran >= 10, f"only {ran} commands on the page"
    assert not problems, "\n\n".join(problems)


def test_crit_finds_the_installed_entry_point(tutorial, monkeypatch):
    """The package is found as an installed distribution (its entry point), not imported by path."""
    folder, site = tutorial
    monkeypatch.setenv("PYTHONPATH", str(site))
    code, out = run("crit systems", folder)
    assert code == 0 and any(line.startswith("d20  d20 critical hits  (critcore-d20 0.1.0)") for line in out), out


# --- docs/house-rules.md, Part 2: the hard-to-kill rule package --------------------------------

HOUSE_RULES = DOC.with_name("house-rules.md")
RULE_PACKAGE = "hard-to-kill"


def test_the_house_rule_tutorial_runs_in_the_campaign_folder(tmp_path, monkeypatch):
    """docs/house-rules.md as one session, as the doc run has it (the shipped examples, then every
    block in order), but with the blocks that need the tutorial's hard-to-kill package run too:
    the package is pip-installed where the page says so, in the same folder where the page had the
    reader write critcore.toml (which enables toughness), and every command must print what the
    page shows there."""
    from doc_harness import prepare

    if not HOUSE_RULES.exists():
        pytest.skip("docs/ not present (installed-package run)")
    for system in ("critcore_gurps", "critcore_shadowrun2"):  # the page resolves on both (the core alone: skip)
        pytest.importorskip(system)
    found = blocks(HOUSE_RULES)
    prepare(tmp_path)
    site = tmp_path.parent / (tmp_path.name + "-site")
    installed = False
    problems: list[str] = []
    ran_with_package = 0
    for block in found:
        if block.file is not None:
            _write(tmp_path, block.file, block.text)
            continue
        needs = block.skip is not None and RULE_PACKAGE in block.skip
        if block.skip is not None and not needs:
            continue
        if needs and not installed:
            assert (tmp_path / "critcore.toml").is_file(), "the page installs the rule before writing critcore.toml"
            _pip_install(tmp_path / RULE_PACKAGE, site)
            monkeypatch.setenv("PYTHONPATH", str(site))
            installed = True
        for cmd in block.commands:
            code, out = run(cmd.text, tmp_path)
            ran_with_package += installed
            where = f"{HOUSE_RULES.name}:{cmd.line}: $ {cmd.text}"
            if code != cmd.exit_code:
                problems.append(f"{where}\n  exit {code}, expected {cmd.exit_code}\n" + "\n".join(out))
            elif cmd.expected and not matches(cmd.expected, out):
                problems.append(f"{where}\n  the doc shows:\n" + "\n".join(cmd.expected) + "\n  it printed:\n"
                                + "\n".join(out))
    assert installed and ran_with_package >= 4, "the page's hard-to-kill commands were not found"
    assert not problems, "\n\n".join(problems)
