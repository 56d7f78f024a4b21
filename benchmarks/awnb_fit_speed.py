# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: one fit of each of Hall's classifiers, bare and inside the calibration (issue 15).

Hall's protocol fits every column 11 times per fold (the calibration's 10 inner folds and the
refit) over 5 × 10 folds: 550 fits per column and data set. This times, single-threaded as the
pipeline runs, one bare fit and one calibrated fit (``Calibrated``, Weka's Stacking + Logistic)
on the first training fold of Weka's 10-fold CV (seed 1), and extrapolates the calibrated fit
to the paper's 50 folds. Times are CPU seconds of this process (``time.process_time``): the
work of one single-threaded job, whatever else the machine runs. Each fit grows its own trees
(outside an evaluation job's ``shared_tree_depths`` block nothing is reused). Writes
benchmarks/results/awnb_fit_speed.csv.

    python benchmarks/awnb_fit_speed.py [--datasets waveform-5000 sick ...]
"""
from __future__ import annotations

import argparse  # noqa: E402
import time  # noqa: E402

import _pipeline_env  # before numpy: one thread, as a pipeline job
import pandas as pd  # noqa: E402

ROOT = _pipeline_env.ROOT

from nbrepro.classifiers import (  # noqa: E402,E501
    J48,
    AttributeWeightedNB,
    Bagging,
    Calibrated,
    CorrelationSelectedNB,
    GainRatioWeightedNB,
    NaiveBayes,
    NBTree,
    ReliefFWeightedNB,
    SelectiveBayesTrees,
    SelectiveNB,
)

CLASSIFIERS = {
    "NB": NaiveBayes,
    "AWNB(i=10,j=50)": AttributeWeightedNB,
    "Bagging(i=10,j=100)": lambda: Bagging(J48(unpruned=True), n_estimators=10, bag_size_percent=100),
    "GRW": GainRatioWeightedNB,
    "RW": ReliefFWeightedNB,
    "CFS": CorrelationSelectedNB,
    "SB": SelectiveNB,
    "SB-AUC": lambda: SelectiveNB(metric="auc"),
    "SBC": SelectiveBayesTrees,
    "NBTree": NBTree,
}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # Hall's heaviest data sets (benchmarks/results/awnb_jobs.csv): where fitting speed shows
    ap.add_argument("--datasets", nargs="+", default=["waveform-5000", "sick", "splice", "hypothyroid"])
    ap.add_argument("--out", default=str(ROOT / "benchmarks/results/awnb_fit_speed.csv"))
    args = ap.parse_args(argv)
    rows = []
    for name in args.datasets:
        Xtr, ytr, _ = _pipeline_env.first_weka_fold(name)
        for label, make in CLASSIFIERS.items():
            make().fit(Xtr.iloc[:40], ytr.iloc[:40]) if label in ("RW", "SBC") else None  # compile once
            t0 = time.process_time()
            make().fit(Xtr, ytr)
            bare = time.process_time() - t0
            t0 = time.process_time()
            Calibrated(make()).fit(Xtr, ytr)
            calibrated = time.process_time() - t0
            rows.append({"dataset": name, "classifier": label, "rows": len(Xtr), "bare_fit_seconds": round(bare, 4),
                         "calibrated_fit_seconds": round(calibrated, 3),
                         "paper_column_seconds": round(50 * calibrated, 1),  # 5 × 10 folds, each one calibrated fit
                         "clock": "cpu",
                         **_pipeline_env.thread_columns()})
            print(rows[-1], flush=True)
    pd.DataFrame(rows).to_csv(args.out, index=False)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
