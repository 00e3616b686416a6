"""Faults (issue 29): a full disk, a read-only disk, a file-size limit, an I/O error, and a
campaign file damaged every way we know, met by the save and campaign code.

The rule checked everywhere: one clean line (exit 1 for the disk's fault, 2 for bad input),
the data on disk as it was, and the next write working once the fault is gone.

A real full disk is a 2 MB tmpfs, mounted where the suite may (root, Linux); a real read-only
disk is a read-only bind mount. Where neither can be mounted, the same tests run with the
errors injected (an ``OSError`` from ``os.write``/``os.fsync``, an SQLite error from every
write statement) and say so with a warning: they never skip.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import sqlite3
import subprocess
import warnings
from pathlib import Path

import pytest

from critcore.campaign.campaign import Campaign

FAULTS = ["ENOSPC", "EIO", "EFBIG", "EROFS"]
CAUSES = {"ENOSPC": "the disk is full", "EIO": "input/output error", "EFBIG": "file-size limit",
          "EROFS": "read-only"}


def one_line(result, codes=(1, 2)):
    assert result.exit_code in codes, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


def ok(result):
    assert result.exit_code == 0, result.output
    return result.output


def leftovers(folder):
    return [n for n in os.listdir(folder) if ".crit-" in n]


# --- injected OSErrors at each write and fsync of a save --------------------------------------------


class _FaultyOs:
    """``os`` as critcore.targets.state sees it, with one call failing with one errno."""

    def __init__(self, call, code):
        self._call, self._code = call, code

    def __getattr__(self, name):
        real = getattr(os, name)
        if name == self._call:
            def fail(*args, **kwargs):
                raise OSError(self._code, os.strerror(self._code))
            return fail
        return real


@pytest.mark.parametrize("call", ["write", "fsync", "replace"])
@pytest.mark.parametrize("fault", FAULTS)
def test_a_save_meeting_a_fault_is_one_line_and_the_old_file_stays(invoke, isolated_config, monkeypatch, fault, call):
    from critcore.targets import state

    target = isolated_config / "ogre.json"
    target.write_text('{"hp": 10}')
    with monkeypatch.context() as m:
        m.setattr(state, "os", _FaultyOs(call, getattr(errno, fault)))
        line = one_line(invoke("treat", "fake", "rest", "--dice", "3", "--target", "ogre.json", "--save"), (1,))
    assert line.startswith("Error: ogre.json: cannot write it: ") and CAUSES[fault] in line
    assert "the old file is unchanged" in line
    assert target.read_text() == '{"hp": 10}' and leftovers(isolated_config) == []
    ok(invoke("treat", "fake", "rest", "--dice", "3", "--target", "ogre.json", "--save"))  # the fault gone
    assert json.loads(target.read_text()) == {"hp": 13}


@pytest.mark.parametrize("call", ["write", "fsync"])
@pytest.mark.parametrize("fault", FAULTS)
def test_an_export_meeting_a_fault_is_one_line_and_writes_nothing(invoke, isolated_config, monkeypatch, fault, call):
    from critcore.targets import state

    ok(invoke("campaign", "new"))
    (isolated_config / "ogre.json").write_text('{"hp": 10}')
    ok(invoke("campaign", "add", "fake", "ogre", "ogre.json"))
    with monkeypatch.context() as m:
        m.setattr(state, "os", _FaultyOs(call, getattr(errno, fault)))
        line = one_line(invoke("campaign", "export", "ogre", "out.json"), (1,))
    assert "out.json: cannot write it" in line and CAUSES[fault] in line and "nothing was written" in line
    assert not (isolated_config / "out.json").exists() and leftovers(isolated_config) == []
    ok(invoke("campaign", "export", "ogre", "out.json"))
    assert json.loads((isolated_config / "out.json").read_text()) == {"hp": 10}


def test_export_to_a_place_that_cannot_hold_a_file_is_one_line(invoke, isolated_config):
    """The issue's reproducer: ``crit campaign export k ../../../proc/x.json`` gave a traceback."""
    ok(invoke("campaign", "new"))
    (isolated_config / "ogre.json").write_text('{"hp": 10}')
    ok(invoke("campaign", "add", "fake", "ogre", "ogre.json"))
    depth = "../" * len(Path(isolated_config).parts)
    for dest in (f"{depth}proc/x.json", "/proc/x.json", "/sys/x.json", "/dev/null/x.json"):
        line = one_line(invoke("campaign", "export", "ogre", dest))
        assert "x.json" in line


# --- a real full disk (tmpfs) or injected SQLite faults ----------------------------------------------


@contextlib.contextmanager
def mounted(kind, folder, source=None):
    """Mount a 2 MB tmpfs (``tmpfs``) or a read-only bind of ``source`` (``ro``) on ``folder``;
    yields False where it cannot be mounted."""
    folder.mkdir(exist_ok=True)
    if kind == "tmpfs":
        cmd = ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)]
    else:
        cmd = ["mount", "--bind", "-o", "ro", str(source), str(folder)]
    try:
        made = shutil.which("mount") is not None and subprocess.run(cmd, capture_output=True).returncode == 0
    except OSError:
        made = False
    if made and kind == "ro":  # older mount(8) ignores ro on a bind: remount to be sure
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], capture_output=True)
        probe = folder / ".probe"
        try:
            probe.write_text("x")
            probe.unlink()
            subprocess.run(["umount", str(folder)], capture_output=True)
            made = False
        except OSError:
            pass
    try:
        yield made
    finally:
        if made:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def fill(folder):
    with open(folder / "fill", "wb") as fh:
        with contextlib.suppress(OSError):
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()


class _FaultyConnection:
    """An sqlite3 connection whose write statements fail with one SQLite error (injected where
    no full or read-only disk can be mounted)."""

    WRITES = ("INSERT", "UPDATE", "DELETE", "CREATE", "BEGIN IMMEDIATE", "PRAGMA JOURNAL_MODE")

    def __init__(self, db, name, message):
        self._db, self._name, self._message = db, name, message

    def execute(self, sql, *args):
        if sql.strip().upper().startswith(self.WRITES):
            exc = sqlite3.OperationalError(self._message)
            exc.sqlite_errorname = self._name
            raise exc
        return self._db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._db, name)


def _inject(monkeypatch, name, message):
    from critcore.campaign import sqlite as store

    real = sqlite3.connect
    monkeypatch.setattr(store.sqlite3, "connect",
                        lambda *a, **k: _FaultyConnection(real(*a, **k), name, message), raising=True)


def _campaign_with_ogre(invoke, folder):
    os.chdir(folder)
    ok(invoke("campaign", "new"))
    (folder / "ogre.json").write_text('{"hp": 10}')
    ok(invoke("campaign", "add", "fake", "ogre", "ogre.json"))


def _reads_work_and_writes_are_one_line(invoke, folder, cause):
    assert "ogre" in ok(invoke("campaign", "list"))  # reads work where SQLite can read
    assert ok(invoke("campaign", "show", "ogre")).strip() == "hp: 10"
    line = one_line(invoke("treat", "fake", "rest", "--dice", "3", "--target", "@ogre"), (1,))
    assert cause in line and "nothing was changed" in line
    line = one_line(invoke("treat", "fake", "rest", "--dice", "3", "--target", "ogre.json", "--save"), (1,))
    assert cause in line
    assert json.loads((folder / "ogre.json").read_text()) == {"hp": 10}
    line = one_line(invoke("campaign", "new", "other.db"), (1, 2))
    assert cause in line or "cannot" in line
    assert not (folder / "other.db").exists()  # a failed new leaves no (0-byte) file


def test_a_full_disk(invoke, tmp_path, monkeypatch, registry):
    disk = tmp_path / "disk"
    with mounted("tmpfs", disk) as real:
        if not real:
            warnings.warn("no tmpfs could be mounted: the full disk is injected (SQLITE_FULL, ENOSPC)")
            disk.mkdir(exist_ok=True)
        _campaign_with_ogre(invoke, disk)
        if real:
            fill(disk)
            _reads_work_and_writes_are_one_line(invoke, disk, "the disk is full")
            (disk / "fill").unlink()
        else:
            from critcore.targets import state

            with monkeypatch.context() as m:
                _inject(m, "SQLITE_FULL", "database or disk is full")
                m.setattr(state, "os", _FaultyOs("write", errno.ENOSPC))
                _reads_work_and_writes_are_one_line(invoke, disk, "the disk is full")
        # the fault gone: every write works again, nothing was lost
        ok(invoke("treat", "fake", "rest", "--dice", "3", "--target", "@ogre"))
        assert ok(invoke("campaign", "show", "ogre")).strip() == "hp: 13"
        ok(invoke("treat", "fake", "rest", "--dice", "3", "--target", "ogre.json", "--save"))
        assert "whole" in ok(invoke("campaign", "check"))
        os.chdir(tmp_path)


def test_a_read_only_disk(invoke, tmp_path, monkeypatch):
    disk = tmp_path / "disk"
    disk.mkdir()
    _campaign_with_ogre(invoke, disk)
    view = tmp_path / "view"
    with mounted("ro", view, disk) as real:
        if real:
            os.chdir(view)
            _reads_work_and_writes_are_one_line(invoke, view, "read-only")
        else:
            warnings.warn("no read-only bind mount could be made: the read-only disk is injected")
            from critcore.targets import state

            with monkeypatch.context() as m:
                _inject(m, "SQLITE_READONLY", "attempt to write a readonly database")
                m.setattr(state, "os", _FaultyOs("write", errno.EROFS))
                _reads_work_and_writes_are_one_line(invoke, disk, "read-only")
        os.chdir(disk)
    ok(invoke("treat", "fake", "rest", "--dice", "3", "--target", "@ogre"))
    assert ok(invoke("campaign", "show", "ogre")).strip() == "hp: 13"


def test_a_file_size_limit(invoke, isolated_config):
    """``ulimit -f`` (EFBIG) during --save, in a real process: one line, the old file intact."""
    import sys

    target = isolated_config / "big.json"
    target.write_text(json.dumps({"hp": 10, "notes": ""}))
    script = ("import resource, sys, signal; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
              "resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64)); "
              "from critcore.targets.state import write_atomic; from critcore.errors import CritcoreError\n"
              "try:\n    write_atomic('big.json', '{\"hp\": 13, \"notes\": \"' + 'x' * 500 + '\"}')\n"
              "except CritcoreError as e:\n    print(e); sys.exit(1)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=isolated_config)
    assert done.returncode == 1 and done.stderr == "", done.stderr
    assert "big.json: cannot write it: the file would be larger than the system allows" in done.stdout
    assert json.loads(target.read_text())["hp"] == 10 and leftovers(isolated_config) == []


# --- a damaged campaign file ---------------------------------------------------------------------------


def _damage(path, how):
    data = Path(path).read_bytes()
    if how == "truncated":
        Path(path).write_bytes(data[: len(data) // 3])
    elif how == "zero bytes":
        Path(path).write_bytes(b"")
    elif how == "random bytes":
        import random

        Path(path).write_bytes(random.Random(29).randbytes(len(data)))
    else:
        db = sqlite3.connect(path)
        db.execute({
            "newer schema": "PRAGMA user_version = 99",
            "bad JSON in the rules setting": "INSERT INTO settings VALUES ('rules', '{bad')",
            "bad JSON in the options setting": "INSERT INTO settings VALUES ('options', '[1,')",
            "bad JSON in a current state": "UPDATE states SET state = '{bad' WHERE id = 1",
            "bad JSON in an earlier state": "UPDATE states SET state = 'nope' WHERE id = 2",
            "bad JSON in a log outcome": "UPDATE log SET outcome = '{\"x\":' WHERE id = 3",
            "a state of an uninstalled system": "UPDATE targets SET system = 'gone' WHERE name = 'ogre'",
        }[how])
        db.commit()
        db.close()


DAMAGE = ["truncated", "zero bytes", "random bytes", "newer schema", "bad JSON in the rules setting",
          "bad JSON in the options setting", "bad JSON in a current state", "bad JSON in an earlier state",
          "bad JSON in a log outcome", "a state of an uninstalled system"]
COMMANDS = [("campaign", "list"), ("campaign", "log"), ("campaign", "log", "--json"), ("campaign", "show", "ogre"),
            ("campaign", "show", "troll"), ("campaign", "settings"), ("campaign", "check"),
            ("treat", "fake", "rest", "--dice", "1", "--target", "@troll"),
            ("treat", "fake", "rest", "--dice", "1", "--target", "@ogre"),
            ("campaign", "undo", "troll"), ("campaign", "redo", "troll"), ("campaign", "export", "troll", "t.json")]


@pytest.mark.parametrize("how", DAMAGE)
def test_a_damaged_campaign(invoke, isolated_config, how):
    ok(invoke("campaign", "new"))
    (isolated_config / "ogre.json").write_text('{"hp": 10}')
    ok(invoke("campaign", "add", "fake", "ogre", "ogre.json"))  # state 1, log 1
    ok(invoke("campaign", "add", "fake", "troll", "ogre.json"))  # state 2, log 2
    ok(invoke("treat", "fake", "rest", "--dice", "4", "--target", "@troll"))  # state 3, log 3
    db_path = isolated_config / "critcore.db"
    good = isolated_config / "good.db"
    shutil.copy(db_path, good)
    _damage(db_path, how)
    damaged = db_path.read_bytes()
    for args in COMMANDS:
        result = invoke(*args)
        if args[1] == "check" and result.exit_code == 1:  # a report, then one error line
            assert "Traceback" not in result.output and result.output.strip().splitlines()[-1].startswith("Error:")
        elif result.exit_code:
            line = one_line(result)
            assert str(isolated_config) not in line or "critcore.db" in line
    if how in ("truncated", "zero bytes", "random bytes", "newer schema"):
        assert db_path.read_bytes() == damaged  # nothing written to a file critcore cannot read
        line = one_line(invoke("campaign", "list"))
        assert {"zero bytes": "empty file (0 bytes)", "newer schema": "newer critcore"}.get(how, "damaged") in line
        shutil.copy(good, db_path)  # the fault gone (a backup put back): writes work
        os.remove(str(db_path) + "-wal") if os.path.exists(str(db_path) + "-wal") else None
    elif how == "a state of an uninstalled system":
        assert "system not installed" in ok(invoke("campaign", "list"))
        assert "gone is not installed" in ok(invoke("campaign", "check"))
    elif how == "bad JSON in an earlier state":
        checked = invoke("campaign", "check")  # troll's first state: named, kept (only an undo reaches it)
        assert checked.exit_code == 1 and "damaged state #2" in checked.output and "--repair" not in checked.output
    else:
        checked = invoke("campaign", "check")
        assert checked.exit_code == 1 and "damaged" in checked.output, checked.output
        repaired = ok(invoke("campaign", "check", "--repair"))
        aside = next(isolated_config.glob("critcore.db.damaged-*.json"))
        assert "moved" in repaired and aside.name in repaired and json.loads(aside.read_text())
        assert "whole" in ok(invoke("campaign", "check"))
    # the rest intact, and the next write works
    hp = int(ok(invoke("campaign", "show", "troll")).strip().removeprefix("hp: "))
    assert hp in (14, 15)  # as it was, or with the one rest the commands above could apply
    ok(invoke("treat", "fake", "rest", "--dice", "2", "--target", "@troll"))
    assert ok(invoke("campaign", "show", "troll")).strip() == f"hp: {hp + 2}"


def test_a_zero_byte_campaign_is_not_taken_as_an_empty_one(invoke, isolated_config):
    (isolated_config / "critcore.db").write_bytes(b"")
    line = one_line(invoke("campaign", "list"))
    assert "critcore.db: an empty file (0 bytes)" in line
    assert (isolated_config / "critcore.db").stat().st_size == 0


# --- malformed JSON everywhere a target is read (the SystemError) ----------------------------


def test_malformed_json_is_one_line_on_every_command(invoke, isolated_config):
    (isolated_config / "b.json").write_text("{bad json")
    for args, stdin in [(("resolve", "fake", "attack", "--target", "b.json"), None),
                        (("resolve", "fake", "attack", "--target", "b.json", "--save"), None),
                        (("resolve", "fake", "attack", "--target", "b.json", "--save-to", "c.json"), None),
                        (("resolve", "fake", "attack", "--target", "-"), "{bad json"),
                        (("show", "fake", "--target", "b.json"), None),
                        (("campaign", "add", "fake", "b", "b.json"), None)]:
        if args[0] == "campaign":
            ok(invoke("campaign", "new"))
        line = one_line(invoke(*args, input=stdin), (2,))
        assert "not valid JSON" in line and ("b.json" in line or "standard input" in line)
    assert (isolated_config / "b.json").read_text() == "{bad json" and not (isolated_config / "c.json").exists()


def test_a_target_name_ending_in_a_newline_is_refused(invoke, isolated_config):
    ok(invoke("campaign", "new"))
    (isolated_config / "k.json").write_text('{"hp": 10}')
    for name in ("nl\n", "nl\r", "a\nb", "tab\t"):
        assert "is not a usable target name" in one_line(invoke("campaign", "add", "fake", name, "k.json"), (2,))
    assert "no targets yet" in ok(invoke("campaign", "list"))
