# SPDX-License-Identifier: GPL-3.0-or-later
"""Naive Bayes's compiled counting (``bayes._naive_bayes_kernel``) gives the numpy expressions' bits:
``bincount`` over (flat value, class) with fractional weights and missing codes, and the nominal codes."""
import numpy as np
import pytest

from nbrepro.classifiers.bayes._joint import flat_index, value_offsets
from nbrepro.classifiers.bayes._naive_bayes_kernel import nominal_codes, value_class_counts

pytestmark = pytest.mark.bits


@pytest.mark.parametrize("weights", ["unit", "fractional"])
def test_value_class_counts_are_bincounts(weights):
    rng = np.random.default_rng(7)
    n, r = 3000, 3
    n_values = np.array([3, 0, 5, 2, 0, 7], dtype=np.int64)  # 0: a numeric attribute, not counted
    codes = np.column_stack([rng.integers(-1, max(q, 1), n) for q in n_values]).astype(np.int64)
    y = rng.integers(0, r, n)
    w = np.ones(n) if weights == "unit" else rng.choice([1.0, 0.1, 1 / 3, 7.25], n)
    offsets, T = value_offsets(n_values, missing_slot=True)
    nominal = np.flatnonzero(n_values > 0)
    idx = flat_index(codes[:, nominal], offsets[nominal], n_values[nominal])
    want = np.bincount((idx * r + y[:, None]).ravel(), weights=np.repeat(w, len(nominal)),
                       minlength=T * r).reshape(T, r)
    got, class_count = value_class_counts(codes, nominal, offsets, n_values, y, w, T, r)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(class_count, np.bincount(y, weights=w, minlength=r))


def test_nominal_codes():
    Z = np.array([[0.0, 2.5, np.nan], [3.0, np.nan, 1.0], [np.nan, -4.0, 2.0]])
    numeric = np.array([False, True, False])
    want = np.where(np.isnan(Z), -1.0, Z).astype(np.int64)
    want[:, numeric] = -1
    np.testing.assert_array_equal(nominal_codes(Z, numeric), want)
