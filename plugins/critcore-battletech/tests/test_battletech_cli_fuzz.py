"""Issue 14, the .mtf fuzzer: units from ../shared/mtf-corpus/units (MegaMek's data, skipped when
absent), mutated line by line and byte by byte, given to `crit resolve battletech ...` through
the CLI. Property: a result (exit 0) or a clean error (exit code 2, one line on stderr), never a
traceback, in bounded time.

CI tries a bounded number of examples (``CRITCORE_FUZZ_EXAMPLES``, 25 by default, fixed seed);
``CRITCORE_FUZZ_EXAMPLES=5000 pytest -p no:cacheprovider plugins/critcore-battletech/tests/test_battletech_cli_fuzz.py``
is a long run with fresh random examples.
"""

from __future__ import annotations

import os
import tempfile
import time
import traceback
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies

from click.testing import CliRunner  # noqa: E402
from critcore.testing import cli  # noqa: E402
from critcore.testing import Registry  # noqa: E402

import critcore_battletech.plugin as battletech  # noqa: E402
from bt_shared import CORPUS

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/mtf-corpus/units is not here")

LONG_RUN = "CRITCORE_FUZZ_EXAMPLES" in os.environ
FUZZ = hypothesis.settings(
    max_examples=int(os.environ.get("CRITCORE_FUZZ_EXAMPLES", "25")), deadline=None, database=None,
    derandomize=not LONG_RUN, suppress_health_check=list(hypothesis.HealthCheck),
)
REG = Registry.installed(extra_systems={"battletech": battletech}, discover=False)
UNITS = sorted(CORPUS.rglob("*.mtf"))[::10] if CORPUS.is_dir() else []  # every tenth: a spread of eras and kinds
WORK = Path(tempfile.mkdtemp(prefix="critcore-mtf-fuzz-"))
LOCATIONS = ["HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL"]
NOISE = ["\x1b]0;owned\x07", "\x00", "9" * 400, "nan", "-1", "²", "Chassis:", "Armor:", ":", "", "\ufeff",
         "Left Arm:", "Ammo AC/20 Ammo", "Era:-99999999999999999999", "mass:" + "9" * 5000]


@st.composite
def mutated_unit(draw) -> bytes:
    path = draw(st.sampled_from(UNITS))
    data = path.read_bytes()
    lines = data.split(b"\n")
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, max(0, len(lines) - 1)))
        how = draw(st.sampled_from(["drop", "copy", "insert", "edit", "bytes"]))
        if how == "drop" and lines:
            del lines[at]
        elif how == "copy" and lines:
            lines.insert(at, lines[draw(st.integers(0, len(lines) - 1))])
        elif how == "insert":
            lines.insert(at, draw(st.one_of(st.sampled_from(NOISE), st.text(max_size=30))).encode("utf-8", "surrogatepass"))
        elif how == "edit" and lines:
            key, sep, _ = lines[at].partition(b":")
            value = draw(st.one_of(st.sampled_from(NOISE), st.text(max_size=20)))
            lines[at] = key + (sep or b":") + value.encode("utf-8", "surrogatepass")
        elif how == "bytes" and lines:
            lines[at] = draw(st.binary(max_size=20)) + lines[at]
    return b"\n".join(lines)


@needs_corpus
def test_mutated_corpus_units_through_the_cli() -> None:
    @FUZZ
    @hypothesis.given(unit=mutated_unit(), location=st.sampled_from(LOCATIONS),
                      procedure=st.sampled_from(["critical", "hit-location"]))
    def fuzz(unit: bytes, location: str, procedure: str) -> None:
        path = WORK / "unit.mtf"
        path.write_bytes(unit)
        args = ["resolve", "battletech", procedure, "--seed", "4", "--target", str(path)]
        if procedure == "critical":
            args += ["--location", location]
        start = time.perf_counter()
        result = CliRunner().invoke(cli, args, obj=REG)
        assert time.perf_counter() - start < 20, "bounded time"
        exc = result.exception
        if exc is not None and not isinstance(exc, SystemExit):
            raise AssertionError("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
        if result.exit_code != 0:
            assert result.exit_code == 2, result.output[-500:]
            lines = [line for line in result.stderr.splitlines() if line.strip()]
            assert len(lines) == 1 and "\x1b" not in lines[0], result.stderr[-1000:]
        else:
            assert "\x1b" not in result.stdout  # chassis names and the like reach the terminal escaped

    fuzz()


FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_an_escape_sequence_in_a_chassis_name_reaches_the_terminal_escaped(tmp_path: Path) -> None:
    """Issue 14: raw ESC/OSC sequences in .mtf chassis names cleared the screen and set the window
    title; they are shown escaped (\\x1b), and --json keeps the name exact."""
    text = (FIXTURES / "keys-quad-fq2.mtf").read_text(encoding="utf-8")
    path = tmp_path / "evil.mtf"
    path.write_text(text.replace("chassis:Fixture Quad", "chassis:Evil\x1b]0;owned\x07\x1b[2J Quad"), encoding="utf-8")
    runner = CliRunner()
    for procedure in (["critical", "--location", "CT"], ["hit-location"]):
        result = runner.invoke(cli, ["resolve", "battletech", *procedure, "--seed", "2", "--target", str(path)], obj=REG)
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "\x07" not in result.output
    result = runner.invoke(cli, ["show", "battletech", "--target", str(path)], obj=REG)
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "Evil\\x1b]0;owned\\x07\\x1b[2J Quad" in result.output
