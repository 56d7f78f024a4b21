# SPDX-License-Identifier: GPL-3.0-or-later
"""Naive Bayes on mixed data as Orhan et al. (2012) state it, and their least-squares weighted NB."""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_array
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from ... import libm
from .._nominal import check_columns, encode_target, refuse_fit_params

_SQRT_2PI = np.sqrt(2.0 * np.pi)


def _value_codes(col: np.ndarray, categories: list, unseen: int) -> np.ndarray:
    """Position of each value in ``categories``; -1 for a missing value, ``unseen`` for any other."""
    codes = pd.Index(categories).get_indexer(col).astype(np.int64)
    codes[codes < 0] = unseen
    codes[pd.isna(col)] = -1
    return codes


class FrequencyGaussianNB(ClassifierMixin, BaseEstimator):
    """Naive Bayes with relative frequencies for nominal and Gaussian densities for numeric attributes.

        score(c | x) = log10(P(c) + ε)·[use_prior] + Σ_i log10(P(x_i | c) + ε)

    P(c) = n_c / n; nominal P(v | c) = n(v, c) / n_c (no Laplace correction); numeric
    P(x | c) = N(x; μ_c, σ_c) with the sample standard deviation (``std_ddof=1``; a
    class in which the attribute is constant gives 1 at its value and 0 elsewhere).
    ε = 1e-9 is added to every probability (Orhan et al.: "a very small value (10⁻⁹) is
    added all probabilities"). A missing test value leaves its attribute out; a nominal
    value never seen in training has frequency 0 (so probability ε).

    ``predict_proba`` turns the base-10 scores into probabilities (10^score, normalised).

    Parameters
    ----------
    epsilon : float
        Added to every probability factor before the logarithm.
    use_prior : bool
        Include the class-prior factor P(c).
    std_ddof : int
        Delta degrees of freedom of the per-class standard deviation (1: sample sd).

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    class_count_ : ndarray
        Training rows per class.
    class_prior_ : ndarray
        The class prior the model uses.
    n_features_in_ : int
        The number of attributes seen in ``fit``.
    feature_names_in_ : ndarray
        The attribute names, when ``fit`` was given a DataFrame.
    nominal_ : ndarray of bool
        Which attributes are nominal.
    categories_ : list
        Per attribute, its declared values in code order (None for a numeric one).
    frequencies_ : list
        Per nominal attribute, the (values, classes) relative frequencies P(x | c) (None for a numeric one).
    means_, stds_ : list
        Per numeric attribute, the per-class mean and standard deviation (None for a nominal one).

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import FrequencyGaussianNB
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> clf = FrequencyGaussianNB().fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[1., 0.],
           [1., 0.]])
    """

    _parameter_constraints: dict = {
        "epsilon": [Interval(Real, 0, None, closed="left")],
        "use_prior": ["boolean"],
        "std_ddof": [Interval(Integral, 0, None, closed="left")],
    }

    def __init__(self, *, epsilon: float = 1e-9, use_prior: bool = True, std_ddof: int = 1):
        self.epsilon = epsilon
        self.use_prior = use_prior
        self.std_ddof = std_ddof

    # ---- input --------------------------------------------------------------------------
    def _columns(self, X):
        """(list of column arrays, list of is-nominal flags, names) from a DataFrame or an array. A
        DataFrame given after a fit on one is read by column name, in the fitted order; an
        infinite numeric value is refused by attribute (its Gaussian would give NaN)."""
        if isinstance(X, pd.DataFrame):
            names = getattr(self, "feature_names_in_", None)
            if names is not None and list(X.columns) != list(names):
                check_columns(self, X)
                X = X.loc[:, list(names)]
            cols, nominal = [], []
            for c in X.columns:
                s = X[c]
                is_nom = not (s.dtype.kind in "fiub" and not isinstance(s.dtype, pd.CategoricalDtype))
                cols.append(s.to_numpy(dtype=object) if is_nom else s.to_numpy(dtype=float))
                nominal.append(is_nom)
            names = list(X.columns)
        else:
            A = check_array(X, dtype=None, accept_sparse=False, ensure_all_finite="allow-nan")
            numeric = A.dtype.kind in "fiub"
            cols = [A[:, j].astype(float) if numeric else A[:, j] for j in range(A.shape[1])]
            nominal, names = [not numeric] * A.shape[1], list(range(A.shape[1]))
        for col, nom, name in zip(cols, nominal, names, strict=True):
            if not nom and np.isinf(col).any():
                raise ValueError(f"{type(self).__name__}: numeric attribute {name!r} has an infinite value; "
                                 "mark a missing value as NaN")
        return cols, nominal, names

    def fit(self, X, y, **params):
        refuse_fit_params(self, params)
        self._fit_model(X, y)
        return self

    def _fit_model(self, X, y) -> np.ndarray:
        """Learn priors, frequencies and Gaussians; return the class codes of the rows (-1: missing)."""
        self._validate_params()
        cols, nominal, _ = self._columns(X)
        self.classes_, ycodes = encode_target(self, y)
        all_codes = ycodes
        if len(ycodes) != (len(cols[0]) if cols else len(ycodes)):
            raise ValueError("X and y have different numbers of rows")
        if isinstance(X, pd.DataFrame):
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
        self.n_features_in_ = len(cols)
        self.nominal_ = np.array(nominal, dtype=bool)
        keep = ycodes >= 0
        ycodes = ycodes[keep]
        r = len(self.classes_)
        n_c = np.bincount(ycodes, minlength=r).astype(float)
        self.class_count_ = n_c
        self.class_prior_ = n_c / n_c.sum()
        self.categories_, self.frequencies_, self.means_, self.stds_ = [], [], [], []
        for j, (col, nom) in enumerate(zip(cols, nominal, strict=True)):
            col = col[keep]
            if nom:
                if isinstance(X, pd.DataFrame) and isinstance(X.dtypes.iloc[j], pd.CategoricalDtype):
                    cats = list(X.dtypes.iloc[j].categories)  # declared values, as in the ARFF header
                else:
                    cats = sorted({v for v in col if not pd.isna(v)}, key=str)
                codes = _value_codes(col, cats, unseen=-1)
                known = codes >= 0
                counts = np.zeros((len(cats), r))
                np.add.at(counts, (codes[known], ycodes[known]), 1.0)
                with np.errstate(invalid="ignore", divide="ignore"):
                    freq = counts / counts.sum(axis=0, keepdims=True)
                self.categories_.append(cats)
                self.frequencies_.append(np.nan_to_num(freq))
                self.means_.append(None)
                self.stds_.append(None)
            else:
                mu, sd = np.zeros(r), np.zeros(r)
                for c in range(r):
                    v = col[(ycodes == c) & ~np.isnan(col)]
                    if len(v):
                        with np.errstate(over="ignore", invalid="ignore"):
                            mu[c] = v.mean()
                            sd[c] = v.std(ddof=self.std_ddof) if len(v) > self.std_ddof else 0.0
                if not (np.isfinite(mu).all() and np.isfinite(sd).all()):   # e.g. values near ±1e308
                    name = self.feature_names_in_[j] if isinstance(X, pd.DataFrame) else j
                    raise ValueError(f"numeric attribute {name!r}: its mean or standard deviation within a class "
                                     "overflows a float64 (values too large to model with a Gaussian)")
                self.categories_.append(None)
                self.frequencies_.append(None)
                self.means_.append(mu)
                self.stds_.append(sd)
        return all_codes

    def log_factors(self, X) -> np.ndarray:
        """(rows, 1 + attributes, classes): log10(P(c) + ε), then log10(P(x_i | c) + ε); 0 for a missing value."""
        check_is_fitted(self, "classes_")
        cols, _, _ = self._columns(X)
        if len(cols) != self.n_features_in_:
            raise ValueError(f"X has {len(cols)} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input")
        n = len(cols[0]) if cols else 0
        r = len(self.classes_)
        eps = self.epsilon
        out = np.zeros((n, 1 + len(cols), r))
        out[:, 0, :] = libm.log10(self.class_prior_ + eps)
        for j, col in enumerate(cols):
            if self.nominal_[j]:
                codes = _value_codes(col, self.categories_[j], unseen=-2)
                table = np.vstack([libm.log10(self.frequencies_[j] + eps), np.full((1, r), libm.log10(eps)),
                                   np.zeros((1, r))])  # rows: values, then unseen (-2), then missing (-1)
                out[:, 1 + j, :] = table[codes]
            else:
                x = np.asarray(col, dtype=float)[:, None]
                mu, sd = self.means_[j][None, :], self.stds_[j][None, :]
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    dens = libm.exp(-0.5 * ((x - mu) / sd) ** 2) / (_SQRT_2PI * sd)
                dens = np.where(sd > 0, dens, (x == mu).astype(float))  # constant within a class: point mass
                factor = libm.log10(dens + eps)
                out[:, 1 + j, :] = np.where(np.isnan(x), 0.0, factor)
        return out

    def _scores(self, F: np.ndarray) -> np.ndarray:
        return F[:, 0 if self.use_prior else 1:, :].sum(axis=1)

    def decision_function_log10(self, X) -> np.ndarray:
        return self._scores(self.log_factors(X))

    def predict_proba(self, X) -> np.ndarray:
        s = self.decision_function_log10(X)
        p = libm.power(10.0, s - s.max(axis=1, keepdims=True))
        return p / p.sum(axis=1, keepdims=True)

    def predict(self, X):
        scores = self.decision_function_log10(X)
        return self.classes_[np.argmax(scores, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.input_tags.allow_nan = True
        return tags


