"""critcore._speed.twocores: a long exact-odds question shares its last stage with a child
process, and the answers, their order, the progress and the errors are those of one process.

Forking happens only in the ``crit`` process (``quickexit.run``), so the forking tests run a
script of their own in a fresh interpreter; in this process (a test runner's) ``each`` is the
plain list."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from critcore._speed import twocores

two_cores = pytest.mark.skipif(not sys.platform.startswith("linux") or len(os.sched_getaffinity(0)) < 2,
                               reason="forks only on Linux with two cores to run on")

# a fresh interpreter where forking is allowed at once (the crit process, asked for two processes,
# nothing to wait for first); FORKS counts the children made
_PRELUDE = """
import os, sys
from critcore._speed import quickexit, twocores
quickexit._RUNNING[0] = True
twocores.use(2)
twocores.AFTER = 0.0
FORKS = [0]
_fork = os.fork
def counted():
    FORKS[0] += 1
    return _fork()
os.fork = counted
PARENT = os.getpid()
"""


def _script(body: str) -> subprocess.CompletedProcess[str]:
    found = subprocess.run([sys.executable, "-c", _PRELUDE + textwrap.dedent(body)], capture_output=True, text=True,
                           timeout=300)
    assert found.returncode == 0, found.stderr
    return found


@given(st.lists(st.integers(), max_size=30))
def test_in_a_callers_process_each_is_the_plain_list(items: list[int]) -> None:
    # asked for two processes, but this is not the crit process: nothing forks
    seen: list[tuple[int, int]] = []
    twocores.use(2)
    try:
        assert twocores.each(items, lambda x: x * 3 + 1, lambda d, n: seen.append((d, n)), after=0.0) == [
            x * 3 + 1 for x in items]
    finally:
        twocores.use(1)
    assert seen == [(i, len(items)) for i in range(len(items))]


def test_a_fork_waits_for_a_long_stage_judged_by_its_median_item() -> None:
    # nothing before AFTER seconds, nothing with fewer than two items left
    assert not twocores.worth_sharing([0.1], 100, 0.1, 0.25)
    assert not twocores.worth_sharing([0.3], 1, 0.3, 0.25)
    # the Daishi X's right torso: seven answers of about 0.035 s, 150 left (about 1.7 s in fact)
    assert twocores.worth_sharing([0.035] * 7, 150, 0.26, 0.25)
    # its right arm: three quick answers and one long cascade, 16 left that took 0.06 s in all;
    # the mean (0.1 s an answer) would have forked
    assert not twocores.worth_sharing([0.01, 0.01, 0.01, 0.38], 16, 0.41, 0.25)
    # with no wait asked for, before the first item (how the tests below fork at once)
    assert twocores.worth_sharing([], 5, 0.0, 0.0)


@given(st.lists(st.floats(0, 0.2), min_size=3, max_size=30), st.integers(0, 60), st.floats(0, 5),
       st.floats(0, 1000), st.integers(0, 500))
def test_one_long_item_never_decides_and_more_items_left_never_undecide(took: list[float], left: int, elapsed: float,
                                                                        longer: float, more: int) -> None:
    # uneven items (one cascade can take most of a stage): the longest item made any longer does
    # not change the answer, once three items are done
    found = twocores.worth_sharing(took, left, elapsed, twocores.AFTER)
    stretched = sorted(took)
    stretched[-1] += longer
    assert twocores.worth_sharing(stretched, left, elapsed, twocores.AFTER) == found
    # and a stage judged long enough to share stays so with more items left
    if found:
        assert twocores.worth_sharing(took, left + more, elapsed, twocores.AFTER)


@pytest.mark.parametrize("refused", ["fork", "pipe", "mmap"])
def test_a_fork_or_pipe_the_system_refuses_leaves_every_item_here(monkeypatch, refused: str) -> None:
    # a limit on processes, open files or memory (EAGAIN, EMFILE, ENOMEM): one process's answers and
    # progress, no error, and no descriptor left open
    import errno

    def refuse(*args: object) -> None:
        raise OSError({"fork": errno.EAGAIN, "pipe": errno.EMFILE, "mmap": errno.ENOMEM}[refused], "refused")

    if refused == "mmap":
        import mmap

        monkeypatch.setattr(mmap, "mmap", refuse)
    else:
        monkeypatch.setattr(twocores.os, refused, refuse)
    fds = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    seen: list[tuple[int, int]] = []
    found = twocores._shared([1, 2, 3, 4], lambda x: x * 10, lambda d, n: seen.append((d, n)), 3, 7, None)
    assert found == [10, 20, 30, 40]
    assert seen == [(3, 7), (4, 7), (5, 7), (6, 7)]
    if fds is not None:
        assert len(os.listdir("/proc/self/fd")) == fds


@two_cores
def test_shared_items_come_back_in_their_order_with_progress_that_only_grows() -> None:
    _script("""
        from hypothesis import given, settings, strategies as st

        @settings(max_examples=60, deadline=None)
        @given(st.lists(st.integers(), max_size=40))
        def check(items):
            before = FORKS[0]
            seen = []
            found = twocores.each(items, lambda x: (x, x * x), lambda d, n: seen.append((d, n)))
            assert found == [(x, x * x) for x in items]
            # two items or more are shared with a child (the time to wait first is nought here)
            assert FORKS[0] - before == (1 if len(items) >= 2 else 0)
            assert all(n == len(items) and 0 <= d < n for d, n in seen)
            assert [d for d, _ in seen] == sorted(d for d, _ in seen)
            assert os.getpid() == PARENT

        check()
        """)


@two_cores
def test_the_childs_answers_are_used_and_share_what_the_caller_holds() -> None:
    _script("""
        import time
        from critcore.model import Data

        held = Data(a=(1, 2, Data(b=3)), c=Data(d=(4,)), e=None)

        def work(x):
            if os.getpid() == PARENT:
                time.sleep(0.01)  # the child, not slowed, claims items from the back meanwhile
            # None, a part of what is held, and a new container beside it
            return x, os.getpid(), None, held["a"], held["c"]["d"], (x, held["a"][2])

        found = twocores.each(list(range(20)), work, held=held)
        assert FORKS[0] == 1
        assert [f[0] for f in found] == list(range(20))
        by_child = [f for f in found if f[1] != PARENT]
        assert by_child and by_child[-1][0] == 19  # the child took its items from the back
        for f in found:
            assert f[2] is None and f[3] is held["a"] and f[4] is held["c"]["d"] and f[5][1] is held["a"][2]
        """)


@two_cores
@pytest.mark.parametrize("fault", [
    "raise ValueError('only in the child')",  # a plugin's error met in the child alone
    "return lambda: x",  # an answer that cannot be pickled
    "os._exit(9)",  # the child gone before it wrote its answers
    "os.kill(os.getpid(), 9)",
])
def test_a_child_that_cannot_hand_its_share_back_leaves_it_to_the_parent(fault: str) -> None:
    _script(f"""
        def work(x):
            if os.getpid() != PARENT:
                {fault}
            return x + 1

        items = list(range(20))
        assert twocores.each(items, work) == [x + 1 for x in items]
        assert FORKS[0] == 1
        try:
            os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            pass  # no child left behind
        else:
            raise AssertionError("a child is still there")
        """)


@two_cores
def test_an_error_in_the_parents_share_is_raised_and_the_child_is_ended() -> None:
    _script("""
        import time

        def work(x):
            if os.getpid() == PARENT and x == 3:
                raise KeyError("from the parent's share")
            if os.getpid() != PARENT:
                time.sleep(0.05)  # the child still at work when the parent fails
            return x

        try:
            twocores.each(list(range(40)), work)
        except KeyError as exc:
            assert "from the parent's share" in str(exc)
        else:
            raise AssertionError("no error")
        try:
            os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            pass
        else:
            raise AssertionError("a child is still there")
        """)


def _crit(args: list[str], processes: str, forks_file: Path) -> subprocess.CompletedProcess[str]:
    # the crit console script, forking from the first answer of the last stage on
    body = f"""
        import atexit
        atexit.register(lambda: open({str(forks_file)!r}, "w").write(str(FORKS[0])))
        sys.argv = ["crit"] + {args!r}
        quickexit._RUNNING[0] = False  # the console script's own run sets it
        from critcore._speed import twocores as t
        t.AFTER = 0.0
        from critcore.cli.console import main
        main()
        """
    env = {**os.environ, "CRITCORE_ODDS_PROCESSES": processes, "PYTHONHASHSEED": "0"}
    return subprocess.run([sys.executable, "-c", _PRELUDE + textwrap.dedent(body)], capture_output=True, text=True,
                          timeout=300, env=env)


_QUESTIONS = [
    ("critcore_gurps", ["gurps", "attack", "--skill", "16", "--damage", "1d+2 cut", "--hp", "10"]),
    ("critcore_shadowrun2", ["shadowrun2", "wound", "--body", "3", "--severity", "serious"]),
    ("critcore_battletech", ["battletech", "critical", "--location", "LT", "--unit",
                             "plugins/critcore-battletech/src/critcore_battletech/examples/quillback.mtf"]),
    ("critcore_battletech", ["battletech", "critical", "--location", "CT", "--unit",
                             "plugins/critcore-battletech/tests/fixtures/superheavy-fs5x.mtf"]),
]


@two_cores
@pytest.mark.parametrize("plugin, args", _QUESTIONS, ids=lambda v: v if isinstance(v, str) else " ".join(v[:2]))
@pytest.mark.parametrize("json_out", [False, True])
def test_crit_odds_with_two_processes_prints_what_one_prints(plugin: str, args: list[str], json_out: bool,
                                                            tmp_path: Path) -> None:
    pytest.importorskip(plugin)
    root = Path(__file__).resolve().parents[1]
    if not all((root / a).exists() for a in args if a.endswith(".mtf")):
        pytest.skip("the unit file is not in this checkout")
    args = ["odds", *[str(root / a) if a.endswith(".mtf") else a for a in args], *(["--json"] if json_out else [])]
    one, two = _crit(args, "1", tmp_path / "one"), _crit(args, "2", tmp_path / "two")
    assert (two.returncode, two.stdout, two.stderr) == (one.returncode, one.stdout, one.stderr)
    assert one.returncode == 0 and one.stdout
    if json_out:
        json.loads(two.stdout)
    # one process never forks; two did, since the question had more than one effect-stage answer
    assert (tmp_path / "one").read_text() == "0"
    assert (tmp_path / "two").read_text() == "1"


@pytest.mark.parametrize("value", ["3", "0", "two", "1.5", "-1", "\u0661"])
def test_a_processes_value_other_than_1_or_2_is_one_line_and_exit_2(invoke, monkeypatch, value: str) -> None:
    monkeypatch.setenv("CRITCORE_ODDS_PROCESSES", value)
    result = invoke("odds", "fake", "attack")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "CRITCORE_ODDS_PROCESSES" in lines[0] and "is not 1 or 2" in lines[0]


@pytest.mark.parametrize("value, processes", [("1", 1), ("2", 2), (" 2 ", 2), ("", 2), (" 1", 1)])
def test_one_two_or_nothing_set_is_taken(invoke, monkeypatch, value: str, processes: int) -> None:
    # docs/cli.md: 1 keeps one process; 2, or nothing set, lets a long question use two
    monkeypatch.setattr(twocores, "_WANTED", [0])  # put back after the test
    monkeypatch.setenv("CRITCORE_ODDS_PROCESSES", value)
    result = invoke("odds", "fake", "attack")
    assert result.exit_code == 0, result.output
    assert twocores._WANTED[0] == processes
