"""Instance-cloning local naive Bayes (Jiang, Zhang & Su 2005), as reconstructed from its abstracts."""
from __future__ import annotations

import numpy as np

from ._joint import flat_index, value_offsets
from ._nominal import NominalClassifierMixin, java_normalize
from .naive_bayes import weka_product

BLOCK_VALUES = 1 << 23


class InstanceCloningNB(NominalClassifierMixin):
    """Naive Bayes on the k nearest training rows, each added once more per attribute it shares
    with the test row (its "clones"), as we reconstruct ICLNB (Jiang, Zhang & Su 2005).

        P(c | x) ∝ P̂(c) ∏_i P̂(x_i | c),  Laplace counts over the neighbours, neighbour j counted
        1 + s_j times, s_j = number of attributes on which it equals x

    The neighbours are the k rows nearest in Hamming distance (overlap metric), plus every
    row tied with the k-th. Only the abstracts of the ICLNB papers were available: they say
    that "clones of each instance in the neighborhood are generated in terms of its
    similarity to the test instance and added to the local training data" and that "a small
    k should be preferred"; the clone count s_j and the value of k are our reading.

    Parameters
    ----------
    k : int
        Number of neighbours.
    """

    def __init__(self, k: int = 30, handle_unknown: str = "ignore"):
        self.k = k
        self.handle_unknown = handle_unknown

    def _fit_codes(self, codes: np.ndarray, y: np.ndarray) -> None:
        r = len(self.classes_)
        self.offsets_, T = value_offsets(self.n_values_, missing_slot=True)
        idx = flat_index(codes, self.offsets_, self.n_values_)
        onehot = np.zeros((len(y), T))
        onehot[np.arange(len(y))[:, None], idx] = 1.0
        match = onehot.copy()
        match[:, self.offsets_ + self.n_values_] = 0.0
        self._onehot, self._match32 = onehot, match.astype(np.float32)
        self._y, self._class_onehot = y, np.eye(r)[y]
        self._n_total = T

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        out = np.empty((codes.shape[0], len(self.classes_)))
        block = max(1, BLOCK_VALUES // max(len(self._y), 1))
        for start in range(0, codes.shape[0], block):
            out[start:start + block] = self._block(codes[start:start + block])
        return out

    def _block(self, codes: np.ndarray) -> np.ndarray:
        c, m = codes.shape
        r = len(self.classes_)
        known = codes >= 0
        idx = flat_index(codes, self.offsets_, self.n_values_)
        test = np.zeros((c, self._n_total), dtype=np.float32)
        test[np.repeat(np.arange(c), known.sum(axis=1)), idx[known]] = 1.0
        same = (test @ self._match32.T).astype(np.float64)  # attributes equal to the test row's
        H = m - same
        k = min(max(int(self.k), 1), len(self._y))
        kth = np.partition(H, k - 1, axis=1)[:, k - 1:k]
        w = np.where(H <= kth, 1.0 + same, 0.0)  # the row itself and its clones
        class_w = w @ self._class_onehot
        prior = (class_w + 1.0) / (class_w.sum(axis=1, keepdims=True) + r)
        factors = np.ones((c, m, r))
        for y in range(r):
            rows = self._y == y
            cv = w[:, rows] @ self._onehot[rows]
            at = np.take_along_axis(cv, idx, axis=1)
            seen = np.stack([cv[:, self.offsets_[a]:self.offsets_[a] + self.n_values_[a]].sum(axis=1)
                             for a in range(m)], axis=1)
            factors[:, :, y] = np.where(known, (at + 1.0) / (seen + self.n_values_[None, :]), 1.0)
        return java_normalize(weka_product(prior, factors))
