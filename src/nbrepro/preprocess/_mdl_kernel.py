# SPDX-License-Identifier: GPL-3.0-or-later
"""Fayyad & Irani's MDL cut points of many columns with whole-number class counts, compiled (numba).

``mdl.mdl_cut_points_columns`` in Python spends its time in per-column and per-interval
steps (a ``np.unique`` per column, an acceptance test per interval), which NBTree pays
for every column of every branch of every candidate split. This kernel does the same
arithmetic in the same order (entropies summed class by class as Weka's
``ContingencyTables``, the first smallest conditional entropy, Weka's acceptance test), so
it gives the same cut points. Its logarithm is the C library's, as Python's ``math.log``.
"""
from __future__ import annotations

import math

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

from ..weka._order_kernel import weka_quicksort_in_place

_LOG2 = math.log(2.0)


@njit(cache=True)
def _xlnx(x):
    return x * math.log(x) if x > 0 else 0.0


@njit(cache=True)
def xlnx_table(n):
    """k ln k for k = 0..n: whole-number counts look their terms up (the same bits as ``_xlnx``)."""
    table = np.empty(n + 1)
    for k in range(n + 1):
        table[k] = _xlnx(float(k))
    return table


@njit(cache=True, inline="always")
def _xlnx_of(x, table):
    """``_xlnx(x)``, looked up in ``table`` (an ``xlnx_table``; may be empty) where x is a whole
    number it holds: the same bits, without a logarithm."""
    if x >= 0.0 and x < table.shape[0] and x == math.floor(x):
        return table[int(x)]
    return _xlnx(x)


@njit(cache=True)
def _entropy(counts, table):
    """ContingencyTables.entropy: (−Σ c ln c + T ln T) / (T ln 2), summed in class order
    (``table``: see ``_xlnx_of``)."""
    value = 0.0
    total = 0.0
    for c in counts:
        value -= _xlnx_of(c, table)
        total += c
    if abs(total) < 1e-6:
        return 0.0
    return (value + _xlnx_of(total, table)) / (total * _LOG2)


@njit(cache=True)
def _conditional_entropy(left, right, table):
    """ContingencyTables.entropyConditionedOnRows of the two sides of one cut. (The scan over a
    column's candidate cuts, on whole-number counts, sums the same terms looked up in an
    ``xlnx_table``: ``_best_cut``.)"""
    value = 0.0
    total = 0.0
    for s in range(2):
        side = left if s == 0 else right
        row_sum = 0.0
        for c in side:
            value = value + _xlnx_of(c, table)
            row_sum = row_sum + c
        value = value - _xlnx_of(row_sum, table)
        total = total + row_sum
    if abs(total) < 1e-6:
        return 0.0
    return -value / (total * _LOG2)


@njit(cache=True)
def _present(counts):
    k = 0
    for c in counts:
        if c > 0:
            k += 1
    return k


@njit(cache=True)
def _fayyad_irani_accepts(prior, prior_entropy, left, right, n_rows, n_cut_points, table):
    """Weka's FayyadAndIranisMDL: is the cut into ``left`` and ``right`` worth its bits?"""
    gain = prior_entropy - _conditional_entropy(left, right, table)
    k, k1, k2 = _present(prior), _present(left), _present(right)
    delta = (math.log(3.0 ** k - 2) / _LOG2
             - (k * prior_entropy - k2 * _entropy(right, table) - k1 * _entropy(left, table)))
    return gain > (math.log(n_cut_points) / _LOG2 + delta) / n_rows


@njit(cache=True)
def _column_cuts(values, classes, n_classes, better_encoding, xlnx, out, scratch):
    """Cut points of one column's known values (any order); appended to ``out``'s front, their count returned."""
    order = np.argsort(values, kind="mergesort")
    return _sorted_column_cuts(values[order], classes[order], n_classes, better_encoding, xlnx, out, scratch)


@njit(cache=True)
def cut_scratch(n, n_classes):
    """Work arrays for ``_sorted_column_cuts`` of up to n values, made once for many columns
    (a column of a few hundred values otherwise spends a tenth of its time allocating):
    (distinct values, class counts before each, the interval stack, an interval's class counts,
    and as floats its prior and its best cut's two sides)."""
    r = n_classes
    return (np.empty(max(n, 1)), np.empty((n + 1) * r, dtype=np.int64), np.empty((2 * n + 2, 2), dtype=np.int64),
            np.empty(r, dtype=np.int64), np.empty((3, r)))


@njit(cache=True)
def _counts_before(values, classes, r, distinct, cum, run):
    """The distinct values of ascending ``values`` into ``distinct`` and, flat, cum[p·r + c] =
    the rows of class c among the distinct values < p; their number returned. Written on every
    row (no branch on whether the value is new, which real data make unpredictable) and final
    once the value's last row is counted. Two and three classes keep their counts in registers,
    more in ``run`` (r integers, overwritten)."""
    n = len(values)
    d = 0
    last = np.nan  # the first value is new too: ``last`` starts NaN (the values have none)
    in_registers = r == 2 or r == 3
    k0 = 0
    k1 = 0
    k2 = 0  # stays 0 with two classes, and is not written
    for c in range(r):
        cum[c] = 0
        run[c] = 0
    for i in range(n):
        v = values[i]
        d += v != last
        last = v
        distinct[d - 1] = v
        c = classes[i]
        base = r * d
        if in_registers:
            k0 += c == 0
            k1 += c == 1
            k2 += c == 2
            cum[base] = k0
            cum[base + 1] = k1
            if r == 3:
                cum[base + 2] = k2
        else:
            run[c] += 1
            for q in range(r):
                cum[base + q] = run[q]
    return d


@njit(cache=True, inline="always")
def _best_cut(cum, a, b, counts, n_rows_int, r, xlnx):
    """The first cut (after distinct value p, a ≤ p < b − 1) of the smallest conditional entropy,
    and that entropy: ``_conditional_entropy``'s terms in its order (left classes, − left total,
    right classes, − right total), looked up in ``xlnx``. Two and three classes (most data sets)
    have the loop over classes written out: the same sums in the same order."""
    scale = float(n_rows_int) * _LOG2  # ``_conditional_entropy``'s total·ln 2: the same for every cut
    best_p = -1
    best_ent = 0.0
    ar = a * r
    if r == 2:
        a0, a1 = cum[ar], cum[ar + 1]
        t0, t1 = counts[0], counts[1]
        for p in range(a, b - 1):
            q = (p + 1) * 2
            k0 = cum[q] - a0
            k1 = cum[q + 1] - a1
            value = ((xlnx[k0] + xlnx[k1]) - xlnx[k0 + k1]) + xlnx[t0 - k0]
            value = (value + xlnx[t1 - k1]) - xlnx[n_rows_int - (k0 + k1)]
            ent = 0.0 if n_rows_int == 0 else -value / scale
            if best_p < 0 or ent < best_ent:  # the first smallest wins (Weka's strict <)
                best_p, best_ent = p, ent
    elif r == 3:
        a0, a1, a2 = cum[ar], cum[ar + 1], cum[ar + 2]
        t0, t1, t2 = counts[0], counts[1], counts[2]
        for p in range(a, b - 1):
            q = (p + 1) * 3
            k0 = cum[q] - a0
            k1 = cum[q + 1] - a1
            k2 = cum[q + 2] - a2
            value = (((xlnx[k0] + xlnx[k1]) + xlnx[k2]) - xlnx[k0 + k1 + k2]) + xlnx[t0 - k0]
            value = ((value + xlnx[t1 - k1]) + xlnx[t2 - k2]) - xlnx[n_rows_int - (k0 + k1 + k2)]
            ent = 0.0 if n_rows_int == 0 else -value / scale
            if best_p < 0 or ent < best_ent:
                best_p, best_ent = p, ent
    else:
        for p in range(a, b - 1):
            q = (p + 1) * r
            value = 0.0
            left_rows = 0
            for c in range(r):
                k = cum[q + c] - cum[ar + c]
                value = value + xlnx[k]
                left_rows += k
            value = value - xlnx[left_rows]
            for c in range(r):
                value = value + xlnx[counts[c] - (cum[q + c] - cum[ar + c])]
            value = value - xlnx[n_rows_int - left_rows]
            ent = 0.0 if n_rows_int == 0 else -value / scale
            if best_p < 0 or ent < best_ent:
                best_p, best_ent = p, ent
    return best_p, best_ent


@njit(cache=True)
def _sorted_column_cuts(values, classes, n_classes, better_encoding, xlnx, out, scratch):
    """``_column_cuts`` of values already in ascending order (the order of equal values does not
    matter: only the distinct values and their class counts do). The counts are whole numbers,
    kept as integers: each candidate's conditional entropy is ``_conditional_entropy``'s sum of
    k ln k terms in the same order, looked up in ``xlnx`` (which holds the same values).
    ``scratch``: ``cut_scratch`` of at least len(values) values."""
    r = n_classes
    distinct, cum, stack, counts, sides = scratch
    prior, best_left, best_right = sides[0], sides[1], sides[2]
    d = _counts_before(values, classes, r, distinct, cum, counts)  # counts: a work array until the scan
    top = 0
    if d >= 2:
        stack[0, 0], stack[0, 1] = 0, d
        top = 1
    n_cuts = 0
    while top > 0:
        top -= 1
        a, b = stack[top, 0], stack[top, 1]
        n_rows_int = 0
        for c in range(r):
            counts[c] = cum[b * r + c] - cum[a * r + c]
            prior[c] = float(counts[c])
            n_rows_int += counts[c]
        best_p, best_ent = _best_cut(cum, a, b, counts, n_rows_int, r, xlnx)
        for c in range(r):
            best_left[c] = float(cum[(best_p + 1) * r + c] - cum[a * r + c])
            best_right[c] = prior[c] - best_left[c]
        prior_entropy = _entropy(prior, xlnx)
        if not best_ent < prior_entropy or prior_entropy - best_ent <= 0:
            continue
        n_rows = 0.0
        for c in range(r):
            n_rows += prior[c]
        n_cut_points = b - a - 1 if better_encoding else int(n_rows) - 1
        if not _fayyad_irani_accepts(prior, prior_entropy, best_left, best_right, n_rows, n_cut_points, xlnx):
            continue
        out[n_cuts] = (distinct[best_p] + distinct[best_p + 1]) / 2.0
        n_cuts += 1
        if best_p + 1 - a >= 2:
            stack[top, 0], stack[top, 1] = a, best_p + 1
            top += 1
        if b - (best_p + 1) >= 2:
            stack[top, 0], stack[top, 1] = best_p + 1, b
            top += 1
    if n_cuts > 1:
        out[:n_cuts] = np.sort(out[:n_cuts])
    return n_cuts


@njit(cache=True)
def fayyad_irani_cuts(X, classes, n_classes, better_encoding):
    """Every column's cut points, flat and ascending per column, and each column's count.
    Rows with a missing value (NaN) or class (< 0) are left out of that column."""
    n, m = X.shape
    flat = np.empty(m * max(n, 1))
    counts = np.zeros(m, dtype=np.int64)
    values = np.empty(n)
    cls = np.empty(n, dtype=np.int64)
    xlnx = xlnx_table(n)  # k ln k of every count that can occur
    scratch = cut_scratch(n, n_classes)
    at = 0
    for j in range(m):
        known = 0
        for i in range(n):
            v = X[i, j]
            if classes[i] >= 0 and not np.isnan(v):
                values[known] = v
                cls[known] = classes[i]
                known += 1
        counts[j] = _column_cuts(values[:known], cls[:known], n_classes, better_encoding, xlnx, flat[at:], scratch)
        at += counts[j]
    return flat[:at], counts


@njit(cache=True)
def fayyad_irani_cuts_presorted(sorted_values, classes, n_classes, better_encoding, orders, member, xlnx):
    """``fayyad_irani_cuts`` of the rows marked in ``member``, given for each column a superset
    of those rows sorted by its values (``orders[k]``) and those values in that order
    (``sorted_values[k]``): a node's rows sorted once serve every subset of them (NBTree's
    branches), and a scan replaces a sort. ``xlnx``: ``xlnx_table`` of at least the superset's
    size, made once. The same cut points as ``fayyad_irani_cuts`` on the subset."""
    m, n = orders.shape
    flat = np.empty(m * max(n, 1))
    counts = np.zeros(m, dtype=np.int64)
    values = np.empty(n)
    cls = np.empty(n, dtype=np.int64)
    scratch = cut_scratch(n, n_classes)
    at = 0
    for k in range(m):
        known = 0
        for t in range(n):
            # written whether the row is kept or not, and kept by advancing: a subset's rows come
            # in no pattern a branch predictor could follow
            i = orders[k, t]
            v = sorted_values[k, t]
            c = classes[i]
            values[known] = v
            cls[known] = c
            known += member[i] & (c >= 0) & (v == v)  # v == v: not NaN
        counts[k] = _sorted_column_cuts(values[:known], cls[:known], n_classes, better_encoding, xlnx, flat[at:],
                                        scratch)
        at += counts[k]
    return flat[:at], counts


@njit(cache=True)
def weighted_fayyad_irani_cuts(v, classes, w, n_classes, better_encoding, xlnx):
    """``mdl.mdl_cut_points`` (Fayyad–Irani) of one column whose known rows are given in the
    order Weka sums them (``v`` ascending), with fractional weights: every running sum is
    taken row by row in that order, as numpy's cumulative sums there, so the cut points are
    the same bits. Ascending."""
    n = len(v)
    out = np.empty(max(n, 1))
    n_out = 0
    cum = np.empty((n, n_classes))
    right = np.empty((n, n_classes))
    run = np.empty(n_classes)
    stack = np.empty((2 * n + 2, 2), dtype=np.int64)
    stack[0, 0], stack[0, 1] = 0, n
    top = 1
    while top > 0:
        top -= 1
        first, last = stack[top, 0], stack[top, 1]
        m = last - first
        if m < 2:
            continue
        # cumulative class counts from the left, and what is left on the right, row by row
        run[:] = 0.0
        for i in range(m):
            run[classes[first + i]] += w[first + i]
            cum[i, :] = run
        run[:] = cum[m - 1, :]
        for i in range(m):
            run[classes[first + i]] -= w[first + i]
            right[i, :] = run
        best = -1
        best_ent = 0.0
        n_candidates = 0
        for i in range(m - 1):
            if v[first + i] < v[first + i + 1]:
                n_candidates += 1
                ent = _conditional_entropy(cum[i], right[i], xlnx)
                if best < 0 or ent < best_ent:  # the first smallest (np.argmin)
                    best, best_ent = i, ent
        if best < 0:
            continue
        prior = cum[m - 1]
        prior_entropy = _entropy(prior, xlnx)
        if not best_ent < prior_entropy or prior_entropy - best_ent <= 0:
            continue
        total_weight = 0.0
        for i in range(m):
            total_weight += w[first + i]
        n_cuts = n_candidates if better_encoding else m - 1
        if not _fayyad_irani_accepts(prior, prior_entropy, cum[best], right[best], total_weight, n_cuts, xlnx):
            continue
        out[n_out] = (v[first + best] + v[first + best + 1]) / 2.0
        n_out += 1
        stack[top, 0], stack[top, 1] = first, first + best + 1
        top += 1
        stack[top, 0], stack[top, 1] = first + best + 1, last
        top += 1
    return np.sort(out[:n_out])


@njit(cache=True)
def weighted_discretize_cuts(Z, classes, w, columns, n_classes, weka_order, xlnx):
    """Supervised Discretize's cut points of ``columns`` of ``Z`` with row weights ``w``, in
    one call: ``mdl.mdl_cut_points`` of each column, its rows in Weka's order
    (``weka_order``: ``mdl.weka_discretize_orders``, one copy of the data sorted by each
    numeric column in turn, last first, with Weka's quicksort) or else stably sorted by value
    (which gives the same sums when the weights are whole numbers). Flat cut points, each
    column's ascending, and each column's count. ``xlnx``: an ``xlnx_table`` (any size; the
    entropy of whole-number counts it holds is looked up)."""
    n = Z.shape[0]
    from_last = np.empty((len(columns) if weka_order else 0, n), dtype=np.int64)
    if weka_order:
        big = np.finfo(np.float64).max
        order = np.arange(n)
        x = np.empty(n)
        for k in range(len(columns) - 1, -1, -1):
            j = columns[k]
            for i in range(n):
                v = Z[order[i], j]
                x[i] = big if np.isnan(v) else v
            weka_quicksort_in_place(x, order)  # order[weka_quicksort_index(x)], in place
            from_last[k, :] = order
    flat = np.empty(len(columns) * max(n, 1))
    counts = np.zeros(len(columns), dtype=np.int64)
    at = 0
    pos = np.empty(n, dtype=np.int64)
    for k in range(len(columns)):
        j = columns[k]
        kept = 0
        if weka_order:
            for t in range(n):
                i = from_last[k, t]
                if not np.isnan(Z[i, j]) and classes[i] >= 0:
                    pos[kept] = i
                    kept += 1
            p = pos[:kept]
        else:
            for i in range(n):
                if not np.isnan(Z[i, j]) and classes[i] >= 0:
                    pos[kept] = i
                    kept += 1
            p = pos[:kept]
            vals = np.empty(kept)
            for t in range(kept):
                vals[t] = Z[p[t], j]
            p = p[np.argsort(vals, kind="mergesort")]
        v = np.empty(kept)
        c = np.empty(kept, dtype=np.int64)
        wv = np.empty(kept)
        for t in range(kept):
            v[t] = Z[p[t], j]
            c[t] = classes[p[t]]
            wv[t] = w[p[t]]
        # np.bool_: a bool as mdl.py passes, not Literal[bool], so one compiled signature
        cuts = weighted_fayyad_irani_cuts(v, c, wv, n_classes, np.bool_(False), xlnx)
        flat[at:at + len(cuts)] = cuts
        counts[k] = len(cuts)
        at += len(cuts)
    return flat[:at], counts
