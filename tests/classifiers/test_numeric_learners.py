# SPDX-License-Identifier: GPL-3.0-or-later
"""The Weka numeric and tree learners: scikit-learn conformance, bad input, and properties
that need no oracle (the Weka oracle tests are in test_weka_numeric.py)."""
import numpy as np
import pandas as pd
import pytest

from nbrepro.classifiers import J48, Bagging, Logistic, NaiveBayes, NBTree
from nbrepro.classifiers.trees._bagging import weka_bag
from nbrepro.classifiers.trees._prune_kernel import add_errors
from nbrepro.weka.random import JavaRandom
from nbrepro.weka.special import weka_normal_inverse, weka_normal_probability, weka_normal_probability_port

pytestmark = pytest.mark.bits  # compares bits: .ci/run repeats it with numpy's AVX-512 loops off

# scikit-learn's estimator checks of these learners: tests/classifiers/test_common.py


def _frame(values, name="x"):
    return pd.DataFrame({name: values})


Y4 = pd.Series(pd.Categorical(["a", "a", "b", "b"]))


@pytest.mark.parametrize("make", [NaiveBayes, J48, Logistic, NBTree, lambda: NaiveBayes(kernel=True)])
def test_infinite_value_names_the_attribute(make):
    with pytest.raises(ValueError, match="attribute 'speed' has an infinite value"):
        make().fit(_frame([1.0, np.inf, 2.0, 3.0], "speed"), Y4)


@pytest.mark.parametrize("make", [NaiveBayes, lambda: NaiveBayes(kernel=True), J48, Logistic, NBTree])
def test_all_missing_or_constant_column_is_weka_behaviour(make):
    """Weka keeps such a column; it carries no information, so the prediction is the other column's."""
    other = [0.0, 0.1, 5.0, 5.1]
    base = make().fit(_frame(other, "z"), Y4).predict_proba(_frame(other, "z"))
    for useless in ([np.nan] * 4, [7.0] * 4):
        X = pd.DataFrame({"u": useless, "z": other})
        p = make().fit(X, Y4).predict_proba(X)
        np.testing.assert_array_equal(p.argmax(1), base.argmax(1))


def test_class_with_one_row():
    X = _frame([0.0, 0.2, 0.1, 9.0])
    y = pd.Series(pd.Categorical(["a", "a", "a", "b"]))
    for model in (NaiveBayes(), J48(), Logistic(), NBTree(), NaiveBayes(kernel=True)):
        p = model.fit(X, y).predict_proba(X)
        assert p.shape == (4, 2) and np.isfinite(p).all()


def test_unseen_nominal_value_is_missing_or_an_error():
    X = pd.DataFrame({"c": pd.Categorical(["u", "v", "u", "v"]), "x": [0.0, 1.0, 0.1, 1.1]})
    test = pd.DataFrame({"c": ["w"], "x": [0.5]})
    missing = pd.DataFrame({"c": pd.Categorical([None], categories=["u", "v"]), "x": [0.5]})
    for make in (NaiveBayes, J48, Logistic, NBTree):
        np.testing.assert_array_equal(make().fit(X, Y4).predict_proba(test), make().fit(X, Y4).predict_proba(missing))
        with pytest.raises(ValueError, match="attribute 'c' has value 'w' not seen in fit"):
            make(handle_unknown="error").fit(X, Y4).predict_proba(test)


@pytest.mark.parametrize("make", [NBTree, J48, lambda: Bagging(J48(unpruned=True), n_estimators=3), Logistic])
def test_fitted_model_is_freed_without_the_cyclic_collector(make):
    """A tree that pointed back at its estimator was garbage only the cyclic collector frees:
    a pipeline job's 50 calibrated NBTree fits held about 1 GB of it before a collection."""
    import gc

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.normal(size=120), "z": rng.normal(size=120),
                      "c": pd.Categorical(rng.choice(["u", "v", "w"], size=120))})
    y = pd.Series(pd.Categorical(np.where(X.x + rng.normal(scale=0.5, size=120) > 0, "a", "b")))
    make().fit(X, y).predict_proba(X)  # numba's first compilation leaves cycles of its own
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        model = make().fit(X, y)
        model.predict_proba(X)
        del model
        gc.collect()
        kinds = sorted({type(o).__name__ for o in gc.garbage} - {"tuple", "getset_descriptor", "PyCArrayType",
                                                                   "StgDict", "dict", "function", "cell"})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert kinds == []


def test_kernel_and_discretisation_exclude_each_other():
    with pytest.raises(ValueError, match="exclude each other"):
        NaiveBayes(kernel=True, supervised_discretization=True).fit(_frame([0.0, 1.0, 2.0, 3.0]), Y4)


def test_normal_estimator_is_an_interval_probability():
    """Weka's NormalEstimator: Φ over ±precision/2 around the rounded value, σ floored at precision/6."""
    X = _frame([1.0, 2.0, 3.0, 4.0])  # precision 1, class a: values 1, 2 (σ = 0.5)
    y = pd.Series(pd.Categorical(["a", "a", "b", "b"]))
    nb = NaiveBayes().fit(X, y)
    est = nb.normal_
    assert est.precision[0] == 1.0
    np.testing.assert_allclose(est.mean[0], [1.5, 3.5])
    np.testing.assert_allclose(est.sd[0], [0.5, 0.5])
    from scipy.stats import norm
    expected = norm.cdf(1.5, 1.5, 0.5) - norm.cdf(0.5, 1.5, 0.5)  # x = 1.4 rounds to 1: the interval [0.5, 1.5]
    np.testing.assert_allclose(est.probability(np.array([[1.4]]))[0, 0, 0], expected, rtol=1e-12)


def test_weka_normal_functions_match_scipy():
    """Weka's normalProbability is Cephes ndtr, as scipy's: the port and scipy agree bit for bit."""
    from scipy.special import ndtri
    rng = np.random.default_rng(0)
    x = np.concatenate([np.linspace(-40, 40, 20001), rng.normal(0, 3, 200_000), [np.inf, -np.inf, 0.0]])
    np.testing.assert_array_equal(weka_normal_probability_port(x), weka_normal_probability(x))
    assert np.isnan(weka_normal_probability_port(np.array([np.nan])))[0]
    assert abs(weka_normal_inverse(0.75) - ndtri(0.75)) < 1e-15


def test_c45_pessimistic_errors():
    """Stats.addErrs at CF 0.25: the upper confidence limit less the observed errors."""
    z = weka_normal_inverse(0.75)
    assert add_errors(6.0, 0.0, np.float32(0.25), z) == pytest.approx(6 * (1 - 0.25 ** (1 / 6)))
    assert add_errors(10.0, 9.6, np.float32(0.25), z) == pytest.approx(0.4)  # e + 0.5 ≥ n: n − e


def test_bags_are_wekas_resampling():
    """Equal weights: each draw is the row floor(n·u) (the alias table is the identity)."""
    rnd, check = JavaRandom(1), JavaRandom(1)
    bag = weka_bag(np.ones(7), rnd)
    assert bag.tolist() == [int(7 * check.next_double()) for _ in range(7)]


def test_j48_min_test_depth():
    X = pd.DataFrame({"a": [0.0, 0.0, 1.0, 1.0] * 5, "noise": [0.3] * 20})
    y = pd.Series(pd.Categorical(["p", "p", "q", "q"] * 5))
    depth = J48().fit(X, y).min_test_depth_
    assert depth[0] == 1 and np.isinf(depth[1])
