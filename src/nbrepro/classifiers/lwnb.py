"""Locally weighted naive Bayes (Frank, Hall & Pfahringer 2003) as Weka 3.6's ``LWL`` with ``NaiveBayes``."""
from __future__ import annotations

import numpy as np

from ._joint import flat_index, value_offsets
from ._nominal import NominalClassifierMixin, java_normalize
from .naive_bayes import weka_product

BLOCK_VALUES = 1 << 23
KERNELS = ("linear", "epanechnikov", "tricube", "inverse", "gauss", "constant")


class LocallyWeightedNB(NominalClassifierMixin):
    """Naive Bayes fitted to the k nearest training rows, weighted by a kernel of their distance
    (Weka 3.6 ``weka.classifiers.lazy.LWL -K k -U kernel -W weka.classifiers.bayes.NaiveBayes``).

        P(c | x) ∝ P̂_w(c) ∏_i P̂_w(x_i | c),  P̂_w from Laplace counts of the weighted neighbours

    Distance: Weka's EuclideanDistance on nominal attributes, sqrt(number of attributes that
    differ; a missing value differs). The neighbours are the k nearest plus every row tied
    with the k-th; bandwidth = the k-th distance; weight = kernel(distance / bandwidth)
    (linear: 1.0001 − d; all rows weigh the same when the bandwidth is 0), then rescaled so
    the weights sum to the number of neighbours. With the inverse or Gaussian kernel, or
    ``k <= 0``, every training row is a neighbour.

    Parameters
    ----------
    k : int
        Number of neighbours (Weka ``-K``; Frank et al. use 50). ``k <= 0``: all rows.
    kernel : str
        One of linear (Weka's default), epanechnikov, tricube, inverse, gauss, constant.
    """

    def __init__(self, k: int = 50, kernel: str = "linear", handle_unknown: str = "ignore"):
        self.k = k
        self.kernel = kernel
        self.handle_unknown = handle_unknown

    def _fit_codes(self, codes: np.ndarray, y: np.ndarray) -> None:
        if self.kernel not in KERNELS:
            raise ValueError(f"LocallyWeightedNB: kernel must be one of {KERNELS}, got {self.kernel!r}")
        r = len(self.classes_)
        self.offsets_, T = value_offsets(self.n_values_, missing_slot=True)
        idx = flat_index(codes, self.offsets_, self.n_values_)
        onehot = np.zeros((len(y), T))
        onehot[np.arange(len(y))[:, None], idx] = 1.0
        self._miss = self.offsets_ + self.n_values_
        self._onehot = onehot  # counts (missing values land in their own slot and are never read)
        match = onehot.copy()
        match[:, self._miss] = 0.0  # a missing training value matches nothing
        self._match32 = match.astype(np.float32)
        self._y = y
        self._class_onehot = np.eye(r)[y]
        self._n_total = T

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        out = np.empty((codes.shape[0], len(self.classes_)))
        block = max(1, BLOCK_VALUES // max(len(self._y), 1))
        for start in range(0, codes.shape[0], block):
            out[start:start + block] = self._block(codes[start:start + block])
        return out

    def _block(self, codes: np.ndarray) -> np.ndarray:
        c, m = codes.shape
        n = len(self._y)
        r = len(self.classes_)
        known = codes >= 0
        idx = flat_index(codes, self.offsets_, self.n_values_)
        test = np.zeros((c, self._n_total), dtype=np.float32)
        test[np.repeat(np.arange(c), known.sum(axis=1)), idx[known]] = 1.0
        H = m - (test @ self._match32.T).astype(np.float64)  # attributes that differ (missing differs)
        dist = np.sqrt(H)
        all_rows = self.k <= 0 or self.k >= n or self.kernel in ("inverse", "gauss")
        k = n if all_rows else int(self.k)
        kth = np.partition(dist, k - 1, axis=1)[:, k - 1:k]  # bandwidth: the k-th smallest distance
        neighbour = dist <= kth  # the k nearest and every row tied with the k-th
        with np.errstate(divide="ignore", invalid="ignore"):
            u = np.where(kth > 0, dist / kth, 1.0)
        w = {"linear": lambda d: 1.0001 - d,
             "epanechnikov": lambda d: 0.75 * (1.0001 - d * d),
             "tricube": lambda d: (1.0001 - d ** 3) ** 3,
             "constant": lambda d: np.ones_like(d),
             "inverse": lambda d: 1.0 / (1.0 + d),
             "gauss": lambda d: np.exp(-d * d)}[self.kernel](u)
        w = np.where(neighbour, w, 0.0)
        w *= (neighbour.sum(axis=1) / w.sum(axis=1))[:, None]  # total weight = number of neighbours
        # Laplace counts of the weighted neighbours (Weka's DiscreteEstimator starts every count at 1)
        class_w = w @ self._class_onehot  # (c, r)
        prior = (class_w + 1.0) / (class_w.sum(axis=1, keepdims=True) + r)
        factors = np.ones((c, m, r))
        for y in range(r):
            rows = self._y == y
            cv = w[:, rows] @ self._onehot[rows]  # (c, T): weighted count of each value in class y
            at = np.take_along_axis(cv, idx, axis=1)  # (c, m)
            seen = np.stack([cv[:, self.offsets_[a]:self.offsets_[a] + self.n_values_[a]].sum(axis=1)
                             for a in range(m)], axis=1)  # weight of class-y rows with attribute a known
            factors[:, :, y] = np.where(known, (at + 1.0) / (seen + self.n_values_[None, :]), 1.0)
        return java_normalize(weka_product(prior, factors))
