# SPDX-License-Identifier: GPL-3.0-or-later
"""What an evaluation job asks a cluster for and when it runs: none of it changes a result.

From the job's last recorded run (``benchmarks/results/{paper}_jobs.csv``, written by
``benchmarks/paper_jobs.py``): its peak memory and wall time with headroom, since SLURM kills a job
that outgrows its request and a cluster node may be slower than the machine that measured it. An
unmeasured job asks for the defaults, more on a large data set (letter's lazy classifiers ran minutes
where others ran seconds).
"""
from __future__ import annotations

import csv
import functools
import math
from pathlib import Path

MEM_HEADROOM, TIME_HEADROOM = 1.5, 3
DEFAULT_MEM_MB, DEFAULT_RUNTIME_MIN, LARGE_DATASET_CELLS = 2000, 30, 100_000
# Fetching and preparing come before every evaluation (seconds each): otherwise a small data set's
# evaluation, ready early, would keep a long one's fetch waiting.
DATA_PRIORITY = 1_000_000


class JobCosts:
    """The measured cost of each paper's evaluation jobs, read from ``{root}/benchmarks/results/``."""

    def __init__(self, root, registry: dict):
        self.root, self.registry = Path(root), registry
        self.measured = functools.cache(self._measured)

    def _measured(self, paper: str) -> dict[tuple[str, str], tuple[float, float]]:
        """(job name, data set) → (wall seconds, peak MB) of that job in the last recorded run, if any."""
        path = self.root / "benchmarks" / "results" / f"{paper}_jobs.csv"
        if not path.is_file():
            return {}
        with open(path, newline="") as fh:
            return {(row.get("job") or "all", row["dataset"]): (float(row["wall_seconds"]), float(row["peak_rss_mb"]))
                    for row in csv.DictReader(fh)}

    def cells(self, dataset: str) -> int:
        entry = self.registry.get(dataset)
        # an entry with only an openml_id has no shape until it is pinned: asked for as a small set
        return (entry.n_instances or 0) * (entry.n_attributes or 1) if entry else 0

    def resources(self, paper: str, job: str) -> dict:
        """mem_mb and runtime (minutes) of a paper's evaluation job, as functions of its dataset wildcard."""
        def mem_mb(wildcards):
            m = self.measured(paper).get((job, wildcards.dataset))
            large = self.cells(wildcards.dataset) > LARGE_DATASET_CELLS
            return max(1000, 100 * math.ceil(m[1] * MEM_HEADROOM / 100)) if m else DEFAULT_MEM_MB * (2 if large else 1)

        def runtime(wildcards):
            m = self.measured(paper).get((job, wildcards.dataset))
            large = self.cells(wildcards.dataset) > LARGE_DATASET_CELLS
            return max(10, math.ceil(m[0] * TIME_HEADROOM / 60)) if m else DEFAULT_RUNTIME_MIN * (8 if large else 1)

        return dict(mem_mb=mem_mb, runtime=runtime)

    def priority(self, paper: str, job: str):
        """Scheduling priority of a data set's evaluation job: longest first. Two cores finish soonest
        when the long jobs start first and the short ones fill in after them, not when letter starts
        last. A data set without a measurement starts before all measured ones (its cost is unknown),
        larger ones first."""
        seconds = {key: wall for key, (wall, _) in self.measured(paper).items()}
        top = int(max(seconds.values(), default=0)) + 1

        def priority(wildcards):
            if (job, wildcards.dataset) in seconds:
                return int(seconds[(job, wildcards.dataset)])
            return top + self.cells(wildcards.dataset)

        return priority
