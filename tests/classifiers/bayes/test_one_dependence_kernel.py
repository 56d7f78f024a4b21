# SPDX-License-Identifier: GPL-3.0-or-later
"""AODE's, WAODE's and HNB's compiled prediction against the numpy forms it replaced: the same bits."""
import numpy as np
import pandas as pd
import pytest

from nbrepro.classifiers import AODE, HNB, WAODE
from nbrepro.classifiers._nominal import normalize_or_uniform
from nbrepro.classifiers.bayes._joint import flat_index

pytestmark = pytest.mark.bits  # compares bits: .ci/run repeats it with numpy's AVX-512 loops off


def _ordered_sum(values, axis):
    return np.add.accumulate(values, axis=axis).take(-1, axis=axis)


def _products(first, ratio, index, n_total):
    """numpy: for every parent p, first[:, p] · ∏_{a ≠ p} ratio[x_p, x_a], one gather per attribute."""
    table = np.vstack([ratio, np.ones((1, ratio.shape[1]))])
    base = index * n_total
    out = first.copy()
    for a in range(index.shape[1]):
        pair = base + index[:, a:a + 1]
        pair[:, a] = len(table) - 1
        out *= np.take(table, pair, axis=0)
    return out


def _aode_numpy(model, codes):
    idx = flat_index(codes, model.offsets_, model.n_values_)
    ok = (codes >= 0) & (model._frequency[idx] >= model.frequency_limit)
    spodes = _products(model._prior[idx], model._ratio, idx, model._n_total) * ok[:, :, None]
    parents = ok.sum(axis=1)
    probs = _ordered_sum(spodes, axis=1) / np.maximum(parents, 1)[:, None]
    for i in np.flatnonzero(parents == 0):
        nb = model._nb_prior.copy()
        for a in range(codes.shape[1]):
            nb *= model._nb_ratio[idx[i, a]]
        probs[i] = nb
    return normalize_or_uniform(probs)


def _waode_numpy(model, codes):
    idx = flat_index(codes, model.offsets_, model.n_values_)
    weights = model.mutual_information_[None, :] * (codes >= 0)
    total = _ordered_sum(weights[:, :, None] * _products(model._prior[idx], model._ratio, idx, model._n_total), axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return normalize_or_uniform(total / _ordered_sum(weights, axis=1)[:, None])


def _hnb_numpy(model, codes):
    n, d = codes.shape
    T = model._n_total
    idx = flat_index(codes, model.offsets_, model.n_values_)
    ok = codes >= 0
    term = np.vstack([model._term, np.zeros((1, model._term.shape[1]))])
    W = model.conditional_mutual_information_
    mix = np.zeros((n, d, term.shape[1]))
    weight_sum = np.zeros((n, d))
    for p in range(d):
        pair = idx[:, p:p + 1] * T + idx
        pair[:, p] = len(term) - 1
        mix += np.take(term, pair, axis=0)
        weight_sum += np.where(ok[:, p:p + 1], W[:, p][None, :], 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        factor = np.where((weight_sum > 0)[..., None], mix / weight_sum[..., None], model._alone[idx])
    factor[~ok] = 1.0
    stacked = np.concatenate([np.broadcast_to(model._prior, (n, 1, len(model._prior))), factor], axis=1)
    return normalize_or_uniform(np.multiply.reduce(stacked, axis=1))


def _data(n_rows, n_attributes, seed, missing):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, n_rows)
    X = np.where(rng.random((n_rows, n_attributes)) < 0.3, y[:, None] % 3, rng.integers(0, 3, (n_rows, n_attributes)))
    frame = pd.DataFrame({f"a{j}": pd.Categorical.from_codes(X[:, j], ["u", "v", "w"]) for j in range(n_attributes)})
    test = frame.copy()
    if missing:
        for j in range(n_attributes):
            test.loc[rng.random(n_rows) < 0.15, f"a{j}"] = np.nan
        test.iloc[0] = np.nan  # a row with every value missing
    return frame, pd.Series(pd.Categorical.from_codes(y, ["c0", "c1", "c2", "c3"])), test


@pytest.mark.parametrize("make, numpy_form", [(AODE, _aode_numpy), (lambda: AODE(frequency_limit=30), _aode_numpy),
                                              (lambda: AODE(m_estimate=True, weight=2), _aode_numpy),
                                              (WAODE, _waode_numpy), (HNB, _hnb_numpy)])
@pytest.mark.parametrize("missing", [False, True])
def test_compiled_prediction_gives_the_numpy_bits(make, numpy_form, missing):
    X, y, test = _data(300, 12, 5, missing)
    model = make().fit(X, y)
    assert np.array_equal(model.predict_proba(test), numpy_form(model, model._encode(test)))


def _conditional_mutual_information_numpy(joint, class_count, offsets, n_values, n):
    """The numpy form the kernel replaced: one child attribute at a time, Weka's order of sums."""
    from nbrepro.classifiers.bayes._joint import diagonal, log2_ratio

    d, vmax = len(n_values), int(n_values.max())
    grid = np.arange(vmax)
    valid = grid[None, :] < n_values[:, None]
    flat = np.where(valid, offsets[:, None] + grid[None, :], 0)
    p_class = class_count / float(n)
    p_value = diagonal(joint).T[:, flat] / float(n)
    W = np.zeros((d, d))
    for s in range(d):
        qs = int(n_values[s])
        child = flat[s, :qs]
        p_pair = np.moveaxis(joint[flat[:, :, None], child[None, None, :]], 3, 0) / float(n)
        x = p_pair * p_class[:, None, None, None]
        y = p_value[:, :, :, None] * p_value[:, s, None, None, :qs]
        terms = p_pair * log2_ratio(x, y)
        terms *= valid[None, :, :, None]
        W[s] = _ordered_sum(terms.transpose(0, 2, 3, 1).reshape(-1, d), axis=0)
    np.fill_diagonal(W, 0.0)
    return W


@pytest.mark.parametrize("seed", [1, 2])
def test_compiled_conditional_mutual_information_gives_the_numpy_bits(seed):
    rng = np.random.default_rng(seed)
    n_values = np.array([2, 3, 5, 4, 3, 2, 6])  # unequal value counts: the numpy form pads them
    X = np.column_stack([rng.integers(0, q, 500) for q in n_values])
    y = (X[:, 0] + X[:, 2] + rng.integers(0, 2, 500)) % 3
    frame = pd.DataFrame({f"a{j}": pd.Categorical.from_codes(X[:, j], [f"v{k}" for k in range(q)])
                          for j, q in enumerate(n_values)})
    model = HNB().fit(frame, pd.Series(pd.Categorical.from_codes(y, ["a", "b", "c"])))
    counts = model._count(model._encode(frame), y)
    expected = _conditional_mutual_information_numpy(counts["joint"], counts["class"], model.offsets_, n_values, 500)
    assert np.array_equal(model.conditional_mutual_information_, expected)
    assert (expected > 0).sum() > 10  # the check has something to compare


def test_conditional_mutual_information_of_counts_that_are_not_symmetric():
    # the kernel reuses (p, s)'s terms for (s, p) only where the counts are symmetric
    from nbrepro.classifiers.bayes._one_dependence_kernel import conditional_mutual_information

    rng = np.random.default_rng(4)
    n_values = np.array([2, 3, 4])
    offsets = np.array([0, 3, 7])  # with a missing slot after each attribute's values
    joint = rng.integers(1, 40, (12, 12, 3)).astype(float)
    class_count = rng.integers(50, 90, 3).astype(float)
    got = conditional_mutual_information(joint, class_count, offsets, n_values, 200.0)
    assert np.array_equal(got, _conditional_mutual_information_numpy(joint, class_count, offsets, n_values, 200))


def test_hidden_parent_terms_give_the_numpy_bits():
    from nbrepro.classifiers.bayes._joint import diagonal, value_layout

    X, y, _ = _data(300, 6, 7, False)
    model = HNB().fit(X, y)
    counts = model._count(model._encode(X), y.cat.codes.to_numpy())
    offsets, T, owner, miss = value_layout(model.n_values_)
    q = model.n_values_.astype(float)
    w = model.conditional_mutual_information_[owner][:, owner].T
    term = (w[:, :, None] * (counts["joint"] + (1.0 / q[owner])[None, :, None])) / \
        (diagonal(counts["joint"])[:, None, :] + 1.0)
    term[miss] = 0.0
    assert np.array_equal(model._term, term.reshape(T * T, -1))
