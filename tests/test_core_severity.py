"""Severity (issue 30): one ranking of how serious an outcome is drives the headline, the
terminal's colour and the JSON's ``severity``, ``summary`` and ``changes``.

The expected values come from the rules each system's page gives: a Quillback's left torso on
seed 2 rolls 12 to determine criticals (three critical hits), the second lands on its SRM-4
ammunition, which explodes; a GURPS hit for a few points is a plain hit; 6,6,6 on an attack roll
is a critical miss; a Shadowrun Mortal critical kills unless treated.
"""

from __future__ import annotations

import json
from importlib.metadata import entry_points

import pytest
from click.testing import CliRunner

from critcore.cli.main import cli
from critcore.model import SEVERITIES, Applied, Data, Determination, Outcome, Step
from critcore.report.render import judge
from critcore.report.severity import rank
from critcore.report.style import STYLES

INSTALLED = {ep.name for ep in entry_points(group="critcore.systems")}


def needs(*systems: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(not set(systems) <= INSTALLED, reason=f"needs {', '.join(systems)}")


def run(tmp_path: object, *args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def folder(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CRITCORE_CAMPAIGN", raising=False)
    monkeypatch.setenv("CRITCORE_CONFIG", str(tmp_path / "none.toml"))
    assert CliRunner().invoke(cli, ["examples"]).exit_code == 0
    return tmp_path


QUILL_LT = ("resolve", "battletech", "critical", "--target", "quillback.mtf", "--location", "LT", "--seed", "2")


@needs("battletech")
def test_quillback_lt_seed_2_leads_with_the_ammunition_explosion(folder) -> None:  # type: ignore[no-untyped-def]
    """The issue's case: the first line used to say a critical was lost; the SRM-4 bin exploding is what matters."""
    first = run(folder, *QUILL_LT).splitlines()[0]
    assert "IS Ammo SRM-4" in first and "explodes" in first
    data = json.loads(run(folder, *QUILL_LT, "--json"))
    assert "explodes" in data["summary"] and "SRM-4" in data["summary"]
    assert data["severity"] == "grave"
    ranks = [rank(c["severity"]) for c in data["changes"]]
    assert ranks == sorted(ranks, reverse=True)  # most serious first
    assert data["changes"][0]["text"] == data["summary"]
    assert data["changes"][-1]["severity"] == "none"  # the critical with nothing left to hit


@needs("gurps")
def test_plain_hit_critical_miss_and_deadly_wound_look_different(folder) -> None:  # type: ignore[no-untyped-def]
    """GURPS 3d6 2+4+3 = 9 against skill 12 is a plain hit (1d+1 cut: 5 through DR 4 = 1, x1.5 at
    the torso); 6,6,6 is a critical miss; a neck blow for 96 injury on HP 12 is past -5xHP: dead."""
    hit = json.loads(run(folder, "resolve", "gurps", "attack", "--skill", "12", "--damage", "1d+1 cut",
                         "--target", "bertram.json", "--seed", "3", "--json"))
    miss = json.loads(run(folder, "resolve", "gurps", "attack", "--skill", "14", "--damage", "2d+1 cut",
                          "--target", "bertram.json", "--seed", "23", "--json"))
    dead = json.loads(run(folder, "resolve", "gurps", "attack", "--skill", "14", "--damage", "12d cut",
                          "--location", "neck", "--target", "bertram.json", "--seed", "32", "--json"))
    assert (hit["severity"], miss["severity"], dead["severity"]) == ("minor", "serious", "deadly")
    assert "critical-miss" in miss["tags"] and miss["summary"].startswith("Critical miss")
    assert dead["summary"].endswith("dead")
    colours = {STYLES[f"headline-{s}"] for s in ("minor", "serious", "deadly")}
    assert len(colours) == 3
    painted = run(folder, "resolve", "gurps", "attack", "--skill", "14", "--damage", "12d cut", "--location", "neck",
                  "--target", "bertram.json", "--seed", "32", "--color")
    assert painted.startswith(STYLES["headline-deadly"])


@needs("shadowrun2")
def test_a_mortal_critical_is_deadly_and_the_player_learns_nothing_of_it(folder) -> None:  # type: ignore[no-untyped-def]
    """Seed 3: the Body check fails, the critical is Mortal (dies in 8 hours unless treated)."""
    data = json.loads(run(folder, "resolve", "shadowrun2", "wound", "--severity", "deadly", "--target", "runner.toml",
                          "--seed", "3", "--json"))
    assert data["severity"] == "deadly" and data["summary"].startswith("Mortal critical") and "unless treated" in data["summary"]
    player = json.loads(run(folder, "resolve", "shadowrun2", "wound", "--severity", "deadly",
                            "--target", "runner.toml", "--seed", "3", "--view", "player", "--json"))
    assert "severity" not in player and "changes" not in player
    first = run(folder, "resolve", "shadowrun2", "wound", "--severity", "deadly", "--target", "runner.toml",
                "--seed", "3", "--view", "player").splitlines()[0]
    assert "critical" not in first.lower() and "death" not in first.lower()


@pytest.mark.parametrize("system", sorted(INSTALLED))
def test_every_system_ranks_its_outcomes(system: str) -> None:
    """Each installed system answers critcore_changes (not the core's fallback) for its outcomes,
    with severities from the scale, over a run of seeds of each procedure that needs no target."""
    from critcore.api import resolve
    from critcore.engine.runner import Engine

    engine = Engine(system)
    seen: set[str] = set()
    for proc in engine.info.procedures:
        if proc.verb != "resolve" or proc.target == "required":
            continue
        params = {p.name: (p.choices[-1] if p.choices else p.default if p.default is not None else 10)
                  for p in proc.params if p.required}
        if proc.param("body") is not None:
            params["body"] = 3  # Shadowrun without a character: a weak Body, so criticals come up
        for seed in range(12):
            try:
                outcome = resolve(system, proc.name, seed=seed, **params)
            except Exception:  # a parameter this generic guess cannot fill: that procedure is skipped
                break
            answer = engine.pm.hook.critcore_changes(outcome=outcome, view="gm")
            assert answer is not None, f"{system} {proc.name} ranks nothing"
            judged = judge(outcome, "gm", engine.pm)
            assert judged.severity in SEVERITIES
            seen.add(judged.severity)
    assert seen, f"no {system} procedure could be run"


def test_without_a_ranking_the_changes_are_minor_and_a_player_sees_none() -> None:
    """A system with no critcore_changes: the apply stage's lines, minor; nothing for a player."""
    outcome = Outcome("fake", "attack", Data(), (), (Step("determine", "critical"), Step("apply", "hurt")),
                      determination=Determination("critical", True, "critical"),
                      applied=Applied("hurt", ("HP 30 -> 18",)))
    judged = judge(outcome)
    assert judged.severity == "minor" and judged.changes[0].text == "HP 30 -> 18"
    assert judged.to_json()["changes"] == [{"severity": "minor", "text": "HP 30 -> 18"}]
    assert judge(outcome, "player").changes == ()
    calm = Outcome("fake", "attack", Data(), (), (Step("determine", "miss"),),
                   determination=Determination("miss", False, "miss"))
    assert judge(calm).severity == "none" and judge(calm).headline == "Miss"


def test_an_unknown_severity_word_ranks_as_minor() -> None:
    assert rank("catastrophic") == rank("minor") and rank("deadly") == len(SEVERITIES) - 1


# --- a change's words, cleaned ---

from hypothesis import given, settings  # noqa: E402
from runlength import examples  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from critcore.report.severity import _clean, _ranked  # noqa: E402

_WORDS = st.text(alphabet=st.sampled_from(list("ab .;\t\n\u00a0\u2003\u200bXé") + ["ß"]), max_size=12)


@settings(max_examples=examples(120, 2000), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(list(SEVERITIES) + ["oops"]), _WORDS), max_size=6))
def test_a_change_reads_as_its_text_with_spaces_collapsed_and_capitalised(pairs: list[tuple[str, str]]) -> None:
    """Each change's text is its words joined by single spaces, without a trailing full stop or
    semicolon, the first letter a capital; a text of no words is left out, an unknown severity
    counts as minor; the worst come first, a system's own order kept among equals."""
    place = {s: i for i, s in enumerate(SEVERITIES)}
    expected = [(s if s in place else "minor", _clean(t)) for s, t in pairs if t.split()]
    expected.sort(key=lambda c: -place[c[0]])
    assert [(c.severity, c.text) for c in _ranked(pairs)] == expected


from critcore._speed.cleantext import tidy  # noqa: E402


@settings(max_examples=examples(200, 2000), deadline=None)
@given(_WORDS)
def test_a_text_is_tidied_as_cleaning_it_word_by_word_does(text: str) -> None:
    """The seam's tidy answers what splitting into words, joining, dropping a trailing stop and
    capitalising answers, for any text: spaces, tabs, line breaks, no-break and em spaces, a
    zero-width space (not whitespace), stops and semicolons, a sharp s (two capitals)."""
    assert tidy(text) == _clean(text)


def test_without_a_headline_the_worst_serious_change_leads() -> None:
    """An assessment made without the report's headline leads with its worst change when that
    is at least serious (nothing otherwise), as headed("") does; with a headline, that headline
    stays unless such a change is not already in it."""
    from critcore.model import Data, Outcome
    from critcore.report.severity import Assessment, assess

    outcome = Outcome("x", "p", Data(), (), (), None, None, (), None, None, (), (), Data())

    def pm_answering(pairs: list[tuple[str, str]]) -> object:
        class Pm:  # a system answering critcore_changes (called through pluggy's hook attribute)
            class hook:  # noqa: N801
                @staticmethod
                def critcore_changes(outcome: object, view: str) -> list[tuple[str, str]]:
                    return pairs

        return Pm()

    grave = assess(outcome, "gm", pm_answering([("minor", "a scratch"), ("grave", "an arm crippled")]))
    assert (grave.severity, grave.headline) == ("grave", "An arm crippled")
    assert grave == Assessment(grave.severity, "", grave.changes).headed("")
    minor = assess(outcome, "gm", pm_answering([("minor", "a scratch")]))
    assert (minor.severity, minor.headline) == ("minor", "")
    kept = assess(outcome, "gm", pm_answering([("grave", "an arm crippled")]), headline="Hit: an arm crippled")
    assert kept.headline == "Hit: an arm crippled"
