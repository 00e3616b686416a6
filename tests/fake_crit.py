"""``crit`` with the fake system, for tests that need other processes: python fake_crit.py N ARGS...
runs the command N times in this process (N=0: until killed) and exits with the last exit code."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fakesystem  # noqa: E402

from critcore.cli.main import cli  # noqa: E402
from critcore.stages.loader import Registry  # noqa: E402


def main() -> int:
    times, args = int(sys.argv[1]), sys.argv[2:]
    registry = Registry.installed(extra_systems={"fake": fakesystem}, discover=False)
    code, done = 0, 0
    while times == 0 or done < times:
        try:
            cli.main(args, prog_name="crit", obj=registry, standalone_mode=False)
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
        except Exception as exc:  # noqa: BLE001 - a click error: report it like the CLI does
            print(f"Error: {exc}", file=sys.stderr)
            code = getattr(exc, "exit_code", 1)
        if code:
            return code
        done += 1
    return code


if __name__ == "__main__":
    sys.exit(main())
