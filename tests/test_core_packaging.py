"""Packaging metadata of every package in the checkout (issue 15): an MIT LICENSE file beside each
pyproject, PEP 639 metadata (`license = "MIT"`, `license-files`) with a setuptools that supports
it (77+), project URLs, a classifier per Python version tested, plugins depending on critcore in
a compatible range, and sdists that carry the tests (MANIFEST.in). Skipped outside a checkout."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PROJECTS = [ROOT] + sorted(p for p in (ROOT / "plugins").glob("*") if (p / "pyproject.toml").is_file()) \
    if (ROOT / "plugins").is_dir() else []
TESTED = ("3.10", "3.11", "3.12", "3.13")

pytestmark = pytest.mark.skipif(not PROJECTS, reason="not a checkout (plugins/ absent)")


def meta(folder: Path) -> dict:
    return tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("folder", PROJECTS, ids=lambda p: p.name)
def test_license_is_mit_in_pep_639_form(folder: Path) -> None:
    data = meta(folder)
    assert data["project"]["license"] == "MIT"
    assert data["project"]["license-files"] == ["LICENSE"]
    text = (folder / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    backend = " ".join(data["build-system"]["requires"])
    low = re.search(r"setuptools>=(\d+)", backend)
    assert low is not None and int(low.group(1)) >= 77  # PEP 639 needs setuptools 77
    assert not any(c.startswith("License ::") for c in data["project"]["classifiers"])  # superseded by the expression


@pytest.mark.parametrize("folder", PROJECTS, ids=lambda p: p.name)
def test_urls_and_python_classifiers(folder: Path) -> None:
    project = meta(folder)["project"]
    assert {"Homepage", "Source", "Issues", "Documentation"} <= set(project["urls"])
    assert project["requires-python"] == f">={TESTED[0]}"
    for version in TESTED:
        assert f"Programming Language :: Python :: {version}" in project["classifiers"]


@pytest.mark.parametrize("folder", PROJECTS[1:], ids=lambda p: p.name)
def test_plugins_depend_on_critcore_within_a_compatible_range(folder: Path) -> None:
    deps = [d for d in meta(folder)["project"]["dependencies"] if d.startswith("critcore")]
    assert deps and all(re.fullmatch(r"critcore(-[a-z0-9]+)?>=0\.1,<0\.2", d) for d in deps), deps


@pytest.mark.parametrize("folder", PROJECTS, ids=lambda p: p.name)
def test_sdists_carry_the_tests(folder: Path) -> None:
    manifest = (folder / "MANIFEST.in").read_text(encoding="utf-8")
    assert "graft tests" in manifest and "include LICENSE" in manifest


def test_example_house_rules_are_package_data() -> None:
    folder = ROOT / "plugins" / "critcore-example-house-rules"
    data = meta(folder)["tool"]["setuptools"]["package-data"]
    assert data["critcore_example_house_rules.examples"] == ["*.toml"]
    assert sorted(p.name for p in (folder / "src" / "critcore_example_house_rules" / "examples").glob("*.toml"))
