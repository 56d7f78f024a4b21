# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: the Weka numeric and tree learners, nbrepro vs warm Weka 3.6 (issue 11's setting).

Fit + predict over the 10 folds of one Weka cross-validation run (seed 1) on waveform-5000
(5000 × 40 numeric), letter (20 000 × 16 numeric, 26 classes) and adult (48 842 × 14 mixed,
missing values), read raw from the dataset mirror. nbrepro: plain ``fit``/``predict_proba``
per fold (best of ``--repeats``, after one untimed fold). Weka: ``Evaluation.crossValidateModel`` in one JVM
(``WekaFoldTimer``; for MDL, ``WekaFilterTimer``: Discretize fitted on each training fold and
applied to both), JVM start and file loading excluded; ``weka_warm_seconds`` is the mean of
the runs after the first. Writes benchmarks/results/weka_learners_speed.csv.

    python benchmarks/weka_learners_speed.py [--quick] [--datasets waveform-5000 ...] [--learners NB J48 ...]
"""
from __future__ import annotations

import argparse  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import _pipeline_env  # noqa: F401  (before numpy: one thread, as a pipeline job)
import pandas as pd  # noqa: E402

ROOT = _pipeline_env.ROOT

from nbrepro.classifiers import J48, TAN, Bagging, Logistic, NaiveBayes, NBTree  # noqa: E402
from nbrepro.data.arff import read_arff, write_arff  # noqa: E402
from nbrepro.preprocess.mdl import MDLDiscretizer  # noqa: E402
from nbrepro.protocols.weka_cv import weka_cv_folds  # noqa: E402

WEKA = Path("/usr/share/java/weka.jar")
def _arff(name):
    """The data set's plain ARFF file, for Weka and for us (fetched into resources/raw/ from the shipped copy)."""
    from nbrepro.data.fetch import cached_file

    return cached_file(name, ROOT / "config/datasets.yaml", ROOT / "resources/raw")

LEARNERS = {  # name: (ours, Weka class and options); None for the MDL filter
    "NB": (NaiveBayes, ("weka.classifiers.bayes.NaiveBayes",)),
    "NB-K": (lambda: NaiveBayes(kernel=True), ("weka.classifiers.bayes.NaiveBayes", "-K")),
    "NB-D": (lambda: NaiveBayes(supervised_discretization=True), ("weka.classifiers.bayes.NaiveBayes", "-D")),
    "MDL": (None, None),
    "J48": (J48, ("weka.classifiers.trees.J48",)),
    "J48-U": (lambda: J48(unpruned=True), ("weka.classifiers.trees.J48", "-U")),
    "Bagging-J48-U": (lambda: Bagging(J48(unpruned=True)),
                      ("weka.classifiers.meta.Bagging", "-W", "weka.classifiers.trees.J48", "--", "-U")),
    "TAN": (TAN, ("weka.classifiers.bayes.BayesNet", "-D", "-Q", "weka.classifiers.bayes.net.search.local.TAN")),
    "Logistic": (Logistic, ("weka.classifiers.functions.Logistic",)),
    "NBTree": (NBTree, ("weka.classifiers.trees.NBTree",)),
}


def ours(make, X, y, folds, repeats):
    """Best of ``repeats`` over the 10 folds, after one untimed fold: warm against warm Weka (the
    first call compiles or loads the numba kernels and imports what the learner needs)."""
    train, test = folds[0]
    if make is not None:
        make().fit(X.iloc[train], y.iloc[train]).predict_proba(X.iloc[test])
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for train, test in folds:
            if make is None:
                d = MDLDiscretizer().fit(X.iloc[train], y.iloc[train])
                d.transform(X.iloc[train])
                d.transform(X.iloc[test])
            else:
                make().fit(X.iloc[train], y.iloc[train]).predict_proba(X.iloc[test])
        times.append(time.perf_counter() - t0)
    return min(times)


def weka_runs(arff: Path, spec, runs: int, classes: Path) -> pd.DataFrame:
    """One row per run of Weka's 10-fold CV in one JVM: seconds (wall) and, for a classifier,
    cpu_seconds (the thread's CPU time)."""
    if spec is None:
        cmd = ["WekaFilterTimer", str(runs), "10", str(arff)]
    else:
        cmd = ["WekaFoldTimer", spec[0], str(runs), "10", str(arff), "--", *spec[1:]]
    out = subprocess.run(["java", "-Xmx8g", "-cp", f"{WEKA}:{classes}", *cmd], check=True, capture_output=True,
                         text=True).stdout
    return pd.read_csv(pd.io.common.StringIO(out))


def compile_timers(tmp: Path) -> None:
    for java in ("WekaFoldTimer", "WekaFilterTimer"):
        subprocess.run(["javac", "-cp", str(WEKA), "-d", str(tmp), str(ROOT / f"benchmarks/weka/{java}.java")],
                       check=True)


def weka(arff: Path, spec, runs: int, classes: Path) -> tuple[float, float]:
    seconds = weka_runs(arff, spec, runs, classes)["seconds"]
    return float(seconds.iloc[0]), float(seconds.iloc[1:].mean() if len(seconds) > 1 else seconds.iloc[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="waveform-5000 only, 2 Weka runs")
    ap.add_argument("--datasets", nargs="*", default=["waveform-5000", "letter", "adult"])
    ap.add_argument("--learners", nargs="*", default=list(LEARNERS))
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--weka-runs", type=int, default=3, help="Weka's runs in one JVM (the first is cold)")
    args = ap.parse_args()
    datasets = ["waveform-5000"] if args.quick else args.datasets
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        compile_timers(tmp)
        for ds in datasets:
            df, _ = read_arff(_arff(ds))
            X, y = df.iloc[:, :-1], df.iloc[:, -1]
            folds = [(f.train, f.test) for f in weka_cv_folds(y.cat.codes.to_numpy(), 10, [1])]
            arff = tmp / f"{ds}.arff"
            write_arff(df, arff)
            for name in args.learners:
                make, spec = LEARNERS[name]
                row = {"dataset": ds, "learner": name, "nbrepro_seconds": ours(make, X, y, folds, args.repeats)}
                cold, warm = weka(arff, spec, 2 if args.quick else args.weka_runs, tmp)
                row.update(weka_cold_seconds=cold, weka_warm_seconds=warm,
                           speedup_vs_weka_warm=warm / row["nbrepro_seconds"])
                print(row, flush=True)
                rows.append(row)
    res = pd.DataFrame(rows)
    out = ROOT / "benchmarks/results/weka_learners_speed.csv"
    out.parent.mkdir(exist_ok=True)
    if out.exists() and not args.quick:  # keep rows of learners/datasets not rerun
        old = pd.read_csv(out)
        keep = ~old.set_index(["dataset", "learner"]).index.isin(res.set_index(["dataset", "learner"]).index)
        res = pd.concat([old[keep], res], ignore_index=True)
    for column, value in _pipeline_env.thread_columns().items():
        res[column] = value
    res.to_csv(out, index=False, float_format="%.4g")
    print(res.to_string(index=False))


if __name__ == "__main__":
    main()
