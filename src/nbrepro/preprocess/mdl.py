# SPDX-License-Identifier: GPL-3.0-or-later
"""Supervised discretisation: Fayyad & Irani's MDL, as Weka 3.6's ``filters.supervised.attribute.Discretize``.

For each numeric attribute, the rows with a known value are sorted, and the interval is cut
recursively: among the candidate cuts (midpoints between adjacent distinct values) take the
first with the smallest class entropy conditioned on the two sides, and accept it when

    gain > (log2(N − 1) + log2(3^k − 2) − [k·E − k₁·E₁ − k₂·E₂]) / N

(N rows in the interval, E its class entropy, k its number of classes present; E₁, k₁ and
E₂, k₂ the same for the two sides). N − 1 is Weka's count of cut points without its
"better encoding" option. Entropies are in bits, summed class by class in Weka's order
(``ContingencyTables``), so that ties between equally good cuts fall as in Weka.
Values go to bins ``(a, b]``; an attribute with no accepted cut becomes one value, 'All'.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils._param_validation import StrOptions

from .. import libm
from ..weka.special import weka_ln_gamma
from .discretize import BinsMixin, as_frame

_LOG2 = math.log(2.0)


def _xlnx(x: np.ndarray) -> np.ndarray:
    positive = x > 0
    return np.where(positive, x * libm.log(np.where(positive, x, 1.0)), 0.0)


def _xlnx1(x: float) -> float:
    return x * math.log(x) if x > 0 else 0.0


def _entropy(counts: np.ndarray) -> float:
    """ContingencyTables.entropy: (−Σ c ln c + T ln T) / (T ln 2), summed in class order."""
    value, total = 0.0, 0.0
    for c in counts.tolist():
        value -= _xlnx1(c)
        total += c
    if abs(total) < 1e-6:
        return 0.0
    return (value + _xlnx1(total)) / (total * _LOG2)


def _conditional_entropies(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """ContingencyTables.entropyConditionedOnRows for every candidate cut at once (rows = cuts)."""
    value = np.zeros(left.shape[0])
    total = np.zeros(left.shape[0])
    for side in (left, right):
        logs = _xlnx(side)
        row_sum = np.zeros(side.shape[0])
        for j in range(side.shape[1]):   # class by class, as Java's loop adds them
            value = value + logs[:, j]
            row_sum = row_sum + side[:, j]
        value = value - _xlnx(row_sum)
        total = total + row_sum
    safe = np.where(np.abs(total) < 1e-6, 1.0, total)
    return np.where(np.abs(total) < 1e-6, 0.0, -value / (safe * _LOG2))


def _conditional_entropy1(left: list, right: list) -> float:
    """``_conditional_entropies`` for one cut, in scalar arithmetic (the same operations)."""
    value, total = 0.0, 0.0
    for side in (left, right):
        row_sum = 0.0
        for c in side:
            value = value + _xlnx1(c)
            row_sum = row_sum + c
        value = value - _xlnx1(row_sum)
        total = total + row_sum
    return 0.0 if abs(total) < 1e-6 else -value / (total * _LOG2)


def _weka_sum(v) -> float:
    total = 0.0
    for x in v:
        total += float(x)
    return total


def _fayyad_irani_accepts(prior: np.ndarray, best: np.ndarray, n: float, n_cut_points: int) -> bool:
    """Weka's FayyadAndIranisMDL."""
    prior_entropy = _entropy(prior)
    entropy = _conditional_entropy1(best[0].tolist(), best[1].tolist())
    gain = prior_entropy - entropy
    k = int(np.sum(prior > 0))
    k1, k2 = int(np.sum(best[0] > 0)), int(np.sum(best[1] > 0))
    delta = math.log(3.0 ** k - 2) / _LOG2 - (k * prior_entropy - k2 * _entropy(best[1]) - k1 * _entropy(best[0]))
    return gain > (math.log(n_cut_points) / _LOG2 + delta) / n


def _ln_factorial(x: float) -> float:
    return float(weka_ln_gamma(np.array([x + 1.0]))[0])


def _log2_binomial(a: float, b: float) -> float:
    """SpecialFunctions.log2Binomial: log2 of a choose b."""
    return (_ln_factorial(a) - _ln_factorial(b) - _ln_factorial(a - b)) / _LOG2


def _log2_multinomial(a: float, bs) -> float:
    """SpecialFunctions.log2Multinomial: log2 of a! / Π b!."""
    total = 0.0
    for b in bs:
        total = total + _ln_factorial(float(b))
    return (_ln_factorial(a) - total) / _LOG2


def _kononenko_accepts(prior: np.ndarray, best: np.ndarray, n: float, n_cut_points: int) -> bool:
    """Weka's KononenkosMDL (Kononenko 1995): cut when coding the classes before the cut costs
    more bits than coding the cut and the classes on its two sides."""
    k = int(np.sum(prior > 0))
    before = _log2_multinomial(n, prior.tolist()) + _log2_binomial(n + k - 1, k - 1)
    binomials, multinomials = 0.0, 0.0
    for bag in best:
        size = _weka_sum(bag)
        binomials += _log2_binomial(size + k - 1, k - 1)
        multinomials += _log2_multinomial(size, bag.tolist())
    after = math.log(n_cut_points) / _LOG2 + binomials + multinomials
    return before > after


CRITERIA = {"fayyad_irani": _fayyad_irani_accepts, "kononenko": _kononenko_accepts}


def _criterion(name: str):
    if name not in CRITERIA:
        raise ValueError(f"MDL criterion must be one of {sorted(CRITERIA)}, got {name!r}")
    return CRITERIA[name]


def mdl_cut_points(values: np.ndarray, classes: np.ndarray, n_classes: int, weights=None, order=None,
                   criterion: str = "fayyad_irani", better_encoding: bool = False, compiled: bool = True) -> np.ndarray:
    """Weka's MDL cut points of one numeric attribute (rows with a missing value or class left
    out). Class counts are sums of row ``weights`` (1 by default), as Weka's are of instance
    weights. ``criterion``: ``"fayyad_irani"`` (Weka's default) or ``"kononenko"`` (``-K``).
    The number of candidate cuts the criterion charges for is the row count less one, or
    with ``better_encoding`` (``-E``) the number of places where the value changes.

    With fractional weights the sums depend on the order rows are added in: ``order`` gives
    Weka's (row positions, sorted by value; see ``weka_discretize_orders``). Without it rows
    are sorted stably, which gives the same sums whenever the weights are whole numbers.
    Fayyad–Irani runs compiled (``_mdl_kernel``, the same sums in the same order: NBTree's
    branches with fractional weights call this per column); ``compiled=False``: the numpy
    reference."""
    keep = ~np.isnan(values) & (classes >= 0)
    if order is None:
        pos = np.flatnonzero(keep)
        pos = pos[np.argsort(values[pos], kind="stable")]
    else:
        pos = np.asarray(order, dtype=np.int64)
        pos = pos[keep[pos]]
    v, c = values[pos], classes[pos]
    w = np.ones(len(pos)) if weights is None else np.asarray(weights, dtype=np.float64)[pos]
    accepts = _criterion(criterion)
    if compiled and criterion == "fayyad_irani":
        from ._mdl_kernel import weighted_fayyad_irani_cuts, xlnx_table  # numba: imported where first needed

        return weighted_fayyad_irani_cuts(np.ascontiguousarray(v, dtype=np.float64),
                                          np.ascontiguousarray(c, dtype=np.int64), np.ascontiguousarray(w),
                                          int(n_classes), bool(better_encoding), xlnx_table(len(v)))
    onehot = np.zeros((len(v), n_classes))
    onehot[np.arange(len(v)), c] = w
    cuts: list[float] = []

    def split(first: int, last: int) -> None:   # rows first..last−1
        n = last - first
        if n < 2:
            return
        cum = np.cumsum(onehot[first:last], axis=0)
        prior = cum[-1]
        candidates = np.flatnonzero(v[first:last - 1] < v[first + 1:last])
        if not len(candidates):
            return
        left = cum[candidates]
        # Weka subtracts each row from the right-hand counts in turn
        right = np.subtract.accumulate(np.vstack([prior[None, :], onehot[first:last]]), axis=0)[1:][candidates]
        ent = _conditional_entropies(left, right)
        prior_entropy = _entropy(prior)
        best = int(np.argmin(ent))   # the first smallest: Weka's strict <
        if not ent[best] < prior_entropy or prior_entropy - ent[best] <= 0:
            return
        i = int(candidates[best])
        total_weight = float(np.cumsum(w[first:last])[-1])
        n_cuts = len(candidates) if better_encoding else n - 1
        if not accepts(prior, np.stack([left[best], right[best]]), total_weight, n_cuts):
            return
        split(first, first + i + 1)
        cuts.append((v[first + i] + v[first + i + 1]) / 2.0)
        split(first + i + 1, last)

    split(0, len(v))
    return np.asarray(sorted(cuts))


def mdl_cut_points_columns(X: np.ndarray, classes: np.ndarray, n_classes: int, criterion: str = "fayyad_irani",
                           better_encoding: bool = False) -> list:
    """``mdl_cut_points`` of every column of X (rows × columns, NaN missing) with unit weights,
    all columns and all intervals of one recursion depth at once. Each column is first reduced
    to its distinct values and their class counts (cuts only fall between distinct values);
    whole-number counts make every sum exact in any grouping, so the cut points are exactly
    the one-column recursion's, with far less work."""
    n, m = X.shape
    accepts = _criterion(criterion)
    if criterion == "fayyad_irani":  # the same arithmetic compiled
        flat, counts = mdl_cut_points_packed(X, classes, n_classes, better_encoding)
        return np.split(flat, np.cumsum(counts)[:-1]) if m else []
    keep_class = classes >= 0
    values, tables, offsets = [], [], [0]
    for j in range(m):
        known = keep_class & ~np.isnan(X[:, j])
        u, inverse = np.unique(X[known, j], return_inverse=True)
        table = np.bincount(inverse * n_classes + classes[known], minlength=len(u) * n_classes)
        values.append(u)
        tables.append(table.reshape(len(u), n_classes).astype(np.float64))
        offsets.append(offsets[-1] + len(u))
    flat_v = np.concatenate(values) if values else np.empty(0)
    counts = np.vstack(tables) if tables else np.empty((0, n_classes))
    cum = np.vstack([np.zeros((1, n_classes)), np.cumsum(counts, axis=0)])  # cum[p] = counts before p
    cuts = [[] for _ in range(m)]
    tasks = [(j, offsets[j], offsets[j + 1]) for j in range(m) if offsets[j + 1] - offsets[j] >= 2]
    while tasks:
        starts = np.array([t[1] for t in tasks])
        ends = np.array([t[2] for t in tasks])
        task_of = np.repeat(np.arange(len(tasks)), ends - starts - 1)
        # cut after distinct value pos
        pos = np.concatenate([np.arange(a, b - 1) for a, b in zip(starts, ends, strict=True)])
        base = cum[starts]
        prior = cum[ends] - base
        left = cum[pos + 1] - base[task_of]
        right = prior[task_of] - left
        ent = _conditional_entropies(left, right)
        first_of_task = np.searchsorted(task_of, np.arange(len(tasks) + 1), side="left")
        new_tasks = []
        for t, (j, a, b) in enumerate(tasks):
            lo, hi = first_of_task[t], first_of_task[t + 1]
            best = lo + int(np.argmin(ent[lo:hi]))  # the first smallest: Weka's strict <
            prior_t = prior[t]
            prior_entropy = _entropy(prior_t)
            if not ent[best] < prior_entropy or prior_entropy - ent[best] <= 0:
                continue
            n_rows = _weka_sum(prior_t)
            n_cuts = b - a - 1 if better_encoding else int(n_rows) - 1  # a..b−1 are distinct values
            if not accepts(prior_t, np.stack([left[best], right[best]]), n_rows, n_cuts):
                continue
            p = int(pos[best])
            cuts[j].append((flat_v[p] + flat_v[p + 1]) / 2.0)
            new_tasks.extend([(j, a, p + 1), (j, p + 1, b)])
        tasks = [t for t in new_tasks if t[2] - t[1] >= 2]
    return [np.asarray(sorted(c)) for c in cuts]


def mdl_cut_points_packed(
    X: np.ndarray, classes: np.ndarray, n_classes: int, better_encoding: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """``mdl_cut_points_columns`` (Fayyad–Irani, unit weights) packed: every column's cut points
    in turn, ascending, and each column's count. Compiled (``_mdl_kernel``), from the columns
    sorted by numpy (its sort beats a compiled one several times over; the order of equal values
    changes no cut, so any sort gives the same cut points)."""
    from ._mdl_kernel import fayyad_irani_cuts_presorted, xlnx_table  # numba: imported where first needed

    XT = np.asarray(X, dtype=np.float64).T
    n = XT.shape[1]
    orders = np.ascontiguousarray(np.argsort(XT, axis=1))  # a missing value (NaN) sorts last and is left out
    return fayyad_irani_cuts_presorted(
        np.ascontiguousarray(np.take_along_axis(XT, orders, axis=1)),
        np.ascontiguousarray(classes, dtype=np.int64),
        int(n_classes),
        bool(better_encoding),
        orders,
        np.ones(n, dtype=bool),
        xlnx_table(n),
    )


@dataclass
class PresortedColumns:
    """Rows sorted once by each of some columns, for cutting any subset of them without sorting:
    ``orders[k]`` the rows by ``columns[k]``'s values (stably), ``values[k]`` those values in
    that order; ``xlnx`` the k ln k table of the cut search; ``member`` a scratch mask over all rows."""

    orders: np.ndarray
    values: np.ndarray
    xlnx: np.ndarray
    member: np.ndarray

    def restricted_to(self, rows: np.ndarray) -> PresortedColumns:
        """The same columns for ``rows`` (distinct, all among these rows): each order filtered,
        which keeps it sorted (a child tree node's rows, without sorting again)."""
        member = self.member
        member[rows] = True
        keep = member[self.orders]
        member[rows] = False
        shape = (self.orders.shape[0], len(rows))
        return PresortedColumns(self.orders[keep].reshape(shape), self.values[keep].reshape(shape), self.xlnx, member)


def presort_columns(
    X: np.ndarray,
    rows: np.ndarray,
    columns: np.ndarray,
    member: np.ndarray | None = None,
    xlnx: np.ndarray | None = None,
) -> PresortedColumns:
    """``rows`` of ``X`` sorted by each of ``columns`` (a tree node's rows, sorted once for all its
    candidate branches). ``member``: a boolean array over ``X``'s rows, all False (made if None);
    ``xlnx``: a k ln k table for counts up to at least ``len(rows)`` (made if None; a tree makes
    one for all its nodes)."""
    from ._mdl_kernel import xlnx_table  # numba: imported where first needed

    sub = X[np.ix_(rows, columns)]
    order = np.argsort(sub, axis=0, kind="stable")
    return PresortedColumns(
        np.ascontiguousarray(rows[order].T),
        np.ascontiguousarray(np.take_along_axis(sub, order, axis=0).T),
        xlnx_table(len(rows)) if xlnx is None else xlnx,
        np.zeros(len(X), dtype=bool) if member is None else member,
    )


def mdl_cut_points_presorted(
    presorted: PresortedColumns, classes: np.ndarray, n_classes: int, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``mdl_cut_points_packed`` of the presorted columns of ``rows`` (unit weights; a subset of
    the presorted rows), from ``presort_columns``. The same cut points, without a sort per
    column and subset."""
    from ._mdl_kernel import fayyad_irani_cuts_presorted  # numba: imported where first needed

    member = presorted.member
    member[rows] = True
    try:
        return fayyad_irani_cuts_presorted(
            presorted.values, classes, int(n_classes), False, presorted.orders, member, presorted.xlnx
        )
    finally:
        member[rows] = False


def mdl_cut_points_weighted(
    Z: np.ndarray, classes: np.ndarray, n_classes: int, weights: np.ndarray, columns, weka_order: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """``mdl_cut_points`` (Fayyad–Irani) of each of ``columns`` of ``Z`` with row ``weights``,
    the rows in Weka's order (``weka_discretize_orders``; ``weka_order=False``: stably sorted,
    enough for whole-number weights), packed as ``mdl_cut_points_packed``'s, in one compiled
    call (NBTree cuts every branch whose rows carry a share of a missing value's weight)."""
    from ._mdl_kernel import weighted_discretize_cuts, xlnx_table  # numba: imported where first needed

    return weighted_discretize_cuts(
        np.ascontiguousarray(Z, dtype=np.float64),
        np.ascontiguousarray(classes, dtype=np.int64),
        np.ascontiguousarray(weights, dtype=np.float64),
        np.ascontiguousarray(columns, dtype=np.int64),
        int(n_classes),
        bool(weka_order),
        xlnx_table(len(Z)),
    )


def weka_discretize_orders(Z: np.ndarray, numeric) -> dict:
    """The row order in which Weka's supervised Discretize scans each numeric attribute: it sorts
    one copy of the data by each numeric attribute in turn, last attribute first (Weka's
    quicksort, missing values last), and cuts each attribute in the order its sort leaves."""
    from ..weka.estimators import weka_quicksort

    order = np.arange(len(Z))
    out = {}
    for j in reversed(np.flatnonzero(numeric)):
        x = Z[order, j]
        order = order[weka_quicksort(np.where(np.isnan(x), np.finfo(np.float64).max, x))]
        out[int(j)] = order.copy()
    return out


class MDLDiscretizer(BinsMixin, TransformerMixin, BaseEstimator):
    """MDL discretisation of numeric columns, fitted with the class (see module docstring).

    Nominal columns pass through. ``fit(X, y)`` needs ``y``; the cut points are
    ``cut_points_[column]``.

    Parameters
    ----------
    criterion : "fayyad_irani" (Weka's default) or "kononenko" (Weka ``-K``)
    better_encoding : bool
        Weka ``-E``: charge for the cut points where the value changes, not for every row.
    """

    _parameter_constraints: dict = {"criterion": [StrOptions(set(CRITERIA))], "better_encoding": ["boolean"]}

    def __init__(self, criterion: str = "fayyad_irani", *, better_encoding: bool = False):
        self.criterion = criterion
        self.better_encoding = better_encoding

    def fit(self, X, y=None):
        self._validate_params()
        if y is None:
            raise ValueError("MDLDiscretizer is supervised: fit(X, y) needs the class")
        X = as_frame(X)
        if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
            codes, k = y.cat.codes.to_numpy().astype(np.int64), len(y.cat.categories)
        else:
            _, codes = np.unique(np.asarray(y).astype(str), return_inverse=True)
            k = int(codes.max()) + 1 if len(codes) else 0
        numeric = [col for col in X.columns if not isinstance(X[col].dtype, pd.CategoricalDtype)]
        values = X[numeric].to_numpy(dtype=np.float64, na_value=np.nan) if numeric else np.empty((len(X), 0))
        _criterion(self.criterion)
        self.cut_points_ = dict(
            zip(
                numeric,
                mdl_cut_points_columns(values, codes, k, self.criterion, bool(self.better_encoding)),
                strict=True,
            )
        )
        return self
