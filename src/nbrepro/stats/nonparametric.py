# SPDX-License-Identifier: GPL-3.0-or-later
"""Rank tests over N datasets (rows) × k methods (columns).

Friedman:  χ²_F = [12/(N k (k+1)) Σ_j R_j² − 3N(k+1)] / C, with C = 1 − Σ(t³−t)/(N k (k²−1))
           the tie correction (C = 1 without it); R_j = rank sum of method j; df = k − 1.
Iman–Davenport: F = (N−1) χ²_F / (N(k−1) − χ²_F), df = (k−1, (k−1)(N−1)).
Quade (Conover 1999): blocks weighted by the rank Q_i of their range; S_ij = Q_i (R_ij − (k+1)/2),
           A = ΣS_ij², B = Σ_j (Σ_i S_ij)² / N, F = (N−1) B / (A − B), df = (k−1, (k−1)(N−1)).

At the edges: every data set ranking the methods alike gives Friedman's largest χ² = N(k−1), and
Iman–Davenport's F = ∞ (p = 0), its limit; a χ² that is NaN (every method tied on every data set)
gives F and p NaN, not a significance. Quade with A = B > 0 (every block ranks alike) has F
undefined and p = (1/k!)^(N−1) (Conover 1999, p. 374; R's quade.test); with A = 0 (every block all
ties) there is no information and F and p are NaN, where R still returns (1/k!)^(N−1).
A data set with a missing cell (NaN) is dropped from all three, as R's friedman.test and
quade.test drop an incomplete block; ``n_datasets`` counts the complete ones, and fewer than two
is refused. (R's quade.test keeps counting the dropped blocks in B and the degrees of freedom;
Conover's formula, here, counts the blocks it ranks.)
scipy has Friedman (tie-corrected only) but neither Iman–Davenport nor Quade, so the three share
one hand-written rank core here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as _st
from scipy.stats import rankdata

from ..errors import TooFewDatasets
from .ranks import rank_rows


@dataclass(frozen=True)
class RankTestResult:
    statistic: float
    pvalue: float
    df: tuple
    mean_ranks: tuple = ()   # per method (column), 1 = best
    n_datasets: int = 0
    n_methods: int = 0


def complete_blocks(data) -> np.ndarray:
    """The (data sets × methods) table without the data sets that miss a cell (R's complete.cases),
    refused unless at least 2 data sets × 2 methods remain."""
    x = np.asarray(data, dtype=np.float64)
    if x.ndim == 2:
        x = x[~np.isnan(x).any(axis=1)]
    if x.ndim != 2 or x.shape[0] < 2 or x.shape[1] < 2:
        raise TooFewDatasets(f"need at least 2 complete datasets × 2 methods, got shape {x.shape}")
    return x


def checked_ranks(data, higher_is_better: bool) -> np.ndarray:
    """Within-data-set ranks of the complete data sets (``complete_blocks``)."""
    return rank_rows(complete_blocks(data), higher_is_better)


def friedman(data, higher_is_better: bool = True, tie_correction: bool = True) -> RankTestResult:
    r = checked_ranks(data, higher_is_better)
    n, k = r.shape
    rsum = r.sum(axis=0)
    chi2 = 12.0 / (n * k * (k + 1)) * np.sum(rsum ** 2) - 3.0 * n * (k + 1)
    if tie_correction:
        ties = 0.0
        for row in r:
            _, counts = np.unique(row, return_counts=True)
            ties += np.sum(counts ** 3 - counts)
        c = 1.0 - ties / (n * k * (k * k - 1))
        chi2 = chi2 / c if c > 0 else np.nan
    return RankTestResult(
        float(chi2), float(_st.chi2.sf(chi2, k - 1)), (k - 1,), tuple(map(float, r.mean(axis=0))), n, k
    )


def iman_davenport(data, higher_is_better: bool = True, tie_correction: bool = True) -> RankTestResult:
    fr = friedman(data, higher_is_better, tie_correction)
    chi2, n, k = fr.statistic, fr.n_datasets, fr.n_methods
    df = (k - 1, (k - 1) * (n - 1))
    if np.isnan(chi2):   # every method tied on every data set: no evidence either way
        return RankTestResult(math.nan, math.nan, df, fr.mean_ranks, n, k)
    # every data set ranks the methods alike: chi² reaches its maximum n(k − 1) and F is infinite (p = 0)
    f = (n - 1) * chi2 / (n * (k - 1) - chi2) if chi2 < n * (k - 1) else np.inf
    return RankTestResult(float(f), float(_st.f.sf(f, *df)), df, fr.mean_ranks, n, k)


def quade(data, higher_is_better: bool = True) -> RankTestResult:
    x = complete_blocks(data)
    r = rank_rows(x, higher_is_better)
    n, k = r.shape
    q = rankdata(x.max(axis=1) - x.min(axis=1), method="average")
    s = q[:, None] * (r - (k + 1) / 2.0)
    a = np.sum(s**2)
    b = np.sum(s.sum(axis=0) ** 2) / n
    df = (k - 1, (k - 1) * (n - 1))
    ranks = tuple(map(float, r.mean(axis=0)))
    if a == 0:   # every block all ties
        return RankTestResult(math.nan, math.nan, df, ranks, n, k)
    if a == b:   # every block ranks the methods alike: Conover's exact p of that outcome
        return RankTestResult(math.nan, float(math.factorial(k) ** -(n - 1.0)), df, ranks, n, k)
    f = (n - 1) * b / (a - b)
    return RankTestResult(float(f), float(_st.f.sf(f, *df)), df, ranks, n, k)


def friedman_from_mean_ranks(mean_ranks, n: int) -> RankTestResult:
    """Friedman's χ²_F from the k mean ranks over n data sets alone (no tie correction: that needs
    each data set's ties), e.g. from a printed w/t/l matrix: χ²_F = 12n/(k(k+1)) Σ R̄_j² − 3n(k+1)."""
    r = np.asarray(mean_ranks, dtype=np.float64)
    k = len(r)
    chi2 = 12.0 * n / (k * (k + 1)) * np.sum(r**2) - 3.0 * n * (k + 1)
    return RankTestResult(float(chi2), float(_st.chi2.sf(chi2, k - 1)), (k - 1,), tuple(map(float, r)), n, k)
