# SPDX-License-Identifier: GPL-3.0-or-later
"""What the meta-estimators share: their inner cross-validation's splitter, class probabilities
aligned to a class list, and the input they take (their estimator's; rows are taken with
``_mixed.take_rows``, which knows an ``EncodedFrame``)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.utils import get_tags

from .._nominal import ProbaPredictMixin, encode_target


class WrappedInputMixin(ProbaPredictMixin):
    """A meta-estimator takes what its ``estimator`` takes (nominal values, missing values) and
    reports its fitted estimator's feature names and count; it refuses sparse input and a
    regression target by name, and predicts as every classifier here (``ProbaPredictMixin``)."""

    def _check_fit_input(self, X, y) -> tuple[np.ndarray, np.ndarray]:
        """(classes, codes) of y, as ``encode_target``, after refusing sparse input."""
        self._validate_params()
        name = type(self).__name__
        if sp.issparse(X):
            raise TypeError(f"{name}: sparse input is not supported; pass a dense array or a DataFrame")
        return encode_target(self, y)  # a None or continuous target refused as every classifier here refuses it

    def _copy_features(self, fitted) -> None:
        for name in ("feature_names_in_", "n_features_in_"):
            if hasattr(fitted, name):
                setattr(self, name, getattr(fitted, name))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        inner = get_tags(self.estimator).input_tags
        tags.input_tags.allow_nan, tags.input_tags.categorical, tags.input_tags.string = \
            inner.allow_nan, inner.categorical, inner.string
        return tags


def inner_splitter(cv, default: dict):
    from ...protocols import make_splitter

    if cv is None:
        return make_splitter(default)
    if isinstance(cv, dict):
        return make_splitter(cv)
    return cv


def aligned_proba(model, X, classes) -> np.ndarray:
    """``model.predict_proba(X)`` with its columns put in the order of ``classes`` (absent ones 0)."""
    proba = model.predict_proba(X)
    own = list(model.classes_)
    if own == list(classes):
        return proba
    out = np.zeros((proba.shape[0], len(classes)))
    index = {c: j for j, c in enumerate(classes)}
    for j, c in enumerate(own):
        out[:, index[c]] = proba[:, j]
    return out


def codes_and_counts(classes, y) -> tuple[np.ndarray, np.ndarray]:
    """The rows' class codes in ``classes`` (-1: not among them) and the count of each class:
    what an nbrepro metric reads (its baseline is these rows' class distribution)."""
    codes = pd.Index(list(classes)).get_indexer(np.asarray(y, dtype=object))
    return codes, np.bincount(codes[codes >= 0], minlength=len(classes))
