# SPDX-License-Identifier: GPL-3.0-or-later
"""Naive Bayes for nominal and numeric attributes, exactly as Weka 3.6's ``NaiveBayes``."""
from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ... import libm
from ...preprocess.mdl import mdl_cut_points, mdl_cut_points_columns
from ...weka.estimators import KernelEstimators, NormalEstimators, numeric_precisions, weka_training_order
from ...weka.product import TINY, weka_product
from .._mixed import MixedInputMixin
from .._nominal import HANDLE_UNKNOWN, CountedClassifierMixin, java_normalize
from ._joint import flat_index, value_offsets


class NaiveBayes(MixedInputMixin, CountedClassifierMixin):
    """Naive Bayes as Weka 3.6's ``weka.classifiers.bayes.NaiveBayes`` (options ``-K``, ``-D``).

        P(c | x) ∝ (n_c + 1)/(n + r) · ∏_i P(x_i | c)

    Nominal attribute: P(v | c) = (n_{c,v} + 1)/(n_c + q_i), Laplace counts over the q_i
    declared values. Numeric attribute: the probability of a precision-wide interval around
    the value under a Gaussian (``NormalEstimator``) or, with ``kernel=True``, a Gaussian
    kernel estimate (``KernelEstimator``); see ``nbrepro.weka.estimators``.
    The precision is the mean gap between adjacent distinct training values. With
    ``supervised_discretization=True`` numeric attributes are first discretised by
    Fayyad–Irani MDL fitted to the training rows (``MDLDiscretizer``).

    Counts are sums of row weights (``sample_weight``, Weka's instance weights; 1 by
    default). A missing or undeclared value leaves its attribute out. The product is
    formed the way Weka forms it: attribute by attribute in float64, each factor floored
    at 1e-75 and the row rescaled by 1e75 when its largest entry drops below 1e-75, so
    probabilities and ties match Weka's.

    Parameters
    ----------
    kernel : bool
        Weka ``-K``: kernel density estimates for numeric attributes.
    supervised_discretization : bool
        Weka ``-D``: MDL-discretise numeric attributes (fitted on the training rows).
    handle_unknown : {"ignore", "error"}
        A test value outside a nominal attribute's value set is treated as missing
        ("ignore") or raises ``ValueError`` naming the attribute and value ("error").

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
    numeric_ : ndarray of bool
        Which attributes are numeric.
    categories_ : list
        Per attribute, its declared values in code order (None for a numeric one).
    n_values_ : ndarray
        Per attribute, its number of declared values (0 for a numeric one).
    offsets_ : ndarray
        Where each attribute's values start in the flat count arrays.
    feature_prob_ : list
        Per nominal attribute, Weka's Laplace estimates P(x | c) as (values, classes).
    normal_ : object
        The numeric attributes' estimators (Weka's NormalEstimator, or KernelEstimator with ``kernel=True``).
    numeric_columns_ : ndarray
        The positions of the numeric attributes.
    cut_points_ : dict
        With ``supervised_discretization=True``: each numeric attribute's MDL cut points.

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import NaiveBayes
    >>> X = pd.DataFrame({
    ...     "outlook": pd.Categorical(["sunny", "sunny", "rain", "rain", "overcast", "overcast", "sunny", "rain"]),
    ...     "windy": pd.Categorical(["no", "yes", "no", "yes", "no", "yes", "no", "yes"])})
    >>> y = pd.Series(["no", "no", "yes", "no", "yes", "yes", "no", "yes"])
    >>> clf = NaiveBayes().fit(X, y)
    >>> clf.predict(X).tolist()
    ['no', 'no', 'yes', 'yes', 'yes', 'yes', 'no', 'yes']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.8, 0.2],
           [0.8, 0.2]])
    """

    _parameter_constraints: dict = {
        "kernel": ["boolean"],
        "supervised_discretization": ["boolean"],
        "handle_unknown": HANDLE_UNKNOWN,
    }

    def __init__(self, *, kernel: bool = False, supervised_discretization: bool = False,
                 handle_unknown: str = "ignore"):
        self.kernel = kernel
        self.supervised_discretization = supervised_discretization
        self.handle_unknown = handle_unknown

    def fit(self, X, y, sample_weight=None):
        Z, ycodes, w = self._fit_mixed(X, y, sample_weight)  # the parameters validated first
        if self.kernel and self.supervised_discretization:
            raise ValueError("NaiveBayes: kernel=True and supervised_discretization=True exclude each other "
                             "(Weka: \"Can't use both kernel density estimation and discretization!\")")
        r = len(self.classes_)
        self.cut_points_ = {}
        if self.supervised_discretization:
            # Weka -D: MDL cut points from the training rows; each numeric attribute becomes nominal
            numeric = np.flatnonzero(self.numeric_)
            if np.all(w == 1.0):
                cuts = mdl_cut_points_columns(Z[:, numeric], ycodes, r)
            else:
                cuts = [mdl_cut_points(Z[:, j], ycodes, r, w) for j in numeric]
            self.cut_points_ = dict(zip(numeric.tolist(), cuts, strict=True))
            Z = self._discretize(Z)
            for j, cuts in self.cut_points_.items():
                self.n_values_[j] = len(cuts) + 1
        modelled = self._modelled_numeric()
        self._fit_counts(self._count(nominal_codes(Z, modelled), ycodes, w))
        columns = np.flatnonzero(modelled)
        self.numeric_columns_ = columns
        V = Z[:, columns]
        precision = numeric_precisions(V)
        if self.kernel:
            self.kernel_ = KernelEstimators(V, ycodes, w, r, precision)
        else:
            table = NormalEstimators(V, ycodes, w, r, precision)
            if table.order_sensitive:
                # Weka adds the rows in the order its sorts by attribute left them; where the running
                # sums cancel badly, that order shows in the digits, so add them in that order too
                order = weka_training_order(Z, modelled)
                table = NormalEstimators(V[order], ycodes[order], w[order], r, precision, sequential=True)
            self.normal_ = table
        return self

    def _modelled_numeric(self) -> np.ndarray:
        """The attributes modelled by a numeric estimator: numeric ones not discretised."""
        numeric = self.numeric_.copy()
        numeric[list(self.cut_points_)] = False
        return numeric

    def _discretize(self, Z: np.ndarray) -> np.ndarray:
        Z = Z.copy()
        for j, cuts in self.cut_points_.items():
            v = Z[:, j]
            Z[:, j] = np.where(np.isnan(v), np.nan, np.searchsorted(cuts, v, side="left"))  # bins (a, b]
        return Z

    def predict_proba(self, X) -> np.ndarray:
        return self.weighted_proba(X, None)

    def weighted_proba(self, X, weights) -> np.ndarray:
        """``predict_proba`` with each attribute's factor raised to ``weights[i]`` (None: all 1),
        the class prior unweighted: P(c | x) ∝ P(c) ∏_i P(x_i | c)^(w_i) (attribute-weighted NB)."""
        codes, numeric = self._factor_inputs(X)
        return self._proba_codes(codes, numeric, weights)

    def attribute_factors(self, X) -> np.ndarray:
        """(rows, attributes, classes): each attribute's factor P(x_i | c) for each row (1 where
        the value is missing), the terms of the product ``predict_proba`` forms."""
        return self._factors(*self._factor_inputs(X))

    def _factors(self, codes: np.ndarray, numeric=None) -> np.ndarray:
        """(rows, attributes, classes) factors of nominal ``codes`` and of the ``numeric`` attributes
        (attribute index → (rows, classes)), gathered as (classes, attributes, rows), the layout
        ``weka_product`` works in, and viewed in the documented order."""
        F = np.take(self._factor.T, flat_index(codes, self.offsets_, self.n_values_).T, axis=1).transpose(2, 1, 0)
        for j, f in (numeric or {}).items():
            F[:, j] = f
        return F

    def _factor_inputs(self, X):
        """(nominal codes, {numeric attribute: (rows, classes) factors}) of the rows X."""
        check_is_fitted(self, "classes_")
        Z = self._discretize(self._encode_mixed(X))
        numeric = {}
        columns = self.numeric_columns_
        if len(columns):
            V = Z[:, columns]
            known = ~np.isnan(V)
            if self.kernel:
                F = self.kernel_.probability(V)
                F[~known] = 1.0
            else:
                F = self.normal_.probability(np.where(known, V, 0.0))
                F[~known] = 1.0
            if np.isnan(F).any():
                self._refuse_nan(columns[int(np.flatnonzero(np.isnan(F).any(axis=(0, 2)))[0])])
            numeric = {int(j): F[:, t] for t, j in enumerate(columns)}
        return nominal_codes(Z, self._modelled_numeric()), numeric

    def _refuse_nan(self, j: int):
        """Weka's NaiveBayes stops where an estimator gives NaN ("NaN returned from estimator for
        attribute …"): values near ±1e308 overflow its sums, and a NaN product would predict the
        first class for every row."""
        name = self.feature_names_in_[j] if hasattr(self, "feature_names_in_") else j
        raise ValueError(f"{type(self).__name__}: the estimator of numeric attribute {name!r} returned NaN (its values "
                         "overflow a double's sums, e.g. values near ±1e308); Weka stops here too: 'NaN returned "
                         f"from estimator for attribute {name}'")

    def _count(self, codes: np.ndarray, y: np.ndarray, weights=None) -> dict:
        from ._naive_bayes_kernel import value_class_counts  # numba: imported where first needed

        r = len(self.classes_)
        offsets, T = value_offsets(self.n_values_, missing_slot=True)
        nominal = np.flatnonzero(self.n_values_ > 0)  # a numeric attribute has no value counts
        w = np.ones(len(y)) if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
        value_class, class_count = value_class_counts(np.asarray(codes, dtype=np.int64), nominal, offsets,
                                                      np.asarray(self.n_values_, dtype=np.int64),
                                                      np.asarray(y, dtype=np.int64), w, T, r)
        return {"value_class": value_class, "class": class_count}

    def _fit_counts(self, counts: dict) -> None:
        r = len(self.classes_)
        self.class_count_ = counts["class"]
        self.class_prior_ = (self.class_count_ + 1.0) / (self.class_count_.sum() + float(r))
        self.offsets_, T = value_offsets(self.n_values_, missing_slot=True)
        value_class = counts["value_class"]
        if len(self.n_values_) and np.all(value_class == np.floor(value_class)) and value_class.sum() < 2.0 ** 53:
            # whole counts: every attribute's column sums at once (exact in any order, so the same bits)
            missing = self.offsets_ + self.n_values_
            values = value_class.copy()
            values[missing] = 0.0
            totals = np.add.reduceat(values, self.offsets_, axis=0) + self.n_values_[:, None].astype(np.float64)
            owner = np.repeat(np.arange(len(self.n_values_)), self.n_values_ + 1)
            with np.errstate(divide="ignore"):  # a numeric attribute has only its missing slot, total 0
                factor = (values + 1.0) / totals[owner]
            factor[missing] = 1.0  # a missing value's slot
            spans = zip(self.offsets_.tolist(), self.n_values_.tolist(), strict=True)
            self.feature_prob_ = [factor[o:o + q] for o, q in spans]
        else:
            self.feature_prob_ = []  # per attribute: (q_i, r) table of P(x_i = v | c); empty for a numeric one
            factor = np.ones((T, r))  # factors by flat index; a missing value's slot holds 1
            for j, q in enumerate(self.n_values_):
                block = value_class[self.offsets_[j] : self.offsets_[j] + q]
                prob = (block + 1.0) / (block.sum(axis=0) + float(q))
                self.feature_prob_.append(prob)
                factor[self.offsets_[j] : self.offsets_[j] + q] = prob
        self._factor = factor

    def _proba_codes(self, codes: np.ndarray, numeric=None, weights=None) -> np.ndarray:
        """``numeric``: attribute index → (rows, classes) factors of a numeric attribute (1 where missing);
        ``weights``: per attribute, the power of its factors (None: 1)."""
        factors = self._factors(codes, numeric)
        if weights is not None:  # weight 0: factor 1, the attribute left out
            factors = libm.power(factors, np.asarray(weights, dtype=np.float64)[None, :, None])
        prior = np.repeat(self.class_prior_[None, :], codes.shape[0], axis=0)
        return java_normalize(weka_product(prior, factors))

    def _proba_block(self, codes: np.ndarray, columns=None, F=None) -> np.ndarray:
        """``_proba_codes`` with the numeric attributes ``columns``' factors as one (rows,
        len(columns), classes) block, the product formed in one compiled pass (the same bits;
        for subclasses that load numba anyway)."""
        from ...weka._product_kernel import weka_product_rows  # numba: imported where first needed

        if columns is not None and len(columns) == codes.shape[1]:  # all numeric (columns ascending)
            factors = F
        else:
            factors = np.take(self._factor, flat_index(codes, self.offsets_, self.n_values_), axis=0)
            if columns is not None and len(columns):
                factors[:, columns] = F
        prior = np.repeat(self.class_prior_[None, :], codes.shape[0], axis=0)
        return java_normalize(weka_product_rows(prior, factors, TINY, 1e75))


def nominal_codes(Z: np.ndarray, numeric: np.ndarray) -> np.ndarray:
    """Integer codes of the nominal attributes (-1: missing); -1 throughout a numeric attribute."""
    from ._naive_bayes_kernel import nominal_codes as compiled  # numba: imported where first needed

    return compiled(np.asarray(Z, dtype=np.float64), np.asarray(numeric, dtype=np.bool_))
