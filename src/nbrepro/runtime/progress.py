# SPDX-License-Identifier: GPL-3.0-or-later
"""Progress of a long evaluation job, written to its log (stderr) so that
``tail -f logs/evaluate/{run}/{dataset}….log`` ({run}: the paper, or its reseeded run or reading) shows how far it is.

A line at most every ``NBREPRO_PROGRESS_SECONDS`` (default 30) and when a classifier finishes:
folds done of the job's total, the elapsed time and the time left at the pace so far. A long
job also puts the line on stdout every ``NBREPRO_CONSOLE_PROGRESS_SECONDS`` (default 300): the
rules send stdout to Snakemake's console, so a person watching a run sees how far its long jobs
are and how long they have left, not only "N of M steps" as jobs end (under SLURM a job's
stdout goes to its SLURM log instead). No result depends on it.
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

    def __init__(self, what: str, total: int, stream=None, every: float | None = None, console=None,
                 console_every: float | None = None):
        self.what, self.total, self.done = what, int(total), 0
        self.stream = stream if stream is not None else sys.stderr
        self.console = console if console is not None else sys.stdout
        self.every = float(os.environ.get("NBREPRO_PROGRESS_SECONDS", 30)) if every is None else every
        self.console_every = (float(os.environ.get("NBREPRO_CONSOLE_PROGRESS_SECONDS", 300))
                              if console_every is None else console_every)
        self.start = self.last = self.last_console = time.monotonic()

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
        if not finished and now - self.last_console >= self.console_every:
            self.last_console = now
            print(self.line(label), file=self.console, flush=True)
