"""Every hook is documented in docs/hooks.md with its exact signature, since when it exists and who
implements it, and is firstresult or says otherwise; every hook is exercised by the fake system's
tests. Every name of the plugin face (critcore.plugin) and of critcore.testing is documented in
docs/plugin-face.md with the version it arrived in."""

import inspect
import re
from pathlib import Path

import pytest

from critcore.stages import hookspecs

DOC = Path(__file__).resolve().parent.parent / "docs" / "hooks.md"
FACE_DOC = DOC.with_name("plugin-face.md")
ADVANCED = DOC.with_name("hooks-advanced.md")
HOOKS = [name for name in dir(hookspecs) if name.startswith("critcore_")]


def signature(name):
    return name + str(inspect.signature(getattr(hookspecs, name))).replace("'", "")


@pytest.mark.parametrize("name", HOOKS)
def test_hook_documented_with_exact_signature(name):
    if not DOC.exists():
        pytest.skip("docs/ not present (installed-package run)")
    assert f"### `{signature(name)}`" in DOC.read_text(encoding="utf-8")


def _section(text: str, name: str) -> str:
    """The part of hooks.md from the hook's heading to the next heading."""
    start = text.index(f"### `{signature(name)}`")
    end = re.compile(r"^##", re.M).search(text, start + 4)
    return text[start:end.start() if end else len(text)]


def _version(text: str) -> tuple[int, int]:
    major, minor = text.split(".")
    return int(major), int(minor)


@pytest.mark.parametrize("name", HOOKS)
def test_hook_says_since_when_and_who_implements_it(name):
    """Each hook's section has a "Since" line naming a version of the plugin contract (no later
    than the face's own), and an "Implemented by" line naming the system or house rules."""
    from critcore.plugin import FACE_VERSION

    if not DOC.exists():
        pytest.skip("docs/ not present (installed-package run)")
    section = _section(DOC.read_text(encoding="utf-8"), name)
    since = re.findall(r"^- \*\*Since:\*\* (\d+\.\d+)$", section, re.M)
    assert len(since) == 1, f"{name}: no single '- **Since:** X.Y' line in its section of hooks.md"
    assert (1, 0) <= _version(since[0]) <= FACE_VERSION, f"{name}: since {since[0]}, but the face is {FACE_VERSION}"
    who = re.findall(r"^- \*\*Implemented by:\*\* (.+)$", section, re.M)
    assert len(who) == 1 and re.search(r"system|house rule", who[0]), f"{name}: no 'Implemented by' line"
    for part in ("**When:**", "**Arguments:**", "**Return:**", "```python"):
        assert part in section, f"{name}: its section of hooks.md has no {part}"


def test_the_stages_come_first():
    """The reference starts with the stages, in the order the engine calls them."""
    if not DOC.exists():
        pytest.skip("docs/ not present (installed-package run)")
    text = DOC.read_text(encoding="utf-8")
    headings = re.findall(r"^### `(critcore_\w+)\(", text, re.M)
    assert headings[:5] == ["critcore_determine", "critcore_locate", "critcore_effect", "critcore_apply",
                            "critcore_treat"]


def test_speed_machinery_is_not_in_the_hook_reference():
    """What the core no longer has is not documented, and the rule for exact odds is stated once,
    on the advanced page."""
    if not DOC.exists():
        pytest.skip("docs/ not present (installed-package run)")
    both = DOC.read_text(encoding="utf-8") + ADVANCED.read_text(encoding="utf-8")
    for gone in ("kept outcome", "keep_outcomes", "stagecall", "trusted", "replay.py", "may not call a stage"):
        assert gone not in both.lower(), gone
    assert both.count("## The rule for exact odds") == 1
    assert "## The rule for exact odds" in ADVANCED.read_text(encoding="utf-8")


def _face_rows() -> dict[str, str]:
    """name -> its 'since' column, for every table row of plugin-face.md."""
    rows = {}
    for line in FACE_DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\| `(\w+)` \| .+ \| (\d+\.\d+) \|$", line)
        if m:
            assert m.group(1) not in rows, f"{m.group(1)} documented twice in plugin-face.md"
            rows[m.group(1)] = m.group(2)
    return rows


def test_every_face_name_is_documented_with_its_version():
    """docs/plugin-face.md has one row for every name of critcore.plugin, saying the version it
    arrived in (critcore.plugin.SINCE), and no row for a name the face does not have."""
    from critcore import plugin

    if not FACE_DOC.exists():
        pytest.skip("docs/ not present (installed-package run)")
    rows = _face_rows()
    names = set(plugin.SINCE) | {"FACE_VERSION", "SINCE"}
    missing = sorted(names - set(rows))
    assert not missing, f"names of critcore.plugin not in docs/plugin-face.md: {missing}"
    for name, since in plugin.SINCE.items():
        assert _version(rows[name]) == since, f"{name}: plugin-face.md says {rows[name]}, SINCE says {since}"


def test_every_testing_name_is_documented():
    """docs/plugin-face.md has one row for every helper and driver of critcore.testing."""
    from critcore import plugin, testing

    if not FACE_DOC.exists():
        pytest.skip("docs/ not present (installed-package run)")
    rows = _face_rows()
    missing = sorted(set(testing.__all__) - set(rows))
    assert not missing, f"names of critcore.testing not in docs/plugin-face.md: {missing}"
    unknown = sorted(set(rows) - set(testing.__all__) - set(plugin.__all__))
    assert not unknown, f"plugin-face.md documents names neither module has: {unknown}"
    for name in testing.__all__:
        assert (1, 0) <= _version(rows[name]) <= plugin.FACE_VERSION


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
