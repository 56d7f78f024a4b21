# SPDX-License-Identifier: GPL-3.0-or-later
"""Weightily averaged one-dependence estimators, exactly as Weka 3.6's ``WAODE``."""
from __future__ import annotations

import numpy as np

from .._nominal import HANDLE_UNKNOWN, normalize_or_uniform
from ._joint import JointCountsMixin, diagonal, flat_index, log2_ratio, ordered_sum, value_layout
from ._one_dependence_kernel import weighted_one_dependence_sums


class WAODE(JointCountsMixin):
    """Weightily averaged one-dependence estimators (Jiang & Zhang 2006), as Weka 3.6 ``WAODE``.

        P(c | x) ∝ Σ_p W_p P̂(c, x_p) ∏_{i ≠ p} P̂(x_i | c, x_p)  /  Σ_p W_p

    with W_p = I(X_p; C) the mutual information (bits) between attribute p and the class,
    P̂(c, x_p) = (n(c, x_p) + 1/(r·q_p))/(n + 1) and
    P̂(x_i | c, x_p) = (n(c, x_p, x_i) + 1/q_i)/(n(c, x_p) + 1) (r classes, q_i values of
    attribute i). Every attribute is a parent — there is no frequency limit. As in Weka,
    a term of the mutual information counts as 0 when either probability product is
    below 1e-6 (``Utils.SMALL``).

    Weka's WAODE refuses missing values; so does ``fit`` here (run ``ReplaceMissingValues``
    first). At predict time a missing or undeclared value leaves its attribute out as
    parent and child (Weka would read it as the first value); with complete data the
    probabilities equal Weka's to the last bit. If every weight is 0, Weka returns NaN
    probabilities (and predicts the first class); here the row is uniform.

    Parameters
    ----------
    handle_unknown : {"ignore", "error"}
        An undeclared test value is left out, or raises ``ValueError``.

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    n_features_in_ : int
        The number of attributes seen in ``fit``.
    feature_names_in_ : ndarray
        The attribute names, when ``fit`` was given a DataFrame.
    categories_ : list
        Per attribute, its declared values in code order (None for a numeric one).
    n_values_ : ndarray
        Per attribute, its number of declared values (0 for a numeric one).
    offsets_ : ndarray
        Where each attribute's values start in the flat count arrays.
    mutual_information_ : ndarray
        I(A_i; C) per attribute: each super-parent's weight.

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import WAODE
    >>> X = pd.DataFrame({
    ...     "outlook": pd.Categorical(["sunny", "sunny", "rain", "rain", "overcast", "overcast", "sunny", "rain"]),
    ...     "windy": pd.Categorical(["no", "yes", "no", "yes", "no", "yes", "no", "yes"])})
    >>> y = pd.Series(["no", "no", "yes", "no", "yes", "yes", "no", "yes"])
    >>> clf = WAODE().fit(X, y)
    >>> clf.predict(X).tolist()
    ['no', 'no', 'yes', 'yes', 'yes', 'yes', 'no', 'yes']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.96 , 0.04 ],
           [0.934, 0.066]])
    """

    no_sample_weight = "Weka 3.6's WAODE takes no instance weights"

    complete_training = True

    _parameter_constraints: dict = {
        "handle_unknown": HANDLE_UNKNOWN,
    }

    def __init__(self, *, handle_unknown: str = "ignore"):
        self.handle_unknown = handle_unknown

    def _fit_counts(self, counts: dict) -> None:
        r = len(self.classes_)
        q = self.n_values_.astype(np.float64)
        self.offsets_, T, owner, miss = value_layout(self.n_values_)
        joint = counts["joint"]  # (T, T, r)
        class_count = counts["class"]
        n = int(class_count.sum())

        # mutual information of each attribute with the class, summed class-major as Weka does
        diag = diagonal(joint).T  # n(c, u)
        p_class = class_count / float(n)
        p_value = diag.sum(axis=0) / float(n)
        p_joint = diag / float(n)
        terms = p_joint * log2_ratio(p_joint, p_class[:, None] * p_value[None, :])  # (r, T)
        terms[:, miss] = 0.0
        self.mutual_information_ = np.array([
            ordered_sum(terms[:, self.offsets_[a]:self.offsets_[a] + self.n_values_[a]].reshape(-1))
            for a in range(len(q))])

        parent = diagonal(joint)  # n(c, u) as (T, r)
        ratio = (joint + (1.0 / q[owner])[None, :, None]) / (parent[:, None, :] + 1.0)
        ratio[:, miss, :] = 1.0  # a missing child is left out
        self._ratio = ratio.reshape(T * T, r)
        self._prior = (parent + (1.0 / (r * q[owner]))[:, None]) / (n + 1.0)
        self._n_total = T

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        idx = flat_index(codes, self.offsets_, self.n_values_)
        weights = self.mutual_information_[None, :] * (codes >= 0)  # a parent left out weighs an exact 0
        total = weighted_one_dependence_sums(np.ascontiguousarray(idx, dtype=np.int64), weights, self._prior,
                                             self._ratio, self._n_total)  # parents first to last, as Weka
        weight_sum = ordered_sum(weights, axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            probs = total / weight_sum[:, None]
        return normalize_or_uniform(probs)

