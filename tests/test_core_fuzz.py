"""critcore's own fuzzers (issue 14). One property throughout: whatever the input, ``crit`` gives a
correct result (exit 0) or a clean error (exit code 2 and one line on stderr), never a
traceback, in bounded time.

* every option of every procedure of every installed system (and the fake one), generated from
  the procedures' declared parameters: a new system is fuzzed without new code;
* dice text and faces;
* target files of every system: saved states (an example target run through the CLI and saved),
  mutated, then given to every procedure that takes a target;
* house-rule and config files.

The ``.mtf`` fuzzer is in the BattleTech plugin's tests (test_battletech_cli_fuzz.py).

In CI each fuzzer tries a bounded number of examples (``CRITCORE_FUZZ_EXAMPLES``, 25 by default)
with a fixed seed; for a long run, set it higher, which also draws fresh random examples::

    CRITCORE_FUZZ_EXAMPLES=5000 pytest -p no:cacheprovider tests/test_core_fuzz.py
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies

from click.testing import CliRunner  # noqa: E402

import fakesystem  # noqa: E402
from critcore import testing  # noqa: E402
from critcore.cli.main import cli  # noqa: E402
from critcore.engine.runner import Engine
from critcore.engine.params import param_range  # noqa: E402
from critcore.stages.loader import Registry  # noqa: E402

LONG_RUN = "CRITCORE_FUZZ_EXAMPLES" in os.environ
EXAMPLES = int(os.environ.get("CRITCORE_FUZZ_EXAMPLES", "25"))
SECONDS = 20.0  # bounded time: far above any legitimate resolution, far below a hang
FUZZ = hypothesis.settings(
    max_examples=EXAMPLES, deadline=None, database=None, derandomize=not LONG_RUN,
    suppress_health_check=list(hypothesis.HealthCheck),
)

REG = Registry.installed(extra_systems={"fake": fakesystem})
ENGINES = {name: Engine(name, registry=REG) for name in sorted(REG.systems)}
PROCEDURES = [(s, p) for s, e in ENGINES.items() for p in e.info.procedures]
WORK = Path(tempfile.mkdtemp(prefix="critcore-fuzz-"))

# values that broke something once, or easily could
NASTY = ["²", "٣", "１２", "nan", "inf", "-inf", "1e308", "1e-320", "9" * 400, "9" * 5000, "", " ", "-0", "+5",
         "1_0", "0x10", "1e30", "10**30", "\x1b[2J", "\x1b]0;title\x07", "a" * 10_000, "-1", "0", "3.5",
         "None", "true", "'", '"', "\\", "\u202e", "\x00"]


def run(args: list[str], input: str | None = None) -> Any:
    """Run crit in-process; check the property; return the result."""
    start = time.perf_counter()
    result = CliRunner().invoke(cli, args, obj=REG, input=input)
    elapsed = time.perf_counter() - start
    assert elapsed < SECONDS, f"{elapsed:.1f} s for crit {args!r:.300}"
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        import traceback

        raise AssertionError(f"traceback for crit {args!r:.300}:\n"
                             + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    if result.exit_code != 0:
        assert result.exit_code == 2, f"exit {result.exit_code} for crit {args!r:.300}: {result.output[-500:]}"
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, f"not one line for crit {args!r:.300}: {result.stderr[-1000:]!r}"
        assert len(lines[0]) <= 420 and "\x1b" not in lines[0], lines[0][:500]
    return result


# --- values for a declared parameter ---------------------------------------------------------


def values_for(param: Any) -> Any:
    """Text for ``--param``: good values of its declared type and range, the edges just outside
    the range, and nasty text."""
    nasty = st.one_of(st.sampled_from(NASTY), st.text(max_size=40))
    kind = param.type
    if kind in ("int", "float"):
        low, high = param_range(param)
        lo = -10**6 if low is None else low
        hi = 10**6 if high is None else high
        if kind == "int":
            good = st.integers(int(lo), int(hi)).map(str)
        else:
            good = st.floats(lo, hi, allow_nan=False, allow_infinity=False).map(repr)
        edges = st.sampled_from([repr(x) if kind == "float" else str(int(x)) for x in (lo - 1, hi + 1)])
        return st.one_of(good, good, edges, nasty, st.floats().map(repr))
    if kind == "choice":
        return st.one_of(st.sampled_from(list(param.choices)), nasty)
    if kind == "dice":
        return st.one_of(dice_text(), dice_text().map(lambda d: d + " cut"), nasty)
    return st.one_of(st.sampled_from(getattr(param, "suggest", None) or ["x"]), nasty)


@st.composite
def dice_text(draw: Any) -> str:
    count = draw(st.one_of(st.just(""), st.integers(0, 300).map(str), st.sampled_from(NASTY[:12])))
    sides = draw(st.one_of(st.just(""), st.integers(0, 2000).map(str), st.sampled_from(["%", "F", "x", "6.5"])))
    plus = draw(st.one_of(st.just(""), st.integers(-100, 100).map(lambda n: f"{n:+d}"),
                          st.sampled_from(["x2", "*3", "/2", "/0", "+" + "9" * 40])))
    return f"{count}d{sides}{plus}"


@st.composite
def procedure_args(draw: Any, system: str, proc: Any) -> list[str]:
    args = ["resolve" if proc.verb == "resolve" else "treat", system, proc.name]
    for p in proc.params:
        if not (p.required and draw(st.integers(0, 9))) and draw(st.booleans()):
            continue
        if p.type == "bool":
            args.append(p.flag)
        else:
            args += [p.flag, draw(values_for(p))]
    how = draw(st.sampled_from(["seed", "seed", "dice", "nasty-seed", "none"]))
    if how == "seed":
        args += ["--seed", str(draw(st.integers(0, 10**6)))]
    elif how == "dice":
        faces = draw(st.lists(st.integers(0, 25), min_size=1, max_size=40))
        args += ["--dice", ",".join(map(str, faces))]
    elif how == "nasty-seed":
        args += ["--seed", draw(st.sampled_from(NASTY))]
    args += draw(st.sets(st.sampled_from(["--json", "--explain"])))
    return args


def example_target(system: str) -> Path | None:
    """The system's first example target, written to the fuzzing folder (None if it has none)."""
    hook = getattr(ENGINES[system].pm.hook, "critcore_examples", None)
    found = hook() if hook is not None else None
    if not found:
        return None
    example = found[0]
    path = WORK / system / example.name
    path.parent.mkdir(exist_ok=True)
    path.write_text(example.text, encoding="utf-8")
    return path


@pytest.mark.parametrize("system,proc", PROCEDURES, ids=[f"{s}-{p.name}" for s, p in PROCEDURES])
def test_every_option_of_every_procedure(system: str, proc: Any) -> None:
    target = example_target(system) if proc.target != "none" else None

    @FUZZ
    @hypothesis.given(args=procedure_args(system, proc), with_target=st.booleans())
    def fuzz(args: list[str], with_target: bool) -> None:
        if target is not None and (with_target or proc.target == "required"):
            args = args + ["--target", str(target)]
        run(args)

    fuzz()


# --- dice text and faces -----------------------------------------------------------------------


@FUZZ
@hypothesis.given(text=st.one_of(dice_text(), st.text(max_size=60)))
def test_dice_text_parses_or_is_a_dice_error(text: str) -> None:
    from critcore.dice.notation import parse
    from critcore.errors import DiceError

    try:
        expr = parse(text)
    except DiceError as exc:
        assert "\n" not in str(exc)
    else:
        assert parse(expr.notation) == expr  # what it prints reads back the same


@FUZZ
@hypothesis.given(text=st.one_of(st.lists(st.integers(-5, 10**7)).map(lambda f: ",".join(map(str, f))),
                                 st.text(max_size=60), st.sampled_from(NASTY)))
def test_dice_faces_parse_or_are_a_dice_error(text: str) -> None:
    from critcore.dice.rollers import parse_faces
    from critcore.errors import DiceError

    try:
        faces = parse_faces(text)
    except DiceError as exc:
        assert "\n" not in str(exc)
    else:
        assert faces and all(isinstance(f, int) and f >= 0 for f in faces)


@FUZZ
@hypothesis.given(damage=st.one_of(dice_text(), st.text(max_size=30)),
                  faces=st.one_of(st.lists(st.integers(0, 30), max_size=30).map(lambda f: ",".join(map(str, f))),
                                  st.sampled_from(NASTY)))
def test_dice_and_faces_through_the_cli(damage: str, faces: str) -> None:
    run(["resolve", "fake", "attack", "--damage", damage, "--dice", faces])


# --- target files: saved states, mutated ---------------------------------------------------------

def saved_states() -> list[tuple[str, dict[str, Any]]]:
    """For each system with an example target: the example as read, and the state a procedure
    saved from it through the CLI (a saved state, as the user's files look)."""
    from critcore.targets.state import read_target

    out = []
    for system, engine in ENGINES.items():
        path = example_target(system)
        if path is None:
            continue
        state, _ = read_target(str(path), engine.read_target)
        out.append((system, json.loads(json.dumps(state))))
        for proc in engine.info.procedures:
            if proc.target == "none" or proc.verb != "resolve" or any(p.required for p in proc.params):
                continue
            saved = WORK / system / f"saved-{proc.name}.json"
            result = CliRunner().invoke(cli, ["resolve", system, proc.name, "--seed", "7", "--target", str(path),
                                              "--save-to", str(saved)], obj=REG)
            if result.exit_code == 0 and saved.exists():
                out.append((system, json.loads(saved.read_text(encoding="utf-8"))))
                break
    return out


STATES = saved_states()


@pytest.mark.parametrize("system,state", STATES, ids=[f"{s}-{i}" for i, (s, _) in enumerate(STATES)])
def test_mutated_target_files(system: str, state: dict[str, Any]) -> None:
    procs = [p for p in ENGINES[system].info.procedures if p.target != "none"]

    @FUZZ
    @hypothesis.given(data=testing.mutated_states(state, values=NASTY, edits=(1, 4)), proc=st.sampled_from(procs),
                      as_toml=st.booleans(), draw=st.data())
    def fuzz(data: Any, proc: Any, as_toml: bool, draw: Any) -> None:
        path = WORK / system / ("mutant.toml" if as_toml else "mutant.json")
        text = None
        if as_toml and isinstance(data, dict):
            from critcore.errors import StateError
            from critcore.targets.state import to_toml

            try:
                text = to_toml(data)
            except (StateError, ValueError):
                text = None
        if text is None:
            path = WORK / system / "mutant.json"
            text = json.dumps(data)
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        args = ["resolve" if proc.verb == "resolve" else "treat", system, proc.name, "--seed", "3",
                "--target", str(path)]
        for p in proc.params:
            if p.required:
                args += [p.flag] if p.type == "bool" else [p.flag, draw.draw(values_for(p))]
        run(args)

    fuzz()


# --- house-rule and config files ---------------------------------------------------------------

RULE = """\
name = "fuzzed"
system = "fake"
summary = "A fuzzed rule"

[options]
crit_on_19 = true

[tables.confirm]
remove = ["solid"]

[[tables.confirm.row]]
roll = "3-5"
id = "solid"
effect = "damage-multiplier"
text = "Double damage."
multiplier = 2
"""

CONFIG = """\
rules = ["fuzzed.toml"]

[systems.fake]
crit_on_19 = false
"""


VALUES = ["1", "-1", "0", "nan", "inf", "[]", "{}", "true", '""', '"x"', "1e400", "9" * 5000]


@st.composite
def mutated_text(draw: Any, text: str) -> str:
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(lines)))
        how = draw(st.sampled_from(["drop", "copy", "insert", "edit"]))
        if how == "drop" and lines:
            del lines[min(at, len(lines) - 1)]
        elif how == "copy" and lines:
            lines.insert(at, lines[draw(st.integers(0, len(lines) - 1))])
        elif how == "insert":
            lines.insert(at, draw(st.one_of(st.text(max_size=40), st.sampled_from([
                "[systems.nosuch]", "default_hp = 0", "multiplier = " + "9" * 400, "roll = \"1-100000\"",
                "a = " + "[" * 2000 + "]" * 2000, "rules = [\"/dev/zero\"]", "[[tables.confirm.row]]",
                "crit_on_19 = 3", "overrides = [\"x\"]", "id = \"\\u001b[2J\"", "[tables.nosuch]"]))))
        elif lines:
            i = min(at, len(lines) - 1)
            key, _, _ = lines[i].partition("=")
            value = draw(st.sampled_from(VALUES))
            lines[i] = f"{key.strip() or 'x'} = {value}"
    return "\n".join(lines) + "\n"


@FUZZ
@hypothesis.given(rule=mutated_text(RULE), config=st.one_of(st.just(CONFIG), mutated_text(CONFIG)),
                  command=st.sampled_from(["resolve", "tables", "odds"]))
def test_house_rule_and_config_files(rule: str, config: str, command: str) -> None:
    folder = WORK / "rules"
    folder.mkdir(exist_ok=True)
    (folder / "fuzzed.toml").write_text(rule, encoding="utf-8")
    (folder / "critcore.toml").write_text(config, encoding="utf-8")
    conf = ["--config", str(folder / "critcore.toml")]
    if command == "resolve":
        run(["resolve", "fake", "attack", "--seed", "5", *conf])
    elif command == "tables":
        run(["tables", "fake", *conf])
    else:
        run(["odds", "fake", "attack", *conf])
