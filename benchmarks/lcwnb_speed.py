"""Benchmark: LCWNB (κ = 5) fit + predict over the 100 folds (10 × 10 CV) of letter and mushroom.

Each data set runs in its own process so that its peak memory (ru_maxrss) is its own. Reads the
pipeline's prepared data and folds (run the pipeline first). Writes benchmarks/results/lcwnb_speed.csv.

    python benchmarks/lcwnb_speed.py
"""
from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]


def one(dataset: str, kappa: float) -> dict:
    sys.path.insert(0, str(ROOT / "src"))
    from nbrepro.classifiers import LCWNB
    from nbrepro.crossval import fold_probabilities
    from nbrepro.experiment import read_prepared

    X, y = read_prepared(ROOT / f"resources/prepared/lcwnb/{dataset}.parquet")
    folds = pd.read_parquet(ROOT / f"resources/folds/lcwnb/{dataset}.parquet")
    splits = [(np.asarray(a, np.int64), np.asarray(b, np.int64)) for a, b in zip(folds["train"], folds["test"])]
    codes = y.cat.codes.to_numpy()
    t0 = time.perf_counter()
    acc = [100 * np.mean(r.proba.argmax(1) == codes[test])
           for r, (_, test) in zip(fold_probabilities(LCWNB(kappa=kappa), X, y, splits), splits)]
    seconds = time.perf_counter() - t0
    return {"dataset": dataset, "kappa": kappa, "folds": len(splits), "seconds": round(seconds, 2),
            "mean_accuracy": round(float(np.mean(acc)), 4),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def main():
    if len(sys.argv) == 3:
        print(json.dumps(one(sys.argv[1], float(sys.argv[2]))))
        return
    rows = []
    for ds in ("letter", "mushroom"):
        out = subprocess.run([sys.executable, __file__, ds, "5"], check=True, capture_output=True, text=True).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
        print(rows[-1], flush=True)
    res = pd.DataFrame(rows)
    (ROOT / "benchmarks/results").mkdir(exist_ok=True)
    res.to_csv(ROOT / "benchmarks/results/lcwnb_speed.csv", index=False)
    print(res.to_string(index=False))


if __name__ == "__main__":
    main()
