"""Plugin discovery and loading: entry points read one by one, broken plugins isolated."""

import textwrap

import pytest

from critcore.engine.runner import Engine
from critcore.errors import PluginError
from critcore.stages.loader import Registry, scan_entry_points


def make_dist(site, dist, version, group, name, value, module_source=None, module_name=None):
    info = site / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Name: {dist}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(f"[{group}]\n{name} = {value}\n")
    if module_source is not None:
        (site / f"{module_name}.py").write_text(textwrap.dedent(module_source))


GOOD_SYSTEM = '''
from critcore import hookimpl
from critcore.model import SystemInfo, Procedure, Determination

@hookimpl
def critcore_system():
    return SystemInfo("good", "Good", (Procedure("roll", "Roll a d6."),))

@hookimpl
def critcore_determine(ctx):
    return Determination("x", False, "rolled " + str(ctx.dice.roll("1d6", "d").total), final=True)
'''


@pytest.fixture
def site(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_scan_finds_entry_points_without_importing(site):
    make_dist(site, "critcore-good", "1.2", "critcore.systems", "good", "good_mod", GOOD_SYSTEM, "good_mod")
    found = scan_entry_points(["critcore.systems"], [str(site)])
    spec = found["critcore.systems"]["good"]
    assert (spec.dist, spec.version, spec.value, spec.obj) == ("critcore-good", "1.2", "good_mod", None)


def test_a_broken_plugin_is_one_line_and_others_keep_working(site):
    make_dist(site, "critcore-good", "1.0", "critcore.systems", "good", "good_mod", GOOD_SYSTEM, "good_mod")
    make_dist(site, "critcore-broken", "0.3", "critcore.systems", "broken", "broken_mod",
              "import not_a_module_anywhere\n", "broken_mod")
    reg = Registry.installed()
    assert {"good", "broken"} <= set(reg.systems)
    with pytest.raises(PluginError) as err:
        Engine("broken", registry=reg)
    message = str(err.value)
    assert "\n" not in message and "critcore-broken 0.3" in message and "not_a_module_anywhere" in message
    out = Engine("good", registry=reg).run("roll", dice="4")
    assert out.determination.summary == "rolled 4"


def test_disable_plugins_by_name(site, monkeypatch):
    make_dist(site, "critcore-good", "1.0", "critcore.systems", "good", "good_mod", GOOD_SYSTEM, "good_mod")
    monkeypatch.setenv("CRITCORE_DISABLE_PLUGINS", "other, good")
    assert "good" not in Registry.installed().systems


def test_only_the_chosen_system_is_imported(site):
    import sys

    make_dist(site, "critcore-good", "1.0", "critcore.systems", "good", "good_mod", GOOD_SYSTEM, "good_mod")
    make_dist(site, "critcore-other", "1.0", "critcore.systems", "other", "other_mod", GOOD_SYSTEM, "other_mod")
    Engine("good", registry=Registry.installed())
    assert "good_mod" in sys.modules and "other_mod" not in sys.modules


def test_installed_rule_plugin_is_not_imported_until_enabled(site):
    import sys

    make_dist(site, "critcore-good", "1.0", "critcore.systems", "good", "good_mod", GOOD_SYSTEM, "good_mod")
    make_dist(site, "critcore-rule", "1.0", "critcore.rules", "lucky", "lucky_mod",
              "raise RuntimeError('imported too early')\n", "lucky_mod")
    Engine("good", registry=Registry.installed())
    assert "lucky_mod" not in sys.modules
    with pytest.raises(PluginError, match=r"house rule plugin 'lucky' \(critcore-rule 1.0\) failed to load"):
        Engine("good", rules=["lucky"], registry=Registry.installed())


def test_entry_point_with_attribute(site):
    make_dist(site, "critcore-good", "1.0", "critcore.systems", "good", "good_mod2:plugin",
              "from types import SimpleNamespace\nimport good_inner\nplugin = good_inner\n", "good_mod2")
    (site / "good_inner.py").write_text(GOOD_SYSTEM)
    assert Engine("good", registry=Registry.installed()).info.name == "good"


def test_plugin_that_does_not_describe_itself(site):
    make_dist(site, "critcore-mute", "1.0", "critcore.systems", "mute", "mute_mod", "x = 1\n", "mute_mod")
    with pytest.raises(PluginError, match="did not describe itself"):
        Engine("mute", registry=Registry.installed())


def test_a_name_three_distributions_claim_names_all_three():
    """Duplicate names load none of the claimants, and the error names every distribution."""
    from critcore.stages.loader import SYSTEMS_GROUP, PluginSpec, _claim

    found: dict = {}
    for dist in ("one-dist", "two-dist", "three-dist"):
        _claim(found, PluginSpec("gurps", SYSTEMS_GROUP, "x:y", dist), set())
    error = found["gurps"].error
    assert "claimed by 3 distributions, one-dist and two-dist and three-dist: none is loaded" in error
