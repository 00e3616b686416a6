"""Every hook is documented in docs/hooks.md with its exact signature, and is firstresult or
says otherwise; every hook is exercised by the fake system's tests."""

import inspect
from pathlib import Path

import pytest

from critcore import hookspecs

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
    assert "Called" in doc and "Return" in doc and ("First answer wins" in doc)


def test_every_hook_is_implemented_by_the_fake_system_or_rules():
    import fakerules
    import fakesystem

    implemented = {n for n in dir(fakesystem) if n.startswith("critcore_")}
    for rule in (fakerules.KeenEdge, fakerules.Brutal):
        implemented |= {n for n in dir(rule) if n.startswith("critcore_")}
    implemented |= {n for n in dir(fakesystem) if n.startswith("critcore_")}
    missing = set(HOOKS) - implemented
    assert not missing, f"hooks with no implementation in the core's tests: {sorted(missing)}"
