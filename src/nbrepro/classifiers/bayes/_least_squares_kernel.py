# SPDX-License-Identifier: GPL-3.0-or-later
"""Least squares with numpy.linalg.lstsq's answer, computed the same way on every CPU.

    x = argmin ‖A x − b‖₂, the one of least norm where A has rank below its columns,
    singular values at or below rcond·σ_max taken as 0 (rcond = ε·max(rows, columns), lstsq's
    default)

Why not ``np.linalg.lstsq``: LAPACK's ``gelsd`` runs on OpenBLAS, whose kernels (and so the order
of every sum) are chosen for the CPU at run time. LSLWNB's weights came out different in their
last bits on a machine with AVX-512 and on one without (measured: OpenBLAS's SkylakeX kernels
against its Haswell and Zen ones, 19 of 20 fits of Orhan et al.'s data sets). Here every sum runs
in one fixed order in compiled loops: Householder QR of A (rows in order), then a one-sided
Jacobi SVD of the small triangular factor R (Hestenes' method: rotate pairs of columns until
all are orthogonal), and x = V Σ⁺ Uᵀ (Qᵀ b). Both steps are backward stable, as LAPACK's are;
the answers agree with lstsq's to rounding (tested), not to the bit.
"""
from __future__ import annotations

import math

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

_EPS = 2.220446049250313e-16


@njit(cache=True, error_model="numpy")
def _householder_r(A, b):
    """In place: A's upper triangle becomes R and b becomes Qᵀ b (A = Q R, Householder reflections)."""
    m, k = A.shape
    for j in range(min(m, k)):
        below = 0.0
        for i in range(j + 1, m):
            below += A[i, j] * A[i, j]
        head = A[j, j]
        if below == 0.0:
            continue  # the column is already zero below the diagonal
        norm = math.sqrt(head * head + below)
        alpha = -norm if head >= 0.0 else norm  # v = x − α e₁, without cancellation in v₀
        v0 = head - alpha
        vtv = v0 * v0 + below
        # H = I − 2 v vᵀ / vᵀv on the columns to the right and on b
        for c in range(j + 1, k):
            dot = v0 * A[j, c]
            for i in range(j + 1, m):
                dot += A[i, j] * A[i, c]
            f = 2.0 * dot / vtv
            A[j, c] -= f * v0
            for i in range(j + 1, m):
                A[i, c] -= f * A[i, j]
        dot = v0 * b[j]
        for i in range(j + 1, m):
            dot += A[i, j] * b[i]
        f = 2.0 * dot / vtv
        b[j] -= f * v0
        for i in range(j + 1, m):
            b[i] -= f * A[i, j]
        A[j, j] = alpha
        for i in range(j + 1, m):
            A[i, j] = 0.0


@njit(cache=True, error_model="numpy")
def _jacobi_svd(U):
    """One-sided Jacobi: rotates U's columns in place until every pair is orthogonal to ε, so
    that U_in V = U_out = (σ_j u_j)_j; returns (σ, V)."""
    k = U.shape[1]
    n = U.shape[0]
    V = np.eye(k)
    for _ in range(100):
        rotated = False
        for p in range(k - 1):
            for q in range(p + 1, k):
                a = 0.0
                bb = 0.0
                g = 0.0
                for i in range(n):
                    a += U[i, p] * U[i, p]
                    bb += U[i, q] * U[i, q]
                    g += U[i, p] * U[i, q]
                if g == 0.0 or abs(g) <= _EPS * math.sqrt(a * bb):
                    continue
                rotated = True
                zeta = (bb - a) / (2.0 * g)
                t = (1.0 if zeta >= 0.0 else -1.0) / (abs(zeta) + math.sqrt(1.0 + zeta * zeta))
                c = 1.0 / math.sqrt(1.0 + t * t)
                s = c * t
                for i in range(n):
                    up, uq = U[i, p], U[i, q]
                    U[i, p] = c * up - s * uq
                    U[i, q] = s * up + c * uq
                for i in range(k):
                    vp, vq = V[i, p], V[i, q]
                    V[i, p] = c * vp - s * vq
                    V[i, q] = s * vp + c * vq
        if not rotated:
            break
    sigma = np.zeros(k)
    for j in range(k):
        t2 = 0.0
        for i in range(n):
            t2 += U[i, j] * U[i, j]
        sigma[j] = math.sqrt(t2)
    return sigma, V


@njit(cache=True, error_model="numpy")
def least_squares(A, b):
    """The least-norm minimiser of ‖A x − b‖₂ (A rows × k, b rows), as lstsq with rcond=None."""
    m, k = A.shape
    R = A.copy()
    c = b.copy()
    _householder_r(R, c)
    r = min(m, k)
    T = np.zeros((r, k))  # the triangular factor's rows (rows ≥ k of R are zero)
    for i in range(r):
        for j in range(i, k):
            T[i, j] = R[i, j]
    sigma, V = _jacobi_svd(T)  # T V = U Σ
    top = 0.0
    for j in range(k):
        top = max(top, sigma[j])
    cut = _EPS * max(m, k) * top
    x = np.zeros(k)
    for j in range(k):
        if sigma[j] <= cut or sigma[j] == 0.0:
            continue
        # (U_j ᵀ c) / σ_j with U_j = T V_j / σ_j: the column of T after the rotations, over σ_j²
        proj = 0.0
        for i in range(r):
            proj += T[i, j] * c[i]
        coef = proj / (sigma[j] * sigma[j])
        for i in range(k):
            x[i] += coef * V[i, j]
    return x
