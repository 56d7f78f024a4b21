# SPDX-License-Identifier: GPL-3.0-or-later
"""Any scikit-learn classifier on a paper's data: the nominal attributes one-hot encoded and the
missing values filled, so that a classifier written for a numeric matrix runs under a paper's
protocol beside nbrepro's own (a paper config names it by import path, e.g.
``estimator: sklearn.naive_bayes.GaussianNB``, and ``nbrepro.evaluation.builders.build_estimator`` wraps it)."""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils._param_validation import HasMethods
from sklearn.utils.validation import check_is_fitted

from .._nominal import check_columns, refuse_fit_params
from ._inner_folds import WrappedInputMixin


class OneHotClassifier(WrappedInputMixin, ClassifierMixin, BaseEstimator):
    """A classifier of numeric matrices given a paper's attributes as numbers.

        p(c | x) = estimator.predict_proba([onehot(x_nominal), fill(x_numeric)])_c

    A nominal attribute (a ``Categorical`` column, or a column of strings or objects) becomes one
    0/1 column per declared value (per value seen in ``fit`` for a plain column), in the declared
    order; a missing or undeclared value is all zeros. A numeric attribute is passed as it is, a
    missing value replaced by the mean of the training rows (0 where they have none): the one-hot
    and mean choices are scikit-learn's ``OneHotEncoder`` and ``SimpleImputer``, fitted on each
    training fold only. The wrapped classifier is fitted on the rows with a class, their class as
    its index among the declared classes, so every declared class has a column in ``predict_proba``
    (0 for a class absent from the training rows).

    Parameters
    ----------
    estimator : classifier with ``fit`` and ``predict_proba``, fitted on the encoded matrix

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    n_features_in_ : int
        The number of attributes seen in ``fit``.
    feature_names_in_ : ndarray
        The attribute names, when ``fit`` was given a DataFrame.
    encoder_ : sklearn.compose.ColumnTransformer
        The encoding fitted on the training rows.
    estimator_ : estimator
        The classifier fitted on the encoded training rows.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from nbrepro.classifiers import OneHotClassifier
    >>> X = pd.DataFrame({"x": [1.0, 1.2, None, 3.0, 3.2, 2.9],
    ...                   "c": pd.Categorical(["u", "u", "v", "v", "w", None], categories=["u", "v", "w"])})
    >>> y = pd.Series(["a", "a", "a", "b", "b", "b"])
    >>> clf = OneHotClassifier(GaussianNB()).fit(X, y)
    >>> clf.encoder_.transform(X[2:4]).round(2).tolist()
    [[0.0, 1.0, 0.0, 2.26], [0.0, 1.0, 0.0, 3.0]]
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'b', 'b', 'b']
    """

    attribute_kinds = frozenset({"nominal", "numeric"})

    _parameter_constraints: dict = {"estimator": [HasMethods(["fit", "predict_proba"])]}

    def __init__(self, estimator=None):
        self.estimator = estimator

    def _encoder(self, X: pd.DataFrame):
        from sklearn.compose import ColumnTransformer
        from sklearn.impute import SimpleImputer
        from sklearn.preprocessing import OneHotEncoder

        nominal, numeric, categories = [], [], []
        for j, column in enumerate(X.columns):
            dtype = X[column].dtype
            if isinstance(dtype, pd.CategoricalDtype):
                nominal.append(j)
                categories.append(list(dtype.categories))
            elif pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype):
                numeric.append(j)
            else:   # strings or objects: the values seen in fit, in sorted order
                nominal.append(j)
                categories.append(sorted(X[column].dropna().unique().tolist(), key=str))
        parts = []
        if nominal:
            parts.append(("nominal", OneHotEncoder(categories=categories, handle_unknown="ignore",
                                                   sparse_output=False, dtype=np.float64), nominal))
        if numeric:
            parts.append(("numeric", SimpleImputer(strategy="mean", keep_empty_features=True), numeric))
        return ColumnTransformer(parts, sparse_threshold=0.0)

    @staticmethod
    def _frame(X) -> pd.DataFrame:
        if isinstance(X, pd.DataFrame):
            return X
        X = np.asarray(X)
        if X.ndim != 2:
            raise ValueError(f"Expected 2D array, got {X.ndim}D array instead: Reshape your data")
        return pd.DataFrame(X)

    def _nominal_as_object(self, X: pd.DataFrame) -> pd.DataFrame:
        """Nominal columns as object arrays with None for missing: OneHotEncoder with declared
        categories takes a missing value for an unknown one (all zeros), not for NaN the value."""
        out = {}
        for column in X.columns:
            values = X[column]
            if isinstance(values.dtype, pd.CategoricalDtype) or not pd.api.types.is_numeric_dtype(values.dtype) \
                    or pd.api.types.is_bool_dtype(values.dtype):
                values = values.astype(object).where(values.notna(), None)
            out[column] = values
        return pd.DataFrame(out, index=X.index)

    def fit(self, X, y, **params):
        refuse_fit_params(self, params)
        classes, codes = self._check_fit_input(X, y)
        if self.estimator is None:
            raise ValueError("OneHotClassifier: give the classifier to wrap as estimator=")
        frame = self._frame(X)
        if len(frame) != len(codes):
            raise ValueError(f"OneHotClassifier: X has {len(frame)} rows but y has {len(codes)}")
        kept = codes >= 0
        self.encoder_ = self._encoder(frame).fit(self._nominal_as_object(frame.iloc[np.flatnonzero(kept)]))
        matrix = self.encoder_.transform(self._nominal_as_object(frame))
        self.estimator_ = clone(self.estimator).fit(matrix[kept], codes[kept])
        self.classes_ = classes
        self.n_features_in_ = frame.shape[1]
        if isinstance(X, pd.DataFrame) and all(isinstance(c, str) for c in X.columns):
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
        return self

    def predict_proba(self, X):
        check_is_fitted(self, "estimator_")
        if isinstance(X, pd.DataFrame) and hasattr(self, "feature_names_in_"):
            check_columns(self, X)
        frame = self._frame(X)
        if frame.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {frame.shape[1]} features, but OneHotClassifier is expecting "
                             f"{self.n_features_in_} features as input")
        proba = self.estimator_.predict_proba(self.encoder_.transform(self._nominal_as_object(frame)))
        out = np.zeros((len(frame), len(self.classes_)))
        out[:, np.asarray(self.estimator_.classes_, dtype=np.int64)] = proba
        return out

    def __sklearn_tags__(self):
        tags = super(WrappedInputMixin, self).__sklearn_tags__()
        tags.input_tags.allow_nan = tags.input_tags.categorical = tags.input_tags.string = True
        return tags
