"""What the lazy classifiers (LCWNB, LWNB, ICLNB) share: the kept training rows as small
integer codes (and one-hot rows), the number of attributes each test row shares with each
training row, blocks of test rows that bound memory, and naive Bayes fitted to weighted
training rows."""
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
        self._check_params()
        self._keep_codes(codes, y)
        self.offsets_, T = value_offsets(self.n_values_, missing_slot=True)
        self._flat = flat_index(codes, self.offsets_, self.n_values_)
        onehot = np.zeros((len(y), T))
        onehot[np.arange(len(y))[:, None], self._flat] = 1.0
        onehot[:, self.offsets_ + self.n_values_] = 0.0  # a missing training value matches and counts nothing
        self._onehot = onehot
        self._class_rows = [np.flatnonzero(y == c) for c in range(len(self.classes_))]
        self._class_onehot = np.eye(len(self.classes_))[y]
        self._n_total = T

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        from ._hamming_kernel import shared_values  # numba: imported where first needed

        out = np.empty((codes.shape[0], len(self.classes_)))
        block = max(1, BLOCK_VALUES // max(len(self._y), 1))
        for start in range(0, codes.shape[0], block):
            part = codes[start:start + block]
            known, test = self._test_codes(part)
            shared = shared_values(self._columns, test).astype(np.float64)
            out[start:start + block] = self._block(flat_index(part, self.offsets_, self.n_values_), known, shared)
        return out

    def _weighted_naive_bayes(self, w: np.ndarray, idx: np.ndarray, known: np.ndarray) -> np.ndarray:
        """Weka's NaiveBayes (Laplace counts starting at 1) fitted to training rows weighted by ``w``
        (block × training rows), applied to the block's test rows."""
        c, m = idx.shape
        r = len(self.classes_)
        test_row, train_row = np.nonzero(w)
        if len(test_row) * m < w.size // 4:  # few neighbours per test row: count only them
            at, seen, class_w = self._neighbour_counts(w[test_row, train_row], test_row, train_row, idx, c)
        else:
            class_w = w @ self._class_onehot
            at = np.empty((c, m, r))
            seen = np.empty((c, m, r))
            for y, rows in enumerate(self._class_rows):
                cv = w[:, rows] @ self._onehot[rows]  # (c, T): weighted count of each value in class y
                at[:, :, y] = np.take_along_axis(cv, idx, axis=1)
                seen[:, :, y] = np.stack([cv[:, self.offsets_[a]:self.offsets_[a] + self.n_values_[a]].sum(axis=1)
                                          for a in range(m)], axis=1)  # weight of class-y rows with attribute a known
        prior = (class_w + 1.0) / (class_w.sum(axis=1, keepdims=True) + r)
        factors = np.where(known[:, :, None], (at + 1.0) / (seen + self.n_values_[None, :, None]), 1.0)
        return java_normalize(weka_product(prior, factors))

    def _neighbour_counts(self, weight, test_row, train_row, idx, c):
        """(at, seen, class weight) from the (test row, training row, weight) triples of the nonzero
        weights: at[t, a, y] the weight of class-y neighbours sharing test row t's value of a,
        seen[t, a, y] of those with a known, class_w[t, y] of all class-y neighbours."""
        m = idx.shape[1]
        r = len(self.classes_)
        cls = self._y[train_row]
        neighbour_idx = self._flat[train_row]  # (pairs, m) flat value indices, the missing slot where missing
        match = neighbour_idx == idx[test_row]
        has = self._codes[train_row] >= 0
        cell = ((test_row[:, None] * m + np.arange(m)[None, :]) * r + cls[:, None]).ravel()
        at = np.bincount(cell, weights=(weight[:, None] * match).ravel(), minlength=c * m * r).reshape(c, m, r)
        seen = np.bincount(cell, weights=(weight[:, None] * has).ravel(), minlength=c * m * r).reshape(c, m, r)
        class_w = np.bincount(test_row * r + cls, weights=weight, minlength=c * r).reshape(c, r)
        return at, seen, class_w
