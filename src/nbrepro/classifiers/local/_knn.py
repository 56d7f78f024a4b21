# SPDX-License-Identifier: GPL-3.0-or-later
"""Nearest-neighbour classifiers that Mao et al. compare LPM-BC with: voting kNN, the
categorical average pattern (a local mean rule) and the local-distribution kNN.

Each takes a neighbourhood size ``k`` (an int count, or a float fraction of the smallest
class's training rows, as ``LPMBC``) and scores every size of a grid from one neighbour sort
(``path_proba``), so ``InnerCVSelection`` can choose k cheaply.
"""
from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ... import libm
from .._nominal import ProbaPredictMixin, encode_target, refuse_fit_params
from ._neighbours import METRICS, NEIGHBOURHOOD_SIZE, numeric_matrix, resolve_size, sorted_neighbours
from ._scores import FLAT, softmax


class _NeighbourClassifier(ProbaPredictMixin, ClassifierMixin, BaseEstimator):
    path_params = ("k",)
    metric = "euclidean"
    attribute_kinds = frozenset({"numeric"})   # distances: a nominal column is refused

    def fit(self, X, y, **params):
        refuse_fit_params(self, params)
        self._validate_params()
        A = numeric_matrix(self, X, fitting=True, y=y)
        self.classes_, codes = encode_target(self, y)
        known = codes >= 0
        self._X, self._y = A[known], codes[known]
        self.class_count_ = np.bincount(self._y, minlength=len(self.classes_))
        present = self.class_count_[self.class_count_ > 0]
        if not len(present):
            raise ValueError(f"{type(self).__name__}: no training rows with a class")
        self.k_ = resolve_size(self.k, int(present.min()))
        return self

    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "k_")
        Q = numeric_matrix(self, X, fitting=False)
        return self._path(Q, [self.k_])[0]

    def path_proba(self, X_test, points) -> list:
        """``predict_proba`` with each point's k in place of this model's, from one neighbour sort."""
        check_is_fitted(self, "k_")
        Q = numeric_matrix(self, X_test, fitting=False)
        smallest = int(self.class_count_[self.class_count_ > 0].min())
        sizes = [resolve_size(p.get("k", self.k), smallest) for p in points]
        distinct = sorted(set(sizes))
        found = dict(zip(distinct, self._path(Q, distinct), strict=True))
        return [found[k] for k in sizes]


class VotingKNN(_NeighbourClassifier):
    """Voting k-nearest neighbours:

        P(l | x) = k_l / k

    k_l the rows of class l among x's k nearest training rows (ties in distance: earlier rows first).

    Parameters
    ----------
    k : int or float (a fraction of the smallest class's training rows)
    metric : {"euclidean", "chebyshev"}

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    class_count_ : ndarray
        Training rows per class.
    n_features_in_ : int
        The number of attributes seen in ``fit``.
    feature_names_in_ : ndarray
        The attribute names, when ``fit`` was given a DataFrame.
    k_ : int
        The neighbourhood size in rows (a fractional ``k`` resolved against the class counts).

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import VotingKNN
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> clf = VotingKNN(k=3).fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[1., 0.],
           [1., 0.]])
    """

    _parameter_constraints: dict = {
        "k": NEIGHBOURHOOD_SIZE,
        "metric": [StrOptions(set(METRICS))],
    }

    def __init__(self, *, k=1, metric: str = "euclidean"):
        self.k = k
        self.metric = metric

    def _path(self, Q, sizes) -> list:
        kmax = min(max(sizes), len(self._X))
        order, _ = sorted_neighbours(Q, self._X, self.metric, limit=kmax)
        labels = self._y[order]
        r = len(self.classes_)
        out = []
        for k in sizes:
            k = min(k, len(self._X))
            votes = np.zeros((len(Q), r))
            for c in range(r):
                votes[:, c] = (labels[:, :k] == c).sum(axis=1)
            out.append(votes / k)
        return out


class LocalMeanKNN(_NeighbourClassifier):
    """Hotta et al.'s categorical average pattern (CAP), a local mean rule: the mean μ_l of x's k
    nearest training rows of each class l, and

        P(l | x) ∝ exp(−s ‖x − μ_l‖²)

    (s = 1/2: Mao et al.'s Eq. 29 with Σ = I; the class of the nearest local mean is the most
    probable whatever s, which moves the probabilities only: CAP itself gives a class).

    Parameters
    ----------
    k : int or float (a fraction of the smallest class's training rows); a class with fewer
        rows uses all of them
    metric : {"euclidean", "chebyshev"}
    scale : float > 0, s

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    class_count_ : ndarray
        Training rows per class.
    n_features_in_ : int
        The number of attributes seen in ``fit``.
    feature_names_in_ : ndarray
        The attribute names, when ``fit`` was given a DataFrame.
    k_ : int
        The neighbourhood size in rows (a fractional ``k`` resolved against the class counts).

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import LocalMeanKNN
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> clf = LocalMeanKNN(k=2).fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.866, 0.134],
           [0.826, 0.174]])
    """

    _parameter_constraints: dict = {
        "k": NEIGHBOURHOOD_SIZE,
        "metric": [StrOptions(set(METRICS))],
        "scale": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, *, k=1, metric: str = "euclidean", scale: float = 0.5):
        self.k = k
        self.metric = metric
        self.scale = scale

    def _path(self, Q, sizes) -> list:
        r = len(self.classes_)
        S = np.full((len(sizes), len(Q), r), -np.inf)
        for c in range(r):
            T = self._X[self._y == c]
            if not len(T):
                continue
            kmax = min(max(sizes), len(T))
            order, _ = sorted_neighbours(Q, T, self.metric, limit=kmax)
            running = np.cumsum(T[order], axis=1)  # (queries, kmax, attributes): the running sums in distance order
            for s, k in enumerate(sizes):
                k = min(k, len(T))
                gap = Q - running[:, k - 1, :] / k
                S[s, :, c] = -self.scale * np.einsum("qd,qd->q", gap, gap, optimize=False)
        return [softmax(S[s]) for s in range(len(sizes))]


class LocalDistributionKNN(_NeighbourClassifier):
    """Mao et al.'s local-distribution kNN (LD-kNN) as LPM-BC specialises it: one neighbourhood
    for all classes, x's k nearest training rows (the cube of half-width r = the k-th distance),
    and in it each class's local Gaussian per attribute, normalised to the cube (LGA):

        P(l | x) ∝ k_l · ∏_d f_d(x_d | l)

    k_l is the number of class-l rows among the k; a class with none has probability 0, one with
    a single row (or no spread in an attribute) is uniform on the cube's side.

    Parameters
    ----------
    k : int or float (a fraction of the smallest class's training rows)
    metric : {"chebyshev", "euclidean"}
    min_radius : float, r is at least this

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    class_count_ : ndarray
        Training rows per class.
    n_features_in_ : int
        The number of attributes seen in ``fit``.
    feature_names_in_ : ndarray
        The attribute names, when ``fit`` was given a DataFrame.
    k_ : int
        The neighbourhood size in rows (a fractional ``k`` resolved against the class counts).

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import LocalDistributionKNN
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> clf = LocalDistributionKNN(k=2).fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[1., 0.],
           [1., 0.]])
    """

    _parameter_constraints: dict = {
        "k": NEIGHBOURHOOD_SIZE,
        "metric": [StrOptions(set(METRICS))],
        "min_radius": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, *, k=1, metric: str = "chebyshev", min_radius: float = 1e-12):
        self.k = k
        self.metric = metric
        self.min_radius = min_radius

    def _path(self, Q, sizes) -> list:
        from ._local_kernels import local_log_densities  # numba: imported where first needed

        r = len(self.classes_)
        n = len(self._X)
        sizes_ = np.minimum(np.asarray(sizes, dtype=np.int64), n)
        order, dist = sorted_neighbours(Q, self._X, self.metric, limit=int(sizes_.max()))
        radius = np.maximum(dist[:, sizes_ - 1], self.min_radius)  # (queries, sizes)
        labels = self._y[order]
        S = np.full((len(sizes), len(Q), r), -np.inf)
        zero = np.zeros(self._X.shape[1])
        for c in range(r):
            mine = labels == c
            seen = np.cumsum(mine, axis=1)  # class-c rows among the first j + 1 neighbours
            counts = np.ascontiguousarray(seen[:, sizes_ - 1].astype(np.int64))
            if not counts.any():
                continue
            # class c's neighbours in distance order, as row indices, left-aligned
            rank = np.argsort(~mine, axis=1, kind="stable")
            own = np.take_along_axis(order, rank, axis=1)
            gauss, _ = local_log_densities(Q, self._X, own, counts, radius, zero, FLAT, True, False)
            with np.errstate(divide="ignore"):
                S[:, :, c] = (libm.log(counts) + gauss).T
        return [softmax(S[s]) for s in range(len(sizes))]
