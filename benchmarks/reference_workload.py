# SPDX-License-Identifier: GPL-3.0-or-later
"""The frozen reference workload: CPU work that never changes with nbrepro's code.

A reference unit must measure the machine, not the code being measured: until 2026-11-29 the unit
was nbrepro's own NaiveBayes and J48 on letter, so every speed-up of J48 also shrank the unit (by
1.54 × between d1b0ccf, where the unit was defined, and 56315f0, measured side by side). This module
does the same kind of work as the suite's jobs with its own code, which is **never to be edited**
(an edit redefines the unit; make a new module and a new column instead):

- a Gaussian naive Bayes over the 10 folds of letter (20 000 × 16 numeric, 26 classes) in numpy
  (array calls from Python, as the classifiers' fitting and scoring do), and
- one unpruned entropy tree per fold, compiled with numba: at each node every attribute's values
  sorted (``np.argsort``), class counts moved across each threshold, the best information gain
  taken with the C library's logarithms, the node's rows partitioned (as J48's growing does, in a plain form).

The folds are a fixed permutation (numpy's legacy ``RandomState(1)``, whose stream numpy keeps
stable). ``run`` returns a checksum so that a change to the work is seen, not just timed.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

MAX_DEPTH = 24
MIN_ROWS = 4


@njit(cache=True)
def _best_split(X, y, rows, n_classes):
    """The attribute and threshold of the largest information gain over ``rows`` (-1: none)."""
    n = rows.shape[0]
    total = np.zeros(n_classes)
    for t in range(n):
        total[y[rows[t]]] += 1.0
    parent = 0.0
    for c in range(n_classes):
        if total[c] > 0:
            parent -= total[c] * math.log(total[c] / n)
    best_gain = 1e-9
    best_a = -1
    best_x = 0.0
    left = np.zeros(n_classes)
    values = np.empty(n)
    for a in range(X.shape[1]):
        for t in range(n):
            values[t] = X[rows[t], a]
        order = np.argsort(values)
        left[:] = 0.0
        for i in range(n - 1):
            left[y[rows[order[i]]]] += 1.0
            lo = values[order[i]]
            hi = values[order[i + 1]]
            if lo == hi:
                continue
            nl = i + 1.0
            nr = n - nl
            ent = 0.0
            for c in range(n_classes):
                lc = left[c]
                rc = total[c] - lc
                if lc > 0:
                    ent -= lc * math.log(lc / nl)
                if rc > 0:
                    ent -= rc * math.log(rc / nr)
            gain = parent - ent
            if gain > best_gain:
                best_gain = gain
                best_a = a
                best_x = (lo + hi) / 2.0
    return best_a, best_x


@njit(cache=True)
def grow(X, y, n_classes):
    """Grow the tree depth first from every row of X; the number of nodes and the sum of depths."""
    stack_rows = [np.arange(X.shape[0])]
    stack_depth = [0]
    nodes = 0
    depth_sum = 0
    while len(stack_rows) > 0:
        rows = stack_rows.pop()
        depth = stack_depth.pop()
        nodes += 1
        depth_sum += depth
        if rows.shape[0] < MIN_ROWS or depth >= MAX_DEPTH:
            continue
        a, x = _best_split(X, y, rows, n_classes)
        if a < 0:
            continue
        go_left = X[rows, a] <= x
        stack_rows.append(rows[~go_left])
        stack_depth.append(depth + 1)
        stack_rows.append(rows[go_left])
        stack_depth.append(depth + 1)
    return nodes, depth_sum


def naive_bayes_log_likelihoods(X_train, y_train, X_test, n_classes):
    """Gaussian naive Bayes: log prior + Σ log N(x; μ, σ) per test row and class."""
    counts = np.bincount(y_train, minlength=n_classes).astype(float)
    means = np.empty((n_classes, X_train.shape[1]))
    sds = np.empty_like(means)
    for c in range(n_classes):
        part = X_train[y_train == c]
        means[c] = part.mean(axis=0)
        sds[c] = np.maximum(part.std(axis=0), 1e-3)
    z = (X_test[:, None, :] - means[None]) / sds[None]
    log = np.frompyfunc(math.log, 1, 1)  # the C library's log (numpy's own depends on the CPU's vector unit)
    log_prior = log(counts / counts.sum()).astype(float)
    return log_prior[None] - (0.5 * z * z + log(sds).astype(float)[None]).sum(axis=2)


def folds(n_rows: int, k: int = 10):
    """k folds of a fixed permutation (legacy RandomState: its stream is frozen by numpy)."""
    fold_of = np.empty(n_rows, dtype=np.int64)
    fold_of[np.random.RandomState(1).permutation(n_rows)] = np.arange(n_rows) % k
    return [(np.flatnonzero(fold_of != f), np.flatnonzero(fold_of == f)) for f in range(k)]


def run(X: np.ndarray, y: np.ndarray, n_folds: int = 10) -> float:
    """The workload over ``n_folds`` folds; a checksum of what it computed."""
    n_classes = int(y.max()) + 1
    check = 0.0
    for train, test in folds(X.shape[0])[:n_folds]:
        scores = naive_bayes_log_likelihoods(X[train], y[train], X[test], n_classes)
        check += float((scores.argmax(axis=1) == y[test]).sum())
        nodes, depth_sum = grow(X[train], y[train], n_classes)
        check += nodes + depth_sum / 1000.0
    return check
