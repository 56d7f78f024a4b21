# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: the frozen reference unit against the one it replaced, side by side.

Until 2026-11-29 the reference unit was nbrepro's own NaiveBayes and J48 over the 10 folds of one
Weka CV run of letter (``nbrepro_workload_cpu_seconds`` in ``calibration.csv``), so it moved with
nbrepro's code. This runs, in one process and alternately, the frozen workload
(``reference_workload.py``) and that retired workload with the nbrepro of ``--checkout`` (a source
tree: ``git worktree add /tmp/d1b0ccf d1b0ccf`` gives the one the unit was defined with), and
prints each round's best-of-three times and their ratio. The ratio converts the old unit into the
frozen one (``calibrate.REFERENCE_MACHINE_UNIT``).

    python benchmarks/anchor_unit.py --checkout /tmp/d1b0ccf [--rounds 4]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import _pipeline_env  # noqa: F401  (before numpy: one thread, as a pipeline job)


def _use_checkout(src: Path) -> None:
    """Import nbrepro from ``src`` instead of this repository's."""
    sys.path[:] = [p for p in sys.path if Path(p).resolve() != (_pipeline_env.ROOT / "src").resolve()]
    for name in [m for m in sys.modules if m == "nbrepro" or m.startswith("nbrepro.")]:
        del sys.modules[name]
    sys.path.insert(0, str(src))


def retired_workload_seconds(repeats: int = 3) -> float:
    """The retired unit: nbrepro's NaiveBayes and J48 over Weka's 10 folds of letter (best of ``repeats``)."""
    import calibrate

    from nbrepro.classifiers import J48, NaiveBayes
    from nbrepro.data.arff import read_arff
    from nbrepro.protocols.weka_cv import weka_cv_folds

    df, _ = read_arff(calibrate._path())
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    folds = [(f.train, f.test) for f in weka_cv_folds(y.cat.codes.to_numpy(), 10, [1])]

    def work(folds=folds):
        for make in (NaiveBayes, J48):
            for train, test in folds:
                make().fit(X.iloc[train], y.iloc[train]).predict_proba(X.iloc[test])

    work(folds[:1])  # warm-up: numba's kernels loaded
    return calibrate.best_cpu_seconds(work, repeats)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkout", type=Path, required=True, help="a source tree of nbrepro (its src/ is imported)")
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args()
    _use_checkout(args.checkout / "src")
    import calibrate

    calibrate.reference_cpu_seconds(1)  # warm-up of the frozen workload
    for _ in range(args.rounds):
        frozen = calibrate.reference_cpu_seconds(3)
        retired = retired_workload_seconds(3)
        print(f"frozen {frozen:.3f}  retired {retired:.3f}  ratio {retired / frozen:.3f}", flush=True)


if __name__ == "__main__":
    main()
