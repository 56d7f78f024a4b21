# SPDX-License-Identifier: GPL-3.0-or-later
"""The estimated errors of a subtree for a set of rows (C4.5's ``getEstimatedErrorsForBranch``,
the heart of subtree raising), compiled (numba).

Why compiled: J48's pruning asks, at every node, what the largest branch's subtree would err
on all of the node's rows, which passes those rows down that subtree; in Python, one small
numpy call per node and branch made pruning 70 % of J48's time on letter and J48 slower than
Weka there. The subtree comes flattened (``flat_subtree``); the rows go down it as Weka sends
them (a missing value to every branch whose share of the rows is above Weka's 1e-6, its weight
times the share), every sum in Weka's order: the same errors, bit for bit, as the Python path
(``TreeBuilder._errors_for_branch_python``, kept as the reference the tests compare with).
"""
from __future__ import annotations

import math

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

SMALL = 1e-6


@njit(cache=True)
def _add_errors_from_one(n, e, cf, z):
    """Stats.addErrs for e ≥ 1 (and cf ≤ 0.5)."""
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    f = (e + 0.5) / n
    r = (f + (z * z) / (2 * n) + z * math.sqrt((f / n) - (f * f / n) + (z * z / (4 * n * n)))) / (1 + (z * z) / n)
    return (r * n) - e


@njit(cache=True)
def add_errors(n, e, cf, z):
    """Stats.addErrs: the pessimistic extra errors of a leaf with n rows and e errors."""
    if cf > 0.5:
        return 0.0
    if e < 1:
        base = n * (1 - math.pow(cf, 1 / n))
        if e == 0:
            return base
        return base + e * (_add_errors_from_one(n, 1.0, cf, z) - base)
    return _add_errors_from_one(n, e, cf, z)


@njit(cache=True)
def _leaf_errors(rows, w, y, r, cf, z):
    """errorsForDistribution of the rows' one-bag distribution: its errors (total − the weight
    of Weka's majority class, first of the tolerant maxima) plus addErrs, 0 for no weight."""
    per_class = np.zeros(r)
    total = 0.0
    for t in range(rows.shape[0]):
        per_class[y[rows[t]]] += w[t]
    for t in range(rows.shape[0]):
        total += w[t]
    if total == 0.0 or (total - 0.0 < SMALL and 0.0 - total < SMALL):
        return 0.0
    best, best_i = 0.0, 0
    for c in range(r):
        if per_class[c] - best > SMALL:
            best, best_i = per_class[c], c
    e = total - per_class[best_i]
    return e + add_errors(total, e, cf, z)


@njit(cache=True, error_model="numpy")
def branch_errors(rows0, w0, Z, y, r, leaf, attribute, numeric, split_point, n_subsets, child_start, children,
                  train_share, cf, z):
    """The estimated errors of the flattened subtree (node 0) for ``rows0`` (of Z, y) with weights
    ``w0``. Without recursion (numba does not cache recursive functions safely): the rows go down
    the tree node by node in breadth-first order (a parent before its children), each node's rows
    and weights kept in one growing buffer; then each node's errors, from the last node up, are
    its leaf errors or the sum of its branches' in branch order, as the recursion adds them."""
    m = leaf.shape[0]
    start = np.zeros(m, dtype=np.int64)
    length = np.zeros(m, dtype=np.int64)
    n0 = rows0.shape[0]
    cap = max(16, 4 * n0)
    R = np.empty(cap, dtype=np.int64)
    W = np.empty(cap)
    R[:n0] = rows0
    W[:n0] = w0
    length[0] = n0
    used = n0
    for node in range(m):
        if leaf[node]:
            continue
        a = attribute[node]
        B = n_subsets[node]
        lo, n = start[node], length[node]
        sub = np.empty(n, dtype=np.int64)
        missing = False
        for t in range(n):
            x = Z[R[lo + t], a]
            if np.isnan(x):
                sub[t] = -1
                missing = True
            elif numeric[node]:
                sub[t] = 0 if x - split_point[node] < SMALL else 1
            else:
                sub[t] = np.int64(x)
        share = np.zeros(B)
        if missing:
            # the rows' own distribution over the branches (a missing value spread by the
            # split's training shares), summed row by row as Weka's Distribution(data, split) adds them
            per_bag = np.zeros(B)
            total = 0.0
            for t in range(n):
                for b in range(B):
                    if sub[t] >= 0:  # noqa: SIM108 (one case a line: a known branch, a missing value shared)
                        v = W[lo + t] if b == sub[t] else 0.0
                    else:
                        v = W[lo + t] * train_share[node, b]
                    per_bag[b] += v
                    total += v
            for b in range(B):
                share[b] = per_bag[b] / total
        for b in range(B):
            count = 0
            for t in range(n):
                if sub[t] == b or (sub[t] < 0 and share[b] - 0.0 > SMALL):
                    count += 1
            if used + count > cap:
                cap = max(2 * cap, used + count)
                R2 = np.empty(cap, dtype=np.int64)
                W2 = np.empty(cap)
                R2[:used] = R[:used]
                W2[:used] = W[:used]
                R, W = R2, W2
            child = children[child_start[node] + b]
            start[child] = used
            length[child] = count
            for t in range(n):
                if sub[t] == b:
                    R[used] = R[lo + t]
                    W[used] = W[lo + t]
                    used += 1
                elif sub[t] < 0 and share[b] - 0.0 > SMALL:
                    R[used] = R[lo + t]
                    W[used] = share[b] * W[lo + t]
                    used += 1
    errors = np.zeros(m)
    for node in range(m - 1, -1, -1):
        if leaf[node]:
            errors[node] = _leaf_errors(R[start[node]:start[node] + length[node]],
                                        W[start[node]:start[node] + length[node]], y, r, cf, z)
        else:
            e = 0.0
            for b in range(n_subsets[node]):
                e += errors[children[child_start[node] + b]]
            errors[node] = e
    return errors[0]


def flat_subtree(root) -> tuple:
    """The subtree of a ``_c45.Node`` as arrays, breadth first: (leaf, attribute, numeric, split
    point, branches, first child's slot, children, each split's training shares)."""
    nodes = [root]
    i = 0
    while i < len(nodes):
        if not nodes[i].is_leaf:
            nodes.extend(nodes[i].sons)
        i += 1
    index = {id(nd): k for k, nd in enumerate(nodes)}
    m = len(nodes)
    leaf = np.zeros(m, dtype=np.bool_)
    attribute = np.zeros(m, dtype=np.int64)
    numeric = np.zeros(m, dtype=np.bool_)
    split_point = np.zeros(m)
    n_subsets = np.zeros(m, dtype=np.int64)
    child_start = np.zeros(m, dtype=np.int64)
    children = []
    widest = max([nd.split.n_subsets for nd in nodes if not nd.is_leaf], default=1)
    train_share = np.zeros((m, widest))
    for k, nd in enumerate(nodes):
        if nd.is_leaf:
            leaf[k] = True
            continue
        s = nd.split
        attribute[k], numeric[k], split_point[k], n_subsets[k] = s.attribute, s.numeric, s.split_point, s.n_subsets
        child_start[k] = len(children)
        children.extend(index[id(son)] for son in nd.sons)
        train_share[k, :s.n_subsets] = s.missing_weights()
    return (leaf, attribute, numeric, split_point, n_subsets, child_start, np.array(children, dtype=np.int64),
            train_share)
