"""Meta-estimators that papers wrap around classifiers: inner-CV selection and calibration.

Both take their internal cross-validation as ``cv``: a splitter object (anything with
``split(X, y)``, e.g. ``nbrepro.protocols.WekaCV``) or a protocol mapping as in a paper
config (``{"name": "stratified_cv", "folds": 4, "seed": 1}``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import check_is_fitted

from ._nominal import encode_target


def _splitter(cv, default: dict):
    from ..protocols import make_splitter

    if cv is None:
        return make_splitter(default)
    if isinstance(cv, dict):
        return make_splitter(cv)
    return cv


def _rows(X, idx):
    return X.iloc[idx] if isinstance(X, (pd.DataFrame, pd.Series)) else np.asarray(X)[idx]


def _aligned_proba(model, X, classes) -> np.ndarray:
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


def _codes_and_counts(classes, y) -> tuple[np.ndarray, np.ndarray]:
    """The rows' class codes in ``classes`` (-1: not among them) and the count of each class:
    what an nbrepro metric reads (its baseline is these rows' class distribution)."""
    codes = pd.Index(list(classes)).get_indexer(np.asarray(y, dtype=object))
    return codes, np.bincount(codes[codes >= 0], minlength=len(classes))


class InnerCVSelection(ClassifierMixin, BaseEstimator):
    """Pick the parameters with the best inner-CV metric on the training rows, refit on all of them.

        θ* = argbest_θ  mean over inner folds f of  metric(fit(θ, train_f), test_f)

    scikit-learn's ``GridSearchCV`` does the search; the first best point in grid order wins a
    tie. ``metric`` is a name of ``nbrepro.metrics`` (its direction decides "best"); for
    ``rrse`` the baseline is the inner test fold's class distribution.

    Parameters
    ----------
    estimator : a classifier
    param_grid : dict or list of dicts, as GridSearchCV
    cv : splitter or protocol mapping (default: stratified 4-fold, seed 1)
    metric : str
    """

    def __init__(self, estimator=None, param_grid=None, cv=None, metric: str = "accuracy"):
        self.estimator = estimator
        self.param_grid = param_grid
        self.cv = cv
        self.metric = metric

    def fit(self, X, y):
        from sklearn.model_selection import GridSearchCV

        from ..metrics import make_metric

        metric = make_metric(self.metric, self.metric)
        sign = 1.0 if metric.higher_is_better else -1.0

        def score(est, X_test, y_test):
            codes, counts = _codes_and_counts(est.classes_, y_test)
            return sign * metric(codes, est.predict_proba(X_test), counts)

        splitter = _splitter(self.cv, {"name": "stratified_cv", "folds": 4, "seed": 1})
        folds = list(splitter.split(X, y))
        if hasattr(self.estimator, "path_proba"):
            return self._fit_path(X, y, folds, metric, sign)
        search = GridSearchCV(clone(self.estimator), self.param_grid, scoring=score, cv=folds, refit=True,
                              error_score="raise")
        search.fit(X, y)
        self.best_estimator_ = search.best_estimator_
        self.selected_params_ = dict(search.best_params_)
        self.inner_scores_ = sign * np.asarray(search.cv_results_["mean_test_score"])
        self.classes_ = self.best_estimator_.classes_
        return self

    def _fit_path(self, X, y, folds, metric, sign):
        """The same search for an estimator that scores many grid points from one fit
        (``path_proba(X_test, points)``, e.g. every neighbourhood size from one neighbour sort):
        the same scores, means, ties and refit as GridSearchCV's."""
        from sklearn.model_selection import ParameterGrid

        points = list(ParameterGrid(self.param_grid))
        path = set(getattr(self.estimator, "path_params", ()))
        groups: dict = {}  # the grid points that share their other parameters share one fit per fold
        for i, point in enumerate(points):
            rest = tuple(sorted((key, repr(v)) for key, v in point.items() if key not in path))
            groups.setdefault(rest, []).append(i)
        fold_scores = np.empty((len(folds), len(points)))
        inner = X
        if isinstance(X, pd.DataFrame) and all(pd.api.types.is_float_dtype(t) for t in X.dtypes):
            # the inner fits see the same numbers as an array: a frame's row slicing and feature-name
            # checks cost more than the fits on small data sets (the refit below keeps the frame)
            inner = X.to_numpy(dtype=np.float64)
        for f, (train, test) in enumerate(folds):
            X_test, y_test = _rows(inner, test), _rows(y, test)
            for members in groups.values():
                rest = {key: v for key, v in points[members[0]].items() if key not in path}
                model = clone(self.estimator).set_params(**rest).fit(_rows(inner, train), _rows(y, train))
                probas = model.path_proba(X_test, [{key: points[i][key] for key in path if key in points[i]}
                                                   for i in members])
                # fit()'s score, with the test rows' class codes formed once for all the points
                codes, counts = _codes_and_counts(model.classes_, y_test)
                for i, proba in zip(members, probas):
                    fold_scores[f, i] = sign * metric(codes, proba, counts)
        means = np.average(np.ascontiguousarray(fold_scores.T), axis=1)  # as GridSearchCV forms them
        best = int(np.flatnonzero(means == means.max())[0])
        self.best_estimator_ = clone(self.estimator).set_params(**points[best]).fit(X, y)
        self.selected_params_ = dict(points[best])
        self.inner_scores_ = sign * means
        self.classes_ = self.best_estimator_.classes_
        return self

    def predict_proba(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict_proba(X)

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


class Calibrated(ClassifierMixin, BaseEstimator):
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
    """

    def __init__(self, estimator=None, cv=None, ridge: float = 1e-8, meta=None):
        self.estimator = estimator
        self.cv = cv
        self.ridge = ridge
        self.meta = meta

    def _meta(self):
        if self.meta is not None:
            return clone(self.meta)
        from .logistic import Logistic

        return Logistic(ridge=self.ridge)

    def fit(self, X, y):
        self.classes_, codes = encode_target(self, y)
        splitter = _splitter(self.cv, {"name": "weka_cv", "folds": 10, "runs": {"first": 1, "last": 1}})
        blocks, order = [], []
        for train, test in splitter.split(X, y):
            model = clone(self.estimator).fit(_rows(X, train), _rows(y, train))
            blocks.append(_aligned_proba(model, _rows(X, test), self.classes_))
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
        return self

    def predict_proba(self, X):
        check_is_fitted(self, "meta_")
        q = _aligned_proba(self.estimator_, X, self.classes_)
        p = self.meta_.predict_proba(q)
        out = np.zeros((len(q), len(self.classes_)))
        out[:, np.asarray(self.meta_.classes_, dtype=np.int64)] = p
        return out

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]
