# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: Hall's Weka-available columns, nbrepro against warm Weka 3.6, side by side in one run.

The columns as Hall's config runs them: calibrated naive Bayes, calibrated Bagging of J48 -U
(10 bags of 100 %), calibrated NBTree (each ``Calibrated``: Weka's ``Stacking -X 10 -S 1 -M
Logistic -B <learner>``, an inner 10-fold CV and a refit: 11 fits of the learner per fold) and
J48. CPU seconds of fit + predict over the 10 folds of one Weka CV run (seed 1): nbrepro's
process CPU time (``time.process_time``, one thread, after one untimed fold), Weka's thread CPU
time in one JVM (``WekaFoldTimer``'s cpu_seconds; the JIT's and the collector's threads left
out), the mean of the runs after the first. On a small data set (labor), a many-class one
(ecoli, 8 classes) and waveform-5000. Writes benchmarks/results/hall_columns_speed.csv.

    python benchmarks/hall_columns_speed.py [--datasets labor ecoli waveform-5000] [--learners ...] [--runs 3]
"""
from __future__ import annotations

import argparse  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import _pipeline_env  # noqa: F401  (before numpy: one thread, as a pipeline job)
import pandas as pd  # noqa: E402
from weka_learners_speed import _arff, compile_timers, weka_runs  # noqa: E402

ROOT = _pipeline_env.ROOT

from nbrepro.classifiers import J48, Bagging, Calibrated, NaiveBayes, NBTree  # noqa: E402
from nbrepro.data.arff import read_arff, write_arff  # noqa: E402
from nbrepro.protocols.weka_cv import weka_cv_folds  # noqa: E402

STACKING = ("weka.classifiers.meta.Stacking", "-X", "10", "-S", "1", "-M",
            "weka.classifiers.functions.Logistic -R 1.0E-8 -M -1", "-B")
LEARNERS = {  # Hall's label: (ours, Weka's classifier and options)
    "NB": (lambda: Calibrated(NaiveBayes()), (*STACKING, "weka.classifiers.bayes.NaiveBayes")),
    "Bagging(i=10,j=100)": (lambda: Calibrated(Bagging(J48(unpruned=True), n_estimators=10, bag_size_percent=100)),
                            (*STACKING, "weka.classifiers.meta.Bagging -P 100 -S 1 -I 10 -W "
                                        "weka.classifiers.trees.J48 -- -U")),
    "NBTree": (lambda: Calibrated(NBTree()), (*STACKING, "weka.classifiers.trees.NBTree")),
    "J48": (J48, ("weka.classifiers.trees.J48",)),
}


def ours(make, X, y, folds, repeats: int) -> float:
    train, test = folds[0]
    make().fit(X.iloc[train], y.iloc[train]).predict_proba(X.iloc[test])   # untimed: kernels loaded
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        for train, test in folds:
            make().fit(X.iloc[train], y.iloc[train]).predict_proba(X.iloc[test])
        best = min(best, time.process_time() - t0)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", nargs="*", default=["labor", "ecoli", "waveform-5000"])
    ap.add_argument("--learners", nargs="*", default=list(LEARNERS))
    ap.add_argument("--runs", type=int, default=3, help="Weka runs in one JVM (the first is cold)")
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        compile_timers(tmp)
        for ds in args.datasets:
            df, _ = read_arff(_arff(ds))
            X, y = df.iloc[:, :-1], df.iloc[:, -1]
            folds = [(f.train, f.test) for f in weka_cv_folds(y.cat.codes.to_numpy(), 10, [1])]
            arff = tmp / f"{ds}.arff"
            write_arff(df, arff)
            for name in args.learners:
                make, spec = LEARNERS[name]
                mine = ours(make, X, y, folds, args.repeats)
                w = weka_runs(arff, spec, args.runs, tmp)
                warm = w.iloc[1:] if len(w) > 1 else w
                row = {"dataset": ds, "column": name, "nbrepro_cpu_seconds": mine,
                       "weka_cold_cpu_seconds": float(w.cpu_seconds.iloc[0]),
                       "weka_warm_cpu_seconds": float(warm.cpu_seconds.mean()),
                       "weka_warm_wall_seconds": float(warm.seconds.mean()),
                       "speedup_vs_weka_warm": float(warm.cpu_seconds.mean()) / mine}
                print(row, flush=True)
                rows.append(row)
    res = pd.DataFrame(rows)
    for column, value in _pipeline_env.thread_columns().items():
        res[column] = value
    out = ROOT / "benchmarks/results/hall_columns_speed.csv"
    if out.exists():  # keep the rows of data sets and columns not rerun
        old = pd.read_csv(out)
        keep = ~old.set_index(["dataset", "column"]).index.isin(res.set_index(["dataset", "column"]).index)
        res = pd.concat([old[keep], res], ignore_index=True)
    res.to_csv(out, index=False, float_format="%.4g")
    print(res.to_string(index=False))


if __name__ == "__main__":
    main()
