"""A stage answering the wrong type is one line naming the plugin, the hook and what it returned
(issue 24), at the engine's boundary, never an AttributeError from deep inside critcore; and
``crit`` shows that line with exit code 1, as for any failing plugin."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import fakesystem
from critcore import hookimpl
from critcore.cli.main import cli
from critcore.engine.runner import Engine
from critcore.errors import PluginError
from critcore.model import Effect, RuleInfo
from critcore.stages.loader import Registry


def rule(stage, answer):
    """A house-rule plugin whose ``stage`` answers ``answer`` first."""
    names = {"determine": "ctx", "locate": "ctx, determination", "effect": "ctx, determination, location",
             "apply": "ctx, determination, location, effects"}[stage]
    namespace = {"hookimpl": hookimpl, "RuleInfo": RuleInfo, "answer": answer}
    exec(f"class Wrong:\n"
         f"    @hookimpl\n    def critcore_rule(self):\n        return RuleInfo('wrong', 'fake', 'Answers badly.')\n"
         f"    @hookimpl(tryfirst=True)\n    def critcore_{stage}(self, {names}):\n        return answer\n", namespace)
    return namespace["Wrong"]()


CASES = [
    ("determine", {"kind": "critical"}, "critcore_determine returned dict {'kind': 'critical'}; it must return a Determination or None"),
    ("locate", "head", "critcore_locate returned str 'head'; it must return a Location or None"),
    ("effect", Effect("t", "x", "c", "text"), "critcore_effect returned Effect"),
    ("effect", ["x"], "critcore_effect returned a sequence holding str 'x'; it must return a list of Effect records or None"),
    ("apply", 3, "critcore_apply returned int 3; it must return an Applied or None"),
]


@pytest.mark.parametrize(("stage", "answer", "said"), CASES)
def test_a_wrong_answer_names_the_plugins_the_hook_and_the_value(stage, answer, said):
    registry = Registry.installed(extra_systems={"fake": fakesystem}, extra_rules={"wrong": rule(stage, answer)},
                                  discover=False)
    engine = Engine("fake", rules=["wrong"], registry=registry)
    with pytest.raises(PluginError) as caught:
        engine.run("attack", {"ac": 2}, dice=[20, 6, 6, 6, 6, 6, 6, 6])
    message = str(caught.value)
    assert message.startswith("one of house rule 'wrong', system 'fake': ")
    assert said in message and "\n" not in message


def test_the_cli_shows_it_in_one_line_with_exit_1():
    registry = Registry.installed(extra_systems={"fake": fakesystem},
                                  extra_rules={"wrong": rule("determine", {"kind": "critical"})}, discover=False)
    result = CliRunner().invoke(cli, ["resolve", "fake", "attack", "--rule", "wrong", "--dice", "20,6,6"], obj=registry)
    assert result.exit_code == 1, result.output
    assert "critcore_determine returned dict" in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_right_answer_passes_untouched():
    registry = Registry.installed(extra_systems={"fake": fakesystem}, discover=False)
    out = Engine("fake", registry=registry).run("attack", {"ac": 2}, dice=[20, 6, 6])
    assert out.determination is not None and out.determination.kind == "critical"
