"""One engine per command (issue 13): ``crit resolve|treat|odds|simulate`` build the engine once,
after the config, the campaign and ``--rule`` have said which house rules and options apply; listing
a system's procedures for click builds none."""

import json

import pytest

from critcore.engine import runner as engine_module


@pytest.fixture
def engines(monkeypatch):
    """The rules of every Engine built, in order."""
    built = []
    real = engine_module.Engine.__init__

    def counting(self, system, rules=(), *args, **kwargs):
        built.append((system, tuple(rules)))
        real(self, system, rules, *args, **kwargs)

    monkeypatch.setattr(engine_module.Engine, "__init__", counting)
    return built


BRUTAL = 'name = "brutal"\nsystem = "fake"\n\n[options]\ncrit_on_19 = true\n'
GENTLE = 'name = "gentle"\nsystem = "fake"\nsummary = "a changed summary only"\n'


def ok(result):
    assert result.exit_code == 0, result.output
    return result.output


def test_a_resolution_without_rules_builds_one_engine(invoke, engines):
    ok(invoke("resolve", "fake", "attack", "--dice", "20,4,5"))
    assert engines == [("fake", ())]


def test_config_rules_and_rule_options_build_one_engine_with_all_of_them(invoke, engines, isolated_config):
    """Rules from critcore.toml come first, then --rule; the config's option is applied (a 19 is a
    critical under crit_on_19: the confirm roll and damage follow)."""
    (isolated_config / "brutal.toml").write_text(BRUTAL)
    (isolated_config / "gentle.toml").write_text(GENTLE)
    (isolated_config / "critcore.toml").write_text('rules = ["brutal.toml"]\n')
    data = json.loads(ok(invoke("resolve", "fake", "attack", "--dice", "19,3,3", "--rule", "gentle.toml", "--json")))
    assert engines == [("fake", (str(isolated_config / "brutal.toml"), "gentle.toml"))]  # config paths: from its folder
    assert [r["label"] for r in data["rolls"]] == ["attack roll", "critical confirmation", "damage"]


def test_a_campaign_target_builds_one_engine_with_the_campaigns_rules(invoke, engines, isolated_config):
    ok(invoke("campaign", "new"))
    (isolated_config / "ogre.json").write_text('{"hp": 10}')
    ok(invoke("campaign", "add", "fake", "ogre", "ogre.json"))
    rule = isolated_config / "brutal.toml"
    rule.write_text(BRUTAL)
    ok(invoke("campaign", "enable", str(rule)))
    engines.clear()
    # crit_on_19 from the campaign's rule: a natural 19 is a critical; confirm 3 "solid" doubles 1d8 = 3: 6
    ok(invoke("resolve", "fake", "attack", "--dice", "19,3,3", "--target", "@ogre"))
    assert engines == [("fake", (str(rule),))]
    assert ok(invoke("campaign", "show", "ogre")).strip() == "hp: 4"


def test_listing_and_help_build_no_engine(invoke, engines):
    """``crit resolve fake`` and ``--help`` need the system's description only."""
    assert "attack" in ok(invoke("resolve", "fake"))
    assert "--ac" in ok(invoke("resolve", "fake", "attack", "--help"))
    assert engines == []


def test_odds_builds_one_engine_and_compare_one_more(invoke, engines, isolated_config):
    """--compare runs the procedure with and without the rules: two engines, one per side."""
    (isolated_config / "brutal.toml").write_text(BRUTAL)
    ok(invoke("odds", "fake", "attack", "--json"))
    assert engines == [("fake", ())]
    engines.clear()
    ok(invoke("odds", "fake", "attack", "--rule", "brutal.toml", "--compare", "--json"))
    assert engines == [("fake", ("brutal.toml",)), ("fake", ())]


def test_the_loaded_plugin_manager_goes_to_the_engine_it_is_handed_to(registry, isolated_config):
    """load_system's plugin manager (crit lists a system's procedures with it) is used by the
    engine it is handed to, unless a rule plugin joins; an engine given none loads its own."""
    import fakerules
    from critcore.engine.runner import Engine, load_system
    from critcore.stages.loader import Registry

    pm, info = load_system("fake", registry)
    given, own = Engine("fake", registry=registry, plugin_manager=pm), Engine("fake", registry=registry)
    assert given.pm is pm and given.info is info and own.pm is not pm
    (isolated_config / "r.toml").write_text(BRUTAL)
    with_file_rule = Engine("fake", rules=["r.toml"], registry=registry, plugin_manager=pm)  # no rule plugin
    assert with_file_rule.pm is pm and with_file_rule.options["crit_on_19"] is True
    rules_reg = Registry.installed(extra_systems={"fake": registry.systems["fake"]},
                                   extra_rules={"keen": fakerules.KeenEdge()}, discover=False)
    pm, _ = load_system("fake", rules_reg)
    assert Engine("fake", rules=["keen"], registry=rules_reg, plugin_manager=pm).pm is not pm
