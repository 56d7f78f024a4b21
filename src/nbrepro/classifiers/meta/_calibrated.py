# SPDX-License-Identifier: GPL-3.0-or-later
"""Calibration of a classifier's probabilities by a logistic model fitted to its inner-CV outputs.

It takes its internal cross-validation as ``cv``, as ``InnerCVSelection`` does: a splitter object (anything with
``split(X, y)``, e.g. ``nbrepro.protocols.WekaCV``) or a protocol mapping as in a paper
config (``{"name": "stratified_cv", "folds": 4, "seed": 1}``).
"""
from __future__ import annotations

from numbers import Real

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils._param_validation import HasMethods, Interval
from sklearn.utils.validation import check_is_fitted

from .._mixed import encoded_once, take_rows
from .._nominal import declared_target, refuse_fit_params
from ._inner_folds import WrappedInputMixin, aligned_proba, inner_splitter


class Calibrated(WrappedInputMixin, ClassifierMixin, BaseEstimator):
    """A classifier's class probabilities recalibrated by multinomial logistic regression.

        p(c | x) = softmax_c(a_c + Σ_j b_cj q_j(x)),   q = the base classifier's probabilities

    (a, b) are fitted with a ridge penalty ``ridge``·Σb² (on standardised q) to the base
    classifier's out-of-fold probabilities from an internal cross-validation of the training
    rows; the base classifier is then refitted on all training rows. This is Weka's
    ``Stacking -X k -M Logistic -B <classifier>`` with one base learner: the logistic
    regression is nbrepro's ``Logistic`` (Weka's, exact), fitted to the out-of-fold rows in
    Weka's order (test fold by test fold). ``meta`` replaces it by any classifier of q.

    Parameters
    ----------
    estimator : the base classifier
    cv : splitter or protocol mapping (default: Weka's stratified 10-fold, seed 1, as Stacking -X 10 -S 1)
    ridge : float, the logistic regression's ridge (Weka Logistic's -R)
    meta : classifier or None (None: ``Logistic(ridge=ridge)``)

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    n_features_in_ : int
        The number of attributes seen in ``fit``.
    feature_names_in_ : ndarray
        The attribute names, when ``fit`` was given a DataFrame.
    estimator_ : estimator
        The base estimator refitted on all the training rows.
    meta_ : Logistic
        The calibration: Weka's Logistic fitted on the base's out-of-fold probabilities.

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import NaiveBayes, Calibrated
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> cv = {"name": "weka_cv", "folds": 2, "runs": {"first": 1, "last": 1}}
    >>> clf = Calibrated(NaiveBayes(), cv=cv).fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[1., 0.],
           [1., 0.]])
    """

    no_sample_weight = "Weka 3.6's Stacking takes no instance weights"

    # the internal CV when ``cv`` is None: Stacking -X 10 -S 1's folds (also what a reseeded run shifts)
    default_cv = {"name": "weka_cv", "folds": 10, "runs": {"first": 1, "last": 1}}

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict_proba"])],
        "cv": [dict, None],
        "ridge": [Interval(Real, 0, None, closed="left")],
        "meta": [HasMethods(["fit", "predict_proba"]), None],
    }

    def __init__(self, estimator=None, *, cv=None, ridge: float = 1e-8, meta=None):
        self.estimator = estimator
        self.cv = cv
        self.ridge = ridge
        self.meta = meta

    def _meta(self):
        if self.meta is not None:
            return clone(self.meta)
        from ..functions import Logistic

        return Logistic(ridge=self.ridge)

    def fit(self, X, y, **params):
        refuse_fit_params(self, params)
        self.classes_, codes = self._check_fit_input(X, y)
        y = declared_target(y, self.classes_)   # an inner training fold may hold one class only
        splitter = inner_splitter(self.cv, self.default_cv)
        X = encoded_once(self.estimator, X)  # eleven fits on rows of X: encoded once, rows taken by numpy
        blocks, order = [], []
        for train, test in splitter.split(X, y):
            model = clone(self.estimator).fit(take_rows(X, train), take_rows(y, train))
            blocks.append(aligned_proba(model, take_rows(X, test), self.classes_))
            order.append(np.asarray(test))
        # Weka's Stacking adds the meta rows test fold by test fold; the order of the rows is
        # the order of the logistic regression's sums
        out_of_fold = np.concatenate(blocks) if blocks else np.zeros((0, len(self.classes_)))
        order = np.concatenate(order) if order else np.zeros(0, dtype=np.int64)
        seen = codes[order] >= 0
        # every class declared, as in Weka's meta-level header, even one no meta row has
        meta_y = pd.Series(pd.Categorical.from_codes(codes[order][seen], categories=range(len(self.classes_))))
        self.meta_ = self._meta().fit(out_of_fold[seen], meta_y)
        self.estimator_ = clone(self.estimator).fit(X, y)
        self._copy_features(self.estimator_)
        return self

    @property
    def accepts_encoded_frame(self) -> bool:
        """Whether fit and predict take an ``EncodedFrame``: where the estimator does."""
        return bool(getattr(self.estimator, "accepts_encoded_frame", False))

    def predict_proba(self, X):
        check_is_fitted(self, "meta_")
        q = aligned_proba(self.estimator_, X, self.classes_)
        p = self.meta_.predict_proba(q)
        out = np.zeros((len(q), len(self.classes_)))
        out[:, np.asarray(self.meta_.classes_, dtype=np.int64)] = p
        return out

