"""Weka 3.6's ``Statistics.lnGamma``, vectorised.

scipy.special.gammaln is the better function; this one exists because Weka's TAN search
compares sums of these values and breaks ties by strict ``>``, so reproducing Weka's
network structure on tied or nearly tied links needs Weka's own rounding (a Cephes port
with its recurrence written as ``x -= 1; z *= x``). Arguments must be positive; that is
all the Bayesian network score ever passes.
"""
from __future__ import annotations

import numpy as np

_A = (8.116141674705085e-4, -5.950619042843014e-4, 7.936503404577169e-4, -0.002777777777300997,
      0.08333333333333319)
_B = (-1378.2515256912086, -38801.631513463784, -331612.9927388712, -1162370.974927623,
      -1721737.0082083966, -853555.6642457654)
_C = (-351.81570143652345, -17064.210665188115, -220528.59055385445, -1139334.4436798252,
      -2532523.0717758294, -2018891.4143353277)
_LS2PI = 0.9189385332046728


def _polevl(x, coef):
    ans = np.full_like(x, coef[0])
    for c in coef[1:]:
        ans = ans * x + c
    return ans


def _p1evl(x, coef):
    ans = x + coef[0]
    for c in coef[1:]:
        ans = ans * x + c
    return ans


def weka_ln_gamma(x) -> np.ndarray:
    """log Γ(x) for x > 0, bit for bit as Weka 3.6 computes it (up to the platform's ``log``)."""
    x = np.asarray(x, dtype=np.float64)
    if np.any(~(x > 0)):
        raise ValueError("weka_ln_gamma: arguments must be positive")
    out = np.empty_like(x)

    small = x < 13.0
    if small.any():
        u = x[small].copy()
        z = np.ones_like(u)
        while True:  # shift down into [2, 3): Γ(u) = (u-1) Γ(u-1)
            m = u >= 3.0
            if not m.any():
                break
            u[m] -= 1.0
            z[m] *= u[m]
        while True:  # shift up into [2, 3)
            m = u < 2.0
            if not m.any():
                break
            z[m] /= u[m]
            u[m] += 1.0
        z = np.abs(z)
        res = np.log(z)
        inner = u != 2.0
        v = u[inner] - 2.0
        res[inner] = np.log(z[inner]) + v * _polevl(v, _B) / _p1evl(v, _C)
        out[small] = res

    large = ~small
    if large.any():
        xl = x[large]
        q = (xl - 0.5) * np.log(xl) - xl + _LS2PI
        p = 1.0 / (xl * xl)
        mid = xl <= 1.0e8
        big = xl >= 1000.0
        stirling = ((7.936507936507937e-4 * p - 0.002777777777777778) * p + 0.08333333333333333) / xl
        series = _polevl(p, _A) / xl
        q = np.where(mid, q + np.where(big, stirling, series), q)
        out[large] = q
    return out
