"""The rank sum behind the area under the ROC, compiled (numba).

Hall's AUC-scored selective Bayes scores every candidate attribute set by its training-set
AUC: thousands of rankings per fit. ``scipy.stats.rankdata`` costs more in its Python
wrapping than in the sort. The positives' rank sum (average ranks for ties) is a sum of
half-integers, exact in float64, so this loop gives the same bits as summing rankdata's ranks.
"""
from __future__ import annotations

import numpy as np

from nbrepro._numba_cache import njit  # numba's, its cache locks installed first


@njit(cache=True)
def positive_rank_sum(scores, positive):
    """Σ of the average ranks (1-based, ties averaged) of the rows where ``positive``."""
    n = scores.shape[0]
    order = np.argsort(scores, kind="mergesort")
    total = 0.0
    i = 0
    while i < n:
        j = i
        while j + 1 < n and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        count = 0
        for k in range(i, j + 1):
            if positive[order[k]]:
                count += 1
        total += count * ((i + j + 2) / 2.0)
        i = j + 1
    return total
