# SPDX-License-Identifier: GPL-3.0-or-later
"""KernelNB and the kernel density sums behind it."""
import math

import numpy as np
import pandas as pd
import pytest
from conftest import DATA_DIR

from nbrepro.classifiers import KernelNB, NaiveBayes
from nbrepro.data.arff import read_arff
from nbrepro.kde import BandwidthError, bandwidth
from nbrepro.kde.density import kernel_density

pytestmark = pytest.mark.bits  # compares bits: .ci/run repeats it with numpy's AVX-512 loops off


def direct_density(x, v, w, h):
    z = (x[:, None] - v[None, :]) / h
    return (w[None, :] * np.exp(-0.5 * z * z)).sum(axis=1) / (w.sum() * h * math.sqrt(2 * math.pi))


@pytest.mark.parametrize("n, m, h, spread", [(3000, 500, 0.2, 2.0), (12000, 3000, 5e4, 1e5), (12000, 3000, 2e3, 1e5),
                                             (9000, 2000, 0.05, 1.0), (2000, 2000, 3.0, 1.0), (50, 30, 0.01, 1.0)])
def test_kernel_density_equals_the_full_sum(n, m, h, spread):
    """The windowed sum and the box expansions against every term summed (relative 1e-12);
    the queries include points far outside the sample."""
    rng = np.random.default_rng(n + m)
    v = rng.normal(size=n) * spread
    w = rng.integers(1, 3, n).astype(float)
    x = np.concatenate([rng.normal(size=m) * spread * 1.5, [spread * 20, -spread * 7, np.nan]])
    got = kernel_density(x, v, w, h)
    want = direct_density(np.nan_to_num(x), v, w, h)
    assert np.isnan(got[-1])
    ok = want[:-1] > 0
    assert np.all((got[:-1] == 0) == (want[:-1] == 0))
    assert np.max(np.abs(got[:-1][ok] / want[:-1][ok] - 1)) < 1e-12


def test_kernel_density_needs_a_positive_bandwidth():
    with pytest.raises(ValueError, match="positive"):
        kernel_density(np.array([0.0]), np.array([1.0, 2.0]), np.ones(2), 0.0)


def small_numeric():
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"a": rng.normal(size=60), "b": rng.exponential(size=60)})
    y = pd.Series(pd.Categorical(np.repeat(["p", "q", "r"], 20)))
    return X, y


def test_density_estimator_is_the_formula():
    X, y = small_numeric()
    model = KernelNB(bandwidth="sp").fit(X, y)
    Xt = X.iloc[:7] + 0.1
    want = np.ones((7, 3))
    for c, label in enumerate(["p", "q", "r"]):
        want[:, c] = 21 / 63  # (n_c + 1)/(n + r)
        for t, col in enumerate(["a", "b"]):
            v = X.loc[(y == label).to_numpy(), col].to_numpy()
            h = bandwidth(v, "sp")
            assert model.bandwidths_[t, c] == h
            want[:, c] *= direct_density(Xt[col].to_numpy(), v, np.ones(len(v)), h)
    want /= want.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(model.predict_proba(Xt), want, rtol=1e-12)


@pytest.mark.parametrize("name", ["colic", "glass", "hepatitis"])
def test_weka_rule_inside_wekas_estimator_is_naive_bayes_minus_k(name):
    """bandwidth="weka", estimator="weka" is Weka's NaiveBayes -K (itself checked against Weka)."""
    df, _ = read_arff(DATA_DIR / f"{name}.arff")
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    ours = KernelNB(bandwidth="weka", estimator="weka").fit(X.iloc[::2], y.iloc[::2]).predict_proba(X.iloc[1::2])
    weka = NaiveBayes(kernel=True).fit(X.iloc[::2], y.iloc[::2]).predict_proba(X.iloc[1::2])
    assert np.array_equal(ours, weka)


def test_fallback_where_the_rule_has_no_answer():
    X, y = small_numeric()
    X.loc[(y == "q").to_numpy(), "a"] = 2.0  # one class constant: R's rules stop
    model = KernelNB(bandwidth="ucv").fit(X, y)
    assert model.fell_back_.tolist() == [[False, True, False], [False, False, False]]
    assert model.bandwidths_[0, 1] == bandwidth(np.full(20, 2.0), "weka", model.precisions_[0])
    assert np.isnan(model.reference_bandwidths_[0, 1]) and np.isnan(model.bandwidth_ratios_[0, 1])
    with pytest.raises(BandwidthError, match=r"attribute 'a', class 'q'"):
        KernelNB(bandwidth="ucv", fallback=None).fit(X, y)
    with pytest.raises(BandwidthError, match=r"fallback 'nrd' on attribute 'a', class 'q' \(20 values\)"):
        KernelNB(bandwidth="ucv", fallback="nrd").fit(X, y)  # R's rules have no answer for constant values either


def test_mixed_data_and_missing_values():
    X, y = small_numeric()
    X["c"] = pd.Categorical(np.tile(["u", "v", "w"], 20))
    X.loc[3, "a"] = np.nan
    model = KernelNB(bandwidth="nrd0").fit(X, y)
    p = model.predict_proba(X)
    assert p.shape == (60, 3) and np.allclose(p.sum(axis=1), 1)
    row = X.iloc[[3]].copy()  # a missing numeric value leaves its attribute out
    without = KernelNB(bandwidth="nrd0").fit(X, y)
    assert np.allclose(without.predict_proba(row), model.predict_proba(row))


@pytest.mark.parametrize("kwargs, message", [({"bandwidth": "silverman"}, "'bandwidth' parameter of KernelNB must be"),
                                             ({"estimator": "fft"}, "'estimator' parameter of KernelNB must be"),
                                             ({"fallback": "mean"}, "'fallback' parameter of KernelNB must be")])
def test_bad_parameters_are_named(kwargs, message):
    X, y = small_numeric()
    with pytest.raises(ValueError, match=message):
        KernelNB(**kwargs).fit(X, y)


def test_density_table_equals_one_sample_at_a_time():
    """The table's three paths (dense per attribute, batched windows, large samples alone) give
    the one-sample sums to 1e-12."""
    from nbrepro.kde import density
    from nbrepro.kde.density import kernel_density_table

    rng = np.random.default_rng(11)
    X = np.column_stack([rng.normal(size=300), rng.exponential(size=300) * 100, np.round(rng.normal(size=300), 1)])
    X[5, 1] = np.nan
    groups = [(t, rng.normal(size=n) * s + m, np.ones(n), h)
              for t, (n, s, m, h) in enumerate([(40, 1.0, 0.0, 0.3), (900, 80.0, 50.0, 4.0), (25, 1.0, 0.2, 0.05)])]
    groups += [(0, np.array([0.1]), np.ones(1), 0.2), (1, rng.normal(size=3000) * 50, np.ones(3000), 30.0)]
    # repeated values with their own weights (summed per distinct value), and an empty sample
    groups += [(2, np.round(rng.normal(size=60), 1), rng.uniform(0.5, 2.0, 60), 0.2),
               (0, np.empty(0), np.empty(0), 0.3)]
    want = np.column_stack([kernel_density(X[:, t], v, w, h) for t, v, w, h in groups])
    for dense_max in (density._DENSE_MAX, 0):  # with and without the dense pass
        saved = density._DENSE_MAX
        density._DENSE_MAX = dense_max
        try:
            got = kernel_density_table(X, groups)
        finally:
            density._DENSE_MAX = saved
        assert np.array_equal(np.isnan(got), np.isnan(want))
        ok = ~np.isnan(want) & (want > 0)
        assert np.max(np.abs(got[ok] / want[ok] - 1)) < 1e-12
        assert np.array_equal(got[want == 0], want[want == 0])


def test_whole_number_values_take_exp_from_a_table_bit_for_bit():
    from nbrepro.kde import density
    from nbrepro.kde.density import kernel_density_table

    rng = np.random.default_rng(3)
    X = rng.integers(0, 300, (500, 2)).astype(float)
    groups = []
    for t, h in ((0, 2.5), (0, 17.0), (1, 0.7), (1, 40.0)):
        v = rng.integers(0, 300, 120).astype(float)
        groups.append((t, v, rng.integers(1, 4, len(v)).astype(float), h))
    looked_up = kernel_density_table(X, groups)
    saved = density._LATTICE_MAX
    density._LATTICE_MAX = -1  # force the exp path
    try:
        computed = kernel_density_table(X, groups)
    finally:
        density._LATTICE_MAX = saved
    assert np.array_equal(looked_up, computed)


def test_compiled_exponential_is_within_two_ulp_of_the_c_library():
    """The kernel sums' own e^(−z) (kde/_kernels.py): ≤ 2 ulp where the result is normal, one
    unit of the last place where it is subnormal, 0 where exp gives 0, 1 at 0."""
    from nbrepro.kde._kernels import gauss_array

    rng = np.random.default_rng(5)
    z = np.concatenate(
        [
            rng.random(200_000) * 800,
            rng.random(20_000) * 1e-3,
            708.39 + rng.random(20_000) * 37,
            [0.0, 1e-300, 708.0, 708.3964, 745.13, 745.14, 746.0, 1e6, np.inf],
        ]
    )
    got, want = gauss_array(z), np.exp(-z)
    normal = want >= np.finfo(float).tiny
    assert np.max(np.abs(got[normal] - want[normal]) / np.spacing(want[normal])) <= 2
    assert np.max(np.abs(got[~normal] - want[~normal])) <= 5e-324
    assert np.array_equal(got == 0, want == 0) and got[-9] == 1.0


def test_all_nominal_data_cross_validated_by_counts_records_the_empty_kernels_fit_gives():
    """On data with no numeric attribute cross-validation fits KernelNB from counts alone
    (nbrepro.evaluation.crossval); its recorded bandwidths are then what fit leaves, an empty (0, classes)
    array, not a missing attribute (Liu et al.'s run records them on every data set)."""
    import numpy as np
    import pandas as pd

    from nbrepro.evaluation.crossval import fold_probabilities

    X = pd.DataFrame({"a": pd.Categorical(list("xyxyxyxyxy" * 3)), "b": pd.Categorical(list("pqqppqqpqp" * 3))})
    y = pd.Series(pd.Categorical(list("uvuvvuvuuv" * 3)))
    train, test = np.arange(10, 30), np.arange(0, 10)
    (fold,) = fold_probabilities(KernelNB(bandwidth="sp"), X, y, [(train, test)],
                                 record=["bandwidths_", "bandwidth_ratios_", "fell_back_"])
    fitted = KernelNB(bandwidth="sp").fit(X.iloc[train], y.iloc[train])
    for name, value in fold.recorded.items():
        assert value.shape == getattr(fitted, name).shape == (0, 2), name
    assert np.array_equal(fold.proba, fitted.predict_proba(X.iloc[test]))
