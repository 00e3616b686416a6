"""A broken, hostile or careless plugin never takes `crit` down for the other systems, and never
replaces another system silently.

Each test installs fake distributions into a folder (a ``NAME.dist-info/entry_points.txt`` and a
module, the way pip lays them out) and runs the real `crit` in a subprocess with that folder on
its path. The good system is the core's fake d20 game (tests/fakesystem.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def install(site: Path, dist: str, module: str, source: str, entry: str, group: str = "critcore.systems") -> None:
    """Lay out a distribution ``dist`` whose entry point ``entry`` in ``group`` is ``module``."""
    info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "entry_points.txt").write_text(f"[{group}]\n{entry} = {module}\n")
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (site / f"{module}.py").write_text(textwrap.dedent(source))


GOOD = "from fakesystem import *\n"


def crit(site: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("CRITCORE_DISABLE_PLUGINS", "CRITCORE_DEBUG")}
    environ["PYTHONPATH"] = os.pathsep.join([str(site), str(TESTS)])
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", "critcore", *args], capture_output=True, text=True,
                          env=environ, cwd=site, timeout=60)


def one_line(result: subprocess.CompletedProcess[str], code: int, *needles: str) -> str:
    assert result.returncode == code, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    install(site, "good-d20", "good_d20", GOOD, "good")
    return site


def still_works(site: Path) -> None:
    result = crit(site, "resolve", "good", "attack", "--dice", "20,6,8")
    assert result.returncode == 0, result.stderr
    assert "24 damage" in result.stdout


def test_a_plugin_raising_at_import_is_listed_broken_and_the_rest_works(site: Path) -> None:
    install(site, "boom-import", "boom_import", "raise RuntimeError('no luck')\n", "boom")
    listing = crit(site, "systems")
    assert listing.returncode == 0, listing.stderr
    assert "boom  BROKEN" in listing.stdout and "boom-import" in listing.stdout and "no luck" in listing.stdout
    assert "good  Fake d20" in listing.stdout
    one_line(crit(site, "resolve", "boom", "attack"), 1, "boom-import", "RuntimeError: no luck")
    still_works(site)


def test_a_plugin_calling_sys_exit_at_import_does_not_end_crit(site: Path) -> None:
    install(site, "quitter", "quitter", "import sys\nsys.exit(3)\n", "quitter")
    listing = crit(site, "systems")
    assert listing.returncode == 0, listing.stderr
    assert "quitter  BROKEN" in listing.stdout and "sys.exit(3)" in listing.stdout
    assert "good  Fake d20" in listing.stdout
    still_works(site)


def test_a_system_hook_that_raises_is_listed_broken(site: Path) -> None:
    install(site, "bad-describe", "bad_describe", GOOD + "@hookimpl\ndef critcore_system():\n    return 1 / 0\n"
            .replace("@hookimpl", "from critcore import hookimpl\n@hookimpl"), "baddesc")
    listing = crit(site, "systems")
    assert listing.returncode == 0, listing.stderr
    assert "baddesc  BROKEN" in listing.stdout and "bad-describe" in listing.stdout
    assert "critcore_system" in listing.stdout and "ZeroDivisionError" in listing.stdout
    as_json = crit(site, "systems", "--json")
    assert as_json.returncode == 0 and '"baddesc"' in as_json.stdout
    still_works(site)


def test_a_stage_that_raises_is_one_line_naming_the_distribution_and_the_hook(site: Path) -> None:
    source = GOOD + textwrap.dedent("""
        from critcore import hookimpl

        @hookimpl
        def critcore_apply(ctx, determination, location, effects):
            raise KeyError("hp")
    """)
    install(site, "buggy-apply", "buggy_apply", source, "buggy")
    one_line(crit(site, "resolve", "buggy", "attack", "--dice", "20,6,8"), 1,
             "system plugin 'buggy' (buggy-apply 1.0)", "critcore_apply", "KeyError")
    debug = crit(site, "resolve", "buggy", "attack", "--dice", "20,6,8", env={"CRITCORE_DEBUG": "1"})
    assert "Traceback" in debug.stderr  # a plugin author can still see where
    still_works(site)


def test_a_rule_plugin_whose_hook_raises_is_one_line(site: Path) -> None:
    source = textwrap.dedent("""
        from critcore import hookimpl

        @hookimpl(tryfirst=True)
        def critcore_determine(ctx):
            raise ValueError("bad luck")
    """)
    install(site, "sour-rule", "sour_rule", source, "sour", group="critcore.rules")
    one_line(crit(site, "resolve", "good", "attack", "--dice", "20,6,8", "--rule", "sour"), 1,
             "house rule plugin 'sour' (sour-rule 1.0)", "critcore_determine", "ValueError: bad luck")
    still_works(site)


def test_two_distributions_claiming_one_name_load_neither_until_the_user_picks(site: Path) -> None:
    install(site, "impostor-d20", "impostor", GOOD.replace("*", "*\nINFO = INFO.__class__(**{**INFO.__dict__})"),
            "good")
    listing = crit(site, "systems")
    assert "good  BROKEN" in listing.stdout
    assert "good-d20" in listing.stdout and "impostor-d20" in listing.stdout
    one_line(crit(site, "resolve", "good", "attack", "--dice", "20,6,8"), 1, "claimed by two distributions",
             "CRITCORE_DISABLE_PLUGINS=")
    picked = crit(site, "resolve", "good", "attack", "--dice", "20,6,8",
                  env={"CRITCORE_DISABLE_PLUGINS": "impostor-d20"})
    assert picked.returncode == 0 and "24 damage" in picked.stdout, picked.stderr


def test_a_misspelt_hook_name_is_one_line_naming_the_plugin(site: Path) -> None:
    source = GOOD + "from critcore import hookimpl\n@hookimpl\ndef critcore_determin(ctx):\n    return None\n"
    install(site, "typo-hook", "typo_hook", source, "typo")
    one_line(crit(site, "resolve", "typo", "attack"), 1, "system plugin 'typo' (typo-hook 1.0)", "critcore_determin")
    still_works(site)


def test_a_misspelt_hook_argument_is_one_line_naming_the_plugin(site: Path) -> None:
    source = GOOD + "from critcore import hookimpl\n@hookimpl\ndef critcore_locate(ctx, determinaton):\n    return None\n"
    install(site, "typo-arg", "typo_arg", source, "typoarg")
    one_line(crit(site, "resolve", "typoarg", "attack"), 1, "typo-arg", "determinaton")
    still_works(site)
