# SPDX-License-Identifier: GPL-3.0-or-later
"""Run a benchmark as the pipeline runs a job: one thread, freed memory kept (nbrepro.runtime._malloc).

Snakemake starts each job with its ``threads`` (1 for every nbrepro rule) in the thread-count
variables of the numeric libraries, so BLAS (``@`` in the lazy classifiers) runs on one core.
Importing this module before numpy does the same for a benchmark, and ``thread_columns``
states in its CSV what the libraries actually ran with.

    import _pipeline_env  # noqa: F401  (before numpy)
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from nbrepro.runtime._malloc import keep_freed_memory  # noqa: E402  (the standard library only: before numpy)
from nbrepro.runtime.worker import THREAD_VARIABLES  # noqa: E402

THREADS = 1
for _name in THREAD_VARIABLES:  # the variables Snakemake sets
    os.environ[_name] = str(THREADS)

keep_freed_memory()  # as the command line does in every job (nbrepro.runtime._malloc)


def thread_columns() -> dict:
    """The thread counts in effect (BLAS and OpenMP pools as threadpoolctl sees them) and the machine."""
    from threadpoolctl import threadpool_info

    pools = threadpool_info()
    blas = max((p["num_threads"] for p in pools if p.get("user_api") == "blas"), default=THREADS)
    return {"threads": THREADS, "blas_threads": blas, "machine": f"{os.uname().machine}, {os.cpu_count()} cores"}


def first_weka_fold(name: str):
    """A data set's first training and test fold of Weka's 10-fold CV (seed 1), as
    (X_train, y_train, X_test): the fold the single-fit benchmarks time."""
    from nbrepro.data.arff import read_arff
    from nbrepro.data.fetch import cached_file
    from nbrepro.protocols.weka_cv import weka_cv_folds

    frame, _ = read_arff(cached_file(name, ROOT / "config/datasets.yaml", ROOT / "resources/raw"))
    c = frame.columns[-1]
    X, y = frame.drop(columns=[c]), frame[c]
    fold = next(iter(weka_cv_folds(y.cat.codes.to_numpy(), 10, [1])))
    return X.iloc[fold.train], y.iloc[fold.train], X.iloc[fold.test]
