"""Named events (outcome tags) in exact odds and simulation, the comparison of rule sets, the
odds JSON (format 2), charts, progress and Ctrl-C: on the fake system, worked out by hand.

The fake game (tests/fakesystem.py): 1d20, 20 a critical, 1 a fumble; a critical rolls 1d6 on
the confirm table (1-2 x1, 3-5 x2, 6 x3) and 1d8 damage is multiplied. Events: critical,
fumble, overkill (10 damage or more).
"""

import io
import json
from fractions import Fraction

import pytest
from runlength import examples

import critcore
from critcore.engine.runner import Engine
from critcore.chance.exact import exact_odds
from critcore.chance.montecarlo import simulate

CRITICAL = Fraction(1, 20)
FUMBLE = Fraction(1, 20)
# 10 or more damage only on a critical: x2 needs 1d8 of 5-8 (4/8), x3 needs 4-8 (5/8)
OVERKILL = Fraction(1, 20) * (Fraction(3, 6) * Fraction(4, 8) + Fraction(1, 6) * Fraction(5, 8))


def test_each_event_has_its_exact_probability_by_hand(registry):
    """critical 1/20, fumble 1/20, overkill 1/20 x (3/6 x 4/8 + 1/6 x 5/8) = 17/960."""
    odds = exact_odds(Engine("fake", registry=registry), "attack", {"ac": 15})
    found = {e.name: p for e, p in odds.event_odds()}
    assert found == {"critical": CRITICAL, "fumble": FUMBLE, "overkill": Fraction(17, 960)}
    assert OVERKILL == Fraction(17, 960)
    assert odds.event("overkill") == OVERKILL


def test_simulated_events_agree_with_the_exact_ones_within_their_interval(registry):
    engine = Engine("fake", registry=registry)
    sim = simulate(engine, "attack", {"ac": 15}, n=60_000, seed=5)
    exact = {"critical": CRITICAL, "fumble": FUMBLE, "overkill": OVERKILL}
    rows = sim.event_estimates()
    assert [e.name for e, *_ in rows] == ["critical", "fumble", "overkill"]
    for event, count, freq, low, high in rows:
        assert freq == count / 60_000
        assert low <= float(exact[event.name]) <= high, event.name


def test_a_rule_plugin_may_add_events():
    """RuleInfo(events=...) adds the rule's events after the system's."""
    from critcore import hookimpl
    from critcore.model import Event
    from critcore.stages.loader import RuleInfo

    class Lucky:
        @hookimpl
        def critcore_rule(self):
            return RuleInfo("lucky", "fake", "Lucky.", events=(Event("lucky", "a lucky 20"),))

        @hookimpl(wrapper=True)
        def critcore_determine(self, ctx):
            det = yield
            if det is not None and det.kind == "critical":
                from dataclasses import replace

                return replace(det, tags=det.tags | {"lucky"})
            return det

    import fakesystem
    from critcore.stages.loader import Registry

    reg = Registry.installed(extra_systems={"fake": fakesystem}, extra_rules={"lucky": Lucky()}, discover=False)
    odds = critcore.odds("fake", "attack", registry=reg, rules=["lucky"], ac=15)
    assert [e.name for e, _ in odds.event_odds()] == ["critical", "fumble", "overkill", "lucky"]
    assert odds.event("lucky") == CRITICAL


def test_odds_text_leads_with_the_events_then_the_outcomes(invoke):
    out = invoke("odds", "fake", "attack", "--ac", "15").output
    lines = out.splitlines()
    assert lines[1] == "events" and lines.index("outcomes") > lines.index("events")
    critical = next(line for line in lines if line.strip().startswith("critical hit"))
    assert "5.0000%" in critical and "1/20" in critical
    assert "1.7708%" in out and "17/960" in out  # overkill


@pytest.fixture
def with_rules():
    """Run the CLI with the fake system and its two rules, keen-edge and brutal."""
    from click.testing import CliRunner

    import fakerules
    import fakesystem
    from critcore.cli.main import cli
    from critcore.stages.loader import Registry

    reg = Registry.installed(extra_systems={"fake": fakesystem},
                             extra_rules={"keen-edge": fakerules.KeenEdge(), "brutal": fakerules.Brutal()},
                             discover=False)
    return lambda *args: CliRunner().invoke(cli, list(args), obj=reg)


def test_no_line_of_the_outcome_tree_repeats_another(invoke):
    """The fake system's locate names 'Body' for every hit: said once, on the same line."""
    out = invoke("odds", "fake", "attack", "--ac", "15").output.splitlines()
    tree = out[out.index("outcomes") + 1:-1]
    labels = [line.strip().rsplit("  ", 2)[0] for line in tree]
    for parent, child in zip(labels, labels[1:]):
        assert child != parent
    assert len(set(line.strip() for line in tree)) == len(tree)


def test_chart_off_when_piped_on_when_asked_never_in_json(invoke):
    piped = invoke("odds", "fake", "attack", "--ac", "15").output
    assert "█" not in piped
    charted = invoke("odds", "fake", "attack", "--ac", "15", "--chart").output
    assert "█" in charted
    data = invoke("odds", "fake", "attack", "--ac", "15", "--chart", "--json").output
    assert "█" not in data and json.loads(data)["format"] == 2


def test_json_format_2_events_then_outcomes_one_probability_representation(invoke):
    odds = json.loads(invoke("odds", "fake", "attack", "--ac", "15", "--json").output)
    sim = json.loads(invoke("simulate", "fake", "attack", "--ac", "15", "-n", "2000", "--json").output)
    for data in (odds, sim):
        assert data["format"] == 2
        keys = list(data)
        assert keys.index("events") < keys.index("outcomes")
        for entry in data["events"] + data["outcomes"]:
            p = entry["probability"]
            assert set(p) == {"fraction", "float"}
            num, den = map(int, p["fraction"].split("/"))
            assert abs(num / den - p["float"]) < 1e-12
    assert odds["events"][0] == {"name": "critical", "text": "critical hit",
                                 "probability": {"fraction": "1/20", "float": 0.05}}
    assert sim["events"][0]["probability"]["fraction"].endswith("/2000") and "ci95" in sim["events"][0]


def test_json_stores_each_stage_result_and_state_once(registry, tmp_path):
    """Outcomes refer to stage results by index; a state is its difference from the input."""
    from critcore.chance.view import odds_json

    odds = exact_odds(Engine("fake", registry=registry), "attack", {"ac": 15}, target={"hp": 30, "name": "Ork"})
    data = odds_json(odds)
    parts, states = data["parts"], data["states"]
    for o in data["outcomes"]:
        if o["applied"] is not None:
            applied = parts["applied"][o["applied"]]
            patch = states[applied["target"]]
            assert set(patch) == {"hp"}  # only what changed; the name is the input's
    assert len(states) == len({json.dumps(s, sort_keys=True) for s in states})
    assert sum(Fraction(o["probability"]["fraction"]) for o in data["outcomes"]) == 1


def test_merge_patch():
    """RFC 7386: changed keys only, nested tables as patches, null for a removed key."""
    from critcore.model import freeze
    from critcore.chance.view import merge_patch

    before = freeze({"a": 1, "b": {"c": 2, "d": 3}, "e": [1, 2], "gone": True})
    after = freeze({"a": 1, "b": {"c": 2, "d": 4}, "e": [1, 2, 3], "new": "x"})
    assert merge_patch(before, after) == {"b": {"d": 4}, "e": [1, 2, 3], "new": "x", "gone": None}


def test_compare_shows_each_event_with_and_without_the_rules_exactly(with_rules):
    """keen-edge criticals on 18-20: 3/20 against 1/20, a difference of +1/10 (10 points)."""
    result = with_rules("odds", "fake", "attack", "--ac", "15", "--rule", "keen-edge", "--compare")
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.strip().startswith("critical hit"))
    assert "15.0000% 3/20" in line and "5.0000% 1/20" in line and "+10.0000 pp  (+1/10)" in line
    data = json.loads(with_rules("odds", "fake", "attack", "--ac", "15", "--rule", "keen-edge", "--compare",
                             "--json").output)
    assert data["kind"] == "odds-comparison" and data["rules"] == ["keen-edge"] and data["against"] == []
    critical = data["events"][0]
    assert critical["with"]["fraction"] == "3/20" and critical["without"]["fraction"] == "1/20"
    assert critical["difference"] == {"fraction": "1/10", "float": 0.1}
    # keen edge has no fumble on a 1: 0 against 1/20
    assert data["events"][1]["difference"]["fraction"] == "-1/20"


def test_compare_between_two_rule_sets_and_as_estimates(with_rules):
    data = json.loads(with_rules("simulate", "fake", "attack", "--ac", "15", "--rule", "keen-edge", "--compare",
                             "--against", "brutal", "-n", "20000", "--json").output)
    assert data["kind"] == "simulation-comparison" and data["against"] == ["brutal"]
    critical = data["events"][0]
    low, high = critical["difference_ci95"]
    assert low <= 0.1 <= high  # 3/20 - 1/20


def test_compare_needs_a_rule_and_against_needs_compare(invoke):
    result = invoke("odds", "fake", "attack", "--compare")
    assert result.exit_code == 2 and "no house rule is enabled" in result.output
    result = invoke("odds", "fake", "attack", "--against", "brutal")
    assert result.exit_code == 2 and "--compare" in result.output


def test_ctrl_c_keeps_the_runs_done_and_marks_them_partial(registry):
    engine = Engine("fake", registry=registry)
    seen = []

    def progress(done):
        seen.append(done)
        if len(seen) == 3:
            raise KeyboardInterrupt

    sim = simulate(engine, "attack", {"ac": 15}, n=100_000, seed=1, progress=progress, stop_ok=True)
    assert sim.partial and sim.n == seen[-1] < 100_000
    assert sum(c for _, c in sim.counts) == sim.n
    seen.clear()
    with pytest.raises(KeyboardInterrupt):
        simulate(engine, "attack", {"ac": 15}, n=100_000, seed=1, progress=progress, stop_ok=False)


def test_ctrl_c_on_simulate_prints_the_estimate_so_far(invoke, monkeypatch):
    from critcore.cli import progress

    calls = []

    def interrupt(self, done, total):
        calls.append(done)
        if len(calls) == 5:
            raise KeyboardInterrupt

    monkeypatch.setattr(progress.Progress, "__call__", interrupt)
    result = invoke("simulate", "fake", "attack", "-n", "100000")
    assert result.exit_code == 0, result.output
    assert "PARTIAL" in result.output and "partial estimates" in result.output
    calls.clear()
    data = json.loads(invoke("simulate", "fake", "attack", "-n", "100000", "--json").output)
    assert data["partial"] is True and data["n"] < 100_000


def test_progress_line_has_a_rate_and_an_eta_and_is_erased():
    from critcore.cli.progress import Progress

    stream = io.StringIO()
    bar = Progress("simulating", "runs", stream, enabled=True, delay=0)
    bar.start -= 2  # two seconds in
    bar(500, 1000)
    text = stream.getvalue()
    assert "500/1,000 runs (50%)" in text and "runs/s" in text and "left" in text
    bar.close()
    assert stream.getvalue().endswith("\r")
    quiet = io.StringIO()
    Progress("x", "runs", quiet, enabled=False, delay=0)(1, 2)
    assert quiet.getvalue() == ""


def _apply_merge_patch(target, patch):
    """RFC 7386, section 2: how a reader of the odds JSON turns a state back into a whole one."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = _apply_merge_patch(out.get(key), value)
    return out


def test_a_merge_patch_applied_to_the_input_gives_the_state_back():
    """For any two JSON states (no key set to null: RFC 7386 reads null as removed)."""
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import strategies as st

    from critcore.model import freeze, thaw
    from critcore.chance.view import merge_patch

    leaves = st.one_of(st.integers(-5, 5), st.booleans(), st.text(max_size=3))
    values = st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                          st.dictionaries(st.text(max_size=2), inner, max_size=3)),
                          max_leaves=12)
    states = st.dictionaries(st.text(max_size=2), values, max_size=4)

    @hypothesis.settings(max_examples=examples(100, 2000), deadline=None)
    @hypothesis.given(states, states)
    def check(before, after):
        patch = merge_patch(freeze(before), freeze(after))
        assert _apply_merge_patch(before, patch) == thaw(freeze(after))

    check()


def test_ctrl_c_on_one_side_of_a_comparison_runs_the_other_side_as_far(with_rules, monkeypatch):
    """Stopped early, the rules' side has n runs; the other side then runs n too, so the
    estimates compare like with like."""
    from critcore.cli import progress

    calls = []

    def interrupt(self, done, total):
        calls.append(done)
        if len(calls) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(progress.Progress, "__call__", interrupt)
    data = json.loads(with_rules("simulate", "fake", "attack", "--rule", "keen-edge", "--compare", "-n", "100000",
                                 "--json").output)
    assert data["partial"] is True and data["n"][0] == data["n"][1] < 100_000
