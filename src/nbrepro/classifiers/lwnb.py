"""Locally weighted naive Bayes (Frank, Hall & Pfahringer 2003) as Weka 3.6's ``LWL`` with ``NaiveBayes``."""
from __future__ import annotations

import numpy as np

from ._lazy import LazyNominalMixin
KERNELS = ("linear", "epanechnikov", "tricube", "inverse", "gauss", "constant")


class LocallyWeightedNB(LazyNominalMixin):
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

    def _check_params(self) -> None:
        if self.kernel not in KERNELS:
            raise ValueError(f"LocallyWeightedNB: kernel must be one of {KERNELS}, got {self.kernel!r}")

    def _block(self, idx: np.ndarray, known: np.ndarray, shared: np.ndarray) -> np.ndarray:
        n = len(self._y)
        dist = np.sqrt(idx.shape[1] - shared)  # attributes that differ (a missing value differs)
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
        return self._weighted_naive_bayes(w, idx, known)
