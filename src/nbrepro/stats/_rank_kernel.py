# SPDX-License-Identifier: GPL-3.0-or-later
"""The rank sum behind the area under the ROC, compiled (numba).

Hall's AUC-scored selective Bayes scores every candidate attribute set by its training-set
AUC: thousands of rankings per fit. ``scipy.stats.rankdata`` costs more in its Python
wrapping than in the sort. The positives' rank sum (average ranks for ties) is a sum of
half-integers, exact in float64, so this loop gives the same bits as summing rankdata's ranks.
"""
from __future__ import annotations

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first


@njit(cache=True)
def positive_rank_sum(scores, positive):
    """Σ of the average ranks (1-based, ties averaged) of the rows where ``positive``. The
    positives' and the negatives' scores are sorted apart (a direct sort, not an index sort) and
    merged: each run of equal scores, in ascending order, spans ranks i + 1 … j + 1 of the whole
    and adds its positives' count × (i + j + 2) / 2, as a rank list would. Scores are not NaN."""
    n = scores.shape[0]
    n_pos = 0
    for t in range(n):
        if positive[t]:
            n_pos += 1
    pos = np.empty(n_pos)
    neg = np.empty(n - n_pos)
    a = 0
    b = 0
    for t in range(n):
        if positive[t]:
            pos[a] = scores[t]
            a += 1
        else:
            neg[b] = scores[t]
            b += 1
    pos.sort()
    neg.sort()
    total = 0.0
    a = 0
    b = 0
    while a < pos.shape[0] or b < neg.shape[0]:
        v = pos[a] if b == neg.shape[0] or (a < pos.shape[0] and pos[a] < neg[b]) else neg[b]  # the run's score
        i = a + b
        count = 0
        while a < pos.shape[0] and pos[a] == v:
            a += 1
            count += 1
        while b < neg.shape[0] and neg[b] == v:
            b += 1
        j = a + b - 1
        total += count * ((i + j + 2) / 2.0)
    return total
