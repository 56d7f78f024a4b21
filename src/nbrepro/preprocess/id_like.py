# SPDX-License-Identifier: GPL-3.0-or-later
"""Remove identifier-like nominal attributes.

Li & Li: "If the number of values of an attribute is almost equal to the number of
instances, that attribute is removed." Our rule: a *nominal* attribute whose number of
distinct observed values is at least ``min_distinct_fraction`` × the number of rows.
Numeric attributes are never removed (a continuous attribute has as many values as
rows, yet carries information once binned). With the default 0.9 exactly three
attributes of the 36 Li & Li datasets go: zoo ``animal`` (100/101), splice
``Instance_name`` (3178/3190) and colic.ORIG ``Hospital Number`` (337/368); the next
highest is colic.ORIG ``site of lesion`` at 63/368 = 0.17, so the rule is not fragile.
"""
from __future__ import annotations

from numbers import Real

import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils._param_validation import Interval


class RemoveIdLike(TransformerMixin, BaseEstimator):
    _parameter_constraints: dict = {"min_distinct_fraction": [Interval(Real, 0, 1, closed="both")]}

    def __init__(self, min_distinct_fraction: float = 0.9):
        self.min_distinct_fraction = min_distinct_fraction

    def fit(self, X: pd.DataFrame, y=None):
        self._validate_params()
        n = len(X)
        self.removed_ = [
            c for c in X.columns
            if isinstance(X[c].dtype, pd.CategoricalDtype) and n > 0
            and X[c].nunique(dropna=True) >= self.min_distinct_fraction * n
        ]
        return self

    def transform(self, X: pd.DataFrame) -> pd.DataFrame:
        return X.drop(columns=self.removed_)
