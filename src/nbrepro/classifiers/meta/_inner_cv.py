# SPDX-License-Identifier: GPL-3.0-or-later
"""Selection of a classifier's parameters by an inner cross-validation on the training rows."""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils._param_validation import HasMethods
from sklearn.utils.validation import check_is_fitted

from .._mixed import take_rows
from .._nominal import declared_target, refuse_fit_params
from ._inner_folds import WrappedInputMixin, codes_and_counts, inner_splitter


class InnerCVSelection(WrappedInputMixin, ClassifierMixin, BaseEstimator):
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

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    n_features_in_ : int
        The number of attributes seen in ``fit``.
    feature_names_in_ : ndarray
        The attribute names, when ``fit`` was given a DataFrame.
    best_estimator_ : estimator
        The estimator with the selected parameters, refitted on all the training rows.
    selected_params_ : dict
        The selected grid point.
    inner_scores_ : ndarray
        The mean inner-CV metric of each grid point, in ParameterGrid's order.

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import VotingKNN, InnerCVSelection
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> cv = {"name": "stratified_cv", "folds": 2, "repeats": 1, "seed": 1}
    >>> clf = InnerCVSelection(VotingKNN(), {"k": [1, 3]}, cv=cv).fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[1., 0.],
           [1., 0.]])
    >>> clf.selected_params_
    {'k': 1}
    """

    default_cv = {"name": "stratified_cv", "folds": 4, "seed": 1}   # the inner CV when ``cv`` is None

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict_proba"])],
        "param_grid": [dict, list],
        "cv": [dict, None],
        "metric": [str],
    }

    def __init__(self, estimator=None, param_grid=None, *, cv=None, metric: str = "accuracy"):
        self.estimator = estimator
        self.param_grid = param_grid
        self.cv = cv
        self.metric = metric

    def fit(self, X, y, **params):
        refuse_fit_params(self, params)
        from sklearn.model_selection import GridSearchCV

        from ...metrics import make_metric

        classes, _ = self._check_fit_input(X, y)   # warns of a column-vector y, as scikit-learn does
        if getattr(y, "ndim", 1) == 2:   # and scores on its one column (was: NaN at every grid point)
            y = y.iloc[:, 0] if isinstance(y, pd.DataFrame) else np.asarray(y).ravel()
        y = declared_target(y, classes)   # an inner training fold may hold one class only
        self.classes_ = classes   # the labels as given, whose order the fits inside keep
        metric = make_metric(self.metric, self.metric)
        sign = 1.0 if metric.higher_is_better else -1.0

        def score(est, X_test, y_test):
            codes, counts = codes_and_counts(est.classes_, y_test)
            return sign * metric(codes, est.predict_proba(X_test), counts)

        splitter = inner_splitter(self.cv, self.default_cv)
        folds = list(splitter.split(X, y))
        if hasattr(self.estimator, "path_proba"):
            return self._fit_path(X, y, folds, metric, sign)
        search = GridSearchCV(clone(self.estimator), self.param_grid, scoring=score, cv=folds, refit=True,
                              error_score="raise")
        search.fit(X, y)
        self._check_scores(search.cv_results_["mean_test_score"])
        self.best_estimator_ = search.best_estimator_
        self.selected_params_ = dict(search.best_params_)
        self.inner_scores_ = sign * np.asarray(search.cv_results_["mean_test_score"])
        self._copy_features(self.best_estimator_)
        return self

    def _check_scores(self, means) -> None:
        """A choice needs a score: refuse when the metric is undefined at every grid point (e.g. AUC
        with an inner test fold of one class) rather than pick the first point by default."""
        if np.isnan(np.asarray(means, dtype=float)).all():
            raise ValueError(f"InnerCVSelection: the inner-CV {self.metric!r} is undefined (NaN) at every grid "
                             "point, so no parameters can be chosen; use another metric or fewer inner folds")

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
            X_test, y_test = take_rows(inner, test), take_rows(y, test)
            for members in groups.values():
                rest = {key: v for key, v in points[members[0]].items() if key not in path}
                model = clone(self.estimator).set_params(**rest).fit(take_rows(inner, train), take_rows(y, train))
                probas = model.path_proba(X_test, [{key: points[i][key] for key in path if key in points[i]}
                                                   for i in members])
                # fit()'s score, with the test rows' class codes formed once for all the points
                codes, counts = codes_and_counts(model.classes_, y_test)
                for i, proba in zip(members, probas, strict=True):
                    fold_scores[f, i] = sign * metric(codes, proba, counts)
        means = np.average(np.ascontiguousarray(fold_scores.T), axis=1)  # as GridSearchCV forms them
        self._check_scores(means)
        best = int(np.flatnonzero(means == np.nanmax(means))[0])   # a NaN point ranks last, as in GridSearchCV
        self.best_estimator_ = clone(self.estimator).set_params(**points[best]).fit(X, y)
        self.selected_params_ = dict(points[best])
        self.inner_scores_ = sign * means
        self._copy_features(self.best_estimator_)
        return self

    def predict_proba(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict_proba(X)

