# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka's KernelEstimator walk, compiled (``nbrepro.weka._kernel_walk``): its Φ is Weka's bit for
bit, and each probability is the sum Weka's loop forms (checked here against the loop written
plainly in Python; against Weka itself by tests/classifiers/test_weka_numeric.py)."""
import numpy as np

from nbrepro.weka._kernel_walk import kernel_probabilities, normal_probability
from nbrepro.weka.estimators import _KERNEL_MAX_ERROR, KernelEstimators
from nbrepro.weka.special import weka_normal_probability_port


def test_phi_is_wekas_bit_for_bit():
    rng = np.random.default_rng(1)
    a = np.concatenate([rng.normal(0, 4, 20000), rng.uniform(-40, 40, 5000),
                        [np.nan, np.inf, -np.inf, 0.0, -0.0, 0.70710678, 1.4142135, 11.3137, -38.5, 37.6, 1e-300]])
    mine = np.array([normal_probability(v) for v in a])
    assert np.array_equal(
        mine.view(np.int64)[~np.isnan(a)], weka_normal_probability_port(a).view(np.int64)[~np.isnan(a)]
    )
    assert np.isnan(mine[np.isnan(a)]).all()


def _weka_loop(values, weights, x, total, sd, half):
    """KernelEstimator.getProbability as Weka 3.6 writes it, one value at a time."""
    phi = lambda z: float(weka_normal_probability_port(np.array([z]))[0])  # noqa: E731
    term = lambda v: phi((v - x + half) / sd) - phi((v - x - half) / sd)  # noqa: E731
    if len(values) == 0:
        return phi((x + half) / sd) - phi((x - half) / sd)
    start = int(np.searchsorted(values, x, side="left"))
    acc = seen = 0.0
    for order in (range(start, len(values)), range(start - 1, -1, -1)):
        for i in order:
            cp = term(values[i])
            acc += cp * weights[i]
            seen += weights[i]
            if cp * (total - seen) < acc * _KERNEL_MAX_ERROR:
                break
    return acc / total


def test_every_walk_is_wekas_loop():
    rng = np.random.default_rng(2)
    V = np.round(rng.normal(0, 1, (300, 3)), 2)
    V[rng.random(V.shape) < 0.05] = np.nan
    y = rng.integers(0, 3, 300)
    y[y == 2] = 1  # class 2 has no rows: the empty walk
    w = rng.choice([0.5, 1.0, 2.0], 300)
    ke = KernelEstimators(V, y, w, 3, [0.01, 0.01, 0.01])
    X = np.round(rng.normal(0, 1.3, (40, 3)), 3)
    X[0, 1] = np.nan
    got = ke.probability(X)
    for i in range(len(X)):
        for j in range(3):
            for c in range(3):
                if np.isnan(X[i, j]):
                    assert np.isnan(got[i, j, c])
                    continue
                lo, n = ke._starts[j, c], ke._lengths[j, c]
                want = _weka_loop(
                    ke._values[lo : lo + n],
                    ke._weights[lo : lo + n],
                    X[i, j],
                    ke.weight_sum[j, c],
                    ke.sd[j, c],
                    ke.precision[j] / 2.0,
                )
                assert got[i, j, c] == want, (i, j, c)
    direct = kernel_probabilities(
        X, ke._values, ke._weights, ke._starts, ke._lengths, ke.weight_sum, ke.sd, ke.precision / 2.0, _KERNEL_MAX_ERROR
    )
    assert np.array_equal(direct, got, equal_nan=True)
