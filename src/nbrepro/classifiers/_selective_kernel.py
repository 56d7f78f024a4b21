"""Training accuracy of naive Bayes with one more attribute, compiled (numba).

Selective Bayes (``selective_nb``) scores every remaining attribute at every step of its
forward search: with numpy each score normalises an n × r array of probabilities. This pass
does, row by row, the same operations in the same order (the row's largest log score
subtracted, ``exp``, the sum over classes left to right, the division, the first largest
probability), so it counts the same rows correct. Numpy sums a row of 8 or more classes
pairwise, so only fewer classes come here.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

MAX_CLASSES = 7


@njit(cache=True)
def correct_with(base, add, truth):
    """How many rows' first most probable class, under log scores ``base + add``, is ``truth``."""
    n, r = base.shape
    row = np.empty(r)
    e = np.empty(r)
    count = 0
    for i in range(n):
        top = -np.inf
        for c in range(r):
            v = base[i, c] + add[i, c]
            row[c] = v
            if v > top:
                top = v
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
