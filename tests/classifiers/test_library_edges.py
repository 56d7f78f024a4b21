# SPDX-License-Identifier: GPL-3.0-or-later
"""The classifiers used as a library, at the edges a new user meets first: arrays as well as
DataFrames, no rows or one class refused in one line, instance weights taken where Weka takes them
and refused in one line elsewhere, a column fit never saw refused, and how each estimator reads a
column of integers, as it declares (``integer_columns``)."""
import inspect
import warnings

import numpy as np
import pandas as pd
import pytest
from estimators import at_defaults

from nbrepro.classifiers import AODE, WAODE, integer_columns
from nbrepro.preprocess import EqualWidthDiscretizer, MDLDiscretizer

ESTIMATORS = at_defaults()
IDS = [name for name, _ in ESTIMATORS]
# Weka 3.6's classifiers that take instance weights (WeightedInstancesHandler) and the ports that do
WEIGHTED = {"NaiveBayes", "AODE", "J48", "NBTree", "Bagging", "Logistic"}


def _data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 3)), columns=["a", "b", "c"])
    y = pd.Series(np.where(X["a"] + rng.normal(scale=0.5, size=n) > 0, "yes", "no"))
    return X, y


def _fit_input(est, X):
    """X as the estimator takes it: discretised for the nominal-only ones."""
    return EqualWidthDiscretizer(4).fit_transform(X) if "numeric" not in _kinds(est) else X


def _kinds(est):
    from nbrepro.classifiers._nominal import accepted_kinds

    return accepted_kinds(est)


def test_the_discretisers_take_arrays_as_numeric_columns():
    X, y = _data()
    for disc, args in ((EqualWidthDiscretizer(4), ()), (MDLDiscretizer(), (y,))):
        from_array = disc.fit(X.to_numpy(), *args).transform(X.to_numpy())
        from_frame = disc.fit(X.set_axis([0, 1, 2], axis=1), *args).transform(X.set_axis([0, 1, 2], axis=1))
        pd.testing.assert_frame_equal(from_array, from_frame)
        assert all(isinstance(t, pd.CategoricalDtype) for t in from_array.dtypes)
    Z = EqualWidthDiscretizer(4).fit_transform(X.to_numpy())
    assert AODE().fit(Z, y).predict_proba(Z).shape == (60, 2)
    with pytest.raises(ValueError, match="2-D"):
        EqualWidthDiscretizer(4).fit(np.zeros(5))


@pytest.mark.parametrize("name, est", ESTIMATORS, ids=IDS)
def test_no_rows_and_one_class_are_refused_in_one_line(name, est):
    X, y = _data()
    X = _fit_input(est, X)
    with pytest.raises(ValueError) as none:
        est.fit(X.iloc[:0], y.iloc[:0])
    with pytest.raises(ValueError, match="one class") as one:
        est.fit(X[y == "yes"], y[y == "yes"])
    for refused in (none, one):
        assert "\n" not in str(refused.value), str(refused.value)


def test_a_declared_class_absent_from_the_rows_is_still_a_class():
    """A Categorical target declares its classes as a Weka header does: rows of one class fit (a
    fold, a bag), and the other class keeps its column."""
    X, y = _data()
    Z = EqualWidthDiscretizer(4).fit_transform(X)
    declared = pd.Series(pd.Categorical(y, categories=["no", "yes"]))
    fitted = AODE().fit(Z[y == "yes"], declared[y == "yes"])
    assert list(fitted.classes_) == ["no", "yes"] and fitted.predict_proba(Z).shape == (60, 2)


@pytest.mark.parametrize("name, est", ESTIMATORS, ids=IDS)
def test_sample_weight_where_weka_takes_instance_weights_and_refused_elsewhere(name, est):
    X, y = _data()
    X = _fit_input(est, X)
    takes = "sample_weight" in inspect.signature(type(est).fit).parameters
    assert takes == (name in WEIGHTED), name
    w = np.arange(len(y)) % 3   # integer weights: exactly that many copies of each row
    if takes:
        rows = np.repeat(np.arange(len(y)), w)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            weighted = est.fit(X, y, sample_weight=w).predict_proba(X)
            if name in ("AODE", "J48"):   # counts only: weights are copies
                copies = est.fit(X.iloc[rows], y.iloc[rows]).predict_proba(X)
                np.testing.assert_array_equal(weighted, copies)
    else:
        with pytest.raises(TypeError, match=rf"^{name}\.fit takes no sample_weight") as refused:
            est.fit(X, y, sample_weight=w)
        assert "\n" not in str(refused.value)


def test_the_refusal_says_why_where_weka_is_the_reason():
    X, y = _data()
    Z = EqualWidthDiscretizer(4).fit_transform(X)
    with pytest.raises(TypeError, match="Weka 3.6's WAODE takes no instance weights"):
        WAODE().fit(Z, y, sample_weight=np.ones(len(y)))


@pytest.mark.parametrize("name, est", ESTIMATORS, ids=IDS)
def test_a_column_fit_never_saw_is_refused_and_the_order_is_read_by_name(name, est):
    X, y = _data()
    X = _fit_input(est, X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X, y)
        extra = X.assign(d=X["a"])
        with pytest.raises(ValueError, match="d"):
            est.predict(extra)
        with pytest.raises(ValueError):
            est.predict(X.drop(columns="c"))


def _integer_data():
    rng = np.random.default_rng(0)
    codes = rng.choice([0, 1, 2, 7], size=(60, 3))   # unequal gaps: a number and a value read apart
    y = np.array(["no", "yes"])[(codes[:, 0] + rng.integers(0, 3, 60) > 3).astype(int)]
    return codes, y


@pytest.mark.parametrize("name, est", ESTIMATORS, ids=IDS)
@pytest.mark.parametrize("container", ["frame", "array"])
def test_an_integer_column_is_read_as_the_estimator_declares(name, est, container):
    """``integer_columns`` says it; the fit shows it: integers give the probabilities of the same
    columns as numbers (floats), or as nominal values (a Categorical of their text)."""
    from sklearn.base import clone

    codes, y = _integer_data()
    cols = ["a0", "a1", "a2"]
    given = pd.DataFrame(codes, columns=cols) if container == "frame" else codes
    as_numbers = pd.DataFrame(codes.astype(float), columns=cols)
    as_values = pd.DataFrame({c: pd.Categorical(codes[:, j].astype(str)) for j, c in enumerate(cols)})
    declared = integer_columns(est, container)
    reference = as_numbers if declared == "numeric" else as_values
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = clone(est).fit(given, y).predict_proba(given)
        want = clone(est).fit(reference, y).predict_proba(reference)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=f"{name} reads {container} integers as "
                               f"{declared}, it says")
