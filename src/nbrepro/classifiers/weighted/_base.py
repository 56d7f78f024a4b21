# SPDX-License-Identifier: GPL-3.0-or-later
"""The shared shape of attribute-weighted naive Bayes: learn weights, weight Weka's NaiveBayes.

    P(c | x) ∝ P(c) ∏_i P(x_i | c)^(w_i)

A subclass only learns ``weights_`` (``_weights``) from the training rows and the fitted
``naive_bayes_`` (its encoding, class order and factors are there to reuse). Composition, not a
subclass of NaiveBayes: the count-based cross-validation shortcut must never bypass the weights.
"""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from .._nominal import ProbaPredictMixin, declared_target, refuse_fit_params
from ..bayes import NaiveBayes


class WeightedNaiveBayes(ProbaPredictMixin, ClassifierMixin, BaseEstimator):
    """Weka 3.6's NaiveBayes with each attribute's factors raised to a learned weight; the class
    prior is not weighted. Subclasses implement ``_weights(X, y)``."""

    # X reaches NaiveBayes and the weights' learners (trees, scores), which all take an EncodedFrame
    accepts_encoded_frame = True

    def _weights(self, X, y) -> np.ndarray:
        raise NotImplementedError

    def fit(self, X, y, **params):
        refuse_fit_params(self, params)
        self._validate_params()
        self.naive_bayes_ = NaiveBayes().fit(X, y)
        self.classes_ = self.naive_bayes_.classes_
        for name in ("feature_names_in_", "n_features_in_"):
            if hasattr(self.naive_bayes_, name):
                setattr(self, name, getattr(self.naive_bayes_, name))
        # the trees, folds and bags inside see the classes NaiveBayes saw, whatever rows they draw
        self.weights_ = np.asarray(self._weights(X, declared_target(y, self.classes_)), dtype=np.float64)
        return self

    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "weights_")
        return self.naive_bayes_.weighted_proba(X, self.weights_)

    def __sklearn_tags__(self):
        # the input it takes is NaiveBayes's: nominal (strings, categories) and numeric, missing values
        tags = super().__sklearn_tags__()
        nb = NaiveBayes().__sklearn_tags__().input_tags
        tags.input_tags.allow_nan, tags.input_tags.categorical, tags.input_tags.string = \
            nb.allow_nan, nb.categorical, nb.string
        return tags
