# SPDX-License-Identifier: GPL-3.0-or-later
"""z-normalisation of numeric attributes, fitted on the rows it is fitted on (e.g. a training fold)."""
from __future__ import annotations

from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils._param_validation import Interval


class Standardize(TransformerMixin, BaseEstimator):
    """x ↦ (x − mean) / sd per numeric column; nominal columns pass through.

    ``ddof=1`` uses the sample sd (MATLAB's ``zscore``), ``ddof=0`` the population sd
    (scikit-learn's StandardScaler). A column with sd 0 (or one observed value) is only
    centred. Missing values stay missing and are left out of the mean and sd.
    """

    _parameter_constraints: dict = {"ddof": [Interval(Integral, 0, None, closed="left")]}

    def __init__(self, ddof: int = 1):
        self.ddof = ddof

    def fit(self, X: pd.DataFrame, y=None):
        self._validate_params()
        self.means_, self.scales_ = {}, {}
        for col in X.columns:
            if isinstance(X[col].dtype, pd.CategoricalDtype):
                continue
            v = X[col].to_numpy(dtype=np.float64)
            v = v[~np.isnan(v)]
            self.means_[col] = float(v.mean()) if len(v) else 0.0
            sd = float(v.std(ddof=self.ddof)) if len(v) > self.ddof else 0.0
            self.scales_[col] = sd if sd > 0 else 1.0
        return self

    def transform(self, X: pd.DataFrame) -> pd.DataFrame:
        out = X.copy()
        for col, mean in self.means_.items():
            out[col] = (out[col].to_numpy(dtype=np.float64) - mean) / self.scales_[col]
        return out
