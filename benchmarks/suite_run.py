# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: the whole suite, every paper, from a clean clone: wall time, CPU, peak memory, disk.

Without ``--run-dir`` it clones this repository's HEAD into a fresh folder (``--work``, with
``../shared`` linked beside the clone as on CI), installs nothing (the clone runs with the
Python environment at hand, so install the project first), and runs

    snakemake --cores 2 --config papers=[every paper in config/papers, companions built with theirs]

from a cold cache, timing it. With ``--run-dir`` (and ``--wall-seconds``, ``--peak-rss-mb`` as
``/usr/bin/time -v`` gave them) it only summarises a run made by hand.

Either way it reads every evaluation job's Snakemake ``benchmark:`` file
(``logs/benchmarks/{paper}/…tsv``) and the size of ``results/{paper}``, and writes
``benchmarks/results/suite_run.csv``: one row per paper (evaluation jobs, their CPU seconds and
summed wall seconds, the heaviest job's peak memory, the size of its results) and a last row,
``all``, with the run's own wall time, peak memory, the whole ``results/`` size, the commit and
the machine; and, when ``benchmarks/calibrate.py`` has been run on this machine, every CPU figure
in reference units too (``reference_units``), which any machine converts with its own calibration,
and as CPU-seconds on the reference machine (``reference_machine_cpu_seconds``).
The index page shows it.

    python benchmarks/suite_run.py [--work /tmp/suite] [--cores 2]
    python benchmarks/suite_run.py --run-dir /tmp/suite/main --wall-seconds 8100 --peak-rss-mb 1400 --calibrations 3
"""
from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"


def all_papers() -> list[str]:
    """Every paper config, less those another one builds as its companion (lpmbc_sweep with lpmbc)."""
    import yaml

    configs = {p.stem: yaml.safe_load(p.read_text()) for p in sorted((ROOT / "config" / "papers").glob("*.yaml"))}
    companions = {c for spec in configs.values() for c in spec.get("companions", [])}
    return [name for name in configs if name not in companions]


def folder_mb(path: Path) -> float:
    if not path.exists():
        return 0.0
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20


def run_clean_clone(work: Path, cores: int, papers: list[str]) -> tuple[Path, float, float]:
    """Clone HEAD into ``work/main`` beside a link to ``../shared`` and run the suite there:
    (run folder, wall seconds, peak resident MB of any process of the run)."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    subprocess.run(["git", "clone", "-q", str(ROOT), str(work / "main")], check=True)
    (work / "shared").symlink_to((ROOT.parent / "shared").resolve())
    run = work / "main"
    command = [sys.executable, "-m", "snakemake", "--cores", str(cores), "--config",
               f"papers=[{','.join(papers)}]"]
    start = time.monotonic()
    with open(work / "snakemake.log", "w") as log:
        done = subprocess.run(command, cwd=run, stdout=log, stderr=subprocess.STDOUT)
    wall = time.monotonic() - start
    if done.returncode:
        raise SystemExit(f"the suite failed (exit {done.returncode}); see {work / 'snakemake.log'}")
    # ru_maxrss of waited-for children: the largest process of the run (kB on Linux)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return run, wall, peak


def summarise(run: Path, wall: float | None, peak: float | None, commit: str | None,
              calibrations: int = 1) -> pd.DataFrame:
    rows = []
    bench = run / "logs" / "benchmarks"
    papers = sorted(p.name for p in bench.iterdir() if p.is_dir()) if bench.exists() else []
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import paper_jobs

    for paper in papers:
        # the main run's jobs: not a reseeded run's or a reading's
        main = [f for f in sorted((bench / paper).rglob("*.tsv"))
                if not {"seeds", "readings"} & set(f.relative_to(bench / paper).parts[:-1])]
        jobs = [pd.read_csv(f, sep="\t").iloc[-1] for f in main]
        each = paper_jobs.collect(run, paper)  # each job's own figures where its log has them (job_cpu)
        rows.append({"paper": paper, "evaluation_jobs": len(jobs),
                     "cpu_seconds": round(each.cpu_seconds.sum(), 1),
                     "job_wall_seconds": round(sum(float(j["s"]) for j in jobs), 1),
                     "peak_rss_mb": round(each.peak_rss_mb.max(), 0),
                     "results_mb": round(folder_mb(run / "results" / paper), 1)})
    table = pd.DataFrame(rows)
    worker = paper_jobs.worker_cpu(run)
    if worker:  # the warm worker's own imports and serving, once for the run (nbrepro.runtime.worker)
        table = pd.concat([table, pd.DataFrame([{"paper": "(worker)", "evaluation_jobs": 0,
                                                 "cpu_seconds": round(worker, 1)}])], ignore_index=True)
    if commit is None:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=run, capture_output=True,
                                text=True).stdout.strip() or "unknown"
    total = {
        "paper": "all",
        "evaluation_jobs": int(table.evaluation_jobs.sum()),
        "cpu_seconds": round(table.cpu_seconds.sum(), 1),
        "job_wall_seconds": round(table.job_wall_seconds.sum(), 1),
        "peak_rss_mb": round(peak if peak is not None else table.peak_rss_mb.max(), 0),
        "results_mb": round(folder_mb(run / "results"), 1),
        "run_wall_seconds": round(wall, 0) if wall is not None else float("nan"),
        "commit": commit,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
    }
    table = pd.concat([table, pd.DataFrame([total])], ignore_index=True)
    # the same CPU in reference units (benchmarks/calibrate.py, measured on this machine), which any
    # machine converts back with its own calibration
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import calibrate

    cal = calibrate.latest(rows=calibrations)
    if cal is not None:
        units = table.cpu_seconds / cal["reference_cpu_seconds"]
        table["reference_units"] = units.round(0)
        # the same work's CPU-seconds on the machine issue 61's targets are stated for
        table["reference_machine_cpu_seconds"] = (units * calibrate.REFERENCE_MACHINE_UNIT).round(0)
        table.loc[table.paper == "all", "reference_cpu_seconds"] = cal["reference_cpu_seconds"]
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run-dir", type=Path, help="summarise this finished run instead of running one")
    ap.add_argument("--wall-seconds", type=float, help="with --run-dir: the run's wall time")
    ap.add_argument("--peak-rss-mb", type=float, help="with --run-dir: the run's peak memory (largest process)")
    ap.add_argument("--commit", help="with --run-dir: the commit it ran (default: the run folder's HEAD)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/nbrepro-suite"), help="where to clone and run")
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--out", type=Path, default=RESULTS / "suite_run.csv")
    ap.add_argument("--calibrations", type=int, default=1,
                    help="the unit: the mean of this machine's last N calibration rows (those taken before and after "
                         "the run: the machine's speed moves within a run)")
    args = ap.parse_args()
    if args.run_dir is not None:
        run, wall, peak = args.run_dir, args.wall_seconds, args.peak_rss_mb
    else:
        run, wall, peak = run_clean_clone(args.work, args.cores, all_papers())
    table = summarise(run, wall, peak, args.commit, args.calibrations)
    table.to_csv(args.out, index=False, lineterminator="\n")
    print(table.to_string(index=False))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
