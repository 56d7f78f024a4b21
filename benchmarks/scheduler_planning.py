# SPDX-License-Identifier: GPL-3.0-or-later
"""Would removing Snakemake's job rate limiter on a local run still pay with the pinned Snakemake? The
CPU time Snakemake's own process spends planning while two long jobs run and many wait, with the
limiter removed from ``onstart`` and without. (The Snakefile did so until issue 82 removed the
assignment to a Snakemake internal: measured at 26.4 → 25.1 CPU-s here, not worth an internal.)

A throwaway workflow run as the suite runs (``--scheduler greedy``, 2 cores): ``--early`` quick
jobs that finish first (each finished job started one more planning chain), then two jobs that
sleep ``--seconds`` while ``--waiting`` jobs need both and every quick job's output (as the
suite's tables and reports wait on the evaluations' hundreds of files). Jobs sleep, so the CPU
time of the run is Snakemake's (plus a shell start per job, the same in both runs).
Writes benchmarks/results/scheduler_planning.csv.

    python benchmarks/scheduler_planning.py [--seconds 60] [--waiting 400] [--early 200]
"""

from __future__ import annotations

import argparse
import csv
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import snakemake

ROOT = Path(__file__).resolve().parents[1]

SNAKEFILE = """
def plan_on_job_ends_only(workflow):
    # Snakemake 9's scheduler, with the command line's default --max-jobs-per-timespan 100/1s, arms a
    # timer at the end of every planning round that starts another a second later
    scheduler = getattr(workflow, "scheduler", None)
    if scheduler is None or getattr(scheduler, "job_rate_limiter", None) is None:
        return False
    scheduler.job_rate_limiter = None
    return True

onstart:
    if {patch}:
        open("patched", "w").write(str(plan_on_job_ends_only(workflow)))

rule all:
    input: expand("short/{{i}}.txt", i=range({waiting})), expand("early/{{i}}.txt", i=range({early}))

rule early:
    output: "early/{{i}}.txt"
    priority: 10
    shell: "touch {{output}}"

rule long:
    output: "long/{{k}}.txt"
    shell: "sleep {seconds} && touch {{output}}"

rule short:
    input: "long/0.txt", "long/1.txt", expand("early/{{i}}.txt", i=range({early}))
    output: "short/{{i}}.txt"
    shell: "touch {{output}}"
"""


def run(patch: bool, seconds: int, waiting: int, early: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "Snakefile").write_text(
            SNAKEFILE.format(
                patch=patch,
                seconds=seconds,
                waiting=waiting,
                early=early,
            )
        )
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "snakemake", "--cores", "2", "--scheduler", "greedy", "--quiet", "all"],
            cwd=tmp,
            check=True,
            capture_output=True,
        )
        applied = Path(tmp, "patched").is_file() and Path(tmp, "patched").read_text() == "True"
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "snakemake": snakemake.__version__,
        "patch": patch,
        "patch_applied": applied,
        "early_jobs": early,
        "waiting_jobs": waiting,
        "long_job_seconds": seconds,
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 2),
        "cpu_share_of_one_core": round(cpu / wall, 3),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--waiting", type=int, default=400)
    ap.add_argument("--early", type=int, default=200)
    args = ap.parse_args()
    rows = [run(patch, args.seconds, args.waiting, args.early) for patch in (False, True)]
    out = ROOT / "benchmarks/results/scheduler_planning.csv"
    with open(out, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    for r in rows:
        print(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
