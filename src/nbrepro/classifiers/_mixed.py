# SPDX-License-Identifier: GPL-3.0-or-later
"""Input handling for classifiers that take nominal and numeric attributes, as Weka does.

Weka holds every value as a double: a nominal value as the index of its declared value, a
numeric value as itself, a missing value as NaN. ``MixedInputMixin`` encodes a DataFrame
or array into that one float matrix:

- a ``Categorical`` column is nominal, its declared categories the value set;
- an object, string or bool column is nominal, the sorted distinct values seen in ``fit``
  the value set;
- an integer or float column is numeric;
- an array is numeric when its dtype is numeric, nominal otherwise.

A nominal value outside the value set is missing (``handle_unknown="ignore"``) or an
error naming the attribute (``"error"``), as for the nominal classifiers. An infinite
numeric value is an error naming the attribute: Weka's ARFF reader refuses it too.

``EncodedFrame`` holds a frame already encoded so, for meta-estimators that fit their
estimator many times on rows of one frame (an inner cross-validation).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.utils import check_array

from ._nominal import (
    NominalClassifierMixin,
    check_columns,
    column_arrays,
    declared_values,
    encode_target,
    instance_weights,
)


def is_numeric_dtype(dtype) -> bool:
    return not isinstance(dtype, pd.CategoricalDtype) and dtype.kind in "iuf"


def _float_values(a) -> np.ndarray:
    """A numeric column's array as float64, missing values NaN (as ``Series.to_numpy(float64,
    na_value=nan)`` gives it)."""
    if isinstance(a, np.ndarray):
        return a.astype(np.float64, copy=False)
    return a.to_numpy(dtype=np.float64, na_value=np.nan)


class EncodedFrame:
    """A DataFrame encoded once into the float matrix ``MixedInputMixin`` would build from it,
    with its columns' names and dtypes: what a meta-estimator hands its estimator when it fits it
    many times on rows of one frame (Hall's calibration: eleven fits per training fold).

    Taking rows (``take``) is a numpy take, and a classifier that accepts it
    (``accepts_encoded_frame``) reads the matrix as it is: the pandas take and the encoding of
    each inner fit are done once. Encoding is row by row, so the rows of the encoded frame are
    the encoding of the frame's rows: the same bits. Only a frame of Categorical and numeric
    columns without an infinite value is encoded (``of`` gives None otherwise): an object
    column's value set depends on the rows a fit sees, and an infinite value is the
    classifier's own error to raise. ``frame`` gives back the DataFrame of the rows, for an
    estimator fitted on another frame.

    ``values``: (rows, attributes) float64; ``columns``: names; ``dtypes``: per column;
    ``header``: (columns, dtypes), one object shared by every take of a frame, so a classifier
    fitted on one take knows another by identity."""

    __slots__ = ("values", "header", "_frame", "_rows")

    def __init__(self, values: np.ndarray, header: tuple, frame: pd.DataFrame, rows: np.ndarray):
        self.values, self.header, self._frame, self._rows = values, header, frame, rows

    @classmethod
    def of(cls, X) -> EncodedFrame | None:
        """X encoded (X itself if it is one), or None where it cannot be encoded once for all its rows."""
        if isinstance(X, EncodedFrame):
            return X
        if not isinstance(X, pd.DataFrame) or not X.columns.is_unique:
            return None
        dtypes = list(X.dtypes)
        if not all(isinstance(t, pd.CategoricalDtype) or is_numeric_dtype(t) for t in dtypes):
            return None
        values = np.empty((len(X), len(dtypes)))
        for j, (t, a) in enumerate(zip(dtypes, column_arrays(X, X.columns), strict=True)):
            if isinstance(t, pd.CategoricalDtype):
                values[:, j] = np.where(a.codes >= 0, a.codes, np.nan)
            else:
                values[:, j] = _float_values(a)
        if np.isinf(values).any():
            return None
        return cls(values, (np.asarray(X.columns, dtype=object), tuple(dtypes)), X, np.arange(len(X)))

    @property
    def columns(self) -> np.ndarray:
        return self.header[0]

    @property
    def dtypes(self) -> tuple:
        return self.header[1]

    @property
    def shape(self) -> tuple[int, int]:
        return self.values.shape

    def __len__(self) -> int:
        return self.values.shape[0]

    def take(self, rows) -> EncodedFrame:
        return EncodedFrame(self.values[rows], self.header, self._frame, self._rows[rows])

    def frame(self) -> pd.DataFrame:
        return self._frame.iloc[self._rows]


def encoded_once(estimator, X):
    """X as an ``EncodedFrame`` where ``estimator`` takes one (``accepts_encoded_frame``) and X's
    columns allow encoding it once for all its rows; X itself otherwise."""
    if getattr(estimator, "accepts_encoded_frame", False):
        encoded = EncodedFrame.of(X)
        if encoded is not None:
            return encoded
    return X


def take_rows(X, rows):
    """Rows of a DataFrame, Series, EncodedFrame or array, by position."""
    if isinstance(X, EncodedFrame):
        return X.take(rows)
    return X.iloc[rows] if isinstance(X, (pd.DataFrame, pd.Series)) else np.asarray(X)[rows]


class MixedInputMixin(NominalClassifierMixin):
    """fit/predict plumbing for nominal + numeric data. After ``_fit_mixed``: ``numeric_``
    (bool per attribute), ``categories_`` (value list per nominal attribute, ``None`` for a
    numeric one) and ``n_values_`` (0 for a numeric attribute)."""

    attribute_kinds = frozenset({"nominal", "numeric"})
    # fit and predict take an EncodedFrame (a subclass that reads X otherwise says False)
    accepts_encoded_frame = True

    def _fit_mixed(self, X, y, sample_weight=None):
        """(values, class codes, weights) of the training rows with a known class."""
        self._validate_params()  # every fit of a mixed-input classifier passes here
        self._header = X.header if isinstance(X, EncodedFrame) else None
        if isinstance(X, (pd.DataFrame, EncodedFrame)):
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
            dtypes = list(X.dtypes)  # once: each ``X.dtypes`` builds a Series (tens of microseconds)
            numeric = np.array([is_numeric_dtype(t) for t in dtypes], dtype=bool)
            cats = []
            for c, num, t in zip(self.feature_names_in_, numeric, dtypes, strict=True):
                if num:
                    cats.append(None)
                elif isinstance(t, pd.CategoricalDtype):
                    cats.append(declared_values(t))
                else:
                    cats.append(sorted(pd.unique(X[c].dropna())))
            self._dtypes = [t if isinstance(t, pd.CategoricalDtype) else None for t in dtypes]
            self._array_input = False
        else:
            A = self._as_array(X)
            numeric = np.full(A.shape[1], A.dtype.kind in "iufb", dtype=bool)
            cats = [None if num else list(np.unique(A[:, j][~pd.isna(A[:, j])])) for j, num in enumerate(numeric)]
            self._array_input = True
        self.numeric_ = numeric
        self.categories_ = cats
        self.n_features_in_ = len(cats)
        self.n_values_ = np.array([0 if c is None else len(c) for c in cats], dtype=np.int64)
        self.classes_, ycodes = encode_target(self, y)
        Z = self._encode_mixed(X)
        if len(ycodes) != Z.shape[0]:
            raise ValueError("X and y have different numbers of rows")
        w = instance_weights(sample_weight, len(ycodes))
        keep = ycodes >= 0  # rows with a missing class are dropped, as Weka does
        return Z[keep], ycodes[keep], w[keep]

    @staticmethod
    def _as_array(X):
        return check_array(X, dtype=None, accept_sparse=False, ensure_all_finite="allow-nan")

    def _encode_mixed(self, X) -> np.ndarray:
        """The float matrix Weka would hold: nominal codes, numeric values, NaN for missing."""
        if isinstance(X, EncodedFrame):
            if X.header is getattr(self, "_header", None):  # rows of the frame fit saw: encoded as fit would
                return X.values.copy()
            X = X.frame()
        name = type(self).__name__
        if isinstance(X, pd.DataFrame) and not self._array_input:
            check_columns(self, X)
            out = np.empty((len(X), self.n_features_in_))
            numeric = np.flatnonzero(self.numeric_)
            if len(numeric):  # all numeric columns in one pandas call
                names = list(self.feature_names_in_[numeric])
                arrays = column_arrays(X, names)  # their dtypes without ``X.dtypes``'s Series
                bad = [(c, a.dtype) for c, a in zip(names, arrays, strict=True) if not is_numeric_dtype(a.dtype)]
                if bad:
                    raise TypeError(f"{name}: attribute {bad[0][0]!r} was numeric in fit but is {bad[0][1]} here")
                every = len(names) == X.shape[1] and all(a == b for a, b in zip(names, X.columns, strict=True))
                # a whole all-numeric frame converts in one call; otherwise column by column,
                # which costs less than the copy a column selection (X[names]) makes
                V = (X.to_numpy(dtype=np.float64, na_value=np.nan) if every else
                     np.column_stack([_float_values(a) for a in arrays]))
                inf = np.isinf(V)
                if inf.any():
                    r, k = np.argwhere(inf)[0]
                    raise ValueError(f"{name}: attribute {names[k]!r} has an infinite value (row {X.index[r]!r}); "
                                     "Weka refuses it too")
                out[:, numeric] = V
            nominal = np.flatnonzero(~self.numeric_)
            for j, a in zip(nominal, column_arrays(X, self.feature_names_in_[nominal]), strict=True):
                c, cats = self.feature_names_in_[j], self.categories_[j]
                codes = (a.codes if self._same_categories(j, a.dtype)
                         else self._lookup(np.asarray(a, dtype=object), cats, c))
                out[:, j] = np.where(np.asarray(codes) >= 0, codes, np.nan)
            return out
        A = self._as_array(X.to_numpy() if isinstance(X, pd.DataFrame) else X)
        if A.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {A.shape[1]} features, but {name} is expecting {self.n_features_in_} "
                             "features as input")
        out = np.empty(A.shape)
        for j, cats in enumerate(self.categories_):
            if cats is None:
                out[:, j] = A[:, j].astype(np.float64)
            else:
                codes = self._lookup(A[:, j], cats, j)
                out[:, j] = np.where(codes >= 0, codes, np.nan)
        return out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags
