"""The example runner Shadowrun 2e ships (issue 15): a TOML character file the plugin reads, a
runner with Body 4 and empty condition monitors."""

from __future__ import annotations

import critcore
import critcore_shadowrun2.plugin as sr2
try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib
from critcore.testing import Registry
from critcore_shadowrun2.character import read_character

REG = Registry.installed(extra_systems={"shadowrun2": sr2}, discover=False)


def test_the_runner_is_a_character_with_body_4() -> None:
    (example,) = sr2.critcore_examples()
    assert example.name == "runner.toml"
    runner = read_character(tomllib.loads(example.text))
    assert (runner.body, runner.physical, runner.stun, runner.criticals) == (4, 0, 0, ())


def test_the_runner_takes_a_wound() -> None:
    """A serious wound: 6 boxes on the Physical track (the Body check rolls no success here)."""
    runner = tomllib.loads(sr2.critcore_examples()[0].text)
    out = critcore.resolve("shadowrun2", "wound", severity="serious", target=runner, seed=3, registry=REG)
    assert out.target["physical"] == 6
