# SPDX-License-Identifier: GPL-3.0-or-later
"""Mean and standard deviation exactly as ``weka.experiment.Stats`` computes them."""
from __future__ import annotations

import math

import numpy as np


def java_sequential_sum(values) -> float:
    """Left-to-right float64 sum, as a Java ``+=`` loop (numpy's sum is pairwise, Python 3.12's compensated)."""
    v = np.asarray(values, dtype=np.float64)
    return float(np.cumsum(v)[-1]) if len(v) else 0.0


def weka_mean_std(values) -> tuple[float, float]:
    """Mean and sample sd via ``sqrt((Σx² − (Σx)²/n)/(n−1))`` with sequential sums (Weka's Stats)."""
    v = np.asarray(values, dtype=np.float64)
    n = len(v)
    if n == 0:
        return math.nan, math.nan
    s = java_sequential_sum(v)
    sq = java_sequential_sum(v * v)
    mean = s / n
    if n < 2:
        return mean, math.nan
    var = (sq - s * s / n) / (n - 1)
    return mean, math.sqrt(max(var, 0.0))
