# SPDX-License-Identifier: GPL-3.0-or-later
"""Shared input handling for classifiers of nominal data.

A ``Categorical`` DataFrame column is a nominal attribute whose declared categories are
its value set (values that never occur still count, as in Weka). A plain array column is
nominal with the distinct values seen in ``fit`` as its value set. A float DataFrame
column is numeric and is refused with a message saying to discretise it first.
"""
from __future__ import annotations

import functools

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_array, column_or_1d
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted


def encode_target(estimator, y) -> tuple[np.ndarray, np.ndarray]:
    """(classes, integer codes) of a training target: a Categorical's declared categories (missing →
    -1), or the sorted distinct labels of anything else.

    A Categorical declares its classes as a Weka header does: its rows may be none, or of one class
    only (a fold, a bag), as Weka builds a classifier on them; it must declare two classes at least.
    Any other target declares nothing, so it is refused in one line with no row, or a single class,
    as scikit-learn refuses it (``declared_target`` turns one into a Categorical for inner fits)."""
    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
        classes = np.asarray(y.cat.categories, dtype=object)
        if len(classes) < 2:
            raise ValueError(f"{type(estimator).__name__}: the target declares one class ({list(classes)}); a "
                             "classifier needs at least two")
        # the Categorical's own codes (``y.cat.codes`` builds a Series around them first)
        return classes, y.array.codes.astype(np.int64)
    if y is None:
        raise ValueError(f"{type(estimator).__name__} requires y to be passed, but the target y is None")
    y = column_or_1d(y, warn=True)
    missing = pd.isna(y)
    if missing.any():
        # a Categorical target's missing rows are dropped, as Weka drops rows without a class; for any
        # other target a NaN or None would become a class of its own or break the sort of the labels
        raise ValueError(f"{type(estimator).__name__}: the target y has {int(missing.sum())} missing values (first at "
                         f"row {int(np.argmax(missing))}); remove those rows, or give y as a pandas Categorical to "
                         "have them left out as Weka leaves out rows without a class")
    check_classification_targets(y)
    return _trainable(estimator, *np.unique(y, return_inverse=True))


def declared_target(y, classes) -> pd.Series:
    """``y`` as a Categorical Series declaring ``classes`` (its index kept): what a meta-estimator
    gives the fits inside it, whose rows may hold one class only."""
    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
        return y
    index = y.index if isinstance(y, (pd.Series, pd.DataFrame)) else None
    values = np.asarray(y, dtype=object)
    values = values.ravel() if values.ndim == 2 and values.shape[1] == 1 else values   # a column vector
    return pd.Series(pd.Categorical(values, categories=list(classes)), index=index)


def _trainable(estimator, classes: np.ndarray, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    name = type(estimator).__name__
    if not (codes >= 0).any():
        raise ValueError(f"{name}: no training row with a known class (fit got {len(codes)} rows)")
    if len(classes) < 2:
        raise ValueError(f"{name}: the target has one class ({classes[0]!r}); a classifier needs at least two")
    return classes, codes


def check_columns(estimator, X: pd.DataFrame) -> None:
    """A DataFrame given to a fitted estimator must hold exactly the columns seen in fit: an absent
    one, or one fit never saw (the class column left in, a renamed attribute), is refused in one
    line, as scikit-learn refuses a feature-name mismatch. Unlike scikit-learn, the columns may come
    in another order: every classifier here reads them by name."""
    names = estimator.feature_names_in_
    if len(names) == X.shape[1] and all(a == b for a, b in zip(names, X.columns, strict=True)):
        return   # the frame fit saw, or its rows (every CV fold): no set to build
    seen = set(names)
    absent = [c for c in names if c not in X.columns]
    unseen = [c for c in X.columns if c not in seen]
    if absent or unseen:
        said = [f"columns {absent} seen in fit are absent"] * bool(absent)
        said += [f"columns {unseen} were not seen in fit"] * bool(unseen)
        raise ValueError(f"{type(estimator).__name__}: {'; '.join(said)}")


def instance_weights(sample_weight, n: int) -> np.ndarray:
    """Weka's instance weights: ``sample_weight`` checked (one per row, finite, non-negative, not all
    zero), or a weight of 1 per row."""
    if sample_weight is None:
        return np.ones(n)
    w = np.asarray(sample_weight, dtype=np.float64)
    if w.shape != (n,):
        raise ValueError(f"sample_weight has shape {w.shape}; X has {n} rows")
    if np.any(~np.isfinite(w)) or np.any(w < 0):
        raise ValueError("sample_weight must be finite and non-negative")
    if n and not w.sum() > 0:
        raise ValueError("sample_weight: every weight is zero, so there is nothing to fit")
    return w


def refuse_fit_params(estimator, params: dict) -> None:
    """A classifier that takes no instance weights refuses ``sample_weight`` (or any other fit
    parameter) in one line, saying why where Weka is the reason (``no_sample_weight``)."""
    if params:
        why = getattr(estimator, "no_sample_weight", "")
        said = f"{type(estimator).__name__}.fit takes no {', '.join(sorted(params))}"
        raise TypeError(said + (f": {why}" if why else ""))


class FloatAsNominalWarning(UserWarning):
    """A float array was given to a classifier of nominal data: its values are read as categories."""


def column_arrays(X: pd.DataFrame, names) -> list:
    """The arrays (a ``Categorical``, another extension array or an ndarray) of X's columns
    ``names``, in order. ``X[c]`` builds a Series for each column (tens of microseconds; a
    calibrated fit encodes a frame some thirty times, on data sets of up to 61 attributes): the
    encoders read only the array, taken by position where the name is unique."""
    get = getattr(X, "_get_column_array", None)  # pandas' own accessor of a column's array
    if get is not None and names is X.columns:  # every column, in order: by position
        return [get(i) for i in range(X.shape[1])]
    out = []
    for c in names:
        loc = X.columns.get_loc(c)
        out.append(get(loc) if get is not None and isinstance(loc, (int, np.integer)) else X[c].array)
    return out


# the unknown-value rule of every nominal classifier: an undeclared value is missing, or an error
HANDLE_UNKNOWN = [StrOptions({"ignore", "error"})]


class ProbaPredictMixin:
    """``predict``: the class of each row's first largest probability, as Weka's classifyInstance.
    ``predict_proba`` runs first, so an unfitted model raises its NotFittedError.

    ``attribute_kinds``: the kinds of attribute (in a DataFrame: Categorical nominal, float
    numeric) the classifier takes, declared per class and read by ``nbrepro.checks`` before any job
    (scikit-learn's tags have ``categorical`` but no way to say that numeric input is refused)."""

    attribute_kinds: frozenset[str] = frozenset({"nominal", "numeric"})
    # scikit-learn's declared parameter constraints (``_validate_params`` at the start of fit):
    # each classifier lists every parameter of its __init__ (the common test checks it)
    _parameter_constraints: dict = {}

    def predict(self, X):
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    @classmethod
    def _get_param_names(cls):
        # scikit-learn reads the signature of __init__ on every get_params, so on every clone
        # (Hall's calibration clones some 30 estimators per fold): read once per class
        return list(_param_names(cls))


@functools.cache
def _param_names(cls) -> tuple:
    return tuple(BaseEstimator._get_param_names.__func__(cls))


def declared_values(dtype: pd.CategoricalDtype) -> list:
    """A categorical dtype's declared values as a list, computed once per dtype object: the folds
    of a frame share its column dtypes, and listing string categories walks them one by one."""
    hit = _DECLARED.get(id(dtype))
    if hit is not None and hit[0] is dtype:
        return list(hit[1])
    if len(_DECLARED) > 4096:
        _DECLARED.clear()
    values = list(dtype.categories)
    _DECLARED[id(dtype)] = (dtype, tuple(values))  # the dtype kept alive, so its id is not reused meanwhile
    return values


_DECLARED: dict = {}


class NominalClassifierMixin(ProbaPredictMixin, ClassifierMixin, BaseEstimator):
    """fit/predict plumbing: codes in, probabilities out. Subclasses implement ``_fit_codes`` and ``_proba_codes``."""

    handle_unknown = "ignore"
    attribute_kinds = frozenset({"nominal"})   # a numeric DataFrame column is refused (_fit_encoding)

    # ---- input encoding -------------------------------------------------------------
    def _fit_encoding(self, X, y):
        self._validate_params()  # every fit of a nominal classifier, and the count-based CV's, passes here
        if isinstance(X, pd.DataFrame):
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
            cats = []
            for c in X.columns:
                s = X[c]
                if isinstance(s.dtype, pd.CategoricalDtype):
                    cats.append(declared_values(s.dtype))
                elif s.dtype.kind in "fc":
                    raise TypeError(
                        f"{type(self).__name__}: attribute {c!r} is numeric ({s.dtype}); this classifier takes "
                        "nominal attributes: discretise it first (e.g. nbrepro.preprocess.EqualWidthDiscretizer)")
                else:
                    cats.append(sorted(pd.unique(s.dropna())))
            self.categories_ = cats
            self._dtypes = [X[c].dtype if isinstance(X[c].dtype, pd.CategoricalDtype) else None for c in X.columns]
            self._array_input = False
        else:
            X = self._as_2d(X)
            if X.dtype.kind == "f" and np.any(np.mod(X[~np.isnan(X)], 1) != 0):
                import warnings

                # a DataFrame float column is refused; an array cannot say which columns are numeric, so
                # it is read as nominal, but never silently
                warnings.warn(f"{type(self).__name__}: X is a float array with non-integer values; each distinct "
                              "value of a column is read as its own nominal value. Numeric attributes should be "
                              "discretised first (e.g. nbrepro.preprocess.EqualWidthDiscretizer on a DataFrame)",
                              FloatAsNominalWarning, stacklevel=3)
            self.categories_ = [list(np.unique(X[:, j][~pd.isna(X[:, j])])) for j in range(X.shape[1])]
            self._array_input = True
        self.n_features_in_ = len(self.categories_)
        self.n_values_ = np.array([len(c) for c in self.categories_], dtype=np.int64)

        self.classes_, ycodes = encode_target(self, y)
        if len(ycodes) != (len(X) if not isinstance(X, np.ndarray) else X.shape[0]):
            raise ValueError("X and y have different numbers of rows")
        keep = ycodes >= 0  # rows with a missing class are dropped, as Weka does
        return self._encode(X)[keep], ycodes[keep]

    @staticmethod
    def _as_2d(X):
        # sklearn's own validation: 2-D, no complex, no NaN/inf in numeric arrays, no sparse input
        return check_array(X, dtype=None, accept_sparse=False)

    def _encode(self, X) -> np.ndarray:
        """Integer codes (rows × attributes); -1 for missing or (with handle_unknown='ignore') undeclared."""
        if isinstance(X, pd.DataFrame):
            if getattr(self, "_array_input", False):
                X = X.to_numpy()
            else:
                check_columns(self, X)
                out = np.empty((len(X), len(self.categories_)), dtype=np.int64)
                arrays = column_arrays(X, self.feature_names_in_)
                for j, (c, cats, a) in enumerate(zip(self.feature_names_in_, self.categories_, arrays, strict=True)):
                    if self._same_categories(j, a.dtype):
                        out[:, j] = a.codes
                    else:
                        out[:, j] = self._lookup(np.asarray(a, dtype=object), cats, c)
                return out
        X = self._as_2d(X)
        if X.shape[1] != len(self.categories_):
            raise ValueError(f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                             f"{len(self.categories_)} features as input")
        out = np.empty(X.shape, dtype=np.int64)
        for j, cats in enumerate(self.categories_):
            out[:, j] = self._lookup(X[:, j], cats, j)
        return out

    def _same_categories(self, j: int, dtype) -> bool:
        """Whether a column's categorical dtype declares exactly the values seen in fit, in order."""
        if dtype is self._dtypes[j]:  # CV folds slice one frame: the same dtype object, no comparison needed
            return True
        return isinstance(dtype, pd.CategoricalDtype) and declared_values(dtype) == self.categories_[j]

    def _lookup(self, values, cats, name) -> np.ndarray:
        index = {v: i for i, v in enumerate(cats)}
        codes = np.fromiter((index.get(v, -2) for v in values), dtype=np.int64, count=len(values))
        unknown = codes == -2
        isna = pd.isna(values)
        codes[isna] = -1
        bad = unknown & ~isna
        if bad.any():
            if self.handle_unknown == "error":
                first = values[np.argmax(bad)]
                raise ValueError(f"{type(self).__name__}: attribute {name!r} has value {first!r} not seen in fit")
            codes[bad] = -1  # treated as missing: the attribute is left out for that row
        return codes

    # ---- public API -----------------------------------------------------------------
    def fit(self, X, y, **params):
        refuse_fit_params(self, params)
        codes, ycodes = self._fit_encoding(X, y)
        self._fit_codes(codes, ycodes)
        return self

    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "classes_")
        return self._proba_codes(self._encode(X))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags


class CountedClassifierMixin(NominalClassifierMixin):
    """A classifier that sees its training rows only through additive counts.

    Subclasses implement ``_count(codes, y) -> dict of arrays`` (sums over rows) and
    ``_fit_counts(counts)``. Counts of disjoint row sets add, so a cross-validation
    training set can be fitted from (counts of all rows) − (counts of its test rows):
    exact, since the counts are integers, and about k times less counting
    (``nbrepro.evaluation.crossval`` does this).
    """

    def _fit_codes(self, codes: np.ndarray, y: np.ndarray) -> None:
        self._fit_counts(self._count(codes, y))

    def _count(self, codes: np.ndarray, y: np.ndarray) -> dict:
        raise NotImplementedError

    def _fit_counts(self, counts: dict) -> None:
        raise NotImplementedError


def accepted_kinds(estimator) -> frozenset[str]:
    """The attribute kinds ``estimator`` takes: its class's ``attribute_kinds``, narrowed by those of
    the estimator a meta-estimator wraps (its ``estimator`` parameter)."""
    kinds = getattr(estimator, "attribute_kinds", frozenset({"nominal", "numeric"}))
    inner = estimator.get_params(deep=False).get("estimator") if hasattr(estimator, "get_params") else None
    return kinds & accepted_kinds(inner) if hasattr(inner, "fit") else kinds


def integer_columns(estimator, container: str = "frame") -> str:
    """How ``estimator`` reads a column of integers: ``"numeric"`` (a number) or ``"nominal"`` (each
    distinct value a value of its own), for a DataFrame's column (``container="frame"``) or an
    array's (``"array"``).

    A DataFrame's integer column is numeric wherever the estimator takes numeric attributes
    (``accepted_kinds``), nominal otherwise; an array's column the same, except where the class
    reads a bare array as nominal values (``array_columns = "nominal"``: TAN, LocallyWeightedNB),
    or a meta-estimator wraps one that does. To have integer codes read as nominal values, give
    them as a ``Categorical`` column."""
    if container not in ("frame", "array"):
        raise ValueError(f"container must be 'frame' or 'array', not {container!r}")
    reading = "numeric" if "numeric" in accepted_kinds(estimator) else "nominal"
    if container == "array":
        reading = getattr(estimator, "array_columns", reading)
        inner = estimator.get_params(deep=False).get("estimator") if hasattr(estimator, "get_params") else None
        if hasattr(inner, "fit") and integer_columns(inner, "array") == "nominal":
            reading = "nominal"
    return reading


ENCODING_ATTRIBUTES = ("feature_names_in_", "categories_", "_dtypes", "_array_input", "n_features_in_",
                       "n_values_", "classes_")


def java_normalize(p: np.ndarray) -> np.ndarray:
    """Weka's ``Utils.normalize`` per row: a left-to-right sum, then division."""
    s = p[:, 0].copy()
    for j in range(1, p.shape[1]):
        s += p[:, j]
    with np.errstate(invalid="ignore", divide="ignore"):
        return p / s[:, None]


def normalize_or_uniform(probs: np.ndarray) -> np.ndarray:
    """``java_normalize``; a row Weka cannot normalise (sum 0, where Weka raises, or NaN, where it
    returns NaN and predicts the first class) becomes uniform — the same prediction."""
    out = java_normalize(probs)
    bad = ~np.isfinite(out).all(axis=1)
    if bad.any():
        out[bad] = 1.0 / probs.shape[1]
    return out
