# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: Li & Li's NB column (36 datasets × 10 runs × 10 folds), nbrepro vs Weka 3.6.

nbrepro, as the pipeline's evaluate job runs it (one thread; see ``_pipeline_env``), on the
prepared data and folds of a pipeline run (``--run-dir``, default this checkout; run
``snakemake --cores 2 --config 'papers=[lcwnb]'`` first):

- ``fold_seconds``: the fold loop from data in memory: the fit on each training fold (count
  subtraction, as ``crossval.fold_probabilities`` does it), its test probabilities, and the
  fold's accuracy. This is what Weka's time covers. Best of ``--repeats``.
- ``job_seconds``: ``experiment.evaluate`` whole, as the job runs it: read the prepared file
  and folds, the fold loop, every metric, and write the folds and predictions files.

Weka: ``Evaluation.crossValidateModel`` with seeds 1..10 on the same prepared data, in one JVM
(JVM start and ARFF reading excluded). Writes benchmarks/results/nb_column.csv.

    python benchmarks/nb_column.py [--run-dir DIR]
"""
from __future__ import annotations

import argparse  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import _pipeline_env  # noqa: F401  (before numpy: one thread, as a pipeline job)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from nbrepro.classifiers import NaiveBayes  # noqa: E402
from nbrepro.data.arff import write_arff  # noqa: E402
from nbrepro.evaluation.crossval import fold_probabilities  # noqa: E402
from nbrepro.evaluation.experiment import evaluate, read_prepared  # noqa: E402
from nbrepro.paper import read_paper  # noqa: E402

ROOT = _pipeline_env.ROOT
WEKA = Path("/usr/share/java/weka.jar")


def _fold_loop(X, y, splits) -> tuple[float, float]:
    codes = y.cat.codes.to_numpy()
    t0 = time.perf_counter()
    correct = sum(int(np.sum(r.proba.argmax(1) == codes[test]))
                  for r, (_, test) in zip(fold_probabilities(NaiveBayes(), X, y, splits), splits, strict=True))
    return time.perf_counter() - t0, 100 * correct / sum(len(test) for _, test in splits)


def ours(run_dir: Path, paper: dict, datasets: list[str], repeats: int) -> pd.DataFrame:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for ds in datasets:
            prepared = run_dir / f"resources/prepared/lcwnb/{ds}.parquet"
            folds_path = run_dir / f"resources/folds/lcwnb/{ds}.parquet"
            X, y = read_prepared(prepared)
            folds = pd.read_parquet(folds_path)
            splits = [
                (np.asarray(a, np.int64), np.asarray(b, np.int64))
                for a, b in zip(folds["train"], folds["test"], strict=True)
            ]
            loops = [_fold_loop(X, y, splits) for _ in range(repeats)]
            t0 = time.perf_counter()
            evaluate(paper, ds, "NB", prepared, folds_path, Path(tmp) / "folds.parquet", Path(tmp) / "pred.parquet")
            rows.append(
                {
                    "dataset": ds,
                    "fold_seconds": min(s for s, _ in loops),
                    "job_seconds": time.perf_counter() - t0,
                    "nbrepro_pct_correct_pooled": loops[0][1],
                }
            )
    return pd.DataFrame(rows)


def weka(run_dir: Path, datasets: list[str]) -> pd.DataFrame:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        subprocess.run(
            ["javac", "-cp", str(WEKA), "-d", str(tmp), str(ROOT / "benchmarks/weka/WekaCVTimer.java")], check=True
        )
        files = []
        for ds in datasets:
            X, y = read_prepared(run_dir / f"resources/prepared/lcwnb/{ds}.parquet")
            f = tmp / f"{ds}.arff"
            write_arff(pd.concat([X, y], axis=1), f)
            files.append(str(f))
        out = subprocess.run(
            ["java", "-cp", f"{WEKA}:{tmp}", "WekaCVTimer", "weka.classifiers.bayes.NaiveBayes", "10", "10", *files],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    lines = [line.split(",") for line in out.strip().splitlines()[1:]]
    return pd.DataFrame(
        {
            "dataset": [Path(f).stem for f, _, _ in lines],
            "weka_seconds": [float(s) for _, s, _ in lines],
            "weka_pct_correct_pooled": [float(a) for _, _, a in lines],
        }
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run-dir", type=Path, default=ROOT, help="a pipeline run holding resources/ (default: here)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    paper = read_paper(ROOT / "config/papers/lcwnb.yaml")
    datasets = list(paper.datasets)
    res = ours(args.run_dir, paper, datasets, args.repeats)
    if WEKA.exists():
        res = res.merge(weka(args.run_dir, datasets), on="dataset")
    for column, value in _pipeline_env.thread_columns().items():
        res[column] = value
    out = ROOT / "benchmarks/results/nb_column.csv"
    out.parent.mkdir(exist_ok=True)
    res.to_csv(out, index=False, float_format="%.6g")
    print(res.to_string(index=False))
    print("total seconds:", res.filter(like="_seconds").sum().round(2).to_dict())


if __name__ == "__main__":
    main()
