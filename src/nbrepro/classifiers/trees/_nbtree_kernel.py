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

import math

import numpy as np

from nbrepro._numba_cache import njit  # numba's, its cache locks installed first

from ._j48_kernel import SMALL, _add_nominal_counts, numeric_gain


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


@njit(cache=True)
def c45_candidates(Z, y, rows, w, orders, order_of, is_numeric, n_values, n_classes, min_leaf, log_table):
    """C45Split.buildClassifier on every attribute of an NBTree node, in one call: whether the
    attribute has a split, its split point (numeric) and the split's distribution over the rows
    with a known value (Weka's ``Distribution``: per (bag, class), per bag, per class, total).

    ``rows``, ``w``: the node's rows and weights in the node's order; ``orders``: positions into
    them, the orders the node's sorts leave (NBTree sorts its rows in place by each numeric
    attribute in turn); ``order_of[a]``: the row of ``orders`` attribute a is evaluated in (a
    numeric attribute's own sorted order, a nominal one's the order the numeric attributes
    before it left). Sums run in that order, as Weka adds the rows: the numeric scan is J48's
    (``numeric_gain``), so every gain and distribution has the bits of the numpy reference
    (``TreeBuilder.c45_split``, which a test compares with this)."""
    n = rows.shape[0]
    m = Z.shape[1]
    r = n_classes
    Q = 2
    for a in range(m):
        if not is_numeric[a] and n_values[a] > Q:
            Q = n_values[a]
    has = np.zeros(m, dtype=np.bool_)
    split_point = np.full(m, np.nan)
    pcb = np.zeros((m, Q, r))
    pb = np.zeros((m, Q))
    pc = np.zeros((m, r))
    total = np.zeros(m)
    total_weight = 0.0
    whole = True
    for t in range(n):
        total_weight += w[t]
        if w[t] != math.floor(w[t]):
            whole = False
    whole = whole and total_weight < log_table.shape[0]
    left = np.zeros(r)
    right = np.zeros(r)
    init = np.zeros(r)
    xs = np.empty(n)
    cs = np.empty(n, dtype=np.int64)
    ws = np.empty(n)
    ordered_rows, ordered_w, ordered_as = rows, w, -1
    for a in range(m):
        p = orders[order_of[a]]
        if is_numeric[a]:
            nk = 0
            for t in range(n):  # the known values in sorted order (a sort leaves the missing ones last)
                i = rows[p[t]]
                x = Z[i, a]
                if np.isnan(x):
                    continue
                xs[nk] = x
                cs[nk] = y[i]
                ws[nk] = w[p[t]]
                nk += 1
            _, pos, _, _ = numeric_gain(xs, cs, ws, nk, nk, r, min_leaf, total_weight, log_table, whole, left, right,
                                        init)
            if pos < 0:
                continue
            has[a] = True
            lo, hi = xs[pos], xs[pos + 1]
            split_point[a] = (hi + lo) / 2.0
            if split_point[a] == hi:  # a precision problem: Weka takes the smaller value
                split_point[a] = lo
            for t in range(nk):
                b = 0 if t <= pos else 1
                pcb[a, b, cs[t]] += ws[t]
                pb[a, b] += ws[t]
                pc[a, cs[t]] += ws[t]
                total[a] += ws[t]
        else:
            if order_of[a] != ordered_as:  # the rows and weights in this attribute's order, once per order
                ordered_rows, ordered_w, ordered_as = rows[p], w[p], order_of[a]
            total[a] = _add_nominal_counts(Z, y, ordered_w, ordered_rows, a, pcb[a], pb[a], pc[a])
            useful = 0
            for v in range(n_values[a]):
                if min_leaf - pb[a, v] < SMALL:
                    useful += 1
            has[a] = useful > 1
    return has, split_point, pcb, pb, pc, total
