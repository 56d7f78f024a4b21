"""Benchmark: Mao et al.'s local methods, one bare fit + predict on letter's first Weka 10-fold
training fold (18 000 rows, 16 numeric attributes; 2 000 test rows), single-threaded (issue 18).

Mao et al. choose each method's k by inner cross-validation; this times one fit at one k
(0.1 or 0.3 of the smallest class, as in their grid), so that a method's cost per fold can be
set beside the byte-compare limit: training rows × attributes read once per test row. Times
are CPU seconds of the process. Writes benchmarks/results/local_methods_speed.csv.

    python benchmarks/local_methods_speed.py
"""
from __future__ import annotations

import _pipeline_env  # before numpy: one thread, as a pipeline job

import time  # noqa: E402

import pandas as pd  # noqa: E402

from nbrepro.classifiers import LocalDistributionKNN, LocalMeanKNN, LPMBC, NonNaiveBayes, VotingKNN  # noqa: E402

ROOT = _pipeline_env.ROOT
METHODS = {
    "LPM-BC (k=0.3, LGA)": lambda: LPMBC(k=0.3, model="LGA", metric="chebyshev"),
    "LPM-BC (k=0.3, LUA)": lambda: LPMBC(k=0.3, model="LUA", metric="chebyshev"),
    "V-kNN (k=0.1)": lambda: VotingKNN(k=0.1, metric="chebyshev"),
    "CAP (k=0.1)": lambda: LocalMeanKNN(k=0.1, metric="euclidean"),
    "LD-kNN (k=0.1)": lambda: LocalDistributionKNN(k=0.1, metric="chebyshev"),
    "NNBC": NonNaiveBayes,
}


def main():
    Xtr, ytr, Xte = _pipeline_env.first_weka_fold("letter")
    rows = []
    for label, make in METHODS.items():
        make().fit(Xtr.iloc[:500], ytr.iloc[:500]).predict_proba(Xte.iloc[:5])  # compile first
        t0 = time.process_time()
        make().fit(Xtr, ytr).predict_proba(Xte)
        seconds = time.process_time() - t0
        rows.append({"dataset": "letter", "classifier": label, "training_rows": len(ytr), "test_rows": len(Xte),
                     "cpu_seconds": round(seconds, 2), "per_100_folds": round(100 * seconds, 0),
                     **_pipeline_env.thread_columns()})
        print(rows[-1], flush=True)
    out = ROOT / "benchmarks/results/local_methods_speed.csv"
    pd.DataFrame(rows).to_csv(out, index=False, lineterminator="\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
