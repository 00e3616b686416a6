"""The doc-test harness: every command shown in README.md and docs/ runs, and what a doc shows it
print is what it prints. The convention (DEVELOPERS.md, "Commands in the docs"):

* A command to run goes in a fenced block tagged ``console``, after a ``$ `` prompt. The lines up
  to the next prompt are its output, compared with what it prints (stdout and stderr together),
  line by line, trailing spaces and trailing blank lines aside. A command with no lines after
  it is run and must succeed, its output unchecked.
* Elisions: a line that is just ``...`` stands for any number of lines (none too); ``[...]``
  inside a line stands for any text on that line.
* ``# exit N`` at the end of a command (a shell comment) says it must exit with N (else 0).
* ``<!-- doc-test: skip REASON -->`` on the line before a block leaves that block out (a
  command that does not work yet, or needs something no test machine has); the skip is
  reported with its reason, so it is seen. Commands that mention ``../shared`` are skipped too.
* A fenced block whose first line is ``# file: NAME`` (TOML, Python), or that follows
  ``<!-- doc-test: file NAME -->`` (JSON, which has no comments), is written to NAME in the
  session's folder when the session reaches it, so the commands after it use the file the doc
  shows.
* Each document runs as one session, in its own empty folder holding what ``crit examples``
  writes (the shipped characters, units and house-rule files; a document whose first command is
  ``crit examples`` writes them itself), blocks in order, so a ``--save`` in one block is seen
  by the next. No colour (``NO_COLOR``), no user config.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
MARKER = re.compile(r"^<!--\s*doc-test:\s*(\w[\w-]*)\s*(.*?)\s*-->\s*$")
EXIT = re.compile(r"#\s*exit\s+(\d+)\s*$")
FILE_COMMENT = re.compile(r"^#\s*file:\s*(\S+)\s*$")
ELIDE_LINE = "..."
ELIDE_TEXT = "[...]"


@dataclass
class Command:
    line: int               # line number of the prompt in the document
    text: str               # the shell command, without the prompt
    expected: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        m = EXIT.search(self.text)
        return int(m.group(1)) if m else 0


@dataclass
class Block:
    line: int                # line number of the opening fence
    commands: list[Command]
    skip: str | None = None  # the reason, when a marker says to skip it
    file: str | None = None  # a block shown as a file's content: written to this name first
    text: str = ""


def blocks(path: Path) -> list[Block]:
    """The ``console`` blocks of a Markdown file, with their commands and shown output."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        tag, start = m.group(2), i
        j = i + 1
        while j < len(lines) and not FENCE.match(lines[j]):
            j += 1
        kind, arg = _marker(lines, start)
        if tag == "console":
            out.append(Block(start + 1, _commands(lines[start + 1:j], start + 2),
                             (arg or "marked skip") if kind == "skip" else None))
        elif kind == "file" and arg:
            out.append(Block(start + 1, [], file=arg, text="\n".join(lines[start + 1:j]) + "\n"))
        elif j > start + 1 and FILE_COMMENT.match(lines[start + 1]):
            name = FILE_COMMENT.match(lines[start + 1]).group(1)  # type: ignore[union-attr]
            out.append(Block(start + 1, [], file=name, text="\n".join(lines[start + 1:j]) + "\n"))
        i = j + 1
    return out


def _marker(lines: list[str], fence: int) -> tuple[str | None, str]:
    """The ``<!-- doc-test: KIND ARG -->`` comment right before a fence (blank lines between)."""
    k = fence - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    m = MARKER.match(lines[k].strip()) if k >= 0 else None
    return (m.group(1), m.group(2)) if m else (None, "")


def _commands(body: list[str], first_line: int) -> list[Command]:
    cmds: list[Command] = []
    for n, text in enumerate(body, first_line):
        if text.startswith("$ "):
            cmds.append(Command(n, text[2:]))
        elif cmds:
            cmds[-1].expected.append(text)
    for c in cmds:
        while c.expected and not c.expected[-1].strip():
            c.expected.pop()
    return cmds


def _line_pattern(expected: str) -> re.Pattern[str]:
    parts = expected.rstrip().split(ELIDE_TEXT)
    return re.compile(".*".join(re.escape(p) for p in parts) + r"\Z", re.S)


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` lines fit ``expected`` (with ``...`` lines and ``[...]`` in a line)."""
    actual = [a.rstrip() for a in actual]
    while actual and not actual[-1]:
        actual.pop()
    pats: list[re.Pattern[str] | None] = [None if e.strip() == ELIDE_LINE else _line_pattern(e) for e in expected]
    memo: dict[tuple[int, int], bool] = {}

    def fit(i: int, j: int) -> bool:
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(pats):
            ok = j == len(actual)
        elif pats[i] is None:
            ok = any(fit(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            ok = j < len(actual) and pats[i].match(actual[j]) is not None and fit(i + 1, j + 1)  # type: ignore[union-attr]
        memo[key] = ok
        return ok

    return fit(0, 0)


def environment(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    for key in ("CRITCORE_CAMPAIGN", "FORCE_COLOR", "CLICOLOR_FORCE", "CRITCORE_DISABLE_PLUGINS"):
        env.pop(key, None)
    scripts = str(Path(sys.executable).parent)
    env.update(NO_COLOR="1", COLUMNS="80", TERM="dumb", PYTHONIOENCODING="utf-8",
               CRITCORE_CONFIG=str(folder / ".no-user-config.toml"),
               PATH=scripts + os.pathsep + env.get("PATH", ""))
    return env


def run(command: str, folder: Path, timeout: float = 120) -> tuple[int, list[str]]:
    """Run one documented command in ``folder`` with bash; its exit code and output lines."""
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=environment(folder), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=timeout)
    return done.returncode, done.stdout.splitlines()


_EXAMPLES: dict[str, dict[str, bytes]] = {}
"""What ``crit examples`` wrote, by the PYTHONPATH it ran with (the installed packages decide it)."""


def prepare(folder: Path) -> None:
    """The shipped examples in ``folder`` (what ``crit examples`` writes). ``crit examples`` runs
    in the first folder a test process prepares; later ones get the same files (a copy of what it
    wrote there), not another process that writes them again. A document whose first command is
    ``crit examples`` still runs it itself."""
    key = os.environ.get("PYTHONPATH", "")
    if key not in _EXAMPLES:
        before = {p for p in folder.rglob("*")}
        code, out = run("crit examples", folder)
        if code != 0:
            raise RuntimeError("crit examples failed: " + "\n".join(out))
        _EXAMPLES[key] = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
                          if p.is_file() and p not in before}
        return
    for name, content in _EXAMPLES[key].items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content)


def check_document(path: Path, folder: Path) -> tuple[list[str], list[str]]:
    """Run every command of ``path`` in ``folder``: (problems, skipped blocks)."""
    found = blocks(path)
    first = next((c.text for b in found if b.skip is None for c in b.commands), "")
    if not first.startswith("crit examples"):  # a doc that starts with `crit examples` makes its own
        prepare(folder)
    problems: list[str] = []
    skipped: list[str] = []
    for block in found:
        if block.file is not None:
            (folder / block.file).parent.mkdir(parents=True, exist_ok=True)
            (folder / block.file).write_text(block.text, encoding="utf-8")
            continue
        if block.skip is not None:
            skipped.append(f"{path.name}:{block.line}: {block.skip}")
            continue
        for cmd in block.commands:
            if "../shared" in cmd.text:
                skipped.append(f"{path.name}:{cmd.line}: needs ../shared")
                continue
            code, out = run(cmd.text, folder)
            where = f"{path.name}:{cmd.line}: $ {cmd.text}"
            if code != cmd.exit_code:
                problems.append(f"{where}\n  exit {code}, expected {cmd.exit_code}\n" + _indent(out))
            elif cmd.expected and not matches(cmd.expected, out):
                problems.append(f"{where}\n  the doc shows:\n{_indent(cmd.expected)}\n  it printed:\n{_indent(out)}")
    return problems, skipped


def _indent(lines: list[str]) -> str:
    return "\n".join("    | " + line for line in lines)
