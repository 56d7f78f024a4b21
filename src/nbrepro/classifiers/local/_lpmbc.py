# SPDX-License-Identifier: GPL-3.0-or-later
"""Mao et al.'s Bayesian classifier on local probabilistic models (LPM-BC).

For a query x and each class l, the region R_l(x) is the cube centred on x whose half-width
r_l(x) is the Chebyshev distance to x's k-th nearest training row of class l, so it holds k_l = k
rows of class l (Eq. 25: P(l, R_l) = k_l / n). Within the cube the class's local density is a
product over attributes (the experiments' feature-independent models, Theorem 1), each
normalised to the cube's side [x_d − r, x_d + r] (Eq. 14, 20):

    LUA  f_d = 1 / (2r)                                        (Eq. 13)
    LGA  f_d = φ((x_d − μ_d)/σ_d) / σ_d / ∫_side φ((t − μ_d)/σ_d)/σ_d dt     μ, σ of the k rows (1/k, Eq. 16–17)
    LCA  f_d = Σ_i φ((x_d − x_id)/h_d) / Σ_i ∫_side φ((t − x_id)/h_d) dt      over the k rows

    P(l | x) = k_l f_l(x) / Σ_m k_m f_m(x)                    (Eq. 27)
"""
from __future__ import annotations

import math
from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ... import libm
from .._nominal import ProbaPredictMixin, encode_target, refuse_fit_params
from ._neighbours import METRICS, NEIGHBOURHOOD_SIZE, numeric_matrix, resolve_size, sorted_neighbours
from ._scores import FLAT, softmax

MODELS = ("LUA", "LGA", "LCA")


class LPMBC(ProbaPredictMixin, ClassifierMixin, BaseEstimator):
    """Bayesian classification on a local probabilistic model per class (Mao et al.).

        P(l | x) ∝ k_l · ∏_d f_d(x_d | l, R_l(x))

    R_l(x) is the Chebyshev cube around x holding its k nearest training rows of class l (ties
    in distance: earlier rows first); f_d is the uniform (LUA), Gaussian (LGA) or kernel (LCA)
    density of those rows' attribute d, normalised to the cube's side.

    Parameters
    ----------
    k : int or float
        Rows per class in the neighbourhood: an int is a count, a float in (0, 1] a fraction of
        the smallest class's training rows (rounded half up, at least 1). A class with fewer
        rows uses all of them (k_l = its size).
    model : {"LUA", "LGA", "LCA"}
    metric : {"chebyshev", "euclidean"}
        Distance that orders the neighbours; the region is the cube of half-width r either way.
    bandwidth_factor : float
        LCA's kernel width per class and attribute: h = bandwidth_factor · σ · n_l^(−1/5), σ the
        class's standard deviation of the attribute in the training rows (1.06: the normal
        reference rule), the same for every neighbourhood.
    min_radius : float
        r is at least this (k rows at distance 0 would give an empty cube).

    An attribute whose neighbours do not spread (σ or h below 1e-12 · r) is uniform on its side
    under LGA and LCA. With k = 1, LGA is LUA.

    Attributes
    ----------
    classes_, class_count_, k_ (the resolved count), bandwidth_ ((classes, attributes), LCA's h)

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import LPMBC
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> clf = LPMBC(k=2).fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.998, 0.002],
           [0.986, 0.014]])
    """

    attribute_kinds = frozenset({"numeric"})   # densities of numeric attributes: a nominal column is refused

    path_params = ("k", "model")  # InnerCVSelection scores these from one fit (``path_proba``)

    _parameter_constraints: dict = {
        "k": NEIGHBOURHOOD_SIZE,
        "model": [StrOptions(set(MODELS))],
        "metric": [StrOptions(set(METRICS))],
        "bandwidth_factor": [Interval(Real, 0, None, closed="neither")],
        "min_radius": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, *, k=1, model: str = "LUA", metric: str = "chebyshev", bandwidth_factor: float = 1.06,
                 min_radius: float = 1e-12):
        self.k = k
        self.model = model
        self.metric = metric
        self.bandwidth_factor = bandwidth_factor
        self.min_radius = min_radius

    def fit(self, X, y, **params):
        refuse_fit_params(self, params)
        self._validate_params()
        A = numeric_matrix(self, X, fitting=True, y=y)
        self.classes_, codes = encode_target(self, y)
        known = codes >= 0
        A, codes = A[known], codes[known]
        r = len(self.classes_)
        self._rows = [A[codes == c] for c in range(r)]
        self.class_count_ = np.array([len(t) for t in self._rows], dtype=np.int64)
        present = self.class_count_[self.class_count_ > 0]
        if not len(present):
            raise ValueError("LPMBC: no training rows with a class")
        self.k_ = resolve_size(self.k, int(present.min()))
        self.bandwidth_ = (
            np.vstack([_bandwidths(t, self.bandwidth_factor) for t in self._rows]) if r else np.zeros((0, A.shape[1]))
        )
        return self

    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "k_")
        Q = numeric_matrix(self, X, fitting=False)
        return softmax(self._log_scores(Q, [self.k_], [self.model])[(self.k_, self.model)])

    def _log_scores(self, Q, sizes, models) -> dict:
        """(k, model) → (queries, classes) log k_l f_l(x), for every size and model at once: each
        class's rows are sorted by distance once (``_local_kernels``)."""
        from ._local_kernels import local_log_densities  # numba: imported where first needed

        scores = {(k, m): np.full((len(Q), len(self.classes_)), -np.inf) for k in sizes for m in models}
        for c, T in enumerate(self._rows):
            if not len(T):
                continue
            own = np.array(sorted({min(k, len(T)) for k in sizes}), dtype=np.int64)
            order, dist = sorted_neighbours(Q, T, self.metric, limit=int(own[-1]))
            counts = np.ascontiguousarray(np.broadcast_to(own, (len(Q), len(own))))
            radius = np.maximum(dist[:, own - 1], self.min_radius)
            gauss, kernel = local_log_densities(
                Q, T, order, counts, radius, self.bandwidth_[c], FLAT, "LGA" in models, "LCA" in models
            )
            for s, kl in enumerate(own):
                found = {"LUA": -Q.shape[1] * libm.log(2.0 * radius[:, s]), "LGA": gauss[:, s], "LCA": kernel[:, s]}
                for k in sizes:
                    if min(k, len(T)) == kl:
                        for m in models:
                            scores[k, m][:, c] = math.log(kl) + found[m]
        return scores

    def path_proba(self, X_test, points) -> list:
        """``predict_proba`` of this fitted model with each of ``points`` ({"k": …, "model": …})
        in place of its own k and model, from one neighbour sort per class."""
        check_is_fitted(self, "k_")
        Q = numeric_matrix(self, X_test, fitting=False)
        smallest = int(self.class_count_[self.class_count_ > 0].min())
        resolved = [(resolve_size(p.get("k", self.k), smallest), p.get("model", self.model)) for p in points]
        scores = self._log_scores(Q, sorted({k for k, _ in resolved}), sorted({m for _, m in resolved}))
        return [softmax(scores[key]) for key in resolved]


def _bandwidths(T: np.ndarray, factor: float) -> np.ndarray:
    if len(T) < 2:
        return np.zeros(T.shape[1])
    return factor * T.std(axis=0, ddof=1) * len(T) ** -0.2
