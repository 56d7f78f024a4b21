# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka's ``KernelEstimator.getProbability`` as one compiled loop (numba), for every (row,
attribute, class) at once.

Why compiled: each probability is a walk over the class's distinct training values that stops
at a data-dependent point, so numpy had to advance all walks together a block at a time, with
masks; the walks are short (a few values each) and the masks cost more than the arithmetic
(letter: 4× slower than Weka). This loop is Weka's own: the same terms in the same order, so
the same bits. Φ is Cephes' ``ndtr`` as Weka 3.6 ports it (and scipy's ``special.ndtr`` is),
written out here because a compiled loop cannot call scipy; ``math.exp`` is the C library's
``exp`` (``nbrepro.libm``), as on the numpy path. ``tests/weka/test_kernel_walk.py`` checks Φ
against ``weka_normal_probability_port`` bit for bit.
"""
from __future__ import annotations

import math

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

_SQRTH = 0.7071067811865476
_MAXLOG = 709.782712893384
_ERF_T = np.array([9.604973739870516, 90.02601972038427, 2232.005345946843, 7003.325141128051, 55592.30130103949])
_ERF_U = np.array([33.56171416475031, 521.3579497801527, 4594.323829709801, 22629.000061389095, 49267.39426086359])
_ERFC_P = np.array([2.461969814735305e-10, 0.5641895648310689, 7.463210564422699, 48.63719709856814,
                    196.5208329560771, 526.4451949954773, 934.5285271719576, 1027.5518868951572, 557.5353353693994])
_ERFC_Q = np.array([13.228195115474499, 86.70721408859897, 354.9377788878199, 975.7085017432055, 1823.9091668790973,
                    2246.3376081871097, 1656.6630919416134, 557.5353408177277])
_ERFC_R = np.array([0.5641895835477551, 1.275366707599781, 5.019050422511805, 6.160210979930536, 7.4097426995044895,
                    2.9788666537210022])
_ERFC_S = np.array([2.2605286322011726, 9.396035249380015, 12.048953980809666, 17.08144507475659, 9.608968090632859,
                    3.369076451000815])


@njit(cache=True)
def _polevl(x, coef):
    ans = coef[0]
    for i in range(1, len(coef)):
        ans = ans * x + coef[i]
    return ans


@njit(cache=True)
def _p1evl(x, coef):
    ans = x + coef[0]
    for i in range(1, len(coef)):
        ans = ans * x + coef[i]
    return ans


@njit(cache=True)
def _erf_small(x):
    z = x * x
    return x * _polevl(z, _ERF_T) / _p1evl(z, _ERF_U)


@njit(cache=True)
def _erfc_positive(x):
    if x < 1.0:
        return 1.0 - _erf_small(x)
    z = -x * x
    e = math.exp(z)
    # Cephes' erfc: one rational approximation below 8, another above
    y = (e * _polevl(x, _ERFC_P)) / _p1evl(x, _ERFC_Q) if x < 8.0 else (e * _polevl(x, _ERFC_R)) / _p1evl(x, _ERFC_S)
    if z < -_MAXLOG:
        return 0.0
    return y


@njit(cache=True)
def normal_probability(a):
    """Φ(a) as Weka 3.6's ``Statistics.normalProbability`` (Cephes ``ndtr``); NaN gives NaN."""
    x = a * _SQRTH
    z = abs(x)
    if z < _SQRTH:
        return 0.5 + 0.5 * _erf_small(x)
    y = 0.5 * _erfc_positive(z)
    if x > 0:
        return 1.0 - y
    return y


@njit(cache=True)
def normal_interval(delta, half, sd):
    return normal_probability((delta + half) / sd) - normal_probability((delta - half) / sd)


@njit(cache=True)
def _walk(values, weights, lo, length, x, total, sd, half, max_error):
    """One ``getProbability``: from the value nearest x up, then down, each walk stopping once
    the term times the weight not yet visited is below ``max_error`` of the sum so far."""
    if length == 0:   # no training value: one kernel at 0
        return normal_interval(x, half, sd)
    # findNearestValue: an exact hit or the insertion point (searchsorted, side "left")
    a, b = 0, length
    while a < b:
        m = (a + b) // 2
        if values[lo + m] < x:
            a = m + 1
        else:
            b = m
    nearest = a
    acc, seen = 0.0, 0.0
    for i in range(nearest, length):
        cp = normal_interval(values[lo + i] - x, half, sd)
        acc += cp * weights[lo + i]
        seen += weights[lo + i]
        if cp * (total - seen) < acc * max_error:
            break
    for i in range(nearest - 1, -1, -1):
        cp = normal_interval(values[lo + i] - x, half, sd)
        acc += cp * weights[lo + i]
        seen += weights[lo + i]
        if cp * (total - seen) < acc * max_error:
            break
    return acc / total


@njit(cache=True)
def kernel_probabilities(X, values, weights, starts, lengths, totals, sds, halves, max_error):
    """(rows, attributes, classes): every walk; NaN where x is missing."""
    n, k = X.shape
    r = starts.shape[1]
    out = np.empty((n, k, r))
    for i in range(n):
        for j in range(k):
            x = X[i, j]
            for c in range(r):
                if np.isnan(x):
                    out[i, j, c] = np.nan
                else:
                    out[i, j, c] = _walk(values, weights, starts[j, c], lengths[j, c], x, totals[j, c],
                                         sds[j, c], halves[j], max_error)
    return out
