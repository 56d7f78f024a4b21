# SPDX-License-Identifier: GPL-3.0-or-later
"""NaiveBayes: the formula by hand, unseen values, and Weka 3.6 as the oracle (probabilities to 1e-12)."""
import numpy as np
import pandas as pd
import pytest
from conftest import DATA_DIR
from oracles import needs_weka

from nbrepro.classifiers import AODE, NaiveBayes
from nbrepro.data.arff import read_arff, write_arff
from nbrepro.preprocess import EqualWidthDiscretizer, RemoveIdLike, ReplaceMissingValues
from nbrepro.protocols.weka_cv import weka_cv_folds

pytestmark = pytest.mark.bits  # compares bits: .ci/run repeats it with numpy's AVX-512 loops off


def _cat(codes, cats):
    return pd.Categorical.from_codes(codes, pd.Index(cats, dtype=object))


def test_laplace_formula_by_hand():
    X = pd.DataFrame({"a": _cat([0, 0, 1, 1, 1], ["u", "v", "w"])})
    y = pd.Series(_cat([0, 0, 0, 1, 1], ["p", "n", "unused"]))
    nb = NaiveBayes().fit(X, y)
    assert list(nb.classes_) == ["p", "n", "unused"]
    # P(p)=(3+1)/(5+3), P(a=u|p)=(2+1)/(3+3); P(n)=(2+1)/8, P(u|n)=(0+1)/(2+3); P(unused)=1/8, P(u|unused)=1/3
    raw = np.array([4 / 8 * 3 / 6, 3 / 8 * 1 / 5, 1 / 8 * 1 / 3])
    got = nb.predict_proba(pd.DataFrame({"a": _cat([0], ["u", "v", "w"])}))[0]
    np.testing.assert_allclose(got, raw / raw.sum(), rtol=1e-15)


def test_missing_and_unseen_values_leave_the_attribute_out():
    X = pd.DataFrame({"a": _cat([0, 1, 1], ["u", "v"]), "b": _cat([0, 0, 1], ["s", "t"])})
    y = pd.Series(_cat([0, 1, 1], ["p", "n"]))
    nb = NaiveBayes().fit(X, y)
    only_b = nb.predict_proba(pd.DataFrame({"a": _cat([-1], ["u", "v"]), "b": _cat([0], ["s", "t"])}))
    undeclared = nb.predict_proba(pd.DataFrame({"a": pd.Categorical(["zzz"]), "b": pd.Categorical(["s"])}))
    np.testing.assert_array_equal(only_b, undeclared)
    with pytest.raises(ValueError, match="attribute 'a' has value 'zzz' not seen in fit"):
        NaiveBayes(handle_unknown="error").fit(X, y).predict(pd.DataFrame({"a": ["zzz"], "b": ["s"]}))


def test_numeric_column_is_refused_with_advice_by_a_nominal_only_classifier():
    with pytest.raises(TypeError, match="attribute 'x' is numeric.*discretise"):
        AODE().fit(pd.DataFrame({"x": [0.5, 1.5]}), ["a", "b"])


def test_plain_arrays_work():
    X = np.array([["a", "x"], ["b", "x"], ["a", "y"]], dtype=object)
    nb = NaiveBayes().fit(X, np.array([1, 2, 1]))
    assert nb.predict(X).tolist() == [1, 2, 1]


def _prepared(name):
    df, _ = read_arff(DATA_DIR / f"{name}.arff")
    y = df.iloc[:, -1]
    X = df.iloc[:, :-1]
    for step in (RemoveIdLike(0.9), ReplaceMissingValues(), EqualWidthDiscretizer(10)):
        X = step.fit(X).transform(X)
    return X, y


@needs_weka
@pytest.mark.parametrize("name", ["labor", "vote", "audiology", "soybean", "credit-g", "cmc", "primary-tumor",
                                  "ecoli", "tae", "hepatitis"])
def test_probabilities_equal_weka(tmp_path, weka_oracle, name):
    X, y = _prepared(name)
    fold = next(iter(weka_cv_folds(y.cat.codes.to_numpy(), 3, [1])))
    frame = X.copy()
    frame["class"] = y
    write_arff(frame.iloc[fold.train], tmp_path / "train.arff")
    write_arff(frame.iloc[fold.test], tmp_path / "test.arff")
    weka = np.array(weka_oracle("weka.classifiers.bayes.NaiveBayes", tmp_path / "train.arff", tmp_path / "test.arff"))
    ours = NaiveBayes().fit(X.iloc[fold.train], y.iloc[fold.train]).predict_proba(X.iloc[fold.test])
    np.testing.assert_allclose(ours, weka, rtol=0, atol=1e-12)
    assert (ours.argmax(1) == weka.argmax(1)).all()


def test_compiled_product_gives_numpys_bits():
    """The compiled pass KernelNB uses forms Weka's product with the same bits as the numpy one,
    through factor floors, repeated rescales and NaN factors."""
    from nbrepro.weka._product_kernel import weka_product_rows
    from nbrepro.weka.product import TINY, weka_product

    rng = np.random.default_rng(3)
    factors = 10.0 ** rng.uniform(-90, 2, size=(200, 60, 4))
    factors[rng.random(factors.shape) < 0.02] = 0.0
    factors[5, 7, 2] = np.nan
    prior = rng.dirichlet(np.ones(4), size=200)
    expected = weka_product(prior, factors)
    got = weka_product_rows(prior, factors, TINY, 1e75)
    assert np.isnan(expected[5]).any()
    assert got.tobytes() == expected.tobytes()


def _attribute_by_attribute_product(prior, factors):
    """Weka's loop as Weka writes it: one attribute at a time, the row rescaled when it underflows."""
    probs = prior.copy()
    for j in range(factors.shape[1]):
        probs *= np.maximum(1e-75, factors[:, j, :])
        mx = probs.max(axis=1)
        under = (mx > 0) & (mx < 1e-75)
        probs[under] *= 1e75
    return probs


@pytest.mark.parametrize("attributes", [0, 1, 60, 300])
def test_product_of_all_attributes_at_once_gives_the_loops_bits(attributes, monkeypatch):
    """``weka_product`` forms all running products at once and resumes rescaled rows; it gives
    the bits of Weka's attribute-by-attribute loop, through floors, several rescales per row
    (300 small factors), NaN factors, and row blocks smaller than the data."""
    from nbrepro.weka import product

    rng = np.random.default_rng(attributes)
    factors = 10.0 ** rng.uniform(-90, 2, size=(200, attributes, 4))
    factors[rng.random(factors.shape) < 0.02] = 0.0
    if attributes:
        factors[5, attributes // 2, 2] = np.nan
    prior = rng.dirichlet(np.ones(4), size=200)
    expected = _attribute_by_attribute_product(prior, factors)
    monkeypatch.setattr(product, "_PRODUCT_VALUES", 5000)  # blocks of a few rows
    got = product.weka_product(prior, factors)
    assert got.tobytes() == expected.tobytes()
    assert product.weka_product(prior, list(factors.transpose(1, 0, 2))).tobytes() == expected.tobytes()


def test_mixed_encoding_reads_every_kind_of_column():
    # the encoders read each column's array by position (not a Series per column): nullable
    # integers, objects, Arrow strings, booleans and plain integers encode as Weka holds them
    import pandas as pd

    from nbrepro.classifiers import J48, NaiveBayes

    X = pd.DataFrame({"a": pd.array([1, None, 3, 4, 5, 6], dtype="Int64"), "b": ["x", "y", None, "x", "y", "x"],
                      "c": pd.array(["u", "v", "u", None, "v", "u"], dtype="string[pyarrow]"),
                      "d": [True, False, True, True, False, False], "e": np.arange(6, dtype=np.int32)})
    y = pd.Series(["p", "q", "p", "q", "p", "q"])
    expected = [[1, 0, 0, 1, 0], [np.nan, 1, 1, 0, 1], [3, np.nan, 0, 1, 2], [4, 0, np.nan, 1, 3], [5, 1, 1, 0, 4],
                [6, 0, 0, 0, 5]]
    for est in (NaiveBayes(), J48(min_samples_leaf=1)):
        est.fit(X, y)
        np.testing.assert_array_equal(est._encode_mixed(X), np.array(expected, dtype=float))
        np.testing.assert_array_equal(est._encode_mixed(X[list("edcba")]), np.array(expected, dtype=float))
