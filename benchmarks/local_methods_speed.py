# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: Mao et al.'s local methods, one bare fit + predict on letter's first Weka 10-fold
training fold (18 000 rows, 16 numeric attributes; 2 000 test rows), single-threaded (issue 18).

Mao et al. choose each method's k by inner cross-validation; this times one fit at one k
(0.1 or 0.3 of the smallest class, as in their grid), so that a method's cost per fold can be
set beside the byte-compare limit: training rows × attributes read once per test row. Times
are CPU seconds of the process. Writes benchmarks/results/local_methods_speed.csv.

    python benchmarks/local_methods_speed.py
"""
from __future__ import annotations

import time  # noqa: E402

import _pipeline_env  # before numpy: one thread, as a pipeline job
import pandas as pd  # noqa: E402
from sklearn.base import clone  # noqa: E402

from nbrepro.evaluation.builders import make_classifier
from nbrepro.paper import read_paper  # noqa: E402

ROOT = _pipeline_env.ROOT
# (row label, the paper's classifier, the grid point timed): the estimator the inner CV
# selects among, with the paper's other settings (config/papers/lpmbc.yaml)
METHODS = [("LPM-BC (k=0.3, LGA)", "LPM-BC", {"k": 0.3, "model": "LGA"}),
           ("LPM-BC (k=0.3, LUA)", "LPM-BC", {"k": 0.3, "model": "LUA"}),
           ("V-kNN (k=0.1)", "V-kNN", {"k": 0.1}),
           ("CAP (k=0.1)", "CAP", {"k": 0.1}),
           ("LD-kNN (k=0.1)", "LD-kNN", {"k": 0.1}),
           ("NNBC", "NNBC", {})]


def main():
    paper = read_paper(ROOT / "config/papers/lpmbc.yaml")
    Xtr, ytr, Xte = _pipeline_env.first_weka_fold("letter")
    rows = []
    for label, name, point in METHODS:
        built = make_classifier(name, paper)
        base = built.estimator if point else built  # InnerCVSelection's candidate, or the classifier itself

        def make(base=base, point=point):
            return clone(base).set_params(**point)

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
