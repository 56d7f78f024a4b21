# SPDX-License-Identifier: GPL-3.0-or-later
"""Wang, He and Wang's non-naive Bayesian classifier (NNBC): each class's joint density by a
multivariate Gaussian kernel estimate, without the independence assumption."""
from __future__ import annotations

import math
from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from ... import libm
from .._nominal import ProbaPredictMixin, encode_target, refuse_fit_params
from ._neighbours import numeric_matrix
from ._scores import softmax

_BLOCK_ELEMENTS = 1 << 22


class NonNaiveBayes(ProbaPredictMixin, ClassifierMixin, BaseEstimator):
    """Bayes' rule with a product-Gaussian kernel density estimate of each class's joint density:

        P(l | x) ∝ (n_l / n) · 1/(n_l ∏_d h_ld) Σ_{i in class l} ∏_d φ((x_d − x_id) / h_ld)

    h_ld = σ_ld · (4 / ((D + 2) n_l))^(1/(D + 4)), the bandwidth that minimises the asymptotic
    mean integrated squared error when the class is Gaussian with independent attributes
    (Silverman's multivariate normal reference rule; σ_ld the class's sample standard deviation).

    Parameters
    ----------
    bandwidth_factor : float
        Multiplies every h_ld (1: the rule above).
    min_bandwidth : float
        h_ld is at least this (an attribute constant within a class would give h = 0).

    Attributes
    ----------
    classes_, class_count_, bandwidth_ : (classes, attributes) h_ld

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import NonNaiveBayes
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> clf = NonNaiveBayes().fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[1., 0.],
           [1., 0.]])
    """

    attribute_kinds = frozenset({"numeric"})   # densities of numeric attributes: a nominal column is refused

    _parameter_constraints: dict = {
        "bandwidth_factor": [Interval(Real, 0, None, closed="neither")],
        "min_bandwidth": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, *, bandwidth_factor: float = 1.0, min_bandwidth: float = 1e-3):
        self.bandwidth_factor = bandwidth_factor
        self.min_bandwidth = min_bandwidth

    def fit(self, X, y, **params):
        refuse_fit_params(self, params)
        self._validate_params()
        A = numeric_matrix(self, X, fitting=True, y=y)
        self.classes_, codes = encode_target(self, y)
        known = codes >= 0
        A, codes = A[known], codes[known]
        D = A.shape[1]
        self._rows = [A[codes == c] for c in range(len(self.classes_))]
        self.class_count_ = np.array([len(t) for t in self._rows], dtype=np.int64)
        h = np.zeros((len(self.classes_), D))
        for c, T in enumerate(self._rows):
            if len(T) >= 2:
                h[c] = T.std(axis=0, ddof=1) * (4.0 / ((D + 2) * len(T))) ** (1.0 / (D + 4))
        self.bandwidth_ = np.maximum(self.bandwidth_factor * h, self.min_bandwidth)
        return self

    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "bandwidth_")
        Q = numeric_matrix(self, X, fitting=False)
        n = self.class_count_.sum()
        S = np.full((len(Q), len(self.classes_)), -np.inf)
        for c, T in enumerate(self._rows):
            if not len(T):
                continue
            h = self.bandwidth_[c]
            const = (
                math.log(len(T) / n) - math.log(len(T)) - libm.log(h).sum() - 0.5 * Q.shape[1] * math.log(2 * math.pi)
            )
            step = max(1, _BLOCK_ELEMENTS // max(1, T.size))
            for a in range(0, len(Q), step):
                z = (Q[a : a + step, None, :] - T[None, :, :]) / h
                e = -0.5 * np.einsum("qnd,qnd->qn", z, z, optimize=False)
                top = e.max(axis=1)
                S[a : a + step, c] = const + top + libm.log(libm.exp(e - top[:, None]).sum(axis=1))
        return softmax(S)
