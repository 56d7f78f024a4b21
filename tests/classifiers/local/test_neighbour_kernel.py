# SPDX-License-Identifier: GPL-3.0-or-later
"""The compiled neighbour search (``_neighbour_kernel``) gives what a stable sort of every
distance gives: the same rows in the same order and the same distance bits, ties in row order."""
import numpy as np
import pytest

from nbrepro.classifiers.local._neighbours import sorted_neighbours


def _by_sorting(Q, T, metric, limit):
    """The former path: every distance (numpy), a stable argsort of each query's row."""
    diff = np.abs(Q[:, None, :] - T[None, :, :])
    if metric == "chebyshev":
        D = diff.max(axis=2) if T.shape[1] else np.zeros((len(Q), len(T)))
    else:
        D = np.sqrt(np.einsum("qnd,qnd->qn", diff, diff, optimize=False))
    order = np.argsort(D, axis=1, kind="stable")[:, :limit]
    return order, np.take_along_axis(D, order, axis=1)


@pytest.mark.parametrize("metric", ["chebyshev", "euclidean"])
def test_the_nearest_rows_are_a_stable_sorts_first(metric):
    rng = np.random.default_rng(7)
    for trial in range(120):
        n, q, d = int(rng.integers(1, 300)), int(rng.integers(1, 40)), int(rng.integers(0, 5))
        ties = trial % 2 == 1          # small integers: many equal distances
        T = rng.integers(0, 4, (n, d)).astype(float) if ties else rng.normal(size=(n, d))
        Q = rng.integers(0, 4, (q, d)).astype(float) if ties else rng.normal(size=(q, d))
        for limit in (1, int(rng.integers(1, n + 1)), n):
            want = _by_sorting(Q, T, metric, limit)
            got = sorted_neighbours(Q, T, metric, limit)
            assert np.array_equal(got[0], want[0])
            assert np.array_equal(got[1].view(np.int64), want[1].view(np.int64))
    full = sorted_neighbours(Q, T, metric)                      # no limit: every row
    assert full[0].shape == (q, n) and np.array_equal(full[0], _by_sorting(Q, T, metric, n)[0])
    assert sorted_neighbours(Q, T, metric, n + 5)[0].shape == (q, n)   # a limit past the rows: all of them
