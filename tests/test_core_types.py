"""critcore's Python API is typed for the programs that use it (issue 13): under ``mypy --strict``
``critcore.resolve``, ``treat`` and a ``Campaign``'s ``resolve`` return an ``Outcome``,
``critcore.odds`` an ``Odds`` and ``critcore.simulate`` a ``Simulation`` (not ``Any``), and the
names ``critcore`` loads lazily are exported. Skips where mypy is not installed (CI installs it in
its types step)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

USER_PROGRAM = '''
import critcore

outcome = critcore.resolve("gurps", "critical-hit", seed=1)
reveal_type(outcome)
reveal_type(critcore.treat("gurps", "first-aid"))
odds = critcore.odds("gurps", "critical-hit")
reveal_type(odds)
reveal_type(odds.event("bleeding"))
reveal_type(critcore.simulate("gurps", "critical-hit", n=10))
reveal_type(outcome.determination)
reveal_type(critcore.Campaign("campaign.db").resolve("atlas", "critical"))
'''


def test_core_types_api_results_are_the_result_classes_under_mypy_strict(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The revealed types are the classes named in docs (Outcome, Odds, Fraction, Simulation),
    and a --strict check of a program using them finds nothing wrong."""
    api = pytest.importorskip("mypy.api")
    program = tmp_path / "user_program.py"
    program.write_text(USER_PROGRAM, encoding="utf-8")
    monkeypatch.chdir(ROOT)  # critcore resolves to this checkout's source, as for the CI types step
    out, err, status = api.run(["--strict", "--follow-imports=silent", "--cache-dir", str(tmp_path / "cache"),
                                "--no-error-summary", str(program)])
    revealed = [line.split('Revealed type is "', 1)[1].rstrip('"') for line in out.splitlines()
                if "Revealed type is" in line]
    assert revealed == [
        "critcore.model.Outcome",
        "critcore.model.Outcome",
        "critcore.chance.exact.Odds",
        "fractions.Fraction",
        "critcore.chance.montecarlo.Simulation",
        "critcore.model.Determination | None",
        "critcore.model.Outcome",
    ], out + err
    assert "error:" not in out, out
    assert status == 0, out + err
