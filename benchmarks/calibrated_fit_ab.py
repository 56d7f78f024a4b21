# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: one calibrated fit of Hall's heaviest columns, this checkout against a baseline
checkout, under the same load (issue 18).

Each (data set, column) runs in a fresh process twice, once with this checkout's ``src`` and once
with ``--baseline`` (a ``src`` folder of another commit, e.g. a ``git worktree``), one after the
other, so that both see the same machine. A run is one ``Calibrated`` fit (Weka's Stacking +
Logistic: 11 fits) on the first training fold of Weka's 10-fold CV (seed 1) and its
predictions on the test fold, the better of two; times are CPU seconds of the process
(``time.process_time``), single-threaded as a pipeline job. The two predictions must be equal to
the bit (``same``), or the speed-up would not be a like-for-like one. Writes
benchmarks/results/calibrated_fit_ab.csv.

    git worktree add /tmp/base <commit>
    python benchmarks/calibrated_fit_ab.py --baseline /tmp/base/src --baseline-commit <commit>
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
AWNB = "AttributeWeightedNB(n_trees=10, sample_percent=50)"
BAGGING = "Bagging(J48(unpruned=True), n_estimators=10, bag_size_percent=100)"
CASES = [
    (d, label, expr)
    for d in ("waveform-5000", "splice", "sick", "hypothyroid", "kr-vs-kp")
    for label, expr in (("AWNB(i=10,j=50)", AWNB), ("Bagging(i=10,j=100)", BAGGING), ("RW", "ReliefFWeightedNB()"))
]
CASES += [
    ("splice", "NB", "NaiveBayes()"),
    ("anneal", "AWNB(i=10,j=50)", AWNB),
    ("anneal", "Bagging(i=10,j=100)", BAGGING),
    ("vote", "Bagging(i=10,j=100)", BAGGING),
    ("ecoli", "AWNB(i=10,j=50)", AWNB),
    ("waveform-5000", "NBTree", "NBTree()"),
    ("sick", "NBTree", "NBTree()"),
]

CHILD = r"""
import json, sys, time
sys.path.insert(0, {bench!r})
import _pipeline_env  # one thread, as a pipeline job
sys.path.insert(0, {src!r})  # the src under test first: _pipeline_env puts this checkout's there
import nbrepro
assert nbrepro.__file__.startswith({src!r}), nbrepro.__file__
from nbrepro.classifiers import *  # noqa: F403
try:  # the layout by family; a baseline from before it has classifiers/bagging.py
    from nbrepro.classifiers.trees import _bagging as bagging
except ImportError:
    from nbrepro.classifiers import bagging
Xtr, ytr, Xte = _pipeline_env.first_weka_fold({name!r})
make = lambda: {expr}
Calibrated(make()).fit(Xtr.iloc[:80], ytr.iloc[:80])  # compile first
times = []
for _ in range(2):
    if hasattr(bagging, 'RECENT_TREE_DEPTHS'):  # a baseline from before the memo was scoped to a job
        bagging.RECENT_TREE_DEPTHS._items.clear()
    t = time.process_time()
    p = Calibrated(make()).fit(Xtr, ytr).predict_proba(Xte)
    times.append(time.process_time() - t)
print(json.dumps({{"cpu": min(times), "proba": p.tobytes().hex()}}))
"""


def run(src: Path, name: str, expr: str) -> dict:
    code = CHILD.format(bench=str(ROOT / "benchmarks"), src=str(src.resolve()), name=name, expr=expr)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True, help="the baseline checkout's src folder")
    ap.add_argument("--baseline-commit", required=True)
    ap.add_argument("--out", default=str(ROOT / "benchmarks/results/calibrated_fit_ab.csv"))
    args = ap.parse_args(argv)
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    rows = []
    for name, label, expr in CASES:
        base = run(Path(args.baseline), name, expr)
        this = run(ROOT / "src", name, expr)
        rows.append(
            {
                "dataset": name,
                "classifier": label,
                "baseline_cpu_seconds": round(base["cpu"], 3),
                "cpu_seconds": round(this["cpu"], 3),
                "ratio": round(this["cpu"] / base["cpu"], 2),
                "same_predictions": base["proba"] == this["proba"],
                "baseline_commit": args.baseline_commit,
                "commit": head,
                "clock": "cpu",
                "threads": 1,
            }
        )
        print(rows[-1], flush=True)
    pd.DataFrame(rows).to_csv(args.out, index=False)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
