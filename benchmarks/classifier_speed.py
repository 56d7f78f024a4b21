# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: fit + predict over 10 folds, nbrepro vs Weka 3.6, for NB, TAN, AODE, WAODE, HNB.

Data sets: letter as Li & Li prepare it (20 000 × 16, 26 classes; from the pipeline's
resources/, so run the pipeline first) and a seeded synthetic set with 100 nominal
attributes (2 000 rows, 5 values each, 5 classes).

nbrepro: ``crossval.fold_probabilities`` over the 10 folds of run 1 (what the evaluate job
runs: count subtraction for the count-based classifiers), best of 3 repeats; and, for
comparison, plain ``fit``/``predict_proba`` per fold.
Weka: ``Evaluation.crossValidateModel`` 10-fold, seeds 1.., in one JVM (JVM start and file
loading excluded): ``weka_cold_seconds`` is the first run (a fresh Weka process), and
``weka_warm_seconds`` the mean of the runs after the JIT has warmed up.
Writes benchmarks/results/classifier_speed.csv.

One thread, as the pipeline's jobs run (``_pipeline_env``); the CSV states the thread counts.

    python benchmarks/classifier_speed.py [--quick] [--run-dir DIR]
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

ROOT = _pipeline_env.ROOT

from nbrepro.classifiers import REGISTRY  # noqa: E402
from nbrepro.data.arff import write_arff  # noqa: E402
from nbrepro.evaluation.crossval import fold_probabilities  # noqa: E402
from nbrepro.evaluation.experiment import read_prepared  # noqa: E402
from nbrepro.protocols.weka_cv import weka_cv_folds  # noqa: E402

WEKA = Path("/usr/share/java/weka.jar")
WEKA_NAMES = {"NaiveBayes": ("weka.classifiers.bayes.NaiveBayes", []),
              "TAN": ("weka.classifiers.bayes.BayesNet", ["-D", "-Q", "weka.classifiers.bayes.net.search.local.TAN"]),
              "AODE": ("weka.classifiers.bayes.AODE", []),
              "WAODE": ("weka.classifiers.bayes.WAODE", []),
              "HNB": ("weka.classifiers.bayes.HNB", [])}


def synthetic(n_rows=2000, n_attributes=100, n_values=5, n_classes=5, seed=1):
    """Class-dependent nominal data: each attribute copies the class with probability 0.08."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n_rows)
    follow = rng.random((n_rows, n_attributes)) < 0.08
    X = np.where(follow, y[:, None] % n_values, rng.integers(0, n_values, (n_rows, n_attributes)))
    values = [f"v{k}" for k in range(n_values)]
    frame = pd.DataFrame({f"a{j}": pd.Categorical.from_codes(X[:, j], values) for j in range(n_attributes)})
    return frame, pd.Series(pd.Categorical.from_codes(y, [f"c{k}" for k in range(n_classes)]), name="class")


def ours(X, y, folds, name, repeats=3):
    best = {}
    for path, runner in (("nbrepro", _crossval), ("nbrepro_plain_fit", _plain)):
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            correct = runner(REGISTRY[name](), X, y, folds)
            times.append(time.perf_counter() - t0)
        best[f"{path}_seconds"] = min(times)
        best[f"{path}_pct_correct"] = 100.0 * correct / len(y)
    return best


def _crossval(model, X, y, folds):
    codes = y.cat.codes.to_numpy()
    return sum(int(np.sum(f.proba.argmax(1) == codes[test]))
               for f, (_, test) in zip(fold_probabilities(model, X, y, folds), folds, strict=True))


def _plain(model, X, y, folds):
    codes = y.cat.codes.to_numpy()
    correct = 0
    for train, test in folds:
        m = type(model)().fit(X.iloc[train], y.iloc[train])
        correct += int(np.sum(m.predict_proba(X.iloc[test]).argmax(1) == codes[test]))
    return correct


def weka(arff: Path, name: str, runs: int, classes_dir: Path):
    cls, opts = WEKA_NAMES[name]
    out = subprocess.run(["java", "-Xmx8g", "-cp", f"{WEKA}:{classes_dir}", "WekaFoldTimer", cls, str(runs), "10",
                          str(arff), "--", *opts], check=True, capture_output=True, text=True).stdout
    rows = pd.read_csv(pd.io.common.StringIO(out))
    warm = rows["seconds"].iloc[1:] if len(rows) > 1 else rows["seconds"]
    return {"weka_cold_seconds": float(rows["seconds"].iloc[0]), "weka_warm_seconds": float(warm.mean()),
            "weka_pct_correct_run1": float(rows["pct_correct"].iloc[0])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer Weka runs (TAN on letter is slow in Weka)")
    ap.add_argument("--run-dir", type=Path, default=ROOT, help="a pipeline run holding resources/ (default: here)")
    args = ap.parse_args()
    X, y = read_prepared(args.run_dir / "resources/prepared/lcwnb/letter.parquet")
    sets = {"letter": (X, y), "synthetic-100": synthetic()}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if WEKA.exists():
            subprocess.run(
                ["javac", "-cp", str(WEKA), "-d", str(tmp), str(ROOT / "benchmarks/weka/WekaFoldTimer.java")],
                check=True,
            )
        for ds, (X, y) in sets.items():
            # Weka's folds for run 1 (what crossValidateModel with Random(1) builds)
            folds = [(f.train, f.test) for f in weka_cv_folds(y.cat.codes.to_numpy(), 10, [1])]
            arff = tmp / f"{ds}.arff"
            write_arff(pd.concat([X, y], axis=1), arff)
            for name in WEKA_NAMES:
                row = {"dataset": ds, "classifier": name, **ours(X, y, folds, name)}
                if WEKA.exists():
                    slow = name == "TAN" and ds == "letter"
                    row.update(weka(arff, name, 2 if (slow or args.quick) else 6, tmp))
                    row["speedup_vs_weka_cold"] = row["weka_cold_seconds"] / row["nbrepro_seconds"]
                    row["speedup_vs_weka_warm"] = row["weka_warm_seconds"] / row["nbrepro_seconds"]
                print(row, flush=True)
                rows.append(row)
    res = pd.DataFrame(rows)
    for column, value in _pipeline_env.thread_columns().items():
        res[column] = value
    out = ROOT / "benchmarks/results/classifier_speed.csv"
    out.parent.mkdir(exist_ok=True)
    res.to_csv(out, index=False, float_format="%.4g")
    print(res.to_string(index=False))


if __name__ == "__main__":
    main()
