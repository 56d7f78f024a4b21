# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka 3.6 order-sensitive loops compiled (numba): its quicksort (``Utils.sortWithNoMissingValues``)
and its naive Bayes running sums in row order.

Weka's quicksort is not stable: rows with equal values come out in an order that only this
algorithm gives, and NBTree's and NaiveBayes's results depend on that order. NBTree sorts a
node's rows twice per numeric attribute at every node, so the sort runs thousands of times
per fit; in Python it was a tenth of NBTree's time.
"""
from __future__ import annotations

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first


@njit(cache=True, inline="always")
def _cswap(vals, index, i, j):
    if vals[i] > vals[j]:
        vals[i], vals[j] = vals[j], vals[i]
        index[i], index[j] = index[j], index[i]


_BLOCK = 64  # positions a partition's scan classifies at a time


@njit(cache=True, inline="always")
def _hoare_partition(vals, index, left, right, pivot, from_left, from_right):
    """Weka's partition loop (Hoare's: i runs right past values below the pivot, j left past values
    above it, the two swap until they cross), the same swaps with the scans' stops found a block of
    positions at a time without a branch per position (a stop is as good as random, so the loop
    exits were mispredicted). The k-th stop from the left (a value not below the pivot) swaps with
    the k-th from the right (not above it) while they have not crossed. Stops are taken from the
    values as they are when read: a position already swapped lies beyond where the other scan has
    passed (at most the previous swap's), so after swapping at (l, r) the scans' next stops are
    min(next left stop, r) and max(next right stop, l), as Weka's scans would find them: position r
    now holds a value not below the pivot, position l one not above it. ``vals[right − 1]`` (the
    pivot) and ``vals[left]`` (not above it) bound the scans. Returns where i stops."""
    pl = left + 1  # the next positions the left and the right scan classify
    pr = right - 2
    lh = 0
    lt = 0
    rh = 0
    rt = 0
    prev_l = left  # the last swap's positions (none yet: no bound)
    prev_r = right
    while True:
        if lh == lt:
            lh = 0
            lt = 0
            end = min(pl + _BLOCK, right)
            for p in range(pl, end):
                from_left[lt] = p
                lt += vals[p] >= pivot
            pl = end
            continue
        if rh == rt:
            rh = 0
            rt = 0
            end = max(pr - _BLOCK, left - 1)
            for p in range(pr, end, -1):
                from_right[rt] = p
                rt += vals[p] <= pivot
            pr = end
            continue
        i = min(from_left[lh], prev_r)
        j = max(from_right[rh], prev_l)
        if i >= j:
            return i
        lh += 1
        rh += 1
        vals[i], vals[j] = vals[j], vals[i]
        index[i], index[j] = index[j], index[i]
        prev_l = i
        prev_r = j


@njit(cache=True)
def weka_quicksort_in_place(vals, index):
    """Weka's median-of-three quicksort of ``vals`` (no NaN) in place, ``index`` permuted with it:
    ``index`` ends as ``index[weka_quicksort_index(vals)]``. The values move with their
    positions (Weka moves positions and looks values up: the same swaps), so the comparisons
    read neighbouring memory."""
    n = len(vals)
    stack = np.empty((2 * n + 2, 2), dtype=np.int64)
    from_left = np.empty(_BLOCK, dtype=np.int64)
    from_right = np.empty(_BLOCK, dtype=np.int64)
    top = 0
    if n:
        stack[0, 0], stack[0, 1] = 0, n - 1
        top = 1
    while top > 0:
        top -= 1
        left, right = stack[top, 0], stack[top, 1]
        diff = right - left
        if diff <= 0:
            continue
        if diff == 1:
            _cswap(vals, index, left, right)
            continue
        if diff == 2:
            _cswap(vals, index, left, left + 1)
            _cswap(vals, index, left, right)
            _cswap(vals, index, left + 1, right)
            continue
        center = (left + right) // 2
        _cswap(vals, index, left, center)
        _cswap(vals, index, left, right)
        _cswap(vals, index, center, right)
        vals[center], vals[right - 1] = vals[right - 1], vals[center]
        index[center], index[right - 1] = index[right - 1], index[center]
        pivot = vals[right - 1]
        i = _hoare_partition(vals, index, left, right, pivot, from_left, from_right)
        vals[i], vals[right - 1] = vals[right - 1], vals[i]
        index[i], index[right - 1] = index[right - 1], index[i]
        # Java recurses left first; a stack pops last-in first, so push the right part first
        stack[top, 0], stack[top, 1] = i + 1, right
        stack[top + 1, 0], stack[top + 1, 1] = left, i - 1
        top += 2


@njit(cache=True)
def weka_quicksort_index(a):
    """The permutation Weka's median-of-three quicksort gives ``a`` (no NaN)."""
    index = np.arange(len(a))
    weka_quicksort_in_place(a.copy(), index)
    return index


@njit(cache=True)
def weka_sorts_in_turn(Z, rows, columns, times):
    """The orders of ``rows`` (as positions in it) that sorting them by each of ``columns`` in
    turn leaves, each sort repeated ``times`` times (Weka's quicksort, missing values last):
    row k of the result is the order after the sorts by ``columns[k]``, which start from the
    order row k − 1 left. NBTree sorts a node's rows so (twice per numeric attribute) before
    evaluating each split."""
    n = rows.shape[0]
    big = np.finfo(np.float64).max
    out = np.empty((columns.shape[0], n), dtype=np.int64)
    order = np.arange(n)
    x = np.empty(n)
    for k in range(columns.shape[0]):
        j = columns[k]
        for _ in range(times):
            increasing = True
            for i in range(n):
                v = Z[rows[order[i]], j]
                x[i] = big if np.isnan(v) else v
                if i and not x[i - 1] < x[i]:
                    increasing = False
            # distinct values already in order have one sorted order, which the sort leaves
            # as it is (the second sort of a column without ties, most of a deep node's)
            if not increasing:
                weka_quicksort_in_place(x, order)  # order[weka_quicksort_index(x)], in place
        out[k, :] = order
    return out


@njit(cache=True)
def row_class_running_sums(v, w, classes, n_classes):
    """Weka's running sums for each row b of (rows, values) arrays: (rows, classes) Σw, Σ(v·w),
    Σ((v·v)·w) over the values of each class, added left to right (a class < 0 adds nothing).
    ``np.cumsum`` of the same products, with 0 for the other classes' values, gives the same bits
    (x + 0.0 is x)."""
    B, n = v.shape
    W = np.zeros((B, n_classes))
    S = np.zeros((B, n_classes))
    SS = np.zeros((B, n_classes))
    for b in range(B):
        for i in range(n):
            c = classes[b, i]
            if c < 0:
                continue
            wi = w[b, i]
            W[b, c] += wi
            S[b, c] += v[b, i] * wi
            SS[b, c] += v[b, i] * v[b, i] * wi
    return W, S, SS
