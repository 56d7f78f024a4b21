# SPDX-License-Identifier: GPL-3.0-or-later
"""The inner loops of Weka's quasi-Newton minimiser compiled (numba): the two triangular solves
and the Cholesky update of ``tests/classifiers/functions/weka_optimization_reference.py``,
operation for operation in the same order.

Why compiled: Hall's calibration fits Weka's Logistic once per fold for every column, and on
small data sets those fits cost more than the classifiers. Each iteration solves two
triangles and updates the factor twice; in numpy that is a call per column or row of a
matrix of a few dozen variables, so the calls cost far more than the arithmetic. The
numpy versions stay in ``tests/classifiers/functions/weka_optimization_reference.py`` as the
reference a test compares these with.
"""

from __future__ import annotations

import math

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first


@njit(cache=True, error_model="numpy")  # IEEE division, as Java
def solve_lower(T, b):
    """Forward substitution T·r = b, column by column: b_i loses T_ik·r_k for k = 0, 1, …"""
    n = b.shape[0]
    num = b.copy()
    r = np.zeros(n)
    for k in range(n):
        rk = num[k] / T[k, k]
        r[k] = rk
        for i in range(k + 1, n):
            num[i] -= T[i, k] * rk
    return r


@njit(cache=True, error_model="numpy")  # IEEE division, as Java
def solve_lower_scaled(L, D, b):
    """``solve_lower`` of T = L·diag(D) (T_ik = L_ik·D_k, below the diagonal and on it), each T_ik
    formed as it is used rather than stored first: the same products, the same bits."""
    n = b.shape[0]
    num = b.copy()
    r = np.zeros(n)
    for k in range(n):
        rk = num[k] / (L[k, k] * D[k])
        r[k] = rk
        dk = D[k]
        for i in range(k + 1, n):
            num[i] -= (L[i, k] * dk) * rk
    return r


@njit(cache=True, error_model="numpy")  # IEEE division, as Java
def solve_upper_transposed(L, b):
    """Back substitution Lᵀ·r = b from L's lower triangle; row j subtracts L_kj·r_k for
    k = j+1, j+2, … in ascending order."""
    n = b.shape[0]
    r = np.zeros(n)
    for j in range(n - 1, -1, -1):
        acc = b[j]
        for k in range(j + 1, n):
            acc += -(L[k, j] * r[k])
        r[j] = acc / L[j, j]
    return r


@njit(cache=True, error_model="numpy")  # IEEE division, as Java
def update_cholesky(L, D, v, coeff, zero):
    """L·D·Lᵀ += coeff·v·vᵀ in place (Weka's updateCholeskyFactor). Returns 0, or −(j + 1) when
    d[j] became NaN, or j + 1 when sigma became NaN or infinite at step j (nothing changed)."""
    n = v.shape[0]
    p = solve_lower(L, v)
    d_new = D.copy()
    b = np.zeros(n)
    if coeff > 0.0:
        t = coeff
        for j in range(n):
            d = d_new[j]
            dbar = d + t * p[j] * p[j]
            d_new[j] = dbar
            b[j] = p[j] * t / dbar
            t *= d / dbar
    else:
        t = 0.0
        for j in range(n):
            t += p[j] * p[j] / D[j]
        root = 1.0 + coeff * t
        root = 0.0 if root < 0.0 else math.sqrt(root)
        alpha = coeff
        sigma = coeff / (1.0 + root)
        for j in range(n):
            d = d_new[j]
            pj = p[j] * p[j] / d
            theta = 1.0 + sigma * pj
            t -= pj
            if t < 0.0:
                t = 0.0  # rounding error
            plus = sigma * sigma * pj * t
            if j < n - 1 and plus <= zero:
                plus = zero
            rho = theta * theta + plus
            d_new[j] = rho * d
            if math.isnan(d_new[j]):
                return -(j + 1)
            b[j] = alpha * p[j] / (rho * d)
            alpha /= rho
            rho = math.sqrt(rho)
            sigma *= (1.0 + rho) / (rho * (theta + rho))
            if j < n - 1 and not math.isfinite(sigma):
                return j + 1
    # entry r after step j: v_r − p_0 L_r0 − … − p_j L_rj in that order, from the old row r;
    # row r reads the entries of steps j < r only, so its sum stops there
    partial = np.empty(n)
    for row in range(n):
        acc = v[row]
        for j in range(row):
            acc += -(L[row, j] * p[j])
            partial[j] = acc
        for j in range(row):
            L[row, j] += b[j] * partial[j]
    for j in range(n):
        D[j] = d_new[j]
    return 0


@njit(cache=True)
def sequential_dot(a, b):
    """0.0 + a[0]·b[0] + a[1]·b[1] + …, left to right."""
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s
