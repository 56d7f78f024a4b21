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
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]


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
        rows.append({"job": "all" if f.parent == top else f.parent.name, "dataset": f.name[:-len(".tsv")],
                     "wall_seconds": round(float(b["s"]), 1),
                     "cpu_seconds": round(float(b["cpu_time"]), 1), "peak_rss_mb": round(float(b["max_rss"]), 0)})
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
