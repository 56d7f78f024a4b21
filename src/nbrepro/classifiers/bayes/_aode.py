# SPDX-License-Identifier: GPL-3.0-or-later
"""Averaged one-dependence estimators, exactly as Weka 3.6's ``AODE``."""
from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval

from .._nominal import HANDLE_UNKNOWN, encode_target, instance_weights, normalize_or_uniform
from ._joint import JointCountsMixin, diagonal, flat_index, value_layout, value_offsets
from ._one_dependence_kernel import weighted_one_dependence_sums


class AODE(JointCountsMixin):
    """Averaged one-dependence estimators (Webb, Boughton & Wang 2005), as Weka 3.6 ``AODE``::

        P(c | x) ∝ (1/|S|) Σ_{p ∈ S} P̂(c, x_p) ∏_{i ≠ p} P̂(x_i | c, x_p)

    with Laplace estimates P̂(c, x_p) = (n(c, x_p) + 1)/(n_p + r·q_p) and
    P̂(x_i | c, x_p) = (n(c, x_p, x_i) + 1)/(n_i(c, x_p) + q_i), where n_p and n_i(c, x_p)
    count only rows in which the attribute is known, r = number of classes and q_i the
    number of values of attribute i. S is the set of attributes whose test value is known
    and occurs at least ``frequency_limit`` times in training (Weka ``-F``, default 1).
    When S is empty the row gets naive Bayes with Laplace estimates. With
    ``m_estimate=True`` (Weka ``-M -W weight``) each "+1 / +q" becomes "+weight/q / +weight".
    Missing values are supported as in Weka: left out as parent and as child. ``sample_weight``
    gives Weka's instance weights: every count n(·) becomes a sum of weights, each count's terms
    added in row order as Weka adds them: Weka's probabilities with any weights (an integer weight is
    exactly that many copies of the row).

    Probabilities are formed in Weka's order of operations (the conditional ratios are
    precomputed in ``fit`` from the same operands), so they equal Weka's to the last bit.

    Parameters
    ----------
    frequency_limit : int
        A value must occur at least this often in training for its attribute to be a parent.
    m_estimate : bool
        Use m-estimates instead of Laplace correction.
    weight : int
        m of the m-estimate (only with ``m_estimate=True``).
    handle_unknown : {"ignore", "error"}
        An undeclared test value is treated as missing, or raises ``ValueError``.

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

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import AODE
    >>> X = pd.DataFrame({
    ...     "outlook": pd.Categorical(["sunny", "sunny", "rain", "rain", "overcast", "overcast", "sunny", "rain"]),
    ...     "windy": pd.Categorical(["no", "yes", "no", "yes", "no", "yes", "no", "yes"])})
    >>> y = pd.Series(["no", "no", "yes", "no", "yes", "yes", "no", "yes"])
    >>> clf = AODE().fit(X, y)
    >>> clf.predict(X).tolist()
    ['no', 'no', 'yes', 'yes', 'yes', 'yes', 'no', 'yes']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.789, 0.211],
           [0.714, 0.286]])
    """

    _parameter_constraints: dict = {
        "frequency_limit": [Interval(Integral, 0, None, closed="left")],
        "m_estimate": ["boolean"],
        "weight": [Interval(Integral, 1, None, closed="left")],
        "handle_unknown": HANDLE_UNKNOWN,
    }

    def __init__(self, *, frequency_limit: int = 1, m_estimate: bool = False, weight: int = 1,
                 handle_unknown: str = "ignore"):
        self.frequency_limit = frequency_limit
        self.m_estimate = m_estimate
        self.weight = weight
        self.handle_unknown = handle_unknown

    def fit(self, X, y, sample_weight=None):
        if sample_weight is None:
            return super().fit(X, y)
        codes, ycodes = self._fit_encoding(X, y)
        every = encode_target(self, y)[1]   # every row's class code: the weights of rows with a class are kept
        w = instance_weights(sample_weight, len(every))[every >= 0]
        offsets, T = value_offsets(self.n_values_, missing_slot=True)
        index = flat_index(codes, offsets, self.n_values_)
        joint = np.zeros((T, T, len(self.classes_)))
        # unbuffered, in C order of the indices: each cell's weights are added row by row, as Weka's loop adds them
        np.add.at(joint, (index[:, :, None], index[:, None, :], ycodes[:, None, None]), w[:, None, None])
        class_count = np.zeros(len(self.classes_))
        np.add.at(class_count, ycodes, w)
        self._fit_counts({"joint": joint, "class": class_count})
        return self

    def _fit_counts(self, counts: dict) -> None:
        r = len(self.classes_)
        q = self.n_values_.astype(np.float64)
        self.offsets_, T, owner, miss = value_layout(self.n_values_)
        joint = counts["joint"]  # (T, T, r)
        class_count = counts["class"]
        n = class_count.sum()
        q_of = q[owner]
        w = float(self.weight)
        classparent = diagonal(joint)  # n(c, u)
        frequency = classparent.sum(axis=1)  # n(u), all classes
        known_parent = n - frequency[miss][owner]  # rows in which the parent's attribute is known

        # denominator of P(child | c, parent): n(c, parent) minus rows where the child is missing
        denominator = np.broadcast_to(classparent[:, None, :], joint.shape)
        if joint[miss].any():  # some training value was missing
            denominator = denominator - joint[:, miss[owner], :]
        # the pair table, (value pair, class), filled in place
        table = np.empty((T * T, r))
        ratio = table.reshape(T, T, r)
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.m_estimate:
                np.divide(joint + (w / q_of)[None, :, None], denominator + w, out=ratio)
                prior = (classparent + (w / (r * q_of))[:, None]) / (known_parent + w)[:, None]
            else:
                np.add(joint, 1.0, out=ratio)
                np.divide(ratio, denominator + q_of[None, :, None], out=ratio)
                prior = (classparent + 1.0) / (known_parent + r * q_of)[:, None]
        ratio[:, miss, :] = 1.0  # a missing child is left out: a factor of exactly 1
        self._ratio = table
        self._prior = np.where(np.isfinite(prior), prior, 0.0)
        self._frequency = frequency
        self._n_total = T

        # naive Bayes fallback (Weka's NBconditionalProb): no 1e-75 floor, plain products
        sum_for_counts = class_count[None, :] - classparent[miss]  # (d, r): rows with the attribute known
        if self.m_estimate:
            self._nb_prior = (class_count + w / r) / (n + w)
            self._nb_ratio = (classparent + (w / q_of)[:, None]) / (sum_for_counts[owner] + w)
        else:
            self._nb_prior = (class_count + 1.0) / (n + r)
            self._nb_ratio = (classparent + 1.0) / (sum_for_counts[owner] + q_of[:, None])
        self._nb_ratio[miss] = 1.0

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        n, d = codes.shape
        idx = np.ascontiguousarray(flat_index(codes, self.offsets_, self.n_values_), dtype=np.int64)
        parent_ok = (codes >= 0) & (self._frequency[idx] >= self.frequency_limit)
        # parents summed first to last, as Weka does; a parent left out adds nothing
        total = weighted_one_dependence_sums(idx, parent_ok.astype(np.float64), self._prior, self._ratio, self._n_total)
        parents = parent_ok.sum(axis=1)
        probs = total / np.maximum(parents, 1)[:, None]
        lone = np.flatnonzero(parents == 0)
        if len(lone):
            nb = np.repeat(self._nb_prior[None, :], len(lone), axis=0)
            for a in range(d):
                nb *= self._nb_ratio[idx[lone, a]]
            probs[lone] = nb
        return normalize_or_uniform(probs)

