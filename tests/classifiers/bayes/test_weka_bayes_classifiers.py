# SPDX-License-Identifier: GPL-3.0-or-later
"""TAN, AODE, WAODE, HNB against Weka 3.6.14 (class probabilities to 1e-12), and their own properties."""
import numpy as np
import pandas as pd
import pytest
from conftest import discretized
from oracles import needs_weka, weka_fold_arff
from scipy.special import gammaln

from nbrepro.classifiers import AODE, HNB, LCWNB, TAN, WAODE, InstanceCloningNB, NaiveBayes
from nbrepro.evaluation.crossval import fold_probabilities
from nbrepro.protocols.weka_cv import weka_cv_folds
from nbrepro.weka.special import weka_ln_gamma

pytestmark = pytest.mark.bits  # compares bits: .ci/run repeats it with numpy's AVX-512 loops off

WEKA = {
    "TAN": ("weka.classifiers.bayes.BayesNet", "-D", "-Q", "weka.classifiers.bayes.net.search.local.TAN"),
    "AODE": ("weka.classifiers.bayes.AODE",),
    "WAODE": ("weka.classifiers.bayes.WAODE",),
    "HNB": ("weka.classifiers.bayes.HNB",),
}
OURS = {"TAN": TAN, "AODE": AODE, "WAODE": WAODE, "HNB": HNB}


_prepared = discretized
_split = weka_fold_arff


def _agree(ours, weka):
    weka = np.asarray(weka)
    np.testing.assert_allclose(ours, weka, rtol=0, atol=1e-12)
    assert (ours.argmax(1) == weka.argmax(1)).all()


def _agree_on_one_fold(tmp_path, weka_oracle, method, X, y):
    """Our classifier and Weka's, trained on one fold's training rows, agree on its test rows."""
    fold = _split(tmp_path, X, y)
    weka = weka_oracle(*WEKA[method][:1], tmp_path / "train.arff", tmp_path / "test.arff", *WEKA[method][1:])
    _agree(OURS[method]().fit(X.iloc[fold.train], y.iloc[fold.train]).predict_proba(X.iloc[fold.test]), weka)


# Table 2 sets and others: many classes (audiology, primary-tumor, letter-like vowel), many
# attributes (splice, sonar), binary, a constant attribute (anneal), 3-class tiny sets (tae, cmc)
DATASETS = ["vote", "labor", "audiology", "primary-tumor", "splice", "anneal", "sonar", "vowel", "cmc", "tae",
            "breast-cancer", "zoo"]


@needs_weka
@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("method", list(WEKA))
def test_probabilities_equal_weka(tmp_path, weka_oracle, method, name):
    _agree_on_one_fold(tmp_path, weka_oracle, method, *_prepared(name))


@needs_weka
@pytest.mark.parametrize("name", ["vote", "hepatitis", "colic"])
@pytest.mark.parametrize("method", ["AODE", "TAN"])
def test_missing_values_as_weka(tmp_path, weka_oracle, method, name):
    """AODE leaves missing values out; BayesNet (TAN) replaces them by the training mode."""
    X, y = _prepared(name, replace_missing=False)
    assert X.isna().any().any()
    _agree_on_one_fold(tmp_path, weka_oracle, method, X, y)


@needs_weka
@pytest.mark.parametrize("params,opts", [({"frequency_limit": 30}, ("-F", "30")),
                                          ({"m_estimate": True, "weight": 3}, ("-M", "-W", "3"))])
def test_aode_options_as_weka(tmp_path, weka_oracle, params, opts):
    X, y = _prepared("soybean", replace_missing=False)
    fold = _split(tmp_path, X, y)
    weka = weka_oracle("weka.classifiers.bayes.AODE", tmp_path / "train.arff", tmp_path / "test.arff", *opts)
    _agree(AODE(**params).fit(X.iloc[fold.train], y.iloc[fold.train]).predict_proba(X.iloc[fold.test]), weka)


@pytest.mark.parametrize("estimator", [NaiveBayes(), AODE(), AODE(m_estimate=True, weight=2), WAODE(), HNB(), TAN(),
                                       LCWNB(), InstanceCloningNB(k=5)],
                         ids=lambda e: repr(e))
def test_count_subtraction_equals_plain_fit(estimator):
    """crossval fits count-based models as (all counts) − (test-fold counts), and the other classifiers
    of nominal data from codes encoded once: bit-identical to fit on the fold's DataFrame rows."""
    X, y = _prepared("hepatitis", replace_missing=not isinstance(estimator, (NaiveBayes, AODE, TAN)))
    folds = [(f.train, f.test) for f in weka_cv_folds(y.cat.codes.to_numpy(), 5, [1, 2])]
    for res, (train, test) in zip(fold_probabilities(estimator, X, y, folds), folds, strict=True):
        plain = type(estimator)(**estimator.get_params()).fit(X.iloc[train], y.iloc[train])
        np.testing.assert_array_equal(res.proba, plain.predict_proba(X.iloc[test]))


def _cat(codes, cats):
    return pd.Categorical.from_codes(codes, pd.Index(cats, dtype=object))


@pytest.mark.parametrize("cls", [WAODE, HNB])
def test_waode_hnb_refuse_missing_training_values(cls):
    X = pd.DataFrame({"a": _cat([0, 1, -1, 1], ["u", "v"]), "b": _cat([0, 0, 1, 1], ["s", "t"])})
    y = pd.Series(_cat([0, 1, 0, 1], ["p", "n"]))
    with pytest.raises(ValueError, match=r"missing value \(attribute 'a', row 2.*ReplaceMissingValues"):
        cls().fit(X, y)


@pytest.mark.parametrize("cls", [AODE, WAODE, HNB, TAN])
def test_unseen_value_at_predict(cls):
    X = pd.DataFrame({"a": _cat([0, 1, 0, 1], ["u", "v"]), "b": _cat([0, 0, 1, 1], ["s", "t"])})
    y = pd.Series(_cat([0, 1, 0, 1], ["p", "n"]))
    proba = cls().fit(X, y).predict_proba(pd.DataFrame({"a": ["zzz"], "b": ["s"]}))
    assert np.isfinite(proba).all() and np.isclose(proba.sum(), 1.0)
    with pytest.raises(ValueError, match="attribute 'a' has value 'zzz' not seen in fit"):
        cls(handle_unknown="error").fit(X, y).predict(pd.DataFrame({"a": ["zzz"], "b": ["s"]}))


def test_aode_by_hand():
    """Two attributes, so each SPODE has one child: P(c, x1) P(x2 | c, x1) + P(c, x2) P(x1 | c, x2), halved."""
    X = pd.DataFrame({"a": _cat([0, 0, 1, 1, 0], ["u", "v"]), "b": _cat([0, 1, 1, 1, 0], ["s", "t"])})
    y = pd.Series(_cat([0, 0, 1, 1, 1], ["p", "n"]))
    got = AODE().fit(X, y).predict_proba(pd.DataFrame({"a": _cat([0], ["u", "v"]), "b": _cat([0], ["s", "t"])}))[0]
    # class p: n(p,a=u)=2, n(p,b=s)=1, n(p,u,s)=1; class n: n(n,u)=1, n(n,s)=1, n(n,u,s)=1; n=5, r=2, q=2
    p = (2 + 1) / (5 + 4) * (1 + 1) / (2 + 2) + (1 + 1) / (5 + 4) * (1 + 1) / (1 + 2)
    n = (1 + 1) / (5 + 4) * (1 + 1) / (1 + 2) + (1 + 1) / (5 + 4) * (1 + 1) / (1 + 2)
    np.testing.assert_allclose(got, np.array([p, n]) / (p + n), rtol=1e-15)


def test_weka_ln_gamma_is_ln_gamma():
    x = np.concatenate([np.arange(1, 400) / 2.0, [1e3, 1e4 + 0.5, 2.5e6, 1e9]])
    np.testing.assert_allclose(weka_ln_gamma(x), gammaln(x), rtol=1e-13, atol=1e-13)
