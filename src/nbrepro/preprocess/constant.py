# SPDX-License-Identifier: GPL-3.0-or-later
"""Remove attributes that take a single observed value.

Orhan et al. keep 21 of mushroom's 22 attributes after removing incomplete rows:
``veil-type`` is the constant ``p`` in every row. They keep all 34 of ionosphere's, whose
numeric ``a02`` is constant 0 — hence ``kinds``: which attribute types the rule applies to.
"""
from __future__ import annotations

import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin

from ._kinds import validate_kinds


class RemoveConstant(TransformerMixin, BaseEstimator):
    _parameter_constraints: dict = {"kinds": [list, tuple]}

    def __init__(self, kinds: tuple[str, ...] = ("nominal", "numeric")):
        self.kinds = kinds

    def _validate_params(self):
        super()._validate_params()
        validate_kinds(self)

    def fit(self, X: pd.DataFrame, y=None):
        self._validate_params()

        def kind(c):
            return "nominal" if isinstance(X[c].dtype, pd.CategoricalDtype) else "numeric"

        self.removed_ = [c for c in X.columns if kind(c) in self.kinds and X[c].nunique(dropna=True) <= 1]
        return self

    def transform(self, X: pd.DataFrame) -> pd.DataFrame:
        return X.drop(columns=self.removed_)
