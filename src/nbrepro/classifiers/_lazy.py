"""What the lazy classifiers (LCWNB, LWNB, ICLNB) share: the kept training rows as one-hot
rows, the number of attributes each test row shares with each training row, blocks of test
rows that bound memory, and naive Bayes fitted to weighted training rows."""
from __future__ import annotations

import numpy as np

from ._joint import flat_index, value_offsets
from ._nominal import NominalClassifierMixin, java_normalize
from .naive_bayes import weka_product

# Test rows per block: the (block × training rows) matrices hold about this many values.
BLOCK_VALUES = 1 << 23


class LazyNominalMixin(NominalClassifierMixin):
    """``fit`` keeps the training rows; subclasses implement ``_block(idx, known, shared)``
    for a block of test rows (flat value indices, known-value mask, and the (block × training
    rows) count of attributes on which the two rows have the same known value)."""

    def _check_params(self) -> None:
        """Validate constructor parameters at fit time (sklearn convention)."""

    def _fit_codes(self, codes: np.ndarray, y: np.ndarray) -> None:
        self._check_params()
        self.offsets_, T = value_offsets(self.n_values_, missing_slot=True)
        onehot = np.zeros((len(y), T))
        onehot[np.arange(len(y))[:, None], flat_index(codes, self.offsets_, self.n_values_)] = 1.0
        onehot[:, self.offsets_ + self.n_values_] = 0.0  # a missing training value matches and counts nothing
        self._onehot = onehot
        self._onehot32 = onehot.astype(np.float32)  # 0/1 products summed to small integers: exact in float32
        self._y = y
        self._class_rows = [np.flatnonzero(y == c) for c in range(len(self.classes_))]
        self._class_onehot = np.eye(len(self.classes_))[y]
        self._n_total = T

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        out = np.empty((codes.shape[0], len(self.classes_)))
        block = max(1, BLOCK_VALUES // max(len(self._y), 1))
        for start in range(0, codes.shape[0], block):
            part = codes[start:start + block]
            known = part >= 0
            idx = flat_index(part, self.offsets_, self.n_values_)
            test = np.zeros((len(part), self._n_total), dtype=np.float32)
            test[np.repeat(np.arange(len(part)), known.sum(axis=1)), idx[known]] = 1.0
            shared = (test @ self._onehot32.T).astype(np.float64)
            out[start:start + block] = self._block(idx, known, shared)
        return out

    def _weighted_naive_bayes(self, w: np.ndarray, idx: np.ndarray, known: np.ndarray) -> np.ndarray:
        """Weka's NaiveBayes (Laplace counts starting at 1) fitted to training rows weighted by ``w``
        (block × training rows), applied to the block's test rows."""
        c, m = idx.shape
        r = len(self.classes_)
        class_w = w @ self._class_onehot
        prior = (class_w + 1.0) / (class_w.sum(axis=1, keepdims=True) + r)
        factors = np.ones((c, m, r))
        for y, rows in enumerate(self._class_rows):
            cv = w[:, rows] @ self._onehot[rows]  # (c, T): weighted count of each value in class y
            at = np.take_along_axis(cv, idx, axis=1)
            seen = np.stack([cv[:, self.offsets_[a]:self.offsets_[a] + self.n_values_[a]].sum(axis=1)
                             for a in range(m)], axis=1)  # weight of class-y rows with attribute a known
            factors[:, :, y] = np.where(known, (at + 1.0) / (seen + self.n_values_[None, :]), 1.0)
        return java_normalize(weka_product(prior, factors))
