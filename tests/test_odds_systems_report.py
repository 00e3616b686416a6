"""The odds report of each real system, read as a player reads it: events first, then an
outcome tree in plain words where no line repeats the line above it or a sibling. Each case
skips when its system is not installed (CI also runs the core alone)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from critcore.cli.main import cli

CASES = [
    ("critcore_gurps", ["gurps", "attack", "--skill", "16", "--damage", "1d+2 cut", "--hp", "10"]),
    ("critcore_shadowrun2", ["shadowrun2", "wound", "--body", "3", "--severity", "serious"]),
    # an arm: its tree has the limb blown off as well as slots struck, and its odds take a tenth of
    # a second where a torso's 1,885 outcomes take more than one
    ("critcore_battletech", ["battletech", "critical", "--location", "LA"]),
    ("critcore_battletech", ["battletech", "hit-location"]),
]


@pytest.mark.parametrize("package, args", CASES, ids=lambda v: v if isinstance(v, str) else " ".join(v[:2]))
def test_events_first_and_no_repeated_lines(package, args):
    pytest.importorskip(package)
    out = CliRunner().invoke(cli, ["odds", *args])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[1] == "events" and "outcomes" in lines
    tree = lines[lines.index("outcomes") + 1:-1]
    assert tree
    seen: dict[int, set[str]] = {}
    for line in tree:
        depth = (len(line) - len(line.lstrip(" "))) // 2
        text = line.strip()
        label = text[: text.index("  ")] if "  " in text else text  # the words before the percentage
        siblings = seen.setdefault(depth, set())
        assert label not in siblings, f"repeated line: {line!r}"
        siblings.add(label)
        for deeper in [d for d in seen if d > depth]:
            del seen[deeper]
        assert not any(e in label for e in ("twelve,", "one,", "two,")), line  # no internal row ids


@pytest.mark.parametrize("package, args", CASES, ids=lambda v: v if isinstance(v, str) else " ".join(v[:2]))
def test_json_events_carry_one_probability_representation(package, args):
    pytest.importorskip(package)
    data = json.loads(CliRunner().invoke(cli, ["odds", *args, "--json"]).output)
    assert data["format"] == 2 and data["events"]
    for e in data["events"]:
        assert set(e["probability"]) == {"fraction", "float"}
