"""A one-line progress report on stderr for long ``crit odds`` and ``crit simulate`` runs.

Nothing is shown for the first second (most runs end before), nor when stderr is not a terminal
unless asked for. The line says how far the run is, how fast it goes and when it should end, and
is erased when the run ends so that the report starts on a clean line.
"""

from __future__ import annotations

import time
from typing import TextIO


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 60:
        return f"{int(seconds // 60)} min {int(seconds % 60):02d} s"
    return f"{seconds:.0f} s"


class Progress:
    """Call it with ``(done, total)``; :meth:`close` erases the line."""

    def __init__(self, label: str, unit: str, stream: TextIO, enabled: bool, delay: float = 1.0) -> None:
        self.label = label
        self.unit = unit
        self.stream = stream
        self.enabled = enabled
        self.delay = delay
        self.start = time.monotonic()
        self.last = 0.0
        self.width = 0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        elapsed = now - self.start
        if elapsed < self.delay or now - self.last < 0.2:
            return
        self.last = now
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = _duration((total - done) / rate) if rate > 0 else "?"
        share = done / total * 100 if total else 100.0
        line = (f"{self.label}: {done:,}/{total:,} {self.unit} ({share:.0f}%), "
                f"{rate:,.0f} {self.unit}/s, about {eta} left")
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)

    def close(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0
