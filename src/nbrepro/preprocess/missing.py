# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka 3.6 ``ReplaceMissingValues``: numeric → mean, nominal → mode of the fitted data."""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin

from ..weka.summary import java_sequential_sum
from ._kinds import validate_kinds


class ReplaceMissingValues(TransformerMixin, BaseEstimator):
    """Replace each missing value by the attribute's mean (numeric) or mode (nominal).

    The mode is the first most frequent value in declared order (Weka's
    ``Utils.maxIndex``); the mean is the sequential float64 sum divided by the count, as
    Java computes it. An attribute with no observed value gets 0 (numeric) or its first
    declared value (nominal), which is what Weka's zero-initialised arrays give.

    ``kinds`` limits the replacement to numeric or nominal attributes (Liu et al. replace
    numeric values only); the other kind keeps its missing values.
    """

    _parameter_constraints: dict = {"kinds": [list, tuple]}

    def __init__(self, kinds: tuple[str, ...] = ("nominal", "numeric")):
        self.kinds = kinds

    def _validate_params(self):
        super()._validate_params()
        validate_kinds(self)

    def fit(self, X: pd.DataFrame, y=None):
        self._validate_params()
        self.fill_values_ = {}
        for col in X.columns:
            s = X[col]
            nominal = isinstance(s.dtype, pd.CategoricalDtype)
            if ("nominal" if nominal else "numeric") not in self.kinds:
                continue
            if nominal:
                codes = s.cat.codes.to_numpy()
                counts = np.bincount(codes[codes >= 0], minlength=len(s.cat.categories))
                self.fill_values_[col] = s.cat.categories[int(np.argmax(counts))] if len(counts) else None
            else:
                v = s.to_numpy(dtype=np.float64)
                v = v[~np.isnan(v)]
                self.fill_values_[col] = java_sequential_sum(v) / len(v) if len(v) else 0.0
        return self

    def transform(self, X: pd.DataFrame) -> pd.DataFrame:
        out = X.copy()
        for col, fill in self.fill_values_.items():
            if fill is not None and out[col].isna().any():
                out[col] = out[col].fillna(fill)
        return out
