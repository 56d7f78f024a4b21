# SPDX-License-Identifier: GPL-3.0-or-later
"""Compiled passes (numba) of the lazy classifiers over small integer training codes.

Why compiled: with numpy, a block of test rows builds several (test rows × training rows)
matrices — shared values, distances, cells, weights — and multiplies one-hot matrices,
reading the training data many times over in float64.

Here the training codes are small integers, kept both by attribute (columns) and by row.
``shared_values`` counts, attribute by attribute, the values each training row shares with a
test row (a loop over a column that the compiler vectorises): LWNB's and ICLNB's distances.
Their weights depend on that count alone, so ``level_histogram`` gives what choosing the k
nearest needs (how many rows share s attributes) and ``level_weighted_counts`` adds up naive
Bayes' counts over the neighbours only, with a weight per level: no (test rows × training
rows) matrix of floats is built.
``lcwnb_proba`` does LCWNB's whole prediction: that count gives each row's distance, and with
the rows per class and distance V_ℓ(y) γ_y; a second pass counts, per class y and distance ℓ,
the rows sharing attribute i's value, N_ℓ(i, y). A row's weight depends only on its class and
distance, so the weighted count is T(i, y) = Σ_ℓ γ_y^ℓ N_ℓ(i, y): whole counts, then L terms,
whatever the row order, BLAS or threads.
"""
from __future__ import annotations

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first


@njit(cache=True)
def _gamma(V, kappa, n_bisections):
    """γ for one class: Σ_ℓ V_ℓ γ^ℓ closest to min(max(V_0, κ), n) by bisection (see ``LCWNB``)."""
    L = V.shape[0]
    total = 0.0
    for ell in range(L):
        total += V[ell]
    target = min(max(V[0], kappa), total)
    if target >= total:
        return 1.0  # the class has at most κ rows: every row, weight 1
    if target <= V[0]:
        return 0.0  # V_0 ≥ κ: only exact matches
    lo = 0.0
    hi = 1.0
    for _ in range(n_bisections):
        mid = 0.5 * (lo + hi)
        s = V[L - 1]
        for ell in range(L - 2, -1, -1):  # Horner
            s = s * mid + V[ell]
        if s < target:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@njit(cache=True)
def _count_shared(columns, q, out):
    """out[j] = how many attributes training row j shares with the test row ``q`` (codes, -2
    where missing: it matches nothing); ``columns``: (m, n) training codes by attribute."""
    out[:] = 0
    for a in range(columns.shape[0]):
        column = columns[a]
        v = q[a]
        for j in range(columns.shape[1]):
            out[j] += column[j] == v


@njit(cache=True)
def shared_values(columns, test):
    """(test rows, training rows): how many attributes each training row shares with each test
    row. ``columns``: (m, n) training codes by attribute, -1 where missing; ``test``: (c, m)
    codes of the same dtype, -2 where missing (it matches nothing)."""
    out = np.empty((test.shape[0], columns.shape[1]), dtype=columns.dtype)
    for t in range(test.shape[0]):
        _count_shared(columns, test[t], out[t])
    return out


@njit(cache=True)
def level_histogram(shared, n_levels):
    """(test rows, n_levels): how many training rows share exactly s attributes with each test
    row, s = 0 … n_levels − 1 (``shared`` from ``shared_values``)."""
    out = np.zeros((shared.shape[0], n_levels), dtype=np.int64)
    for t in range(shared.shape[0]):
        row = shared[t]
        hist = out[t]
        for j in range(row.shape[0]):
            hist[row[j]] += 1
    return out


@njit(cache=True)
def level_weighted_counts(train, y, n_classes, shared, test, level_weight):
    """Naive Bayes' weighted counts when a training row's weight for a test row depends only on
    how many attributes the two share: ``level_weight[t, s]`` (0: not a neighbour).

    Returns (at, seen, class_weight): at[t, a, y] the weight of class-y rows with test row t's
    value of attribute a, seen[t, a, y] of class-y rows with a known, class_weight[t, y] of all
    class-y rows; each summed over the training rows in their order. ``train``: (n, m) codes,
    -1 where missing; ``test``: (c, m) codes, -2 where missing."""
    c, m = test.shape
    at = np.zeros((c, m, n_classes))
    seen = np.zeros((c, m, n_classes))
    class_weight = np.zeros((c, n_classes))
    for t in range(c):
        q = test[t]
        levels = level_weight[t]
        row_shared = shared[t]
        for j in range(train.shape[0]):
            w = levels[row_shared[j]]
            if w == 0.0:
                continue
            k = y[j]
            class_weight[t, k] += w
            row = train[j]
            for a in range(m):
                v = row[a]
                if v >= 0:
                    seen[t, a, k] += w
                    if v == q[a]:
                        at[t, a, k] += w
    return at, seen, class_weight


@njit(cache=True)
def lcwnb_proba(train, columns, y, n_classes, test, known, n_values, kappa, n_bisections):
    """P(class | test row) for every test row (see ``LCWNB``).

    ``train``: (n, m) codes, -1 where missing, and ``columns`` the same transposed and
    contiguous; ``test``: (c, m) codes of the same dtype, -2 where missing (it matches
    nothing); ``known``: (c, m) bool.
    """
    n, m = train.shape
    r = n_classes
    L = m + 1
    out = np.empty((test.shape[0], r))
    V = np.zeros((r, L))
    N = np.zeros((r, L, m), dtype=np.int32)  # rows of class y at distance ℓ sharing attribute i's test value
    powers = np.empty((r, L))
    S = np.empty(r)
    T = np.zeros((r, m))
    shared = np.empty(n, dtype=columns.dtype)
    for t in range(test.shape[0]):
        q = test[t]
        k = 0
        for a in range(m):
            k += known[t, a]
        _count_shared(columns, q, shared)
        V[:] = 0.0
        N[:] = 0
        for j in range(n):
            c = y[j]
            h = k - shared[j]
            V[c, h] += 1.0
            row = train[j]
            counts = N[c, h]
            for a in range(m):
                counts[a] += row[a] == q[a]
        s_all = 0.0
        s2_all = 0.0
        for c in range(r):
            g = _gamma(V[c], kappa, n_bisections)
            powers[c, 0] = 1.0  # 0^0 = 1
            for ell in range(1, L):
                powers[c, ell] = powers[c, ell - 1] * g
            s = 0.0
            s2 = 0.0
            for ell in range(L):
                s += V[c, ell] * powers[c, ell]
                s2 += V[c, ell] * (powers[c, ell] * powers[c, ell])
            S[c] = s
            s_all += s
            s2_all += s2
            for a in range(m):
                w = 0.0
                for ell in range(L):
                    w += powers[c, ell] * N[c, ell, a]
                T[c, a] = w
        rho = s_all / s2_all if s2_all > 0.0 else np.nan
        if not np.isfinite(rho):
            rho = 1.0
        best = -np.inf
        for c in range(r):
            lq = np.log1p(rho * S[c])
            for a in range(m):
                if known[t, a]:
                    lq += np.log1p(rho * T[c, a]) - np.log(n_values[a] + rho * S[c])
            out[t, c] = lq
            best = max(best, lq)
        total = 0.0
        for c in range(r):
            out[t, c] = np.exp(out[t, c] - best)
            total += out[t, c]
        for c in range(r):
            out[t, c] /= total
    return out
