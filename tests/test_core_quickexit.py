"""critcore._speed.quickexit: the ``crit`` process ends as Python would have ended it (the same
output on both streams, the same status, every ``atexit`` function called once, the threads
waited for), only without the interpreter's teardown."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# a script ending by ``ending`` ("normal": main() and Python's own ending; "quick": run(main))
_SCRIPT = """
import atexit, sys, threading, time
from critcore._speed.quickexit import run

{setup}

def main():
{body}

if {quick}:
    run(main)
else:
    main()
"""


def _end(body: str, quick: bool, setup: str = "") -> subprocess.CompletedProcess[str]:
    script = _SCRIPT.format(setup=textwrap.dedent(setup), body=textwrap.indent(textwrap.dedent(body), "    "),
                            quick=quick)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)


def _frames_out(text: str) -> str:
    # a traceback's frames differ by run()'s own frame; the rest of stderr must not
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("  "))


def _same(body: str, setup: str = "") -> subprocess.CompletedProcess[str]:
    normal, quick = _end(body, False, setup), _end(body, True, setup)
    assert (quick.returncode, quick.stdout, _frames_out(quick.stderr)) == (
        normal.returncode, normal.stdout, _frames_out(normal.stderr))
    return quick


@pytest.mark.parametrize("status", ["", "sys.exit(3)", "sys.exit(300)",
                                    "sys.exit(-1)", "sys.exit('a message')", "sys.exit(True)",
                                    "sys.exit(2**40)", "raise ValueError('boom')"])
def test_the_status_and_both_streams_are_those_of_the_normal_ending(status: str) -> None:
    # more than a buffer's worth on stdout, unflushed text on stderr, atexit functions that print
    found = _same(f"""
        atexit.register(print, "atexit, first registered")
        atexit.register(lambda: sys.stderr.write("atexit on stderr\\n"))
        sys.stdout.write("x" * 100_000 + "\\n")
        sys.stderr.write("no newline on stderr")
        {status}
        """)
    assert found.stdout.endswith("atexit, first registered\n")
    assert "atexit on stderr" in found.stderr


def test_every_atexit_function_is_called_once() -> None:
    found = _same("""
        atexit.register(print, "once")
        """)
    assert found.stdout == "once\n"


def test_a_thread_still_running_is_waited_for() -> None:
    found = _same("""
        def late():
            time.sleep(0.2)
            print("the thread finished")
        threading.Thread(target=late).start()
        """)
    assert found.stdout == "the thread finished\n"


def test_a_stream_that_cannot_be_flushed_ends_as_python_ends_it() -> None:
    # Python reports the failed flush and ends with status 120
    found = _same("""
        print("lost")
        """, setup="""
        class Broken:
            def write(self, text):
                return len(text)
            def flush(self):
                raise OSError("the pipe is gone")
            def __repr__(self):
                return "<a broken stream>"
        sys.stdout = Broken()
        """)
    assert found.returncode == 120


def test_the_interpreter_teardown_is_what_is_left_out() -> None:
    # the one difference: objects still alive at the end are not finalized one by one
    setup = """
        class Noisy:
            def __del__(self):
                print("finalized at teardown")
        kept = Noisy()
        """
    assert "finalized at teardown" in _end("pass", False, setup).stdout
    assert _end("pass", True, setup).stdout == ""


def test_what_a_command_leaves_to_the_end_is_held_only_under_run() -> None:
    """keep_until_exit: under run, an object handed to it is never finalized (the process ends
    first); a program calling main itself frees it as before, as soon as nothing holds it."""
    setup = """
        from critcore._speed.quickexit import keep_until_exit
        class Noisy:
            def __del__(self):
                print("freed")
        """
    body = """
        keep_until_exit(Noisy())
        print("done")
        """
    assert _end(body, False, setup).stdout == "freed\ndone\n"
    assert _end(body, True, setup).stdout == "done\n"


def test_keep_until_exit_holds_nothing_outside_run() -> None:
    from critcore._speed import quickexit

    before = list(quickexit._HELD)
    quickexit.keep_until_exit(object(), [1, 2])
    assert quickexit._HELD == before


@pytest.mark.parametrize("args", [["--version"], ["resolve", "gurps", "attack", "--skill", "14", "--seed", "1"],
                                  ["resolve", "gurps", "attack", "--skill", "many"],
                                  ["odds", "gurps", "attack", "--skill", "14"],
                                  ["odds", "gurps", "attack", "--skill", "14", "--json"]])
def test_crit_ends_as_before(args: list[str]) -> None:
    # `python -m critcore` (the console script's function) against cli.main.main with Python's own ending
    quick = subprocess.run([sys.executable, "-m", "critcore", *args], capture_output=True, text=True, timeout=60)
    normal = subprocess.run([sys.executable, "-c", "import sys; from critcore.cli.main import main; "
                             "sys.argv[0] = 'crit'; main()", *args], capture_output=True, text=True, timeout=60)
    assert (quick.returncode, quick.stdout, quick.stderr) == (normal.returncode, normal.stdout, normal.stderr)


def test_the_console_script_pauses_the_collector_before_click_and_long_commands_resume_it() -> None:
    """cli.console turns the collector off before click is imported; a long command's
    resume_gc (crit odds, simulate, serve) turns it back on, as with cli.main.main alone."""
    script = textwrap.dedent("""
        import sys
        from critcore.cli import console
        def fake_main():
            from critcore.cli.errors import resume_gc
            import gc
            print("click imported" if "click" in sys.modules else "no click", gc.isenabled())
            resume_gc()
            print("resumed", gc.isenabled())
        import critcore.cli.main
        critcore.cli.main.main = fake_main
        console.main()
        """)
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (found.returncode, found.stdout) == (0, "click imported False\nresumed True\n"), found.stderr
    # the console module itself imports nothing until it runs
    bare = subprocess.run([sys.executable, "-c", "import sys, critcore.cli.console; print('click' in sys.modules)"],
                          capture_output=True, text=True, timeout=60)
    assert bare.stdout == "False\n"
