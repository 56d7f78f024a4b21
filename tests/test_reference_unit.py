# SPDX-License-Identifier: GPL-3.0-or-later
"""The frozen reference workload (benchmarks/reference_workload.py).

The workload is the unit every cost is converted by: an edit to it redefines the unit, so its
checksum on fixed data is pinned here (a change of the work shows, not only of its time)."""
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import reference_workload  # noqa: E402  (benchmarks/ on the path; it imports only numpy and numba)


def _data():
    rs = np.random.RandomState(0)
    X = np.round(rs.normal(size=(600, 5)), 1)  # ties, as in letter's integer attributes
    y = (X[:, 0] + rs.normal(size=600) > 0).astype(np.int64) + (X[:, 1] > 1)
    return X, y


def test_the_frozen_workload_does_the_same_work():
    X, y = _data()
    assert reference_workload.run(X, y) == 2681.87
    assert reference_workload.run(X, y, n_folds=1) == 256.938


def test_folds_partition_the_rows():
    parts = reference_workload.folds(103)
    test = np.sort(np.concatenate([t for _, t in parts]))
    assert np.array_equal(test, np.arange(103)) and all(len(tr) + len(t) == 103 for tr, t in parts)
