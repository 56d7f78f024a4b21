# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: what each Snakemake job costs beyond its own work, and what that adds up to over
the whole suite.

A job's overhead is everything but fitting and predicting: Snakemake's own CPU for it (it plans,
starts and checks every job) and the job's Python start (imports of numpy, pandas, scikit-learn,
which imports scipy.stats) and its file reading and writing. Measured on a small real run, in a
copy of the project (NB and AODE on labor, iris and zoo, one job per data set: two runs of 3-fold CV, so nearly
all of each job is overhead), one job at a time (``--cores 1``) so the numbers are not another job's:

- Snakemake's own CPU: its process's CPU time (RUSAGE_SELF, its threads included), per job run;
- an evaluation job's overhead: the job's CPU time minus the fit and predict seconds it recorded
  in its folds files. The job's CPU time is the line its log ends with (``nbrepro.runtime.worker``: the
  forked child's and the client's counters, or the process's own when it ran in its own process,
  ``worker=false``), exact where the rule's ``benchmark:`` file samples and misses part of a job;
- the warm worker's own start (its imports), once per run, shared by the suite's jobs.

The small run is made twice, with the worker and without (``job_start_cpu_seconds_own_process``).

Then the suite's job count (a dry run of every paper) times the cost per job gives the suite's
overhead, set against the 2-hour budget on 2 cores. Writes ``benchmarks/results/job_overhead.csv``.

    python benchmarks/job_overhead.py [--mirror ../shared/datasets]
"""
from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import paper_jobs  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ["Snakefile", "environment.yml", "workflow", "config", "profiles", "investigations", "benchmarks"]
SUITE = ["lcwnb", "lslwnb", "lslwnb_cv", "kdebw", "lpmbc", "awnb"]
BUDGET_CPU_SECONDS = 2 * 3600 * 2     # the suite's target: 2 hours on 2 cores

SMALL = {
    "paper": "overhead", "title": "job overhead benchmark", "datasets": ["labor", "iris", "zoo"],
    "preprocessing": {"scope": "dataset", "steps": [{"replace_missing": {}},
                                                    {"discretize_equal_width": {"n_bins": 10}}]},
    "protocol": {"name": "weka_cv", "folds": 3, "runs": {"first": 1, "last": 2}, "train_order": "weka"},
    "classifiers": {"NB": {"estimator": "NaiveBayes"}, "AODE": {"estimator": "AODE"}},
    "metrics": ["accuracy"],
    "tables": {"table2": {"metric": "accuracy", "methods": ["NB", "AODE"],
                          "published": "config/published/lcwnb_table2.csv"}},
}

# runs Snakemake in this process and prints its own CPU seconds (not its jobs') when it exits
SELF_CPU = ("import atexit, resource, sys\n"
            "atexit.register(lambda: print('SNAKEMAKE_SELF_CPU', sum(resource.getrusage(resource.RUSAGE_SELF)[:2]),"
            " file=sys.stderr))\n"
            "from snakemake.cli import main\nsys.argv[0] = 'snakemake'\nmain()\n")


def _copy_project(dest: Path) -> Path:
    dest.mkdir(parents=True)
    for name in PROJECT:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dest / name)
    return dest


def suite_jobs(proj: Path, mirror: str) -> dict[str, int]:
    """Jobs per rule of the whole suite, from a dry run."""
    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--quiet", "rules", "--config",
                          f"mirror={mirror}", f"papers=[{','.join(SUITE)}]"], cwd=proj, capture_output=True,
                         text=True, check=True).stdout
    stats = out.split("Job stats:")[1]
    counts = {}
    for line in stats.splitlines()[3:]:
        m = re.match(r"(\S+)\s+(\d+)$", line.strip())
        if not m or m.group(1) == "total":
            break
        counts[m.group(1)] = int(m.group(2))
    return counts


def small_run(proj: Path, mirror: str, worker: bool) -> dict[str, float]:
    """The small run, its jobs forked from the warm worker (``worker``) or each in its own process."""
    (proj / "config/papers/overhead.yaml").write_text(yaml.safe_dump(SMALL))
    res = subprocess.run([sys.executable, "-c", SELF_CPU, "--cores", "1", "--config", "papers=[overhead]",
                          f"mirror={mirror}", f"worker={str(worker).lower()}"], cwd=proj, capture_output=True,
                         text=True)
    if res.returncode != 0:
        raise SystemExit(res.stdout[-2000:] + res.stderr[-2000:])
    self_cpu = float(re.search(r"SNAKEMAKE_SELF_CPU (\S+)", res.stderr).group(1))
    n_jobs = int(re.findall(r"(\d+) of \d+ steps \(100%\) done", res.stdout + res.stderr)[-1])
    job_overhead = []
    for tsv in (proj / "logs/benchmarks/overhead").glob("*.tsv"):  # one job per data set, both classifiers
        dataset = tsv.stem
        work = sum(float(f.fit_seconds.sum() + f.predict_seconds.sum())
                   for f in map(pd.read_parquet, (proj / f"results/overhead/folds/{dataset}").glob("*.parquet")))
        cpu, _ = paper_jobs.job_cpu(proj, "overhead", "all", dataset, pd.read_csv(tsv, sep="\t").iloc[-1])
        job_overhead.append(cpu - work)
    return {"small_run_jobs": n_jobs, "snakemake_cpu_per_job": self_cpu / n_jobs,
            "evaluate_job_overhead_cpu": sum(job_overhead) / len(job_overhead),
            "worker_cpu": paper_jobs.worker_cpu(proj)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirror", default=str(ROOT.parent / "shared" / "datasets"))
    args = ap.parse_args()
    mirror = str(Path(args.mirror).resolve())
    with tempfile.TemporaryDirectory() as tmp:
        counts = suite_jobs(_copy_project(Path(tmp) / "dry"), mirror)
        costs = small_run(_copy_project(Path(tmp) / "run"), mirror, worker=True)
        own = small_run(_copy_project(Path(tmp) / "own"), mirror, worker=False)
    n = sum(counts.values())
    # the worker's own start, once per run, shared by the run's jobs
    per_job = costs["snakemake_cpu_per_job"] + costs["evaluate_job_overhead_cpu"] + costs["worker_cpu"] / n
    total = n * per_job
    row = {"suite_jobs": n, "suite_evaluation_jobs": sum(v for k, v in counts.items() if k.startswith("evaluate")),
           "snakemake_cpu_seconds_per_job": round(costs["snakemake_cpu_per_job"], 2),
           "job_start_cpu_seconds": round(costs["evaluate_job_overhead_cpu"], 2),
           "worker_start_cpu_seconds": round(costs["worker_cpu"], 2),
           "job_start_cpu_seconds_own_process": round(own["evaluate_job_overhead_cpu"], 2),
           "suite_overhead_cpu_minutes": round(total / 60, 1),
           "share_of_2h_on_2_cores": round(total / BUDGET_CPU_SECONDS, 3),
           "small_run_jobs": costs["small_run_jobs"], "threads_per_job": 1,
           "machine": f"{platform.machine()}, {os.cpu_count()} cores"}
    out = ROOT / "benchmarks" / "results" / "job_overhead.csv"
    pd.DataFrame([row]).to_csv(out, index=False, lineterminator="\n")
    pd.DataFrame(sorted(counts.items(), key=lambda kv: -kv[1]), columns=["rule", "jobs"]).to_csv(
        out.with_name("suite_jobs_by_rule.csv"), index=False, lineterminator="\n")
    print(f"the suite: {n} jobs; per job {costs['snakemake_cpu_per_job']:.2f} s of Snakemake's CPU and "
          f"{costs['evaluate_job_overhead_cpu']:.2f} s to start, read and write (forked from the warm worker, "
          f"which started once in {costs['worker_cpu']:.2f} s; "
          f"{own['evaluate_job_overhead_cpu']:.2f} s in its own process); "
          f"{total / 60:.1f} CPU-minutes in all, {100 * total / BUDGET_CPU_SECONDS:.1f} % of 2 hours on 2 cores")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
