# SPDX-License-Identifier: GPL-3.0-or-later
"""What the lazy classifiers (LCWNB, LWNB, ICLNB) share: the kept training rows as small
integer codes, the number of attributes each test row shares with each training row, blocks
of test rows that bound memory, and naive Bayes fitted to training rows weighted by that number."""
from __future__ import annotations

import numpy as np

from ...weka.product import weka_product
from .._nominal import NominalClassifierMixin, java_normalize

# Test rows per block: the (block × training rows) matrices hold about this many values.
BLOCK_VALUES = 1 << 23


class LazyNominalMixin(NominalClassifierMixin):
    """``fit`` keeps the training rows; a subclass whose weights depend only on how many
    attributes a training row shares with the test row (LWNB, ICLNB) implements
    ``_level_weights``, and predicts naive Bayes fitted to the weighted training rows."""

    def _keep_codes(self, codes: np.ndarray, y: np.ndarray) -> None:
        """The training codes as small integers, by row and by attribute (the compiled passes read
        them once or twice per test row), and the classes."""
        self._code_dtype = np.int8 if max(self.n_values_.max(initial=0), codes.shape[1]) < 127 else np.int32
        self._codes = np.ascontiguousarray(codes, dtype=self._code_dtype)
        self._columns = np.ascontiguousarray(self._codes.T)
        self._y = np.ascontiguousarray(y, dtype=np.int64)

    def _test_codes(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(known-value mask, test codes in the training codes' dtype, -2 where missing: it matches nothing)."""
        known = codes >= 0
        return known, np.where(known, codes, -2).astype(self._code_dtype)

    def _fit_codes(self, codes: np.ndarray, y: np.ndarray) -> None:
        self._keep_codes(codes, y)

    def _level_weights(self, hist: np.ndarray) -> np.ndarray:
        """(block, m + 1) weight of a training row that shares s attributes with the test row (0:
        not a neighbour), from ``hist[t, s]``, how many training rows share s. Subclasses."""
        raise NotImplementedError

    @staticmethod
    def _nearest_level(hist: np.ndarray, k: int) -> np.ndarray:
        """(block, 1): the most attributes s such that at least ``k`` training rows share s or
        more: the k nearest in Hamming distance, and every row tied with the k-th, are the rows
        that share at least s."""
        at_least = np.cumsum(hist[:, ::-1], axis=1)[:, ::-1]  # rows sharing s or more
        return (np.sum(at_least >= k, axis=1) - 1)[:, None]

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        from ._hamming_kernel import level_histogram, level_weighted_counts, shared_values  # numba

        m = codes.shape[1]
        r = len(self.classes_)
        out = np.empty((codes.shape[0], r))
        block = max(1, BLOCK_VALUES // max(len(self._y), 1))
        for start in range(0, codes.shape[0], block):
            known, test = self._test_codes(codes[start:start + block])
            shared = shared_values(self._columns, test)
            weights = self._level_weights(level_histogram(shared, m + 1))
            at, seen, class_w = level_weighted_counts(self._codes, self._y, r, shared, test, weights)
            # Weka's NaiveBayes, Laplace counts starting at 1
            prior = (class_w + 1.0) / (class_w.sum(axis=1, keepdims=True) + r)
            factors = np.where(known[:, :, None], (at + 1.0) / (seen + self.n_values_[None, :, None]), 1.0)
            out[start:start + block] = java_normalize(weka_product(prior, factors))
        return out
