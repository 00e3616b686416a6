"""The lock around a --save: exclusive, bounded waiting, and released when its process dies."""

import os
import signal
import subprocess
import sys
import time

import pytest

from critcore.files.locks import FileLock, LockTimeout


def test_a_second_holder_waits_until_the_timeout_then_gets_it_once_released(tmp_path):
    path = str(tmp_path / ".x.lock")
    first = FileLock(path, timeout=1)
    first.acquire()
    with pytest.raises(LockTimeout):
        FileLock(path, timeout=0.05).acquire()
    first.release()
    with FileLock(path, timeout=0.05):
        pass
    assert os.path.exists(path)  # the lock file stays


def test_a_killed_holder_leaves_no_stale_lock(tmp_path):
    path = str(tmp_path / ".x.lock")
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from critcore.files.locks import FileLock\n"
        f"FileLock({path!r}, 5).acquire(); print('held', flush=True); time.sleep(60)")],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(LockTimeout):
            FileLock(path, timeout=0.05).acquire()
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(timeout=10)
        deadline = time.monotonic() + 5
        with FileLock(path, timeout=max(0.1, deadline - time.monotonic())):
            pass
    finally:
        if holder.poll() is None:
            holder.kill()
