# SPDX-License-Identifier: GPL-3.0-or-later
"""Compiled split selection for J48 (numba): Weka 3.6's ``C45ModelSelection.selectModel`` at one node.

Why compiled: bagged unpruned trees are Hall's main cost (10 trees per fit, 11 fits per fold in
the calibration, 50 folds, six columns). The vectorised numpy selection in ``_builder.py`` spends
about a millisecond per node in array set-up; this loop does the same arithmetic in the same
order (rows in the node's order for nominal attributes, in each numeric attribute's sorted order
for numeric ones; Weka's running additions and subtractions as it moves rows between bags), so
its gains, ratios and distributions have the same bits. ``_builder.py`` keeps the numpy version as
the reference a test compares this with, and for single-attribute splits (NBTree).
"""
from __future__ import annotations

import math

import numpy as np
from numba import types
from numba.typed import List

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

SMALL = 1e-6
_LOG2 = math.log(2.0)


@njit(cache=True, inline="always")
def _log_func(x):
    """EntropyBasedSplitCrit.logFunc: x·log2(x), 0 below 1e-6."""
    if x < 1e-6:
        return 0.0
    return x * math.log(x) / _LOG2


@njit(cache=True, inline="always")
def _log_func_w(x, table, whole):
    """``_log_func_t`` where every weight is known to be a whole number within the table
    (``whole``): looked up without the check."""
    return table[int(x)] if whole else _log_func_t(x, table)


@njit(cache=True, inline="always")
def _log_func_t(x, table):
    """logFunc, looked up for a whole number (bags of whole rows give whole-number weights);
    the table holds the same function's values, so the bits are the same."""
    if x < table.shape[0] and x == math.floor(x):
        return table[int(x)]
    return _log_func(x)


@njit(cache=True, inline="always")
def _info_gain(old_ent, new_ent, bags_total, total_weight):
    unknown_rate = (total_weight - bags_total) / total_weight
    numerator = (1.0 - unknown_rate) * (old_ent - new_ent)
    if abs(numerator) < SMALL:
        return 0.0
    return numerator / bags_total


@njit(cache=True, inline="always")
def _ratio(gain, per_bag, bags_total, total_weight):
    """GainRatioSplitCrit.splitCritValue."""
    split_ent = 0.0
    if bags_total - 0.0 > SMALL:
        for b in range(per_bag.shape[0]):
            split_ent -= _log_func(per_bag[b])
        split_ent -= _log_func(total_weight - bags_total)
        split_ent += _log_func(total_weight)
    if split_ent == 0.0 or (split_ent < SMALL and -split_ent < SMALL):
        return 0.0
    return gain / (split_ent / total_weight)


@njit(cache=True)
def _max_class(counts):
    best, best_i = 0.0, 0
    for i in range(counts.shape[0]):
        if counts[i] - best > SMALL:
            best, best_i = counts[i], i
    return best_i


@njit(cache=True)
def _nominal_counts(Z, y, w, rows, a, q, r):
    """Nominal attribute a's weight per (value, class), per value, per class and in total over
    the rows with a known value, each summed in row order (Weka's Distribution.add)."""
    pcb = np.zeros((q, r))
    pb = np.zeros(q)
    pc = np.zeros(r)
    return pcb, pb, pc, _add_nominal_counts(Z, y, w, rows, a, pcb, pb, pc)


@njit(cache=True)
def _add_nominal_counts(Z, y, w, rows, a, pcb, pb, pc):
    """``_nominal_counts`` into zeroed arrays (a node's scratch, reused attribute by attribute);
    the total returned."""
    tot = 0.0
    for t in range(rows.shape[0]):
        x = Z[rows[t], a]
        if np.isnan(x):
            continue
        v = int(x)
        c = y[rows[t]]
        pcb[v, c] += w[t]
        pb[v] += w[t]
        pc[c] += w[t]
        tot += w[t]
    return tot


@njit(cache=True, inline="always")
def _whole_nominal_counts(Z, rows, a, row_class, row_count, counts, pcb, pb, pc):
    """``_add_nominal_counts`` where every weight is a whole number (``row_count``) whose total is
    below 2⁵³: each (value, class) cell counted as an integer, and the value's, the class's and
    the whole total summed from the cells. Sums of whole numbers are exact in any order, so these
    are the floats Weka's row-by-row additions give. Fills ``pcb``, ``pb``, ``pc``; the total returned."""
    q, r = pcb.shape
    counts[:] = 0
    for t in range(rows.shape[0]):
        x = Z[rows[t], a]
        if not np.isnan(x):
            counts[int(x) * r + row_class[t]] += row_count[t]
    pc[:] = 0.0
    tot = 0
    for v in range(q):
        in_value = 0
        for c in range(r):
            k = counts[v * r + c]
            pcb[v, c] = k
            pc[c] += k
            in_value += k
        pb[v] = in_value
        tot += in_value
    return float(tot)


@njit(cache=True, inline="always")
def numeric_gain(xs, cs, ws, nk, instances, r, min_leaf, total_weight, log_table, whole, left, right, init,
                 init_w=-1.0):
    """C45Split.handleNumericAttribute on one column: its ``nk`` known values ``xs`` in sorted
    order, their classes ``cs`` and weights ``ws``; ``instances``: how many of Weka's instances
    they stand for. Weka moves the rows one by one from the right bag to the left and scores
    each threshold between distinct values that leaves both bags their least weight. (gain, the
    left bag's last row, the known values' weight) of the first best threshold; the row is -1
    where there is no split, and the left bag's weight. ``left``, ``right``, ``init``: scratch
    of ``r``; with ``init_w`` ≥ 0, ``init`` holds the values' class weights, ``init_w`` their sum
    (a caller that knows them: the same numbers where the weights are whole)."""
    if init_w < 0.0:
        init[:] = 0.0
        init_w = 0.0
        for t in range(nk):
            init[cs[t]] += ws[t]
            init_w += ws[t]
    min_split = 0.1 * init_w / r
    if min_split - min_leaf < SMALL:
        min_split = float(min_leaf)
    elif min_split - 25.0 > SMALL:
        min_split = 25.0
    if 2.0 * min_split - instances > SMALL:
        return 0.0, -1, init_w, 0.0
    old = 0.0
    for c in range(r):
        old += _log_func(init[c])
    old = _log_func(init_w) - old
    counted = whole and r <= 3
    counted_left = 0
    if counted:
        n_index, pos, record, counted_left = _scan_counts(xs, cs, ws, nk, min_split, old, init, init_w,
                                                          total_weight, log_table)
    else:
        n_index, pos, record = _scan(xs, cs, ws, nk, r, min_split, old, init_w, total_weight, log_table, whole,
                                     left, right, init)
    if n_index == 0 or pos < 0:
        return 0.0, -1, init_w, 0.0
    gain = record - math.log(n_index) / _LOG2 / total_weight
    if gain < SMALL:
        return 0.0, -1, init_w, 0.0
    if counted:
        return gain, pos, init_w, float(counted_left)
    left_w = 0.0  # Weka's bag, summed row by row as it moved them
    for t in range(pos + 1):
        left_w += ws[t]
    return gain, pos, init_w, left_w


@njit(cache=True, inline="always")
def _scan(xs, cs, ws, nk, r, min_split, old, init_w, total_weight, log_table, whole, left, right, init):
    """The threshold scan of ``numeric_gain``: (thresholds scored, the left bag's last row of
    the first best one or -1, its info gain)."""
    left[:] = 0.0
    right[:] = init
    lw = 0.0
    rw = init_w
    n_index = 0
    record = 0.0
    pos = -1
    for i in range(nk - 1):
        wi = ws[i]
        ci = cs[i]
        lw += wi
        rw -= wi
        left[ci] += wi
        right[ci] -= wi
        if not (xs[i] + 1e-5 < xs[i + 1]):
            continue
        if not (min_split - lw < SMALL and min_split - rw < SMALL):
            continue
        n_index += 1
        ne = 0.0
        for c in range(r):
            ne += _log_func_w(left[c], log_table, whole)
        ne -= _log_func_w(lw, log_table, whole)
        for c in range(r):
            ne += _log_func_w(right[c], log_table, whole)
        ne -= _log_func_w(rw, log_table, whole)
        g = _info_gain(old, -ne, init_w, total_weight)
        if g - record > SMALL:
            record = g
            pos = i
    return n_index, pos, record


@njit(cache=True, inline="always")
def _scan_counts(xs, cs, ws, nk, min_split, old, init, init_w, total_weight, table):
    """``_scan`` where every weight is a whole number within the table and there are at most
    three classes (Hall's bagged trees on waveform, and most data sets): the bags' class counts
    as integers in registers, not floats in arrays, which halves the scan's time. The same
    numbers: sums of whole numbers are exact in floats too, so each count is the float Weka
    holds, and logFunc is looked up as ``_log_func_w`` looks it up. A class the data lacks
    (two classes) adds logFunc(0) = +0.0, which changes no sum here: the entropy sum starts
    at a nonnegative term and a difference of equal floats is +0.0, so it is never −0.0.
    ``init``: the classes' weights (whole numbers). Returns ``_scan``'s and the left bag's weight at
    the best threshold (a sum of whole numbers: the same in any order)."""
    r = init.shape[0]
    r0 = int(init[0])
    r1 = int(init[1]) if r > 1 else 0
    r2 = int(init[2]) if r > 2 else 0
    l0 = 0
    l1 = 0
    l2 = 0
    lw = 0
    rw = r0 + r1 + r2
    n_index = 0
    record = 0.0
    pos = -1
    left_w = 0
    for i in range(nk - 1):
        wi = int(ws[i])
        ci = cs[i]
        lw += wi
        rw -= wi
        # without a branch on the class: a row's class is as good as random in sorted order
        d0 = wi if ci == 0 else 0
        d1 = wi if ci == 1 else 0
        d2 = wi if ci == 2 else 0
        l0 += d0
        l1 += d1
        l2 += d2
        r0 -= d0
        r1 -= d1
        r2 -= d2
        if not (xs[i] + 1e-5 < xs[i + 1]):
            continue
        if not (min_split - lw < SMALL and min_split - rw < SMALL):
            continue
        n_index += 1
        ne = table[l0] + table[l1]
        ne += table[l2]
        ne -= table[lw]
        ne += table[r0]
        ne += table[r1]
        ne += table[r2]
        ne -= table[rw]
        g = _info_gain(old, -ne, init_w, total_weight)
        if g - record > SMALL:
            record = g
            pos = i
            left_w = lw
    return n_index, pos, record, left_w


@njit(cache=True)
def select_split(Z, y, w, rows, sorted_rows, numeric_cols, is_numeric, n_values, n_classes, min_leaf,
                 multi_valued, n_all, row_weight, log_table, row_counts):
    """One node's choice. ``rows``: the node's rows (indices into Z) in order, ``w`` their
    weights; ``sorted_rows``: those rows sorted by each numeric attribute of ``numeric_cols``
    (missing last); ``row_weight``: scratch of len(Z) (each row's weight, read in sorted order);
    ``log_table``: logFunc of 0, 1, 2, …; ``row_counts``: how many of Weka's instances each row
    of Z stands for (a bag's row drawn k times: one row of weight k), or empty (one each).

    Returns (attribute or -1 for a leaf, split point (numeric; NaN otherwise), info gain, gain
    ratio, per_class_per_bag, per_bag, per_class, total); for a leaf the distribution is the
    node's single bag. The best split's distribution is that of its known values only."""
    n = rows.shape[0]
    m = Z.shape[1]
    r = n_classes
    per_class = np.zeros(r)
    total = 0.0
    for t in range(n):
        per_class[y[rows[t]]] += w[t]
        total += w[t]
    leaf_pcb = per_class.copy().reshape(1, r)
    leaf_bag = np.array([total])
    top = per_class[_max_class(per_class)]
    if 2.0 * min_leaf - total > SMALL or total == top or (total - top < SMALL and top - total < SMALL):
        return -1, np.nan, 0.0, 0.0, leaf_pcb, leaf_bag, per_class, total
    total_weight = total

    gains = np.zeros(m)
    ratios = np.zeros(m)
    has = np.zeros(m, dtype=np.bool_)
    best_pos = np.full(m, -1, dtype=np.int64)
    known_count = np.zeros(m, dtype=np.int64)

    # ---- numeric attributes: C45Split.handleNumericAttribute --------------------------------
    for t in range(n):
        row_weight[rows[t]] = w[t]
    # Weka asks for enough instances with a known value (C45Split's firstMiss): a count of
    # instances, not a sum of weights; the node's count where no value is missing
    node_instances = n
    if row_counts.shape[0]:
        node_instances = 0
        for t in range(n):
            node_instances += row_counts[rows[t]]
    # whole-number weights (no row split by a missing value above): logFunc looked up, not taken
    whole = total < log_table.shape[0]
    for t in range(n):
        if w[t] != math.floor(w[t]):
            whole = False
            break
    left = np.zeros(r)
    right = np.zeros(r)
    init = np.zeros(r)
    xs = np.empty(n)  # the column's known values, classes and weights in sorted order, gathered once
    cs = np.empty(n, dtype=np.int64)
    ws = np.empty(n)
    for j in range(numeric_cols.shape[0]):
        a = numeric_cols[j]
        for t in range(n):
            row = sorted_rows[t, j]
            xs[t] = Z[row, a]
            cs[t] = y[row]
            ws[t] = row_weight[row]
        nk = n
        while nk > 0 and np.isnan(xs[nk - 1]):  # missing values sort last
            nk -= 1
        known_count[a] = nk
        instances = node_instances
        if nk < n:
            instances = nk
            if row_counts.shape[0]:
                instances = 0
                for t in range(nk):
                    instances += row_counts[sorted_rows[t, j]]
        known_w = -1.0
        if whole and nk == n:  # the values' class weights are the node's: sums of whole numbers, in any order
            init[:] = per_class
            known_w = total
        gain, pos, init_w, pb0 = numeric_gain(xs, cs, ws, nk, instances, r, min_leaf, total_weight, log_table,
                                              whole, left, right, init, known_w)
        if pos < 0:
            continue
        if whole:
            pb1 = init_w - pb0
        else:
            pb1 = 0.0
            for t in range(pos + 1, nk):
                pb1 += ws[t]
        bags = np.array([pb0, pb1])
        gains[a] = gain
        ratios[a] = _ratio(gain, bags, init_w, total_weight)
        has[a] = True
        best_pos[a] = pos

    # ---- nominal attributes: C45Split.handleEnumeratedAttribute -----------------------------
    # the counts in scratch arrays: allocating three per attribute and node cost as much as the
    # counting on the small nodes of a deep tree
    max_q = 1
    for a in range(m):
        if not is_numeric[a] and n_values[a] > max_q:
            max_q = n_values[a]
    pcb_all = np.empty((max_q, r))
    pb_all = np.empty(max_q)
    pc = np.empty(r)
    if whole:  # whole weights: counted as integers, one cell per row (sums of whole numbers: any order)
        counts = np.empty(max_q * r, dtype=np.int64)
        row_class = np.empty(n, dtype=np.int64)
        row_count = np.empty(n, dtype=np.int64)
        for t in range(n):
            row_class[t] = y[rows[t]]
            row_count[t] = int(w[t])
    for a in range(m):
        if is_numeric[a]:
            continue
        q = n_values[a]
        pcb = pcb_all[:q]
        pb = pb_all[:q]
        if whole:
            tot = _whole_nominal_counts(Z, rows, a, row_class, row_count, counts[:q * r], pcb, pb, pc)
        else:
            pcb[:, :] = 0.0
            pb[:] = 0.0
            pc[:] = 0.0
            tot = _add_nominal_counts(Z, y, w, rows, a, pcb, pb, pc)
        useful = 0
        for v in range(q):
            if min_leaf - pb[v] < SMALL:
                useful += 1
        if useful <= 1:
            continue
        ne = 0.0
        for v in range(q):
            if pb[v] == 0.0:  # a value no row has: its terms are all logFunc(0) = 0, and adding 0 changes no sum
                continue
            for c in range(r):
                ne += _log_func_t(pcb[v, c], log_table)
            ne -= _log_func_t(pb[v], log_table)
        old = 0.0
        for c in range(r):
            old += _log_func(pc[c])
        old = _log_func(tot) - old
        gain = _info_gain(old, -ne, tot, total_weight)
        gains[a] = gain
        ratios[a] = _ratio(gain, pb, tot, total_weight)
        has[a] = True

    # ---- C45ModelSelection: the largest gain ratio among splits of at least average gain -----
    average = 0.0
    valid = 0
    for a in range(m):
        if has[a] and (is_numeric[a] or multi_valued or 0.3 * n_all - n_values[a] > SMALL):
            average += gains[a]
            valid += 1
    if valid == 0:
        return -1, np.nan, 0.0, 0.0, leaf_pcb, leaf_bag, per_class, total
    average /= valid
    best = -1
    best_ratio = 0.0
    for a in range(m):
        if has[a] and gains[a] >= average - 1e-3 and ratios[a] - best_ratio > SMALL:
            best = a
            best_ratio = ratios[a]
    if best < 0 or (best_ratio < SMALL and -best_ratio < SMALL):
        return -1, np.nan, 0.0, 0.0, leaf_pcb, leaf_bag, per_class, total

    # ---- the chosen split's distribution over its known values -------------------------------
    if is_numeric[best]:
        j = 0
        while numeric_cols[j] != best:
            j += 1
        pos = best_pos[best]
        nk = known_count[best]
        pcb = np.zeros((2, r))
        pb = np.zeros(2)
        pc = np.zeros(r)
        tot = 0.0
        for t in range(nk):
            row = sorted_rows[t, j]
            wi = row_weight[row]
            b = 0 if t <= pos else 1
            pcb[b, y[row]] += wi
            pb[b] += wi
            pc[y[row]] += wi
            tot += wi
        lo = Z[sorted_rows[pos, j], best]
        hi = Z[sorted_rows[pos + 1, j], best]
        split_point = (hi + lo) / 2.0
        if split_point == hi:  # a precision problem: Weka takes the smaller value
            split_point = lo
        return best, split_point, gains[best], best_ratio, pcb, pb, pc, tot
    pcb, pb, pc, tot = _nominal_counts(Z, y, w, rows, best, n_values[best], r)
    return best, np.nan, gains[best], best_ratio, pcb, pb, pc, tot


@njit(cache=True)
def order_by_ranks(ranks):
    """(columns, rows): each column's row indices sorted by their ranks (0, 1, …), ties in row
    order, as a stable argsort of the values the ranks number: a counting sort, for the rows
    of a bag whose training rows were ranked once."""
    k, n = ranks.shape
    out = np.empty((k, n), dtype=np.int64)
    for j in range(k):
        top = 0
        for t in range(n):
            top = max(top, ranks[j, t])
        start = np.zeros(top + 2, dtype=np.int64)
        for t in range(n):
            start[ranks[j, t] + 1] += 1
        for v in range(top + 1):
            start[v + 1] += start[v]
        for t in range(n):
            out[j, start[ranks[j, t]]] = t
            start[ranks[j, t]] += 1
    return out


# ---- the whole tree: growing and collapsing (C45PruneableClassifierTree.buildTree, collapse) ----

_MAX_DOUBLE = 1.7976931348623157e308


@njit(cache=True)
def _largest_value_not_above(column, split_point):
    """C45Split.setSplitPoint: the largest training value not above the threshold, by Weka's scan
    over the rows in order with its tolerant comparisons."""
    best = -_MAX_DOUBLE
    for i in range(column.shape[0]):
        v = column[i]
        if not np.isnan(v) and v - split_point < SMALL and v - best > SMALL:
            best = v
    return best


@njit(cache=True)
def _largest_sorted_value_not_above(column, order, known, split_point):
    """``_largest_value_not_above`` from the column's values in sorted order (``column[order[t]]``
    for the ``known`` non-missing ones), in log n steps; NaN where Weka's scan could end
    elsewhere (then scan). ``v − split_point`` is monotone in v, so the values not above the
    threshold are a prefix; its last, M, is where the scan ends if every smaller value v has
    M − v > SMALL (the scan's own float test): the scan's best before meeting M is a value
    v ≤ M or −MAX, so it takes M, and nothing after M passes. +0 and −0 are equal, but the scan
    keeps whichever comes first: scanned."""
    lo = 0
    hi = known  # the prefix is order[:lo] once lo == hi
    while lo < hi:
        mid = (lo + hi) // 2
        if column[order[mid]] - split_point < SMALL:
            lo = mid + 1
        else:
            hi = mid
    if lo == 0:
        return -_MAX_DOUBLE
    top = column[order[lo - 1]]
    if top == 0.0:
        return np.nan
    lo = 0  # the first value equal to the top, and the one before it
    while lo < hi:
        mid = (lo + hi) // 2
        if column[order[mid]] < top:
            lo = mid + 1
        else:
            hi = mid
    if lo == 0 or top - column[order[lo - 1]] > SMALL:
        return top
    return np.nan


@njit(cache=True)
def _is_zero(x):
    return x == 0.0 or (x < SMALL and -x < SMALL)


@njit(cache=True)
def grow_tree(Z, y, w0, sorted0, numeric_cols, is_numeric, n_values, n_classes, min_leaf, multi_valued, all_values,
              row_weight, log_table, keep_rows, row_counts, values_in_rows=False):
    """Grow the tree of every row of ``Z`` (weights ``w0``; ``sorted0``: (numeric columns, rows),
    the rows sorted by each numeric attribute, missing last) as ``_TreeBuilder.build`` does, then
    collapse it (``_TreeBuilder.collapse``); ``row_counts``: as ``select_split``'s. Nodes are
    numbered in the order they are grown (depth first, branches in order), so a node's sons come
    after it.

    Returns flat arrays: per node the attribute tested (-1 at a leaf), split point (the training
    value it moved to), info gain, gain ratio, number of bags, first son's slot in ``sons``, total
    weight, is_empty, collapsed (a split that collapse turns into a leaf), alive (still in the
    tree after collapsing); per node and class the class weights; per bag (``bag_start``) the bag
    weights and, × classes, the (bag, class) weights; and with ``keep_rows`` each node's rows
    and weights (``row_start``). ``values_in_rows``: ``all_values`` holds the values of Z's rows
    and no other (a bag's instances, each row one or more times), so that a split point moves to
    a training value found by bisecting the root's sorted rows, not by scanning every instance.
    """
    r = n_classes
    n_rows = Z.shape[0]
    k = numeric_cols.shape[0]
    slot = np.full(Z.shape[1], -1, dtype=np.int64)  # numeric attribute → its row in sorted0
    known0 = np.zeros(k, dtype=np.int64)  # the root's known values per numeric attribute
    for j in range(k):
        slot[numeric_cols[j]] = j
        t = n_rows
        while t > 0 and np.isnan(Z[sorted0[j, t - 1], numeric_cols[j]]):
            t -= 1
        known0[j] = t
    branch_of = np.empty(n_rows, dtype=np.int64)  # the branch of each of a node's rows (-1: missing)

    attr = List.empty_list(types.int64)
    split_pt = List.empty_list(types.float64)
    gains = List.empty_list(types.float64)
    ratios = List.empty_list(types.float64)
    totals = List.empty_list(types.float64)
    empty = List.empty_list(types.boolean)
    son_start = List.empty_list(types.int64)
    sons = List.empty_list(types.int64)
    pcbs = List.empty_list(types.float64[:, :])
    pbs = List.empty_list(types.float64[:])
    pcs = List.empty_list(types.float64[:])
    kept_rows = List.empty_list(types.int64[:])
    kept_w = List.empty_list(types.float64[:])

    st_rows = List.empty_list(types.int64[:])
    st_w = List.empty_list(types.float64[:])
    st_sorted = List.empty_list(types.int64[:, :])
    st_parent = List.empty_list(types.int64)
    st_branch = List.empty_list(types.int64)
    st_rows.append(np.arange(n_rows))
    st_w.append(w0.copy())
    st_sorted.append(sorted0)
    st_parent.append(-1)
    st_branch.append(0)

    while len(st_rows) > 0:
        rows = st_rows.pop()
        w = st_w.pop()
        srt = st_sorted.pop()
        parent = st_parent.pop()
        branch = st_branch.pop()
        node = len(attr)
        if parent >= 0:
            sons[son_start[parent] + branch] = node
        n = rows.shape[0]
        a, sp, g, ratio, pcb, pb, pc, tot = select_split(
            Z, y, w, rows, srt.T, numeric_cols, is_numeric, n_values, r, min_leaf, multi_valued, all_values.shape[0],
            row_weight, log_table, row_counts)
        if keep_rows:
            kept_rows.append(rows)
            kept_w.append(w)
        if a < 0:
            attr.append(-1)
            split_pt.append(np.nan)
            gains.append(0.0)
            ratios.append(0.0)
            totals.append(tot)
            empty.append(_is_zero(tot))
            son_start.append(-1)
            pcbs.append(pcb)
            pbs.append(pb)
            pcs.append(pc)
            continue

        # the rows with a missing value join the split's distribution, spread over its bags
        B = pb.shape[0]
        probs = np.empty(B)
        for b in range(B):
            probs[b] = 1.0 / B if _is_zero(tot) else pb[b] / tot
        for t in range(n):
            if np.isnan(Z[rows[t], a]):
                c = y[rows[t]]
                wt = w[t]
                pc[c] += wt
                tot += wt
                for b in range(B):
                    nw = probs[b] * wt
                    pcb[b, c] += nw
                    pb[b] += nw
        if is_numeric[a]:
            moved = np.nan
            if values_in_rows:
                moved = _largest_sorted_value_not_above(Z[:, a], sorted0[slot[a]], known0[slot[a]], sp)
            sp = moved if not np.isnan(moved) else _largest_value_not_above(all_values[:, a], sp)
        attr.append(a)
        split_pt.append(sp if is_numeric[a] else np.inf)
        gains.append(g)
        ratios.append(ratio)
        totals.append(tot)
        empty.append(False)
        son_start.append(len(sons))
        for _ in range(B):
            sons.append(-1)
        pcbs.append(pcb)
        pbs.append(pb)
        pcs.append(pc)

        # ClassifierSplitModel.split: known values to their branch, missing ones to every branch
        # with a share, their weight times it
        sub = np.empty(n, dtype=np.int64)
        for t in range(n):
            x = Z[rows[t], a]
            if np.isnan(x):
                sub[t] = -1
            elif is_numeric[a]:
                sub[t] = 0 if x - sp < SMALL else 1
            else:
                sub[t] = int(x)
        share = np.empty(B)
        goes = np.empty(B, dtype=np.bool_)  # does a row with a missing value go down branch b?
        for b in range(B):
            share[b] = pb[b] / tot
            goes[b] = share[b] - 0.0 > SMALL
        take = np.zeros(B, dtype=np.int64)
        missing = 0
        for t in range(n):
            branch_of[rows[t]] = sub[t]
            if sub[t] >= 0:
                take[sub[t]] += 1
            else:
                missing += 1
                for b in range(B):
                    if goes[b]:
                        take[b] += 1
        offset = np.zeros(B + 1, dtype=np.int64)  # the branches' rows, one after another
        for b in range(B):
            offset[b + 1] = offset[b] + take[b]
        all_rows = np.empty(offset[B], dtype=np.int64)
        all_w = np.empty(offset[B])
        fill = offset[:B].copy()
        for t in range(n):
            if sub[t] >= 0:
                b = sub[t]
                all_rows[fill[b]] = rows[t]
                all_w[fill[b]] = w[t]
                fill[b] += 1
            else:
                for b in range(B):
                    if goes[b]:
                        all_rows[fill[b]] = rows[t]
                        all_w[fill[b]] = share[b] * w[t]
                        fill[b] += 1
        # each branch keeps its rows in the node's sorted order: branch b's column j at
        # k·offset[b] + j·take[b]
        all_sorted = np.empty(k * offset[B], dtype=np.int64)
        for j in range(k):
            for b in range(B):
                fill[b] = k * offset[b] + j * take[b]
            if B == 2 and missing == 0:  # two branches, every row in one: without a branch per row
                f0 = fill[0]
                f1 = fill[1]
                for t in range(n):
                    row = srt[j, t]
                    b = branch_of[row]  # 0 or 1
                    all_sorted[f1 if b else f0] = row
                    f0 += 1 - b
                    f1 += b
                continue
            for t in range(n):
                row = srt[j, t]
                s_b = branch_of[row]
                if s_b >= 0:
                    all_sorted[fill[s_b]] = row
                    fill[s_b] += 1
                else:
                    for b in range(B):
                        if goes[b]:
                            all_sorted[fill[b]] = row
                            fill[b] += 1
        for b in range(B - 1, -1, -1):  # pushed last to first, so grown first to last
            st_rows.append(all_rows[offset[b]: offset[b + 1]].copy())
            st_w.append(all_w[offset[b]: offset[b + 1]].copy())
            st_sorted.append(all_sorted[k * offset[b]: k * offset[b + 1]].copy().reshape((k, take[b])))
            st_parent.append(node)
            st_branch.append(b)

    # ---- collapse: a subtree whose training errors are not below its root's becomes a leaf ----
    N = len(attr)
    errors = np.zeros(N)
    for node in range(N - 1, -1, -1):
        if attr[node] < 0:
            pc = pcs[node]
            errors[node] = totals[node] - pc[_max_class(pc)]
        else:
            e = 0.0
            for b in range(pbs[node].shape[0]):
                e += errors[sons[son_start[node] + b]]
            errors[node] = e
    alive = np.zeros(N, dtype=np.bool_)
    collapsed = np.zeros(N, dtype=np.bool_)
    alive[0] = True
    for node in range(N):
        if not alive[node] or attr[node] < 0:
            continue
        pc = pcs[node]
        if errors[node] >= totals[node] - pc[_max_class(pc)] - 1e-3:
            collapsed[node] = True
        else:
            for b in range(pbs[node].shape[0]):
                alive[sons[son_start[node] + b]] = True

    # ---- flat arrays ---------------------------------------------------------------------------
    bag_start = np.zeros(N + 1, dtype=np.int64)
    row_start = np.zeros(N + 1, dtype=np.int64)
    for node in range(N):
        bag_start[node + 1] = bag_start[node] + pbs[node].shape[0]
        if keep_rows:
            row_start[node + 1] = row_start[node] + kept_rows[node].shape[0]
    per_bag = np.empty(bag_start[N])
    per_class_per_bag = np.empty((bag_start[N], r))
    per_class = np.empty((N, r))
    all_rows = np.empty(row_start[N], dtype=np.int64)
    all_w = np.empty(row_start[N])
    for node in range(N):
        s = bag_start[node]
        per_bag[s: bag_start[node + 1]] = pbs[node]
        per_class_per_bag[s: bag_start[node + 1]] = pcbs[node]
        per_class[node] = pcs[node]
        if keep_rows:
            all_rows[row_start[node]: row_start[node + 1]] = kept_rows[node]
            all_w[row_start[node]: row_start[node + 1]] = kept_w[node]
    out_attr = np.empty(N, dtype=np.int64)
    out_sp = np.empty(N)
    out_gain = np.empty(N)
    out_ratio = np.empty(N)
    out_total = np.empty(N)
    out_empty = np.empty(N, dtype=np.bool_)
    out_son_start = np.empty(N, dtype=np.int64)
    for node in range(N):
        out_attr[node] = attr[node]
        out_sp[node] = split_pt[node]
        out_gain[node] = gains[node]
        out_ratio[node] = ratios[node]
        out_total[node] = totals[node]
        out_empty[node] = empty[node]
        out_son_start[node] = son_start[node]
    out_sons = np.empty(len(sons), dtype=np.int64)
    for i in range(len(sons)):
        out_sons[i] = sons[i]
    return (out_attr, out_sp, out_gain, out_ratio, out_total, out_empty, collapsed, alive, out_son_start, out_sons,
            bag_start, per_bag, per_class_per_bag, per_class, row_start, all_rows, all_w)


@njit(cache=True)
def min_test_depths_flat(attr, collapsed, alive, son_start, bag_start, sons, n_features):
    """Each attribute's shallowest test (root = 1; inf if never tested) in ``grow_tree``'s flat
    tree: the tests are the live nodes that split and were not collapsed. Sons are numbered
    after their parent, so one pass in node order carries each node's depth to its sons."""
    depth = np.zeros(attr.shape[0], dtype=np.int64)
    depth[0] = 1
    out = np.full(n_features, np.inf)
    for node in range(attr.shape[0]):
        if not alive[node] or attr[node] < 0 or collapsed[node]:
            continue
        d = depth[node]
        if d < out[attr[node]]:
            out[attr[node]] = d
        for b in range(bag_start[node + 1] - bag_start[node]):
            depth[sons[son_start[node] + b]] = d + 1
    return out


@njit(cache=True)
def _leaf_probs(per_class, total, laplace, out, weight):
    """weight × the distribution's class probabilities (``Distribution.prob``, or
    ``laplace_prob``), into ``out``."""
    r = per_class.shape[0]
    for c in range(r):
        if laplace:
            p = (per_class[c] + 1.0) / (total + r)
        elif total == 0.0 or (total < SMALL and -total < SMALL):
            p = 0.0
        else:
            p = per_class[c] / total
        out[c] = weight * p


@njit(cache=True)
def flat_tree_probabilities(
    Z,
    attr,
    split_point,
    is_numeric,
    son_start,
    sons,
    bag_start,
    per_bag,
    pcb,
    per_class,
    total,
    empty,
    collapsed,
    laplace,
):
    """Every row's class probabilities from ``grow_tree``'s flat tree, as ``tree_probabilities``
    gives them from its nodes (J48's leaves and empty branches). That function recurses, and a
    missing value's branches add up inside their own call: here a stack of frames, one per
    split met on a missing value, each summing its branches as that call does, so the sums nest
    the same way and give the same bits (numba does not cache recursive functions safely)."""
    n = Z.shape[0]
    r = per_class.shape[1]
    N = attr.shape[0]
    out = np.zeros((n, r))
    frame_node = np.empty(N, dtype=np.int64)
    frame_weight = np.empty(N)
    frame_branch = np.empty(N, dtype=np.int64)
    frame_sum = np.empty((N, r))
    value = np.empty(r)
    for i in range(n):
        z = Z[i]
        top = -1
        node = 0
        weight = 1.0
        done = False
        while not done:
            # down the known values, to a leaf's value or a split on a missing value
            opened = False
            while True:
                a = attr[node]
                if a < 0 or collapsed[node]:
                    _leaf_probs(per_class[node], total[node], laplace, value, weight)
                    break
                s = bag_start[node]
                x = z[a]
                if np.isnan(x):
                    top += 1
                    frame_node[top] = node
                    frame_weight[top] = weight
                    frame_branch[top] = -1
                    frame_sum[top, :] = 0.0
                    opened = True
                    break
                b = (0 if x - split_point[node] < SMALL else 1) if is_numeric[a] else int(x)
                son = sons[son_start[node] + b]
                if not empty[son]:
                    node = son
                elif per_bag[s + b] > SMALL:  # an empty branch: its training distribution (prob_bag)
                    _leaf_probs(pcb[s + b], per_bag[s + b], laplace, value, weight)
                    break
                else:
                    _leaf_probs(per_class[node], total[node], laplace, value, weight)
                    break
            # up: a value joins its frame's sum; a frame goes on to its next non-empty branch,
            # or, when it has none left, its sum is its value
            while True:
                if top < 0:
                    out[i] = value
                    done = True
                    break
                if not opened:
                    for c in range(r):
                        frame_sum[top, c] += value[c]
                opened = False
                f = frame_node[top]
                B = bag_start[f + 1] - bag_start[f]
                b = frame_branch[top] + 1
                while b < B and empty[sons[son_start[f] + b]]:
                    b += 1
                frame_branch[top] = b
                if b < B:
                    node = sons[son_start[f] + b]
                    weight = (per_bag[bag_start[f] + b] / total[f]) * frame_weight[top]
                    break
                value[:] = frame_sum[top]
                top -= 1
    return out
