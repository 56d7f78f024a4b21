"""NBTree's inner loops compiled (numba): discretising rows by cut points, and the 5-fold
cross-validated errors of Weka's naive Bayes on nominal codes.

NBTree estimates errors this way for every branch of every candidate split (sonar: 60
attributes × 2 branches × 5 folds at each node). In numpy each fold is some twenty calls
on arrays of a few dozen rows, so the calls cost far more than the arithmetic. These loops
do the arithmetic of ``NaiveBayes._count``/``_fit_counts``/``_proba_block`` and
``java_normalize`` in the same order: counts minus the held-out fold's counts (each count
summed in row order, as ``bincount`` sums), Laplace factors (count + 1) / (Σ counts + q) with
the values' sum running down the column as numpy's ``sum(axis=0)`` does and the classes'
sum pairwise as numpy's ``sum()`` does, Weka's floored and rescaled product, the
left-to-right normalising sum, the first largest probability: the same bits as the numpy
path, fractional weights (rows with a missing value spread over branches) included.
"""
from __future__ import annotations

import numpy as np

from nbrepro._numba_cache import njit  # numba's, its cache locks installed first


@njit(cache=True)
def encode_with_cuts(Z, numeric, cut_values, cut_offsets):
    """Integer codes of Z's columns (-1: missing): a nominal column's value as is, a numeric
    column j's bin = the number of its cut points below the value (``searchsorted`` left)."""
    n, m = Z.shape
    codes = np.empty((n, m), dtype=np.int64)
    for j in range(m):
        lo, hi = cut_offsets[j], cut_offsets[j + 1]
        for i in range(n):
            v = Z[i, j]
            if np.isnan(v):
                codes[i, j] = -1
            elif not numeric[j]:
                codes[i, j] = np.int64(v)
            else:
                b = lo
                while b < hi and cut_values[b] < v:
                    b += 1
                codes[i, j] = b - lo
    return codes


@njit(cache=True)
def _add_counts(codes, y, w, lo, hi, offsets, value_class, class_count):
    """Add rows lo..hi−1's weights to the (flat value, class) and class counts (missing codes skipped)."""
    for i in range(lo, hi):
        c = y[i]
        class_count[c] += w[i]
        for j in range(codes.shape[1]):
            v = codes[i, j]
            if v >= 0:
                value_class[offsets[j] + v, c] += w[i]


@njit(cache=True)
def numpy_sum(a):
    """``a.sum()`` of a 1-D array with numpy's bits: pairwise, eight running sums per block of
    up to 128 values (numpy's ``pairwise_sum``)."""
    n = a.shape[0]
    if n < 8:
        s = -0.0
        for i in range(n):
            s += a[i]
        return s
    if n <= 128:
        acc = a[:8].copy()
        i = 8
        while i < n - (n % 8):
            for j in range(8):
                acc[j] += a[i + j]
            i += 8
        s = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
        while i < n:
            s += a[i]
            i += 1
        return s
    half = (n // 2) - ((n // 2) % 8)
    return numpy_sum(a[:half]) + numpy_sum(a[half:])


@njit(cache=True)
def naive_bayes_cv_errors(codes, y, w, n_values, n_classes, n_folds, tiny, rescale):
    """Weight of the rows that Weka's naive Bayes, fitted to the other folds, predicts wrongly
    (first largest probability, and only when it is above 0), over ``n_folds`` consecutive
    folds of the rows in their order (Weka's ``testCV`` bounds)."""
    n, m = codes.shape
    r = n_classes
    offsets = np.zeros(m + 1, dtype=np.int64)
    for j in range(m):
        offsets[j + 1] = offsets[j] + n_values[j]
    total = np.zeros((offsets[m], r))
    class_total = np.zeros(r)
    _add_counts(codes, y, w, 0, n, offsets, total, class_total)
    held = np.zeros((offsets[m], r))
    factor = np.empty((offsets[m], r))
    prior = np.empty(r)
    left_out = np.empty(r)
    probs = np.empty(r)
    errors = 0.0
    base, rem = n // n_folds, n % n_folds
    for f in range(n_folds):
        lo = f * base + min(f, rem)
        hi = lo + (base + 1 if f < rem else base)
        if hi <= lo:
            continue
        held[:, :] = 0.0
        held_class = np.zeros(r)
        _add_counts(codes, y, w, lo, hi, offsets, held, held_class)
        for c in range(r):
            left_out[c] = class_total[c] - held_class[c]
        class_sum = numpy_sum(left_out)
        for c in range(r):
            prior[c] = (left_out[c] + 1.0) / (class_sum + r)
        for j in range(m):
            for c in range(r):
                s = 0.0
                for u in range(offsets[j], offsets[j + 1]):
                    s += total[u, c] - held[u, c]
                s += n_values[j]
                for u in range(offsets[j], offsets[j + 1]):
                    f = (total[u, c] - held[u, c] + 1.0) / s
                    # weka_product_step's floor, applied once per fold (np.maximum(tiny, f): NaN stays NaN)
                    factor[u, c] = tiny if not f >= tiny and not np.isnan(f) else f
        for i in range(lo, hi):
            for c in range(r):
                probs[c] = prior[c]
            for j in range(m):
                # weka_product_step written out (a call with a row view per attribute cost more
                # than its arithmetic): × the factor (1 for a missing value), then the rescale
                v = codes[i, j]
                u = offsets[j] + v
                mx = -np.inf
                nan = False
                for c in range(r):
                    p = probs[c] * (factor[u, c] if v >= 0 else 1.0)
                    probs[c] = p
                    if np.isnan(p):
                        nan = True
                    elif p > mx:
                        mx = p
                if not nan and mx > 0.0 and mx < tiny:
                    for c in range(r):
                        probs[c] *= rescale
            s = probs[0]
            for c in range(1, r):
                s += probs[c]
            best = 0
            best_p = probs[0] / s
            for c in range(1, r):
                p = probs[c] / s
                if np.isnan(best_p):
                    break
                if np.isnan(p) or p > best_p:
                    best, best_p = c, p
            if best_p > 0 and best != y[i]:
                errors += w[i]
    return errors
