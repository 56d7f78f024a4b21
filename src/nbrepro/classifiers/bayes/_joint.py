# SPDX-License-Identifier: GPL-3.0-or-later
"""Joint counts of two attribute values and the class, and the gathers that read them.

AODE, WAODE, HNB and TAN all need, for every pair of attributes (i, j), the counts
n(c, x_i = u, x_j = v). Weka keeps them in one array ``[class][value][value]`` indexed by
a running offset per attribute; we keep the same layout, which lets a test row's
per-pair lookups be one ``np.take`` each.

The counts are formed as one-hot matrix products (``O_c^T O_c`` per class) rather than
by scattering ``n · d²`` increments: BLAS does this several times faster, and the result
is exact because every partial sum is an integer below 2**24 (float32) or 2**53 (float64).
"""
from __future__ import annotations

import numpy as np

from ... import libm
from .._nominal import CountedClassifierMixin


def value_offsets(n_values: np.ndarray, missing_slot: bool) -> tuple[np.ndarray, int]:
    """Start of each attribute's block in the flat value index, and the total size.

    With ``missing_slot`` each attribute gets one extra index after its values, where
    a missing value is counted (Weka's AODE layout).
    """
    width = np.asarray(n_values, dtype=np.int64) + (1 if missing_slot else 0)
    offsets = np.concatenate([[0], np.cumsum(width)[:-1]]).astype(np.int64)
    return offsets, int(width.sum())


def value_layout(n_values: np.ndarray) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    """The flat layout with a missing slot per attribute: (offsets, total size, owner = attribute
    of each flat index, missing = the missing slot of each attribute)."""
    offsets, total = value_offsets(n_values, missing_slot=True)
    owner = np.repeat(np.arange(len(n_values)), np.asarray(n_values) + 1)
    return offsets, total, owner, offsets + np.asarray(n_values)


def flat_index(codes: np.ndarray, offsets: np.ndarray, n_values: np.ndarray) -> np.ndarray:
    """Flat value index per cell; a missing code (-1) maps to the attribute's missing slot."""
    return np.where(codes >= 0, codes, np.asarray(n_values)[None, :]) + offsets[None, :]


def pair_counts(index: np.ndarray, y: np.ndarray, n_total: int, n_classes: int) -> np.ndarray:
    """``joint[u, v, c]`` = number of training rows of class c having flat values u and v.

    ``index`` is (rows × attributes) of flat value indices (see ``flat_index``). The class
    is the last, contiguous axis, so that one ``np.take`` row holds a pair's counts for
    every class.
    """
    n, d = index.shape
    dtype = np.float32 if n < 2 ** 24 else np.float64  # integer sums stay exact below the mantissa limit
    order = np.argsort(y, kind="stable")
    bounds = np.searchsorted(y[order], np.arange(n_classes + 1))
    onehot = np.zeros((n, n_total), dtype=dtype)
    onehot[np.arange(n)[:, None], index[order]] = 1
    by_class = np.empty((n_classes, n_total, n_total), dtype=dtype)
    for c in range(n_classes):
        rows = onehot[bounds[c]:bounds[c + 1]]
        np.matmul(rows.T, rows, out=by_class[c])  # numpy dispatches A.T @ A to a symmetric rank-k update
    # one transposing copy: BLAS writes each class's table contiguously, not with the class stride
    return np.ascontiguousarray(by_class.transpose(1, 2, 0), dtype=np.float64)


def diagonal(joint: np.ndarray) -> np.ndarray:
    """n(c, u) as (T, r): the counts of each single value per class."""
    return np.einsum("uuc->uc", joint)


def ordered_sum(values: np.ndarray, axis: int = 0) -> np.ndarray:
    """Left-to-right sum along ``axis``, as a Java loop adds (numpy's ``sum`` is pairwise)."""
    return np.add.accumulate(np.asarray(values, dtype=np.float64), axis=axis).take(-1, axis=axis)


def log2_ratio(x: np.ndarray, y: np.ndarray, small: float = 1e-6) -> np.ndarray:
    """Weka's ``log2(x, y)`` in WAODE and HNB: log2(x / y), or 0 when x or y is below 1e-6."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    ok = (x >= small) & (y >= small)
    with np.errstate(divide="ignore", invalid="ignore"):
        quotient = x / y
    out = np.zeros(ok.shape)
    out[ok] = libm.log(quotient[ok]) / libm.log(2.0)  # the logs of a contiguous array, as before
    return out


def complete_codes(estimator, codes: np.ndarray) -> None:
    """Refuse missing values in training data, naming the attribute and row (as Weka's capability check)."""
    rows, cols = np.nonzero(codes < 0)
    if len(rows):
        name = (estimator.feature_names_in_[cols[0]] if hasattr(estimator, "feature_names_in_") else cols[0])
        raise ValueError(f"{type(estimator).__name__}: training data has a missing value (attribute {name!r}, "
                         f"row {rows[0]}; {len(rows)} in all); Weka 3.6's {type(estimator).__name__} takes none: "
                         "apply ReplaceMissingValues first")


class JointCountsMixin(CountedClassifierMixin):
    """Counts shared by AODE, WAODE and HNB: class totals and the (value, value, class) table.

    ``complete_training`` estimators (Weka's WAODE and HNB) refuse missing values in training.
    """

    complete_training = False

    def _count(self, codes: np.ndarray, y: np.ndarray) -> dict:
        if self.complete_training:
            complete_codes(self, codes)
        offsets, T = value_offsets(self.n_values_, missing_slot=True)
        r = len(self.classes_)
        return {"joint": pair_counts(flat_index(codes, offsets, self.n_values_), y, T, r),
                "class": np.bincount(y, minlength=r).astype(np.float64)}
