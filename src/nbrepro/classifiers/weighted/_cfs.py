# SPDX-License-Identifier: GPL-3.0-or-later
"""Correlation-based feature selection (Hall 2000) as Weka 3.6's ``CfsSubsetEval`` searched by
``BestFirst``, and naive Bayes on the attributes it selects.

    merit(S) = Σ_{i∈S} r_ci / √(k + 2 Σ_{i<j∈S} r_ij)

r is the symmetrical uncertainty 2·IG/(H(a) + H(b)) between two attributes (or an attribute
and the class) on a copy of the rows with numeric attributes cut by Weka's supervised
``Discretize`` (``useBetterEncoding``). A missing value's count is spread over the other
values in proportion (CfsSubsetEval without ``-M``). Weka keeps each correlation as a 32-bit
float, computed the first time a pair is needed and in that orientation; so does this. The
contingency loops are compiled (numba) in Weka's order: the search asks for hundreds of
pairs per fit, and Hall's calibration fits 11 times per fold.

The search is Weka's ``BestFirst`` with its defaults (``-D 1 -N 5``): forward from no
attribute, expanding the best open subset, stopping after five expansions that bring no
subset better by more than 1e-5; the open list holds five subsets. Then CfsSubsetEval's
``locallyPredictive`` step adds, best first, every attribute whose correlation with the class
exceeds its correlation with each attribute already selected.
"""
from __future__ import annotations

import math
from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

from ...weka import utils as wu
from .._mixed import take_rows
from ._attribute_scores import discretized_codes, n_ln_n, spread_missing
from ._base import WeightedNaiveBayes


@njit(cache=True)
def symmetrical_uncertainty(counts: np.ndarray) -> float:
    """Weka's ``ContingencyTables.symmetricalUncertainty`` of a (rows × columns) count table."""
    total = column_entropy = 0.0
    for j in range(counts.shape[1]):
        s = 0.0
        for i in range(counts.shape[0]):
            s += counts[i, j]
        column_entropy += n_ln_n(s)
        total += s
    column_entropy -= n_ln_n(total)
    row_entropy = conditioned = 0.0
    for i in range(counts.shape[0]):
        s = 0.0
        for j in range(counts.shape[1]):
            s += counts[i, j]
            conditioned += n_ln_n(counts[i, j])
        row_entropy += n_ln_n(s)
    conditioned -= row_entropy
    row_entropy -= n_ln_n(total)
    gain = column_entropy - conditioned
    if _is_zero(column_entropy) or _is_zero(row_entropy):
        return 0.0
    return 2.0 * (gain / (column_entropy + row_entropy))


@njit(cache=True)
def _is_zero(x: float) -> bool:
    """Utils.eq(x, 0)."""
    return x == 0.0 or (x < 1e-6 and -x < 1e-6)


@njit(cache=True)
def _merit(dense, S, m):
    """evaluateSubset's sums in Weka's order; NaN if a correlation it needs is not yet known."""
    num = 0.0
    for i in S:
        if np.isnan(dense[i, m]):
            return np.nan
        num += dense[i, m]
    denom = 0.0
    for t in range(S.shape[0]):
        denom += 1.0
        for u in range(t):
            r = dense[S[t], S[u]]
            if np.isnan(r):
                return np.nan
            denom += 2.0 * r
    if denom < 0.0:
        denom = -denom
    if denom == 0.0:
        return 0.0
    merit = num / math.sqrt(denom)
    return -merit if merit < 0.0 else merit


@njit(cache=True)
def _unknown_pairs(dense, S, m):
    """The pairs ``_merit`` needs that ``dense`` does not hold yet: (S[t], m), (S[t], S[u]) for u < t."""
    out = np.empty((S.shape[0] * (S.shape[0] + 1) // 2, 2), dtype=np.int64)
    k = 0
    for t in range(S.shape[0]):
        if np.isnan(dense[S[t], m]):
            out[k, 0], out[k, 1] = S[t], m
            k += 1
        for u in range(t):
            if np.isnan(dense[S[t], S[u]]):
                out[k, 0], out[k, 1] = S[t], S[u]
                k += 1
    return out[:k]


class CorrelationSubsetEvaluator:
    """Weka 3.6's ``CfsSubsetEval`` (defaults) on discretised codes: ``merit(subset)`` and
    ``locally_predictive(selected)``. Attributes 0..m−1, the class is m."""

    def __init__(self, codes: np.ndarray, n_values: np.ndarray, ycodes: np.ndarray, n_classes: int):
        m = codes.shape[1]
        # integer codes with a last slot for a missing value; the class as column m
        self._codes = [np.where(np.isnan(codes[:, a]), n_values[a], np.nan_to_num(codes[:, a])).astype(np.int64)
                       for a in range(m)] + [np.asarray(ycodes, dtype=np.int64)]
        self._sizes = [int(q) + 1 for q in n_values] + [int(n_classes) + 1]
        self.m = m
        # each correlation as Weka's 32-bit float (widened), NaN until first asked for
        self._dense = np.full((m + 1, m + 1), np.nan)

    def _correlate(self, a: int, b: int) -> np.float32:
        ni, nj = self._sizes[a], self._sizes[b]
        counts = np.bincount(self._codes[a] * nj + self._codes[b], minlength=ni * nj).astype(np.float64)
        su = symmetrical_uncertainty(spread_missing(counts.reshape(ni, nj)))
        if wu.eq(su, 0.0):
            su = 0.0 if self.m in (a, b) else 1.0
        return np.float32(su)  # Weka's correlation matrix is float[][]

    def correlation(self, a: int, b: int) -> float:
        """r between a and b, computed (in this orientation) the first time the pair is asked for."""
        hi, lo = (a, b) if a > b else (b, a)
        if np.isnan(self._dense[hi, lo]):
            r = float(self._correlate(a, b))
            self._dense[hi, lo] = self._dense[lo, hi] = r
        return self._dense[hi, lo]

    def merit(self, subset) -> float:
        """CfsSubsetEval.evaluateSubset; ``subset``: ascending attribute indices."""
        S = np.asarray(subset, dtype=np.int64)
        value = _merit(self._dense, S, self.m)
        if np.isnan(value):  # some pairs not yet computed: those, in Weka's orientations, then again
            # Weka asks for (attribute, class) and (later, earlier) of the ascending subset; a
            # pair's value depends on its orientation only, not on when it is computed
            for a, b in _unknown_pairs(self._dense, S, self.m).tolist():
                self.correlation(a, b)
            value = _merit(self._dense, S, self.m)
        return float(value)

    def locally_predictive(self, selected: set) -> set:
        """CfsSubsetEval.addLocallyPredictive: try every other attribute, best correlated with the
        class first; keep one whose class correlation beats its correlation with every attribute
        kept so far."""
        tried = set(selected)
        while True:
            best, best_j = -1.0, 0
            for i in range(self.m):
                if i not in tried:
                    r = self.correlation(i, self.m)
                    if r > best:
                        best, best_j = r, i
            if best == -1.0:
                return selected
            tried.add(best_j)
            ok = True
            for i in range(self.m):
                if i in selected and self.correlation(i, best_j) > best - 0.0:
                    ok = False
                    break
            if ok:
                selected.add(best_j)


class _OpenList:
    """BestFirst's LinkedList2: subsets by merit, best first, ties after; at most ``size``."""

    def __init__(self, size: int):
        self.size = size
        self.items: list[tuple[tuple, float]] = []

    def add(self, subset: tuple, merit: float) -> None:
        items = self.items
        if not items:
            items.append((subset, merit))
        elif merit > items[0][1]:
            if len(items) == self.size:
                items.pop()
            items.insert(0, (subset, merit))
        elif len(items) == self.size and merit <= items[-1][1]:
            return
        else:
            for i in range(len(items)):
                if merit > items[i][1]:
                    if len(items) == self.size:
                        items.pop()
                    items.insert(i, (subset, merit))
                    return
                if i == len(items) - 1:
                    items.append((subset, merit))
                    return


def best_first_forward(merit, n_attributes: int, max_stale: int = 5) -> tuple:
    """Weka 3.6 ``BestFirst -D 1 -N max_stale`` from the empty set: the best subset found
    (ascending indices). Its look-up cache only saves re-evaluations, so it is left out."""
    best = ()
    best_merit = merit(best)
    open_list = _OpenList(max_stale)
    open_list.add(best, best_merit)
    stale = 0
    while stale < max_stale:
        if not open_list.items:
            break
        group, _ = open_list.items.pop(0)
        added = False
        for i in range(n_attributes):
            if i in group:
                continue
            candidate = tuple(sorted(group + (i,)))
            value = merit(candidate)
            open_list.add(candidate, value)
            if value - best_merit > 1e-5:
                added, stale = True, 0
                best_merit, best = value, candidate
        if not added:
            stale += 1
    return best


def cfs_selection(X, y, max_stale: int = 5, locally_predictive: bool = True, encoder=None) -> np.ndarray:
    """The attributes (bool mask) Weka 3.6's CfsSubsetEval + BestFirst select on (X, y).
    ``encoder``: a NaiveBayes already fitted to (X, y), whose encoding is reused."""
    codes, ycodes, n_values, r = discretized_codes(X, y, True, encoder)
    known = ycodes >= 0  # CfsSubsetEval deletes rows with a missing class
    if not known.all():
        rows = np.flatnonzero(known)
        X, y = take_rows(X, rows), take_rows(y, rows)
        codes, ycodes, n_values, r = discretized_codes(X, y, True)
    evaluator = CorrelationSubsetEvaluator(codes, n_values, ycodes, r)
    chosen = set(best_first_forward(evaluator.merit, codes.shape[1], max_stale))
    if locally_predictive:
        chosen = evaluator.locally_predictive(chosen)
    mask = np.zeros(codes.shape[1], dtype=bool)
    mask[sorted(chosen)] = True
    return mask


class CorrelationSelectedNB(WeightedNaiveBayes):
    """Naive Bayes on the attributes Weka's correlation-based feature selection keeps (Hall's CFS
    column: ``AttributeSelectedClassifier`` with ``CfsSubsetEval`` and ``BestFirst``).

        P(c | x) ∝ P(c) ∏_{i ∈ S} P(x_i | c),   S = CFS's subset of the training rows

    Parameters
    ----------
    max_stale : int
        BestFirst's ``-N``: expansions without improvement before the search stops (5).
    locally_predictive : bool
        CfsSubsetEval's ``-L`` off when False (Weka's default is on).

    Attributes
    ----------
    selected_ : ndarray of bool (n_features,)
    weights_ : the same as 0/1 floats
    naive_bayes_, classes_

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import CorrelationSelectedNB
    >>> X = pd.DataFrame({
    ...     "outlook": pd.Categorical(["sunny", "sunny", "rain", "rain", "overcast", "overcast", "sunny", "rain"]),
    ...     "windy": pd.Categorical(["no", "yes", "no", "yes", "no", "yes", "no", "yes"])})
    >>> y = pd.Series(["no", "no", "yes", "no", "yes", "yes", "no", "yes"])
    >>> clf = CorrelationSelectedNB().fit(X, y)
    >>> clf.predict(X).tolist()
    ['no', 'no', 'yes', 'yes', 'yes', 'yes', 'no', 'yes']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.8, 0.2],
           [0.8, 0.2]])
    """

    no_sample_weight = ("Weka 3.6's AttributeSelectedClassifier takes instance weights, nbrepro's "
                        "CorrelationSelectedNB not yet")

    _parameter_constraints: dict = {
        "max_stale": [Interval(Integral, 1, None, closed="left")],
        "locally_predictive": ["boolean"],
    }

    def __init__(self, *, max_stale: int = 5, locally_predictive: bool = True):
        self.max_stale = max_stale
        self.locally_predictive = locally_predictive

    def _weights(self, X, y) -> np.ndarray:
        self.selected_ = cfs_selection(X, y, int(self.max_stale), bool(self.locally_predictive),
                                       encoder=self.naive_bayes_)
        return self.selected_.astype(np.float64)
