# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: wall time and peak memory of a paper's per-dataset evaluation jobs, from a real run.

Papers with ``evaluate_jobs: per_dataset`` (Liu et al.'s kdebw) run every classifier of one
data set in one Snakemake job, and that rule has a ``benchmark:`` directive: Snakemake
samples the job's process tree and writes ``logs/benchmarks/{paper}/{dataset}.tsv`` (or
``{job}/{dataset}.tsv`` where the classifiers' ``job:`` names split a data set's work; wall
seconds, CPU seconds, peak resident memory). This script collects those files after a run,
so the numbers are the pipeline's own (one thread per job, ``--cores`` jobs at once), not a
separate timing harness. Writes ``benchmarks/results/{paper}_jobs.csv`` (every data set,
heaviest first) and prints the heaviest five and the totals.

    snakemake --cores 2 --config 'papers=[kdebw]'
    python benchmarks/paper_jobs.py kdebw [--run-dir .] [--wall-seconds S] [--out F --baseline OLD.csv]
"""
from __future__ import annotations

import argparse
import os
import platform
import re
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]


def job_cpu(run_dir: Path, paper: str, job: str, dataset: str, benchmark: pd.Series) -> tuple[float, float]:
    """A job's CPU seconds and peak memory (MB): from the last line of its log where it wrote one
    (``nbrepro.runtime.worker.CPU_LINE``: a job forked from the run's warm worker, whose CPU and memory
    Snakemake's sampling of the job's process tree does not see, or one that ran in its own process
    beside a worker), else Snakemake's sampled ``cpu_time`` and ``max_rss``."""
    from nbrepro.runtime.worker import CPU_LINE

    log = run_dir / "logs" / "evaluate" / paper / (f"{dataset}.log" if job == "all" else f"{dataset}.{job}.log")
    if log.exists():
        for line in reversed(log.read_text(errors="replace").splitlines()[-5:]):
            if line.startswith(CPU_LINE):
                peak = re.search(r"peak (\S+) MB", line)
                return (float(line[len(CPU_LINE):].split()[0]),
                        float(peak.group(1)) if peak else float(benchmark["max_rss"]))
    return float(benchmark["cpu_time"]), float(benchmark["max_rss"])


def worker_cpu(run_dir: Path) -> float:
    """The warm worker's own CPU seconds (its imports and serving; 0 without one), from its log."""
    log = run_dir / "logs" / "worker.log"
    m = re.search(r"its own start and serving (\S+) CPU-s \(imports (\S+) before\)",
                  log.read_text() if log.exists() else "")
    return float(m.group(1)) + float(m.group(2)) if m else 0.0


def collect(run_dir: Path, paper: str) -> pd.DataFrame:
    """One row per job: a paper with one job per data set writes {dataset}.tsv, one with several
    (classifiers' ``job:`` names) {job}/{dataset}.tsv."""
    top = run_dir / "logs" / "benchmarks" / paper
    files = sorted(top.glob("*.tsv")) + sorted(top.glob("*/*.tsv"))
    if not files:
        raise SystemExit(f"no job benchmarks under {top}: run the paper first")
    rows = []
    for f in files:
        b = pd.read_csv(f, sep="\t").iloc[-1]
        job, dataset = "all" if f.parent == top else f.parent.name, f.name[:-len(".tsv")]
        cpu, peak = job_cpu(run_dir, paper, job, dataset, b)
        rows.append({"job": job, "dataset": dataset, "wall_seconds": round(float(b["s"]), 1),
                     "cpu_seconds": round(cpu, 1), "peak_rss_mb": round(peak, 0)})
    return pd.DataFrame(rows).sort_values("wall_seconds", ascending=False, ignore_index=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paper")
    ap.add_argument("--run-dir", default=str(ROOT), help="the workflow directory the run used")
    ap.add_argument("--wall-seconds", type=float, help="the whole run's wall time, recorded beside the jobs")
    ap.add_argument("--out", help="where to write (default benchmarks/results/{paper}_jobs.csv)")
    ap.add_argument("--baseline", help="an earlier {paper}_jobs.csv: its CPU seconds and peak memory for the same "
                                       "jobs go beside (a partial rerun measured against a whole run)")
    args = ap.parse_args()
    jobs = collect(Path(args.run_dir), args.paper)
    jobs["machine"] = f"{platform.machine()}, {os.cpu_count()} cores"
    if args.wall_seconds is not None:
        jobs["run_wall_seconds"] = args.wall_seconds
    if args.baseline:
        before = pd.read_csv(args.baseline).set_index(["job", "dataset"])
        keys = list(zip(jobs["job"], jobs["dataset"], strict=True))
        for column in ("cpu_seconds", "peak_rss_mb"):
            jobs[f"baseline_{column}"] = [before[column].get(k) for k in keys]
        jobs["cpu_ratio"] = (jobs["cpu_seconds"] / jobs["baseline_cpu_seconds"]).round(3)
        print(
            f"against {args.baseline}: {jobs.cpu_seconds.sum():.0f} s CPU where the same jobs took "
            f"{jobs.baseline_cpu_seconds.sum():.0f} s "
            f"(ratio {jobs.cpu_seconds.sum() / jobs.baseline_cpu_seconds.sum():.2f})"
        )
    out = Path(args.out) if args.out else ROOT / "benchmarks" / "results" / f"{args.paper}_jobs.csv"
    jobs.to_csv(out, index=False, lineterminator="\n")
    print(jobs.head(5).to_string(index=False))
    print(
        f"{len(jobs)} jobs: {jobs.wall_seconds.sum():.0f} s wall summed, {jobs.cpu_seconds.sum():.0f} s CPU; "
        f"peak {jobs.peak_rss_mb.max():.0f} MB"
        + (f"; the run took {args.wall_seconds:.0f} s" if args.wall_seconds else "")
    )
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
