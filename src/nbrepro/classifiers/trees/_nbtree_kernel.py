# SPDX-License-Identifier: GPL-3.0-or-later
"""NBTree's inner loops compiled (numba): discretising rows by cut points, and the 5-fold
cross-validated errors of Weka's naive Bayes on nominal codes.

NBTree estimates errors this way for every branch of every candidate split (sonar: 60
attributes × 2 branches × 5 folds at each node). In numpy each fold is some twenty calls
on arrays of a few dozen rows, so the calls cost far more than the arithmetic. These loops
do the arithmetic of ``NaiveBayes._count``/``_fit_counts``/``_proba_block`` and
``java_normalize`` in the same order: counts minus the held-out fold's counts (each count
summed in row order, as ``bincount`` sums; with whole weights, exact in any order, all rows'
counts are the folds' added up), Laplace factors (count + 1) / (Σ counts + q) with
the values' sum running down the column as numpy's ``sum(axis=0)`` does and the classes'
sum pairwise as numpy's ``sum()`` does, Weka's floored and rescaled product, the
left-to-right normalising sum, the first largest probability: the same bits as the numpy
path, fractional weights (rows with a missing value spread over branches) included.
"""
from __future__ import annotations

import math

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

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
def _add_counts(U, y, w, lo, hi, value_class, class_count):
    """Add rows lo..hi−1's weights to the (value slot, class) and class counts; ``U[i, j]``: row
    i's slot for attribute j, a missing value's the last slot (counted there, never read)."""
    for i in range(lo, hi):
        c = y[i]
        class_count[c] += w[i]
        for j in range(U.shape[1]):
            value_class[U[i, j], c] += w[i]


@njit(cache=True, inline="always")
def fold_bounds(n, n_folds, f):
    """Rows lo..hi−1 of fold f of n rows in their order (Weka's ``testCV``: the first n % n_folds folds one larger)."""
    base, rem = n // n_folds, n % n_folds
    lo = f * base + min(f, rem)
    return lo, lo + (base + 1 if f < rem else base)


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


@njit(cache=True, inline="always")
def _row_product(i, U, factor, prior, tiny, rescale, probs):
    """Weka's floored, rescaled product of row i's factors into ``probs`` (``weka_product_step``
    written out: calling it with a row view per attribute made the naive Bayes CV 1.3 to 2.5 times as
    slow on hypothyroid's and libras's branches), for any
    number of classes and any factor, NaN included. ``U[i, j]``: row i's slot of ``factor`` for
    attribute j (a missing value's slot holds ones: × 1.0 changes no bit)."""
    r = prior.shape[0]
    for c in range(r):
        probs[c] = prior[c]
    for j in range(U.shape[1]):
        u = U[i, j]
        mx = -np.inf
        nan = False
        for c in range(r):
            p = probs[c] * factor[u, c]
            probs[c] = p
            if np.isnan(p):
                nan = True
            elif p > mx:
                mx = p
        if not nan and mx > 0.0 and mx < tiny:
            for c in range(r):
                probs[c] *= rescale


@njit(cache=True, inline="always")
def _pair_product(i, U, factor, prior, tiny, rescale, probs):
    """``_row_product`` of rows i and i+1 at once (into probs[0], probs[1]), two or three classes,
    where no factor and no prior is NaN or infinite (so no product is NaN: the NaN tests drop
    out). Each row's product is a chain of dependent multiplications; two chains interleaved
    keep the multiplier busy. Each row's arithmetic is unchanged: the same bits."""
    r = prior.shape[0]
    a0, a1, a2 = prior[0], prior[1], prior[r - 1]  # a2, b2: unused with two classes
    b0, b1, b2 = a0, a1, a2
    for j in range(U.shape[1]):
        u, v = U[i, j], U[i + 1, j]
        a0 *= factor[u, 0]
        a1 *= factor[u, 1]
        b0 *= factor[v, 0]
        b1 *= factor[v, 1]
        if r == 3:
            a2 *= factor[u, 2]
            b2 *= factor[v, 2]
        ma = max(max(a0, a1), a2) if r == 3 else max(a0, a1)
        mb = max(max(b0, b1), b2) if r == 3 else max(b0, b1)
        if ma > 0.0 and ma < tiny:
            a0 *= rescale
            a1 *= rescale
            a2 *= rescale
        if mb > 0.0 and mb < tiny:
            b0 *= rescale
            b1 *= rescale
            b2 *= rescale
    probs[0, 0], probs[0, 1], probs[1, 0], probs[1, 1] = a0, a1, b0, b1
    if r == 3:
        probs[0, 2], probs[1, 2] = a2, b2


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
    n_slots = offsets[m]
    U = np.empty((n, m), dtype=np.int64)  # each row's value slot per attribute; missing: the last slot
    whole = True
    weight = 0.0
    for i in range(n):
        whole &= w[i] == math.floor(w[i])
        weight += abs(w[i])
        for j in range(m):
            v = codes[i, j]
            U[i, j] = offsets[j] + v if v >= 0 else n_slots
    # each fold's counts, then all rows' as the folds' sum where every weight is whole (sums of
    # whole numbers below 2⁵³ are exact in any order); otherwise all rows' summed in row order, as numpy
    whole &= weight < 2.0 ** 53
    held = np.zeros((n_folds, n_slots + 1, r))
    held_class = np.zeros((n_folds, r))
    for f in range(n_folds):
        lo, hi = fold_bounds(n, n_folds, f)
        _add_counts(U, y, w, lo, hi, held[f], held_class[f])
    total = np.zeros((n_slots + 1, r))
    class_total = np.zeros(r)
    if whole:
        for f in range(n_folds):
            total += held[f]
            class_total += held_class[f]
    else:
        _add_counts(U, y, w, np.int64(0), n, total, class_total)  # int64, not Literal[int](0): one compile
    factor = np.ones((n_slots + 1, r))
    prior = np.empty(r)
    left_out = np.empty(r)
    probs = np.empty((2, r))
    errors = 0.0
    for f in range(n_folds):
        lo, hi = fold_bounds(n, n_folds, f)
        if hi <= lo:
            continue
        for c in range(r):
            left_out[c] = class_total[c] - held_class[f, c]
        class_sum = numpy_sum(left_out)
        finite = True  # every prior and factor finite (and ≥ tiny or 0): no product can be NaN
        for c in range(r):
            prior[c] = (left_out[c] + 1.0) / (class_sum + r)
            finite &= math.isfinite(prior[c])
        for j in range(m):
            for c in range(r):
                s = 0.0
                for u in range(offsets[j], offsets[j + 1]):
                    s += total[u, c] - held[f, u, c]
                s += n_values[j]
                for u in range(offsets[j], offsets[j + 1]):
                    q = (total[u, c] - held[f, u, c] + 1.0) / s
                    # weka_product_step's floor, applied once per fold (np.maximum(tiny, q): NaN stays NaN)
                    q = tiny if not q >= tiny and not np.isnan(q) else q
                    factor[u, c] = q
                    finite &= math.isfinite(q)
        i = lo
        while i < hi:
            pair = finite and (r == 2 or r == 3) and i + 1 < hi
            if pair:
                _pair_product(i, U, factor, prior, tiny, rescale, probs)
            else:
                _row_product(i, U, factor, prior, tiny, rescale, probs[0])
            for row in range(i, i + 2 if pair else i + 1):
                p_row = probs[row - i]
                s = p_row[0]
                for c in range(1, r):
                    s += p_row[c]
                best = 0
                best_p = p_row[0] / s
                for c in range(1, r):
                    p = p_row[c] / s
                    if np.isnan(best_p):
                        break
                    if np.isnan(p) or p > best_p:
                        best, best_p = c, p
                if best_p > 0 and best != y[row]:
                    errors += w[row]
            i += 2 if pair else 1
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
