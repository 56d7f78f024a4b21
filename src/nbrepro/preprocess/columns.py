# SPDX-License-Identifier: GPL-3.0-or-later
"""Remove named attributes: bookkeeping columns a mirror carries and the paper did not use
(e.g. the climate-model data's study and run numbers, which Mao et al.'s 18 features leave out)."""
from __future__ import annotations

import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin


class RemoveColumns(TransformerMixin, BaseEstimator):
    _parameter_constraints: dict = {"columns": [list, tuple]}

    def __init__(self, columns: tuple[str, ...] = ()):
        self.columns = columns

    def fit(self, X: pd.DataFrame, y=None):
        self._validate_params()
        missing = [c for c in self.columns if c not in X.columns]
        if missing:
            raise ValueError(f"remove_columns: no attribute(s) {missing}; have {list(X.columns)}")
        return self

    def transform(self, X: pd.DataFrame) -> pd.DataFrame:
        return X.drop(columns=list(self.columns))
