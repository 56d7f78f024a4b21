# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: Li & Li's lazy classifiers (LCWNB κ = 5, LWNB, ICLNB) fit + predict over the 100
folds (10 × 10 CV) of letter and mushroom.

Each classifier and data set runs in its own process so that its peak memory (ru_maxrss) is its own. Reads the
pipeline's prepared data and folds (run the pipeline first, or give ``--run-dir``). One thread,
as the pipeline's jobs run (``_pipeline_env``). Writes benchmarks/results/lcwnb_speed.csv.

    python benchmarks/lcwnb_speed.py [--run-dir DIR]
"""

from __future__ import annotations

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import _pipeline_env  # noqa: F401  (before numpy: one thread, as a pipeline job)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

ROOT = _pipeline_env.ROOT


LABELS = ("LCWNB5", "LWNB", "ICLNB")  # built with the paper's settings (config/papers/lcwnb.yaml)


def one(run_dir: Path, dataset: str, classifier: str) -> dict:
    from nbrepro.evaluation.builders import make_classifier
    from nbrepro.evaluation.crossval import fold_probabilities
    from nbrepro.evaluation.experiment import read_prepared
    from nbrepro.paper import read_paper

    X, y = read_prepared(run_dir / f"resources/prepared/lcwnb/{dataset}.parquet")
    folds = pd.read_parquet(run_dir / f"resources/folds/lcwnb/{dataset}.parquet")
    splits = [
        (np.asarray(a, np.int64), np.asarray(b, np.int64)) for a, b in zip(folds["train"], folds["test"], strict=True)
    ]
    codes = y.cat.codes.to_numpy()
    t0 = time.perf_counter()
    acc = [
        100 * np.mean(r.proba.argmax(1) == codes[test])
        for r, (_, test) in zip(
            fold_probabilities(
                make_classifier(classifier, read_paper(ROOT / "config/papers/lcwnb.yaml")), X, y, splits
            ),
            splits,
            strict=True,
        )
    ]
    seconds = time.perf_counter() - t0
    return {
        "dataset": dataset,
        "classifier": classifier,
        "folds": len(splits),
        "seconds": round(seconds, 2),
        "mean_accuracy": round(float(np.mean(acc)), 4),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        **_pipeline_env.thread_columns(),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run-dir", type=Path, default=ROOT, help="a pipeline run holding resources/ (default: here)")
    ap.add_argument("--one", nargs=2, metavar=("DATASET", "CLASSIFIER"), help=argparse.SUPPRESS)  # the child process
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.run_dir, args.one[0], args.one[1])))
        return
    rows = []
    for ds in ("letter", "mushroom"):
        for name in LABELS:
            out = subprocess.run(
                [sys.executable, __file__, "--run-dir", str(args.run_dir), "--one", ds, name],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            rows.append(json.loads(out.strip().splitlines()[-1]))
            print(rows[-1], flush=True)
    res = pd.DataFrame(rows)
    (ROOT / "benchmarks/results").mkdir(exist_ok=True)
    res.to_csv(ROOT / "benchmarks/results/lcwnb_speed.csv", index=False)
    print(res.to_string(index=False))


if __name__ == "__main__":
    main()
