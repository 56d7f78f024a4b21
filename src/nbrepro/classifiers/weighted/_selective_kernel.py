# SPDX-License-Identifier: GPL-3.0-or-later
"""Training accuracy, and two-class training AUC, of naive Bayes with one more attribute, compiled (numba).

Selective Bayes (``selective_nb``) scores every remaining attribute at every step of its
forward search: with numpy each score normalises an n × r array of probabilities. This pass
does, row by row, the same operations in the same order (the row's largest log score
subtracted, ``exp``, the sum over classes left to right, the division, the first largest
probability), so it counts the same rows correct. Numpy sums a row of 8 or more classes
pairwise, so only fewer classes come here. The AUC (two classes) normalises the same way and
ranks the first class's probabilities as ``metrics.auc`` does (``_rank_kernel``).
"""
from __future__ import annotations

import math

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

from ...stats._rank_kernel import positive_rank_sum

MAX_CLASSES = 7


# A row's most probable class is its largest log score's when that score leads every other by more
# than this: exp(−1e-9) < 1 − 4e-10, so the runner-up's normalised probability stays below the
# leader's by far more than the rounding of the exp and the division (1e-16) could close
CLEAR_LEAD = 1e-9


@njit(cache=True)
def correct_with(base, add, truth):
    """How many rows' first most probable class, under log scores ``base + add``, is ``truth``.
    Where one class's score leads by more than ``CLEAR_LEAD`` it is the first most probable one
    (no exp needed); otherwise the probabilities are formed as numpy forms them."""
    n, r = base.shape
    row = np.empty(r)
    e = np.empty(r)
    count = 0
    for i in range(n):
        top = -np.inf
        second = -np.inf
        leader = 0
        nan = False
        for c in range(r):
            v = base[i, c] + add[i, c]
            row[c] = v
            if v != v:
                nan = True
            elif v > top:
                second = top
                top = v
                leader = c
            elif v > second:
                second = v
        if not nan and top < np.inf and top - second > CLEAR_LEAD:
            best = leader
        else:
            top = -np.inf
            for c in range(r):
                if row[c] > top:
                    top = row[c]
            s = 0.0
            for c in range(r):
                e[c] = math.exp(row[c] - top)
                s += e[c]
            best = 0
            best_p = e[0] / s
            for c in range(1, r):
                p = e[c] / s
                if p > best_p:
                    best, best_p = c, p
        if best == truth[i]:
            count += 1
    return count


@njit(cache=True)
def first_class_auc_with(base, add, truth):
    """100 × the AUC of class 0's probability (two classes) under log scores ``base + add``, as
    ``metrics.auc``; NaN where it is undefined or a probability is NaN (then numpy decides)."""
    n = base.shape[0]
    p = np.empty(n)
    positive = np.empty(n, dtype=np.bool_)
    n_pos = 0
    for i in range(n):
        a, b = base[i, 0] + add[i, 0], base[i, 1] + add[i, 1]
        # the larger score's exp(top − top) is exp(0) = 1 exactly where it is finite: one exp per row
        if b > a:
            ea, eb = math.exp(a - b), 1.0 if math.isfinite(b) else math.exp(b - b)
        else:
            ea, eb = 1.0 if math.isfinite(a) else math.exp(a - a), math.exp(b - a)
        p[i] = ea / (ea + eb)
        if np.isnan(p[i]):
            return np.nan
        positive[i] = truth[i] == 0
        if positive[i]:
            n_pos += 1
    n_neg = n - n_pos
    if n_pos == 0 or n_neg == 0:
        return np.nan
    rank_sum = positive_rank_sum(p, positive)
    return 100.0 * ((rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))
