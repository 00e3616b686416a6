"""A house-rule plugin says what it is with the ``critcore_rule`` hook (issue 13: no module
attribute ``RULE`` read with getattr). What it answers decides where it is registered; a broken
answer, or a plugin still carrying ``RULE``, is one line naming the plugin."""

from __future__ import annotations

import fakesystem
import pytest

from critcore import api, hookimpl
from critcore.engine.runner import Engine
from critcore.errors import PluginError
from critcore.stages.loader import Registry, RuleInfo, rule_info


class ForFake:
    @hookimpl
    def critcore_rule(self):
        return RuleInfo("for-fake", "fake", "Only for the fake system.")


class Raises:
    @hookimpl
    def critcore_rule(self):
        raise ValueError("no info today")


class OldStyle:
    """A rule written for the attribute of earlier versions: it must not apply to every system."""

    RULE = RuleInfo("old-style", "gurps", "For GURPS only.")

    @hookimpl(tryfirst=True)
    def critcore_determine(self, ctx):
        raise AssertionError("never called")


class Wrong:
    @hookimpl
    def critcore_rule(self):
        return {"name": "wrong"}


def _registry(**rules):
    return Registry.installed(extra_systems={"fake": fakesystem}, extra_rules=rules, discover=False)


def test_rule_info_is_the_hooks_answer_and_none_without_one():
    assert rule_info(ForFake()) == RuleInfo("for-fake", "fake", "Only for the fake system.")
    assert rule_info(object()) is None


def test_a_rule_for_this_system_is_registered_and_one_for_another_is_not():
    reg = _registry(mine=ForFake())
    assert [i.name for i in Engine("fake", rules=["mine"], registry=reg).pm.hook.critcore_rule()] == ["for-fake"]

    class ForGurps:
        @hookimpl
        def critcore_rule(self):
            return RuleInfo("for-gurps", "gurps", "GURPS only.")

        @hookimpl(tryfirst=True)
        def critcore_determine(self, ctx):
            raise AssertionError("a rule for another system must not run")

    engine = Engine("fake", rules=["theirs"], registry=_registry(theirs=ForGurps()))
    assert engine.pm.hook.critcore_rule() == []
    engine.run("attack", {"ac": 10}, seed=1)  # the GURPS rule's determine is not there


@pytest.mark.parametrize("plugin, message", [
    (Raises(), "failed in critcore_rule: ValueError: no info today"),
    (OldStyle(), "sets RULE = RuleInfo\\(...\\): say it with a hook instead"),
    (Wrong(), "critcore_rule must return a RuleInfo, not dict"),
])
def test_a_broken_or_old_style_rule_is_one_line_naming_it(plugin, message):
    reg = _registry(broken=plugin)
    with pytest.raises(PluginError, match=message) as exc:
        Engine("fake", rules=["broken"], registry=reg)
    assert "house rule plugin 'broken'" in str(exc.value) and "\n" not in str(exc.value)
    listed = {r["name"]: r for r in api.rules(reg)}
    assert message.split("\\")[0][:20] in listed["broken"]["error"]  # crit systems lists it broken
