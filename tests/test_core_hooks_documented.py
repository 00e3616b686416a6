"""Every hook is documented in docs/hooks.md with its exact signature, and is firstresult or
says otherwise; every hook is exercised by the fake system's tests."""

import inspect
from pathlib import Path

import pytest

from critcore.stages import hookspecs

DOC = Path(__file__).resolve().parent.parent / "docs" / "hooks.md"
HOOKS = [name for name in dir(hookspecs) if name.startswith("critcore_")]


def signature(name):
    return name + str(inspect.signature(getattr(hookspecs, name))).replace("'", "")


@pytest.mark.parametrize("name", HOOKS)
def test_hook_documented_with_exact_signature(name):
    if not DOC.exists():
        pytest.skip("docs/ not present (installed-package run)")
    assert f"### `{signature(name)}`" in DOC.read_text(encoding="utf-8")


def test_every_hook_has_its_heading_by_critcore_testing():
    """The check plugin authors use (critcore.testing) agrees: every hook critcore specifies has
    its heading, and the fake system implements only documented hooks."""
    import fakesystem

    from critcore import testing

    if not DOC.exists():
        pytest.skip("docs/ not present (installed-package run)")
    assert testing.check_hooks_documented(doc=DOC) == sorted(HOOKS)
    assert set(testing.check_hooks_documented(fakesystem, doc=DOC)) <= set(HOOKS)


@pytest.mark.parametrize("name", HOOKS)
def test_hook_has_when_and_return_in_its_docstring(name):
    doc = getattr(hookspecs, name).__doc__ or ""
    assert "Called" in doc and "Return" in doc and ("First answer wins" in doc or "collected" in doc)


def test_only_critcore_rule_collects_every_answer():
    """Every hook is firstresult but critcore_rule, whose answers (one per enabled rule) are all read."""
    collecting = [n for n in HOOKS if not getattr(hookspecs, n).critcore_spec["firstresult"]]
    assert collecting == ["critcore_rule"]


def test_every_hook_is_implemented_by_the_fake_system_or_rules():
    import fakerules
    import fakesystem

    implemented = {n for n in dir(fakesystem) if n.startswith("critcore_")}
    for rule in (fakerules.KeenEdge, fakerules.Brutal):
        implemented |= {n for n in dir(rule) if n.startswith("critcore_")}
    implemented |= {n for n in dir(fakesystem) if n.startswith("critcore_")}
    missing = set(HOOKS) - implemented
    assert not missing, f"hooks with no implementation in the core's tests: {sorted(missing)}"


def test_every_hook_is_called_by_the_core():
    """No hook is specified and then never called: each name appears as a hook call
    (``hook.critcore_x`` or ``getattr(..., "critcore_x")``) in critcore's own code."""
    core = Path(__file__).resolve().parent.parent / "critcore"
    text = "\n".join(p.read_text(encoding="utf-8") for p in core.rglob("*.py") if p.name != "hookspecs.py")
    uncalled = [n for n in HOOKS if f"hook.{n}" not in text and f'"{n}"' not in text]
    assert not uncalled, f"hooks critcore never calls: {uncalled}"


def test_the_declared_hooks_are_called_when_they_should_be():
    """critcore_prepare once per engine and parameters (not per run), before any roll;
    critcore_determine_lookup by a simulation; critcore_rule for an enabled rule."""
    import fakerules
    import fakesystem

    from critcore.engine.runner import Engine
    from critcore.chance.montecarlo import simulate
    from critcore.stages.loader import Registry

    calls: list[str] = []

    class Spy:
        """Counts the fake system's hooks by wrapping them (a plugin object of its own)."""

        @staticmethod
        def critcore_system():
            return fakesystem.critcore_system()

        @staticmethod
        def critcore_prepare(procedure, params, options):
            calls.append("prepare")
            return fakesystem.critcore_prepare(procedure, params, options)

        @staticmethod
        def critcore_determine_lookup(ctx):
            calls.append("lookup")
            return fakesystem.critcore_determine_lookup(ctx)

    from critcore import hookimpl

    for name in ("critcore_system", "critcore_prepare", "critcore_determine_lookup"):
        hookimpl(getattr(Spy, name))
    spy = Spy()
    for name in ("critcore_determine", "critcore_locate", "critcore_effect", "critcore_apply"):
        setattr(spy, name, getattr(fakesystem, name))
    reg = Registry.installed(extra_systems={"fake": spy}, extra_rules={"keen": fakerules.KeenEdge(),
                                                                     "other": fakerules.OtherGame()}, discover=False)
    engine = Engine("fake", registry=reg)
    for seed in range(5):
        engine.run("attack", {"ac": 12}, seed=seed)
    assert calls == ["prepare"]  # once for five runs with the same parameters
    engine.run("attack", {"ac": 13}, seed=1)
    assert calls == ["prepare", "prepare"]
    simulate(engine, "attack", {"ac": 12}, 100, 1)
    assert calls[2:] == ["lookup"]  # prepared already: only the look-up is new
    ruled = Engine("fake", rules=["keen", "other"], registry=reg)
    assert [i.name for i in ruled.pm.hook.critcore_rule()] == ["keen-edge"]  # 'other' is for gurps: unregistered
