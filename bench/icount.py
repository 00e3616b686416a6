"""Instruction counts of every start-up budget line, by valgrind (``--tool=callgrind``, user space).

The clock on a shared 2-core machine swings by half from minute to minute; an instruction count
does not, so this is how two versions are told apart by a few per cent. It leaves out what the
CPU count cannot see (disk syncs, the kernel's share): ``bench.py`` gives the clock's figures.

    python bench/icount.py [VENV_BIN]   # VENV_BIN: the folder with python and crit (default: this python's)

Needs ``valgrind``; the BattleTech lines need ``../shared/mtf-samples`` (skipped without); the
``.gcs`` line reads ``plugins/critcore-gurps/tests/wren.gcs``. A command that fails on the measured
install (an older release without ``.gcs`` files) is reported as failing, not counted. The
last line deletes what the BattleTech importer keeps besides units first (the catalog's frame;
before it, the kept answers of slot names): the first unit after an install or an upgrade,
apart from the parsed tables. (Since the frame ships built in the BattleTech wheel,
``data/frame.marshal``, that line reads it, as the first unit after an install does.)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
# ../shared beside the checkout (or beside a folder of worktrees holding it)
SHARED = next((p / "shared" for p in HERE.parents if (p / "shared" / "mtf-samples").is_dir()), HERE.parent.parent / "shared")
ATLAS = SHARED / "mtf-samples" / "Atlas AS7-D.mtf"
WREN = HERE.parent / "plugins" / "critcore-gurps" / "tests" / "wren.gcs"  # a small GCS character the tests ship


# run by the measured install's python: deletes what the BattleTech importer keeps besides units
# (unitcache: the catalog's frame, or on older installs the kept answers of slot names)
_FORGET_ANSWERS = """
import os
try:
    from critcore._speed import diskcache as resources
except ImportError:  # the layout before issue 24
    from critcore import resources
from critcore_battletech import unitcache
folder = resources.cache_dir()
for name in (getattr(unitcache, "FRAME_ENTRY", None), getattr(unitcache, "_NAMES_ENTRY", None)):
    entry = folder and name and resources._cache_file(folder, name)
    if entry and os.path.exists(entry):
        os.remove(entry)
"""


def main() -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("icount: valgrind is not installed (apt install valgrind)")
    bin_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(sys.executable).parent
    python, crit = str(bin_dir / "python"), str(bin_dir / "crit")
    folder = tempfile.mkdtemp(prefix="critcore-icount-")
    try:
        run(python, crit, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(python: str, crit: str, folder: str) -> None:
    make = f"import runpy; runpy.run_path({str(HERE / 'bench_campaign.py')!r})['make_campaign']({folder!r})"
    subprocess.run([python, "-c", make], check=True, cwd=folder)  # not the checkout's critcore (python -c puts "" on sys.path)
    path = os.path.join(folder, "bench.db")
    template = os.path.join(folder, "template.db")
    shutil.copy(path, template)
    commands = {
        "floor: python -c 'import click'": [python, "-c", "import click"],
        "crit --version": [crit, "--version"],
        "crit --help": [crit, "--help"],
        "crit resolve gurps attack": [crit, "resolve", "gurps", "attack", "--skill", "14", "--seed", "1"],
        "crit resolve shadowrun2 wound": [crit, "resolve", "shadowrun2", "wound", "--body", "4", "--severity", "serious", "--seed", "1"],
        "crit resolve battletech hit-location": [crit, "resolve", "battletech", "hit-location", "--seed", "1"],
        "crit resolve gurps critical-hit --target @fighter": [
            crit, "resolve", "gurps", "critical-hit", "--damage", "1d cut", "--seed", "1",
            "--target", "@fighter", "--campaign", path],
        "crit resolve gurps critical-hit --target wren.gcs": [
            crit, "resolve", "gurps", "critical-hit", "--damage", "1d cut", "--seed", "1", "--target", str(WREN)],
    }
    fresh = os.path.join(folder, "unit.mtf")
    if ATLAS.is_file():
        unit = [crit, "resolve", "battletech", "critical", "--location", "RT", "--seed", "1", "--unit"]
        commands["battletech critical --unit, imported before"] = unit + [str(ATLAS)]
        commands["battletech critical --unit, a file never imported"] = unit + [fresh]
        commands["the same, the first unit after an install"] = unit + [fresh]
    text = ATLAS.read_text(encoding="utf-8") if ATLAS.is_file() else ""
    floor = 0
    # a fixed hash seed, so that a count repeats (with a random one the floor alone moves by 2-3%)
    env = {**os.environ, "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "0")}
    for n, (name, cmd) in enumerate(commands.items()):
        shutil.copy(template, path)
        warm = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # warm the caches
        if warm.returncode != 0 and cmd[-1] != fresh:  # e.g. an install from before .gcs files were read
            print(f"  {name:<52} fails on this install (exit {warm.returncode})", flush=True)
            continue
        shutil.copy(template, path)
        if cmd[-1] == fresh:
            # a text no command has imported (the folder is new, and the two lines' texts differ by
            # a blank line); a few blank lines only, so that the count does not move with them
            Path(fresh).write_text(text + "\n" * (2 + n % 2), encoding="utf-8")
        if name.endswith("the first unit after an install"):  # the importer's kept frame deleted
            subprocess.run([python, "-c", _FORGET_ANSWERS], check=True, cwd=folder)
        done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                              capture_output=True, text=True, env=env)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            raise SystemExit(f"icount: valgrind gave no count for {name}:\n{done.stderr[-500:]}")
        count = int(found.group(1))
        floor = floor or count
        print(f"  {name:<52} {count / 1e6:8.1f} M   {count / floor:5.2f} x floor", flush=True)


if __name__ == "__main__":
    main()
