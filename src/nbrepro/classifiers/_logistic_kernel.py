"""Weka Logistic's objective and gradient, and the optimiser's small sums, compiled (numba).

Hall's calibration fits a Logistic in every fit of every column (1 400 fits per column and
data set), and Weka's optimiser asks for the objective and the gradient thousands of times
per fit on a few hundred rows: in numpy each call is dozens of small array operations, so
the calls cost more than the arithmetic. These loops do the same additions and products in
the same order as the numpy forms they replace (``logistic.PenalisedLikelihood`` before
compilation, kept in ``tests/test_logistic_kernel.py``): each linear predictor summed over
the columns in order, every sum over rows in training order, a row's own-class term added
after its probability terms (a 0 for the other classes, as numpy adds it). ``exp`` and
``log`` stay numpy's, so the bits are the numpy path's.
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, error_model="numpy")  # IEEE arithmetic, as Java
def linear_predictors(B, ST):
    """η[c, i] = Σ_j B[c, j]·S[i, j], j in order from 0.0 (``ST`` = Sᵀ, a row per column)."""
    k, dim = B.shape
    n = ST.shape[1]
    eta = np.zeros((k, n))
    for c in range(k):
        for j in range(dim):
            b = B[c, j]
            for i in range(n):
                eta[c, i] += b * ST[j, i]
    return eta


@njit(cache=True, error_model="numpy")  # IEEE arithmetic, as Java
def denominators(first, expo):
    """first[i] + expo[0, i] + expo[1, i] + …, left to right."""
    out = first.copy()
    for c in range(expo.shape[0]):
        for i in range(out.shape[0]):
            out[i] = out[i] + expo[c, i]
    return out


@njit(cache=True, error_model="numpy")  # IEEE arithmetic, as Java
def penalised_negative_log_likelihood(eta, top, log_denom, y, w, B, ridge):
    """−Σ_i w_i (η_{y_i} − max − log denom_i) in row order (η of the reference class = 0), then
    + ridge·β_cj·β_cj for every class c and column j ≥ 1 in that order."""
    k = eta.shape[0]
    total = 0.0
    for i in range(y.shape[0]):
        own = -top[i] if y[i] == k else eta[y[i], i] - top[i]
        total += -(w[i] * (own - log_denom[i]))
    for c in range(k):
        for j in range(1, B.shape[1]):
            total += ridge * B[c, j] * B[c, j]
    return total


@njit(cache=True, error_model="numpy")  # IEEE arithmetic, as Java
def penalised_gradient(expo, denom, w, S, y, B, ridge):
    """Σ_i [w_i·P(c | s_i)·s_ij − w_i·s_ij·(y_i = c)], row by row (each row's probability terms,
    then its own-class terms, 0 for the other classes), + 2·ridge·β_cj for j ≥ 1."""
    k, dim = B.shape
    grad = np.zeros((k, dim))
    for i in range(S.shape[0]):
        for c in range(k):
            p = w[i] * (expo[c, i] / denom[i])
            for j in range(dim):
                grad[c, j] += p * S[i, j]
        for c in range(k):
            if y[i] == c:
                for j in range(dim):
                    grad[c, j] += -(w[i] * S[i, j])
            else:
                for j in range(dim):
                    grad[c, j] += 0.0  # numpy adds a 0 here: keeps a −0.0 from surviving
    twice = 2.0 * ridge
    for c in range(k):
        for j in range(1, dim):
            grad[c, j] += twice * B[c, j]
    return grad.ravel()
