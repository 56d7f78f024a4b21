# SPDX-License-Identifier: GPL-3.0-or-later
"""Hidden naive Bayes, exactly as Weka 3.6's ``HNB``."""
from __future__ import annotations

import numpy as np

from .._nominal import HANDLE_UNKNOWN, normalize_or_uniform
from ._joint import JointCountsMixin, diagonal, flat_index, value_layout
from ._one_dependence_kernel import conditional_mutual_information, hidden_parent_products, hidden_parent_terms


class HNB(JointCountsMixin):
    """Hidden naive Bayes (Zhang, Jiang & Su 2005), as Weka 3.6 ``HNB``.

        P(c | x) ∝ P̂(c) ∏_i Σ_{j ≠ i} W_ij P̂(x_i | x_j, c) / Σ_{j ≠ i} W_ij

    Each attribute i has a hidden parent that mixes one-dependence estimates over the
    other attributes j, weighted by the conditional mutual information W_ij = I(X_i; X_j | C)
    (bits; a term counts as 0 when either probability product is below 1e-6, as in Weka).
    P̂(c) = (n_c + 1/r)/(n + 1) and P̂(x_i | x_j, c) = (n(c, x_j, x_i) + 1/q_i)/(n(c, x_j) + 1);
    when all W_ij are 0 the factor is P̂(x_i | c) = (n(c, x_i) + 1/q_i)/(n_c + 1).

    Weka's HNB refuses missing values; so does ``fit`` here. At predict time a missing or
    undeclared value leaves its attribute out (as child, and as a parent of the others);
    with complete data the probabilities equal Weka's to the last bit.

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
    conditional_mutual_information_ : ndarray
        I(A_i; A_j | C) for every pair of attributes: the weights of each attribute's hidden parent.

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import HNB
    >>> X = pd.DataFrame({
    ...     "outlook": pd.Categorical(["sunny", "sunny", "rain", "rain", "overcast", "overcast", "sunny", "rain"]),
    ...     "windy": pd.Categorical(["no", "yes", "no", "yes", "no", "yes", "no", "yes"])})
    >>> y = pd.Series(["no", "no", "yes", "no", "yes", "yes", "no", "yes"])
    >>> clf = HNB().fit(X, y)
    >>> clf.predict(X).tolist()
    ['no', 'no', 'yes', 'no', 'yes', 'yes', 'no', 'no']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.897, 0.103],
           [0.75 , 0.25 ]])
    """

    no_sample_weight = "Weka 3.6's HNB takes no instance weights"

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
        self.conditional_mutual_information_ = conditional_mutual_information(
            joint, class_count, self.offsets_, self.n_values_.astype(np.int64), float(n))

        parent = diagonal(joint)  # n(c, u) as (T, r)
        is_missing = np.zeros(T, dtype=np.bool_)
        is_missing[miss] = True  # a missing parent adds nothing
        self._term = hidden_parent_terms(np.ascontiguousarray(joint), self.conditional_mutual_information_, owner,
                                         1.0 / q[owner], is_missing)
        self._alone = (parent + (1.0 / q[owner])[:, None]) / (class_count + 1.0)[None, :]
        self._prior = (class_count + 1.0 / r) / (n + 1.0)
        self._n_total = T

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        idx = np.ascontiguousarray(flat_index(codes, self.offsets_, self.n_values_), dtype=np.int64)
        # prior, then children first to last; each child's mixture over its parents first to last
        probs = hidden_parent_products(idx, codes >= 0, self.conditional_mutual_information_, self._term, self._alone,
                                       self._prior, self._n_total)
        return normalize_or_uniform(probs)
