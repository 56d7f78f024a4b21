"""Benchmark: Li & Li's NB column (36 datasets × 10 runs × 10 folds), nbrepro vs Weka 3.6.

nbrepro: NaiveBayes fit + predict over the 100 folds of each prepared dataset (from the
pipeline's resources/, so run `snakemake --cores 2 --config mirror=../shared/datasets` first).
Weka: Evaluation.crossValidateModel with seeds 1..10 on the same prepared data, in one JVM
(JVM start excluded). Writes benchmarks/results/nb_column.csv.

    python benchmarks/nb_column.py
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from nbrepro.classifiers import NaiveBayes  # noqa: E402
from nbrepro.data.arff import write_arff  # noqa: E402
from nbrepro.experiment import read_prepared  # noqa: E402

WEKA = Path("/usr/share/java/weka.jar")


def ours(paper: str, datasets: list[str]) -> pd.DataFrame:
    rows = []
    for ds in datasets:
        X, y = read_prepared(ROOT / f"resources/prepared/{paper}/{ds}.parquet")
        folds = pd.read_parquet(ROOT / f"resources/folds/{paper}/{ds}.parquet")
        t0 = time.perf_counter()
        correct = total = 0
        for _, _, train, test in folds.itertuples(index=False):
            p = NaiveBayes().fit(X.iloc[train], y.iloc[train]).predict_proba(X.iloc[test])
            correct += int(np.sum(p.argmax(1) == y.cat.codes.to_numpy()[test]))
            total += len(test)
        rows.append({"dataset": ds, "nbrepro_seconds": time.perf_counter() - t0,
                     "nbrepro_pct_correct_pooled": 100 * correct / total})
    return pd.DataFrame(rows)


def weka(paper: str, datasets: list[str]) -> pd.DataFrame:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        subprocess.run(["javac", "-cp", str(WEKA), "-d", str(tmp), str(ROOT / "benchmarks/weka/WekaCVTimer.java")],
                       check=True)
        files = []
        for ds in datasets:
            X, y = read_prepared(ROOT / f"resources/prepared/{paper}/{ds}.parquet")
            f = tmp / f"{ds}.arff"
            write_arff(pd.concat([X, y], axis=1), f)
            files.append(str(f))
        out = subprocess.run(["java", "-cp", f"{WEKA}:{tmp}", "WekaCVTimer", "weka.classifiers.bayes.NaiveBayes",
                              "10", "10", *files], check=True, capture_output=True, text=True).stdout
    lines = [line.split(",") for line in out.strip().splitlines()[1:]]
    return pd.DataFrame({"dataset": [Path(f).stem for f, _, _ in lines],
                         "weka_seconds": [float(s) for _, s, _ in lines],
                         "weka_pct_correct_pooled": [float(a) for _, _, a in lines]})


def main():
    paper = yaml.safe_load(open(ROOT / "config/papers/lcwnb.yaml"))
    datasets = paper["datasets"]
    res = ours("lcwnb", datasets)
    if WEKA.exists():
        res = res.merge(weka("lcwnb", datasets), on="dataset")
    out = ROOT / "benchmarks/results/nb_column.csv"
    out.parent.mkdir(exist_ok=True)
    res.to_csv(out, index=False, float_format="%.6g")
    print(res.to_string(index=False))
    print("total seconds:", res.filter(like="_seconds").sum().round(2).to_dict())


if __name__ == "__main__":
    main()
