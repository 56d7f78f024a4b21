# SPDX-License-Identifier: GPL-3.0-or-later
"""Paired t-tests over the folds of a cross-validation, as Weka's Experimenter computes them.

The corrected resampled t-test (Nadeau & Bengio 2003), Weka's ``PairedCorrectedTTester``:

    t = mean(d) / sqrt((1/k + n_test/n_train) · s_d²),   two-sided p from t(k−1)

and the plain paired t-test, Weka's ``PairedTTester`` (``PairedStats``), which treats the k
overlapping folds as independent samples:

    t = mean(d) · √k / s_d,   two-sided p from t(k−1)

d = per-fold differences x − y over the k = R×K folds; ``n_test/n_train`` is the total
test size over the total training size of all folds (Weka sums them). As Weka: a fold where
either value is missing (NaN) is left out of the pairs (``PairedTTester`` adds only pairs with
both values); if s_d ≤ 1e-6 the p-value is 1 when all differences are zero and 0 otherwise; a
result is significant when p ≤ α, in the direction of the larger mean.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as _st

from ..weka.summary import weka_mean_std


@dataclass(frozen=True)
class TTestResult:
    statistic: float
    pvalue: float
    significance: int  # +1: x significantly larger, −1: significantly smaller, 0: not significant
    mean_difference: float


def corrected_resampled_ttest(x, y, test_train_ratio: float, alpha: float = 0.05) -> TTestResult:
    return _weka_ttest(
        x, y, alpha, lambda mean_d, sd_d, k: mean_d / math.sqrt((1.0 / k + test_train_ratio) * sd_d * sd_d)
    )


def paired_ttest(x, y, alpha: float = 0.05) -> TTestResult:
    """Weka's plain paired t-test (``PairedStats.calculateDerived``, in its order of operations)."""
    return _weka_ttest(x, y, alpha, lambda mean_d, sd_d, k: mean_d * math.sqrt(k) / sd_d)


def _weka_ttest(x, y, alpha: float, t_of) -> TTestResult:
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"x and y must be paired 1-D arrays, got {x.shape} and {y.shape}")
    both = ~(np.isnan(x) | np.isnan(y))   # a missing fold is skipped, never marked
    x, y = x[both], y[both]
    d = x - y
    k = len(d)
    mean_d, sd_d = weka_mean_std(d)
    if k > 1 and sd_d > 1e-6:
        t = t_of(mean_d, sd_d, k)
        p = float(2 * _st.t.sf(abs(t), k - 1))
    else:
        t = math.nan if k < 2 else (0.0 if not np.any(d) else math.copysign(math.inf, mean_d))
        p = 1.0 if not np.any(d) or k < 2 else 0.0
    sig = 0
    if p <= alpha:
        sig = 1 if weka_mean_std(x)[0] > weka_mean_std(y)[0] else -1
    return TTestResult(float(t), p, sig, float(mean_d))
