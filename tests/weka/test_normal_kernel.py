# SPDX-License-Identifier: GPL-3.0-or-later
"""The compiled NormalEstimator evaluation (``weka._normal_kernel``) gives numpy's bits: P(x | c) as
numpy's arithmetic around scipy's Φ."""
import numpy as np
import pytest
from scipy.special import ndtr

from nbrepro.weka._normal_kernel import class_sums, interval_probabilities

pytestmark = pytest.mark.bits


def test_interval_probabilities_are_numpys():
    rng = np.random.default_rng(3)
    n, k, r = 2000, 5, 4
    x = rng.normal(0, 10, (n, k))
    precision = rng.choice([0.01, 0.1, 1.0, 1e-6], k)
    mean = rng.normal(0, 10, (k, r))
    sd = np.abs(rng.normal(0, 3, (k, r))) + precision[:, None] / 6
    want = _numpy_intervals(x, precision, mean, sd)
    np.testing.assert_array_equal(interval_probabilities(x, precision, mean, sd), want)


def _numpy_intervals(x, precision, mean, sd):
    """numpy's arithmetic around scipy's Φ, every row evaluated."""
    P = precision[None, :]
    d = (np.rint(x / P) * P)[:, :, None] - mean[None]
    half = (precision / 2.0)[None, :, None]
    return ndtr((d + half) / sd[None]) - ndtr((d - half) / sd[None])


def _numpy_sums(v, w, y, r):
    k = v.shape[1]
    W, S, SS = (np.zeros((k, r)) for _ in range(3))
    for c in range(r):
        wc = np.where((y == c)[:, None], w, 0.0)
        W[:, c] = wc.sum(axis=0)
        S[:, c] = (v * wc).sum(axis=0)
        SS[:, c] = (v * v * wc).sum(axis=0)
    return W, S, SS


@pytest.mark.parametrize("n,k,r", [(5, 2, 2), (100, 1, 3), (300, 3, 5), (8193, 4, 3), (18000, 16, 26),
                                   (45000, 6, 2), (1000, 2, 1)])
def test_class_sums_are_numpys_pairwise_columns(n, k, r):
    rng = np.random.default_rng(n + k)
    # F-contiguous, as the estimator's column selection Z[:, columns] is; large means with small
    # spreads and mixed magnitudes, so the order of the additions shows in the bits
    v = np.asfortranarray((rng.normal(1e6, 1.0, (n, k)) * rng.choice([1.0, 1e-3, -7.0], (n, k))).round(3))
    w = np.asfortranarray(rng.choice([1.0, 0.5, 0.0, 2.25], (n, k)))
    y = rng.integers(0, r, n)
    for got, want in zip(class_sums(v, w, y, r), _numpy_sums(v, w, y, r), strict=True):
        np.testing.assert_array_equal(got, want)


def test_gap_sums_are_the_cumsum_of_the_positive_gaps():
    """numeric_precisions' compiled pass: the same bits as np.cumsum over the positive gaps."""
    from nbrepro.weka._normal_kernel import gap_sums

    rng = np.random.default_rng(5)
    V = np.column_stack([np.round(rng.normal(0, 50, 3000), d) for d in (0, 1, 2, 3, 0, 0)])  # repeated values
    V[rng.random(V.shape) < 0.1] = np.nan
    V[:, 5] = 7.0  # one value only: no gap
    S = np.sort(V.T, axis=1)
    with np.errstate(invalid="ignore"):
        gaps = np.diff(S, axis=1)
    positive = gaps > 0
    total, count = gap_sums(S)
    np.testing.assert_array_equal(total, np.cumsum(np.where(positive, gaps, 0.0), axis=1)[:, -1])
    np.testing.assert_array_equal(count, positive.sum(axis=1))


def test_interval_probabilities_share_a_value_among_its_rows():
    """With many classes a distinct value is evaluated once: the same bits as every row evaluated."""
    rng = np.random.default_rng(4)
    n, k, r = 3000, 3, 26
    x = rng.integers(0, 16, (n, k)).astype(float)
    x[::7, 1] = -0.0
    precision = np.array([1.0, 0.5, 0.01])
    mean = rng.normal(7, 3, (k, r))
    sd = np.abs(rng.normal(0, 3, (k, r))) + precision[:, None] / 6
    want = _numpy_intervals(x, precision, mean, sd)
    np.testing.assert_array_equal(interval_probabilities(x, precision, mean, sd), want)
