"""Progress of a long evaluation job, written to its log (stderr) so that
``tail -f logs/evaluate/{paper}/{dataset}….log`` shows how far it is.

A line at most every ``NBREPRO_PROGRESS_SECONDS`` (default 30) and when a classifier finishes:
folds done of the job's total, the elapsed time and the time left at the pace so far. Only the
log sees it: no result depends on it.
"""
from __future__ import annotations

import os
import sys
import time


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else f"{m}m{s:02d}s"


class Progress:
    """Counts fold evaluations of one job and reports them now and then."""

    def __init__(self, what: str, total: int, stream=None, every: float | None = None):
        self.what, self.total, self.done = what, int(total), 0
        self.stream = stream if stream is not None else sys.stderr
        self.every = float(os.environ.get("NBREPRO_PROGRESS_SECONDS", 30)) if every is None else every
        self.start = self.last = time.monotonic()

    def line(self, label: str) -> str:
        elapsed = time.monotonic() - self.start
        text = f"[progress] {self.what} {label}: {self.done}/{self.total} folds, {_clock(elapsed)} elapsed"
        if 0 < self.done < self.total:
            text += f", about {_clock(elapsed / self.done * (self.total - self.done))} left at this pace"
        return text

    def step(self, label: str, n: int = 1, finished: bool = False) -> None:
        self.done += n
        now = time.monotonic()
        if finished or now - self.last >= self.every:
            self.last = now
            print(self.line(label) + (" (done)" if finished else ""), file=self.stream, flush=True)
