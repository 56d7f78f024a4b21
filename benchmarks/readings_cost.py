# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: what each reading of the readings run cost, from a real run's job benchmarks.

A reading's evaluation jobs (workflow/rules/evaluate.smk) write Snakemake's ``benchmark:`` files
under ``logs/benchmarks/{paper}/readings/{choice}/{reading}/[seeds/{k}/]`` (their run's folder,
``nbrepro.plan.EvaluationRule.benchmark``): wall seconds, CPU
seconds (the job's process tree, its Python start included) and peak memory. This collects them per
paper, choice and reading (every run of it: the main one and the reseeded ones) beside the paper's
own main-run evaluation jobs, so a reading's cost reads as a share of the paper's. Writes
``benchmarks/results/readings_cost.csv`` and prints the totals per paper.

    snakemake --cores 2 --config papers=[lpmbc] readings=all
    python benchmarks/readings_cost.py [--run-dir .] [--out F]
"""
from __future__ import annotations

import argparse
import platform
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]


def _jobs(files) -> dict:
    cpu, wall = 0.0, 0.0
    for f in files:
        b = pd.read_csv(f, sep="\t").iloc[-1]
        cpu, wall = cpu + float(b["cpu_time"]), wall + float(b["s"])
    return {"jobs": len(files), "cpu_seconds": round(cpu, 1), "wall_seconds": round(wall, 1)}


def collect(run_dir: Path) -> pd.DataFrame:
    """One row per (paper, choice, reading): its evaluation jobs over all its runs, and the paper's
    main-run evaluation jobs for scale."""
    top = run_dir / "logs" / "benchmarks"
    rows = []
    for reading in sorted(p for p in top.glob("*/readings/*/*") if p.is_dir()):   # {paper}/readings/{choice}/{r}
        paper, files = reading.parents[2].name, sorted(reading.rglob("*.tsv"))   # every run of it: [seeds/k/][job/]
        main = top / paper
        base = _jobs(sorted(main.glob("*.tsv")) + sorted(f for f in main.glob("*/*.tsv") if f.parts[-2] != "seeds"))
        rows.append({"paper": paper, "choice": reading.parent.name, "reading": reading.name, **_jobs(files),
                     "paper_main_run_cpu_seconds": base["cpu_seconds"], "machine": f"{platform.machine()}"})
    return pd.DataFrame(rows)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run-dir", default=".", type=Path)
    ap.add_argument("--out", default=ROOT / "benchmarks" / "results" / "readings_cost.csv", type=Path)
    args = ap.parse_args(argv)
    table = collect(args.run_dir)
    if table.empty:
        raise SystemExit(f"no readings benchmarks under {args.run_dir}/logs/benchmarks/*/readings: run one first")
    table.to_csv(args.out, index=False, lineterminator="\n")
    totals = table.groupby("paper").agg(readings=("reading", "size"), jobs=("jobs", "sum"),
                                        cpu_seconds=("cpu_seconds", "sum"),
                                        main_run=("paper_main_run_cpu_seconds", "first"))
    print(table.to_string(index=False))
    print(totals.assign(ratio=(totals.cpu_seconds / totals.main_run).round(2)).to_string())


if __name__ == "__main__":
    main()
