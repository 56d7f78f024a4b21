# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka 3.6 unsupervised ``Discretize -B k``: equal-width bins between the observed min and max.

Cut points are ``min + width·i`` (i = 1..k−1, ``width = (max − min)/k``) in float64;
a value goes to the first bin whose upper cut point is ≥ the value, so a value on an
edge falls in the lower bin, ``(a, b]``. Every one of the k bins is a declared value
even when empty (it counts in Laplace's denominator). A constant or all-missing
attribute gets no cut points and one value, ``'All'``. Nominal columns pass through.
"""
from __future__ import annotations

from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils._param_validation import Interval


def equal_width_cut_points(values: np.ndarray, n_bins: int, name="values") -> np.ndarray:
    v = values[~np.isnan(values)]
    if len(v) == 0 or n_bins < 2:
        return np.empty(0)
    lo, hi = float(v.min()), float(v.max())
    if not np.isfinite(hi - lo):
        # values near ±1e308 (or infinite ones): the bins' width overflows, every cut point would be inf
        raise ValueError(f"attribute {name!r}: its range {lo!r} to {hi!r} overflows a double, so equal-width bins "
                         "are not defined; rescale the attribute or remove it")
    width = (hi - lo) / n_bins
    if not width > 0:
        return np.empty(0)
    return np.array([lo + width * i for i in range(1, n_bins)])


def bin_labels(cuts: np.ndarray) -> list[str]:
    if len(cuts) == 0:
        return ["All"]
    edges = ["-inf"] + [repr(float(c)) for c in cuts] + ["inf"]
    labels = [f"({edges[i]}-{edges[i + 1]}]" for i in range(len(cuts))]
    labels.append(f"({edges[-2]}-inf)")
    return labels


def bins_dtype(cuts: np.ndarray) -> pd.CategoricalDtype:
    """The nominal type of a column cut at ``cuts``: its bins' labels, in order."""
    return pd.CategoricalDtype(pd.Index(bin_labels(cuts), dtype=object))


def apply_cut_points(X: pd.DataFrame, cut_points: dict, dtypes: dict | None = None) -> pd.DataFrame:
    """Each column with cut points becomes nominal: bins ``(a, b]``, a missing value stays missing.
    ``dtypes``: each cut column's ``bins_dtype``, made once by the caller (a transformer applies
    the same cuts to every fold; the labels' text costs more than the binning)."""
    columns = {}
    for col in X.columns:
        if col not in cut_points:
            columns[col] = X[col]
            continue
        cuts = cut_points[col]
        v = X[col].to_numpy(dtype=np.float64, na_value=np.nan)
        # side="left" returns the first cut point >= v: Weka's "value <= cut → this bin"
        codes = np.searchsorted(cuts, v, side="left").astype(np.int32)
        codes[np.isnan(v)] = -1
        dtype = dtypes[col] if dtypes is not None else bins_dtype(cuts)
        # codes in 0 … len(cuts) by construction: pandas need not check them again
        columns[col] = pd.Categorical.from_codes(codes, dtype=dtype, validate=False)
    return pd.DataFrame(columns, index=X.index)


def as_frame(X) -> pd.DataFrame:
    """A DataFrame as it is; an array (or anything 2-D) as a frame of numeric columns named 0, 1, …,
    so that a discretiser takes what scikit-learn's transformers take."""
    if isinstance(X, pd.DataFrame):
        return X
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (rows × attributes), got an array of shape {X.shape}")
    return pd.DataFrame(X)


class BinsMixin:
    """``transform`` by ``apply_cut_points`` with the cut columns' types made once per fit. An array
    is read as numeric columns 0, 1, … (``as_frame``); the result is a DataFrame of nominal columns."""

    def transform(self, X) -> pd.DataFrame:
        X = as_frame(X)
        cached = getattr(self, "_bins_dtypes", None)
        if cached is None or cached[0] is not self.cut_points_:
            cached = (self.cut_points_, {c: bins_dtype(cuts) for c, cuts in self.cut_points_.items()})
            self._bins_dtypes = cached
        return apply_cut_points(X, self.cut_points_, cached[1])


class EqualWidthDiscretizer(BinsMixin, TransformerMixin, BaseEstimator):
    """Equal-width binning of numeric columns as Weka 3.6 does it (see module docstring)."""

    _parameter_constraints: dict = {"n_bins": [Interval(Integral, 1, None, closed="left")]}

    def __init__(self, n_bins: int = 10):
        self.n_bins = n_bins

    def fit(self, X, y=None):
        self._validate_params()
        X = as_frame(X)
        self.cut_points_ = {}
        for col in X.columns:
            if not isinstance(X[col].dtype, pd.CategoricalDtype):
                self.cut_points_[col] = equal_width_cut_points(X[col].to_numpy(dtype=np.float64), self.n_bins, col)
        return self
