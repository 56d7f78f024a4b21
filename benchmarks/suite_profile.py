# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: the suite's ten most expensive evaluation jobs, and where their time goes.

Reads every paper's measured jobs (``benchmarks/results/{paper}_jobs.csv``, written from a full
run's Snakemake ``benchmark:`` files by ``paper_jobs.py``), ranks the jobs of all papers by CPU
seconds, and splits each of the ten heaviest by its classifiers, from the folds files of the
run that measured it (``fit_seconds`` and ``predict_seconds`` per fold, summed):

- ``fit_seconds`` / ``predict_seconds``: the job's classifiers' fits and predictions (wall);
- ``other_seconds``: the rest of the job's wall time: Python start and imports, reading the
  data, the metrics, writing the results, and waiting for a core under load;
- ``heaviest_classifier`` and its share of fit + predict.

Writes ``benchmarks/results/suite_top_jobs.csv``; the index page shows it.

    python benchmarks/suite_profile.py --run-dir /tmp/lcfull --run-dir /tmp/awfull ...
"""
from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from nbrepro.paper import read_paper  # noqa: E402
from nbrepro.plan import job_groups  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"


def measured_jobs() -> pd.DataFrame:
    frames = []
    for path in sorted(RESULTS.glob("*_jobs.csv")):
        paper = path.name[:-len("_jobs.csv")]
        if not (ROOT / "config" / "papers" / f"{paper}.yaml").exists():
            continue
        jobs = pd.read_csv(path)
        if "job" not in jobs:
            jobs["job"] = "all"
        jobs.insert(0, "paper", paper)
        frames.append(jobs[["paper", "job", "dataset", "wall_seconds", "cpu_seconds", "peak_rss_mb"]])
    return pd.concat(frames, ignore_index=True)


@functools.cache
def _paper(paper: str) -> dict:
    return read_paper(ROOT / "config" / "papers" / f"{paper}.yaml")


def job_classifiers(paper: str, job: str, dataset: str) -> list[str]:
    """The classifiers the job ran on the dataset: its ``job:`` group in a paper with one job per
    data set, else the job is the classifier (the per-classifier rule)."""
    spec = _paper(paper)
    groups = job_groups(spec) if len(job_groups(spec)) > 1 else {label: [label] for label in spec.classifiers}
    return [label for label in groups.get(job, []) if dataset in spec.classifier_datasets(label)]


def split_time(row, run_dirs: list[Path]) -> dict:
    seconds = {}
    for label in job_classifiers(row.paper, row.job, row.dataset):
        for run in run_dirs:
            f = run / "results" / row.paper / "folds" / row.dataset / f"{label}.parquet"
            if f.exists():
                folds = pd.read_parquet(f, columns=["fit_seconds", "predict_seconds"])
                seconds[label] = (float(folds.fit_seconds.sum()), float(folds.predict_seconds.sum()))
                break
    if not seconds:
        return {
            "classifiers": "",
            "fit_seconds": float("nan"),
            "predict_seconds": float("nan"),
            "other_seconds": float("nan"),
            "heaviest_classifier": "(run not at hand)",
            "heaviest_share": float("nan"),
        }
    fit = sum(f for f, _ in seconds.values())
    predict = sum(p for _, p in seconds.values())
    heaviest = max(seconds, key=lambda k: sum(seconds[k]))
    return {
        "classifiers": " ".join(seconds),
        "fit_seconds": round(fit, 1),
        "predict_seconds": round(predict, 1),
        "other_seconds": round(row.wall_seconds - fit - predict, 1),
        "heaviest_classifier": heaviest,
        "heaviest_share": round(sum(seconds[heaviest]) / max(fit + predict, 1e-9), 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--run-dir",
        type=Path,
        action="append",
        default=[],
        help="a full run's workflow directory (results/{paper}/folds); repeat for several",
    )
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    jobs = measured_jobs()
    top = jobs.sort_values("cpu_seconds", ascending=False, ignore_index=True).head(args.top)
    top = pd.concat([top, pd.DataFrame([split_time(r, args.run_dir) for r in top.itertuples()])], axis=1)
    totals = jobs.groupby("paper").agg(jobs=("cpu_seconds", "size"), cpu_seconds=("cpu_seconds", "sum"))
    top["share_of_suite_cpu"] = (top.cpu_seconds / jobs.cpu_seconds.sum()).round(3)
    out = RESULTS / "suite_top_jobs.csv"
    top.to_csv(out, index=False, lineterminator="\n")
    print(top.to_string(index=False))
    print(totals.to_string())
    print(f"measured evaluation jobs: {len(jobs)}, {jobs.cpu_seconds.sum() / 3600:.2f} CPU-hours; wrote {out}")


if __name__ == "__main__":
    main()
