# SPDX-License-Identifier: GPL-3.0-or-later
"""Read nominal attributes whose values are numbers as numeric attributes.

Weka's haberman.arff declares the year of operation nominal ({58, …, 69}); UCI's
haberman.data, which Orhan et al. read, has it as a number, and they model numeric
attributes with Gaussian densities.
"""
from __future__ import annotations

import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin


class ToNumeric(TransformerMixin, BaseEstimator):
    _parameter_constraints: dict = {"columns": [list, tuple]}

    def __init__(self, columns: tuple[str, ...] = ()):
        self.columns = columns

    def fit(self, X: pd.DataFrame, y=None):
        self._validate_params()
        missing = [c for c in self.columns if c not in X.columns]
        if missing:
            raise ValueError(f"to_numeric: no attribute(s) {missing}; have {list(X.columns)}")
        return self

    def transform(self, X: pd.DataFrame) -> pd.DataFrame:
        X = X.copy()
        for c in self.columns:
            try:
                X[c] = pd.to_numeric(X[c].astype(object), errors="raise").astype(float)
            except (ValueError, TypeError) as exc:
                raise ValueError(f"to_numeric: attribute {c!r} has a value that is not a number ({exc})") from None
        return X
