# SPDX-License-Identifier: GPL-3.0-or-later
"""P(x | c) for a numeric attribute as Weka 3.6's naive Bayes estimates it: ``NormalEstimator``
and ``KernelEstimator``, fitted to all classes of one attribute at once and evaluated on many
rows at once.

Both return the probability of an interval of width ``precision`` around the value, not a
density: Weka's naive Bayes multiplies these probabilities, so their scale matters when
numeric and nominal attributes mix. ``precision`` is taken from the training values
(``numeric_precision``); values are rounded to it.
"""
from __future__ import annotations

import numpy as np

from ._kernel_walk import kernel_probabilities
from .special import weka_normal_probability

DEFAULT_PRECISION = 0.01
KERNEL_MIN_PRECISION = 1e-6  # Weka's Utils.SMALL: a KernelEstimator's precision is at least this
_KERNEL_MAX_ERROR = 0.01
_SQUARE_SAFE = 1e150  # |v| below this: v² is finite, so numpy's other-class terms v·0 and v²·0 are zeros, not NaN


def numeric_precision(values: np.ndarray) -> float:
    """Weka NaiveBayes's precision of a numeric attribute: the mean gap between adjacent distinct
    known values (summed left to right, as Weka does), or 0.01 with fewer than two of them."""
    return float(numeric_precisions(values[:, None])[0])


def weka_quicksort(values) -> np.ndarray:
    """The permutation Weka 3.6's ``Utils.sortWithNoMissingValues`` returns: a median-of-three
    quicksort, which is not stable, so rows with equal values come out in Weka's own order."""
    from ._order_kernel import weka_quicksort_index  # numba: imported where first needed

    return weka_quicksort_index(np.ascontiguousarray(values, dtype=np.float64))


def weka_training_order(Z: np.ndarray, numeric: np.ndarray) -> np.ndarray:
    """The row order in which Weka's NaiveBayes adds its training rows: it sorts its copy of the
    data by each numeric attribute in turn (missing values last) and keeps the last order.
    Sorting starts from the last attribute whose values are all distinct, since that sort
    alone fixes the order."""
    cols = [j for j in np.flatnonzero(numeric)]
    order = np.arange(len(Z))
    for start in range(len(cols) - 1, -1, -1):
        v = Z[:, cols[start]]
        if np.isnan(v).sum() <= 1 and len(np.unique(v[~np.isnan(v)])) == (~np.isnan(v)).sum():
            order = np.argsort(np.where(np.isnan(v), np.finfo(float).max, v), kind="stable")
            cols = cols[start + 1:]
            break
    for j in cols:
        v = np.where(np.isnan(Z[order, j]), np.finfo(float).max, Z[order, j])
        order = order[weka_quicksort(v)]
    return order


def round_to_precision(x: np.ndarray, precision: float) -> np.ndarray:
    return np.rint(x / precision) * precision  # Java's Math.rint: half to even, as np.rint


def _interval(delta: np.ndarray, half: float, sd) -> np.ndarray:
    """Φ((δ + h)/σ) − Φ((δ − h)/σ) with Weka's Φ."""
    return weka_normal_probability((delta + half) / sd) - weka_normal_probability((delta - half) / sd)


def numeric_precisions(V: np.ndarray) -> np.ndarray:
    """``numeric_precision`` of every column of V at once."""
    from ._normal_kernel import gap_sums  # numba: imported where first needed

    S = np.sort(np.ascontiguousarray(V.T, dtype=np.float64), axis=1)  # a row per attribute, NaN last
    delta, distinct = gap_sums(S)  # the positive gaps' sum in row order, and their number
    return np.where(distinct > 0, delta / np.maximum(distinct, 1), DEFAULT_PRECISION)


class NormalEstimators:
    """One Gaussian per class (``weka.estimators.NormalEstimator``), for one numeric attribute
    (``values`` of shape (rows,)) or for several at once ((rows, attributes)).

        P(x | c) = Φ((x̃ − μ_c + p/2)/σ_c) − Φ((x̃ − μ_c − p/2)/σ_c),   x̃ = x rounded to p

    μ_c and σ_c are the weighted mean and (population) standard deviation of the rounded
    training values of class c, from running sums as Weka keeps them (Σw, Σwx, Σwx²) in the
    order the rows come; σ_c is at least p/6 and is p/6 when the values' spread is
    below 1e-10. A class with no value has μ = 0, σ = p/6.
    """

    def __init__(self, values: np.ndarray, y: np.ndarray, weights: np.ndarray, n_classes: int, precision,
                 sequential: bool = False):
        single = values.ndim == 1
        V = values[:, None] if single else values
        P = np.broadcast_to(np.asarray(precision, dtype=np.float64), (V.shape[1],))
        use = ~np.isnan(V) & (weights != 0)[:, None]  # Weka's addValue ignores a zero weight
        v = np.where(use, np.rint(np.where(use, V, 0.0) / P[None, :]) * P[None, :], 0.0)
        w = np.where(use, weights[:, None], 0.0)
        k = V.shape[1]
        W, S, SS = (np.zeros((k, n_classes)) for _ in range(3))
        # ``sequential``: running sums in row order, as Weka adds (the rows of other classes add
        # 0.0, which changes nothing). Otherwise numpy's sums, which differ from any order of
        # Weka's in the last bits only; the caller reruns sequentially in Weka's order where
        # ``order_sensitive`` says the last bits matter.
        if sequential:
            from ._order_kernel import row_class_running_sums  # numba: imported where first needed

            # each attribute is one row of values, added in row order
            W, S, SS = row_class_running_sums(np.ascontiguousarray(v.T), np.ascontiguousarray(w.T),
                                              np.ascontiguousarray(np.broadcast_to(y, (k, len(y))), dtype=np.int64),
                                              n_classes)
        elif v.flags.f_contiguous and w.flags.f_contiguous and v.size and np.abs(v).max() < _SQUARE_SAFE:
            # numpy's sums below, whose order follows the layout: an F-contiguous selection
            # (Z[:, columns]) is summed pairwise per column; that tree walked once for all classes
            # (``_normal_kernel.class_sums``: the same bits). Other layouts, and values whose square
            # overflows (numpy's other-class terms are NaN then), stay on numpy
            from ._normal_kernel import class_sums  # numba: imported where first needed

            W, S, SS = class_sums(v, w, np.asarray(y, dtype=np.int64), n_classes)
        else:
            for c in range(n_classes):
                wc = np.where((y == c)[:, None], w, 0.0)
                if len(wc):
                    W[:, c] = wc.sum(axis=0)
                    S[:, c] = (v * wc).sum(axis=0)
                    SS[:, c] = (v * v * wc).sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(W > 0, S / W, 0.0)
            sd = np.sqrt(np.abs(SS - mean * S) / W)
            # Σx² − μΣx cancels when the mean is large against the spread; its rounding error,
            # about ε·(μ²/σ²)·sqrt(W) relative, then depends on the order the rows were added in
            self.order_sensitive = bool(np.any((W > 0) & (mean * mean * np.sqrt(W) > 1e5 * sd * sd)))
        floor = (P / 6.0)[:, None]
        sd = np.where((W > 0) & (sd > 1e-10), np.maximum(floor, sd), floor)
        self.single = single
        self.precision = float(P[0]) if single else P.copy()
        self.weight_sum, self.mean, self.sd = (a[0] if single else a for a in (W, mean, sd))

    def probability(self, x: np.ndarray) -> np.ndarray:
        """(rows, classes) for known values ``x`` of shape (rows,) (one attribute), or
        (rows, attributes, classes) for x of shape (rows, attributes)."""
        from ._normal_kernel import interval_probabilities  # numba: imported where first needed

        # numpy's (rint(x/p)·p − μ ± p/2)/σ and Φ in one compiled loop, the same operations in the same order
        if self.single:
            return interval_probabilities(np.ascontiguousarray(x, dtype=np.float64)[:, None],
                                          np.array([self.precision]), self.mean[None, :], self.sd[None, :])[:, 0]
        return interval_probabilities(np.ascontiguousarray(x, dtype=np.float64), self.precision,
                                      np.ascontiguousarray(self.mean), np.ascontiguousarray(self.sd))


class KernelEstimators:
    """A Gaussian kernel on every distinct training value, per class (``weka.estimators.KernelEstimator``),
    for several numeric attributes at once (``values``: rows × attributes, ``precision`` per attribute).

        P(x | c) = Σ_v w_v [Φ((v − x + p/2)/σ_c) − Φ((v − x − p/2)/σ_c)] / Σ_v w_v

    over the distinct rounded values v of class c with their summed weights w_v;
    σ_c = max(range_c / sqrt(Σ w), p/6) (p/6 for a single value). As in Weka, the sum
    starts at the value nearest x, walks up, then down, and each walk stops once the
    next term times the weight not yet visited is below 1% of the sum so far: the result
    is Weka's truncated sum, not the full one. ``x`` itself is not rounded.
    """

    def __init__(self, values: np.ndarray, y: np.ndarray, weights: np.ndarray, n_classes: int, precision):
        V = values[:, None] if values.ndim == 1 else values
        k = V.shape[1]
        P = np.maximum(np.broadcast_to(np.asarray(precision, dtype=np.float64), (k,)), KERNEL_MIN_PRECISION)
        self.precision = P.copy()
        self.n_classes = n_classes
        flat_v, flat_w, starts, lengths = [], [], [], []
        self.weight_sum = np.zeros((k, n_classes))
        self.sd = np.zeros((k, n_classes))
        offset = 0
        for j in range(k):
            use = ~np.isnan(V[:, j]) & (weights != 0)
            v, c, w = round_to_precision(V[use, j], P[j]), y[use], weights[use]
            for cls in range(n_classes):
                mine = c == cls
                distinct, inverse = np.unique(v[mine], return_inverse=True)
                wk = np.bincount(inverse, weights=w[mine], minlength=len(distinct))
                total = float(np.cumsum(w[mine])[-1]) if len(distinct) else 0.0
                spread = distinct[-1] - distinct[0] if len(distinct) else 0.0
                self.weight_sum[j, cls] = total
                self.sd[j, cls] = max(spread / np.sqrt(total), P[j] / 6.0) if spread > 0 else P[j] / 6.0
                flat_v.append(distinct)
                flat_w.append(wk)
                starts.append(offset)
                lengths.append(len(distinct))
                offset += len(distinct)
        self._values = np.concatenate(flat_v) if flat_v else np.empty(0)
        self._weights = np.concatenate(flat_w) if flat_w else np.empty(0)
        self._starts = np.array(starts, dtype=np.int64).reshape(k, n_classes)
        self._lengths = np.array(lengths, dtype=np.int64).reshape(k, n_classes)

    def probability(self, x: np.ndarray) -> np.ndarray:
        """(rows, attributes, classes) for x of shape (rows, attributes), or (rows, classes) for
        x of shape (rows,); NaN where x is missing. One compiled walk per (row, attribute,
        class): ``_kernel_walk.kernel_probabilities``."""
        X = x[:, None] if x.ndim == 1 else x
        out = kernel_probabilities(np.ascontiguousarray(X, dtype=np.float64), self._values, self._weights,
                                   self._starts, self._lengths, self.weight_sum, self.sd, self.precision / 2.0,
                                   _KERNEL_MAX_ERROR)
        return out[:, 0, :] if x.ndim == 1 else out


def weighted_normal_probability(x: np.ndarray, values: np.ndarray, classes: np.ndarray, weights: np.ndarray,
                                n_classes: int) -> np.ndarray:
    """``NormalEstimators`` fitted separately for each row b — to the values ``values[b]``
    (NaN: absent) with their classes and weights, the precision from those values — and
    evaluated at ``x[b]``: (rows, classes), and which rows' sums cancel badly enough for the
    order of adding to show (see ``NormalEstimators.order_sensitive``). What Weka's
    NaiveBayes does inside LWL, where each test row has its own weighted neighbours."""
    B = len(x)
    present = ~np.isnan(values)
    precision = numeric_precisions(values.T)  # each row's own, from its present values
    use = present & (weights != 0)
    v = np.where(use, np.rint(np.where(use, values, 0.0) / precision[:, None]) * precision[:, None], 0.0)
    w = np.where(use, weights, 0.0)
    out = np.empty((B, n_classes))
    floor = precision / 6.0
    xr = np.rint(x / precision) * precision
    sensitive = np.zeros(B, dtype=bool)
    from ._order_kernel import row_class_running_sums  # numba: imported where first needed

    # left-to-right sums per row, as Weka adds (np.cumsum's order; other classes' rows add 0)
    Ws, Ss, SSs = row_class_running_sums(np.ascontiguousarray(v), np.ascontiguousarray(w),
                                         np.ascontiguousarray(classes, dtype=np.int64), n_classes)
    for c in range(n_classes):
        W, S, SS = Ws[:, c], Ss[:, c], SSs[:, c]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(W > 0, S / W, 0.0)
            sd = np.sqrt(np.abs(SS - mean * S) / W)
        with np.errstate(invalid="ignore"):
            sensitive |= (W > 0) & (mean * mean * np.sqrt(W) > 1e5 * sd * sd)
        sd = np.where((W > 0) & (sd > 1e-10), np.maximum(floor, sd), floor)
        out[:, c] = _interval(xr - mean, precision / 2.0, sd)
    return out, sensitive
