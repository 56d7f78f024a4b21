# SPDX-License-Identifier: GPL-3.0-or-later
"""LCWNB against Li & Li's published cells, and LocallyWeightedNB against Weka 3.6's LWL + NaiveBayes."""
import numpy as np
import pandas as pd
import pytest
from conftest import ROOT
from conftest import discretized as _prepared
from oracles import needs_weka
from oracles import weka_fold_arff as _split

from nbrepro.classifiers import LCWNB, InstanceCloningNB, LocallyWeightedNB
from nbrepro.evaluation.crossval import fold_probabilities
from nbrepro.protocols.weka_cv import weka_cv_folds
from nbrepro.stats import weka_mean_std

pytestmark = pytest.mark.bits  # compares bits: .ci/run repeats it with numpy's AVX-512 loops off




def _cat(codes, cats):
    return pd.Categorical.from_codes(codes, pd.Index(cats, dtype=object))


def test_lcwnb_by_hand():
    """κ above every class size: γ = 1 for both classes, ρ = 1, so LCWNB is NB with Laplace counts."""
    X = pd.DataFrame({"a": _cat([0, 0, 1, 1, 0], ["u", "v"]), "b": _cat([0, 1, 1, 1, 0], ["s", "t"])})
    y = pd.Series(_cat([0, 0, 1, 1, 1], ["p", "n"]))
    got = LCWNB(kappa=100).fit(X, y).predict_proba(X.iloc[[0]])[0]
    # p: (1+2) (1+2)/(2+2) (1+1)/(2+2); n: (1+3) (1+1)/(2+3) (1+1)/(2+3)
    p, n = 3 * 3 / 4 * 2 / 4, 4 * 2 / 5 * 2 / 5
    np.testing.assert_allclose(got, [p / (p + n), n / (p + n)], rtol=1e-12)


def _lcwnb_by_the_formula(train, y, r, test, n_values, kappa, n_bisections=30):
    """LCWNB's probabilities straight from the docstring's formula, one test row at a time
    (codes, -1 missing), for checking the compiled kernel."""
    m = train.shape[1]
    out = []
    for q in test:
        known = q >= 0
        H = (known[None, :] & (train != q[None, :])).sum(axis=1)
        V = np.array([np.bincount(H[y == c], minlength=m + 1) for c in range(r)], dtype=float)
        gammas = []
        for c in range(r):
            n_c, target = V[c].sum(), min(max(V[c, 0], kappa), V[c].sum())
            lo, hi = 0.0, 1.0
            for _ in range(n_bisections):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if np.polyval(V[c][::-1], mid) < target else (lo, mid)
            gammas.append(1.0 if target >= n_c else 0.0 if target <= V[c, 0] else (lo + hi) / 2)
        w = np.array(gammas)[y] ** H  # 0 ** 0 = 1
        S = np.array([w[y == c].sum() for c in range(r)])
        rho = S.sum() / (w ** 2).sum()
        logp = np.log1p(rho * S)
        for c in range(r):
            for i in np.flatnonzero(known):
                T = w[(y == c) & (train[:, i] == q[i])].sum()
                logp[c] += np.log1p(rho * T) - np.log(n_values[i] + rho * S[c])
        p = np.exp(logp - logp.max())
        out.append(p / p.sum())
    return np.array(out)


@pytest.mark.parametrize("kappa", [1, 5, 20, 500])
def test_lcwnb_kernel_follows_the_formula(kappa):
    """The compiled pass (counts per class, distance and attribute) gives the formula's probabilities,
    with missing values in training and test, classes below and above κ, and exact matches."""
    rng = np.random.default_rng(kappa)
    n_values = np.array([3, 2, 5, 4, 3, 6])
    codes = rng.integers(0, n_values, size=(400, 6))
    y = rng.integers(0, 3, 400)
    codes[rng.random(codes.shape) < 0.05] = -1
    y[:5] = 3  # a class of 5 rows: weight 1 below κ = 20
    X = pd.DataFrame({f"a{i}": _cat(codes[:, i], [f"v{k}" for k in range(q)]) for i, q in enumerate(n_values)})
    Y = pd.Series(_cat(y, ["p", "n", "m", "small"]))
    train, test = np.arange(300), np.arange(300, 400)
    test = np.concatenate([test, train[:3]])  # exact matches of training rows
    got = LCWNB(kappa=kappa).fit(X.iloc[train], Y.iloc[train]).predict_proba(X.iloc[test])
    expected = _lcwnb_by_the_formula(codes[train], y[train], 4, codes[test], n_values, kappa)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


def _cv_cell(estimator, name, method):
    """Our (mean, sd) over Li & Li's 100 Weka folds at the printed decimals, and the printed cell."""
    X, y = _prepared(name)
    codes = y.cat.codes.to_numpy()
    folds = [(f.train, f.test) for f in weka_cv_folds(codes, 10, range(1, 11))]
    acc = [100 * np.mean(r.proba.argmax(1) == codes[test])
           for r, (_, test) in zip(fold_probabilities(estimator, X, y, folds), folds, strict=True)]
    mean, sd = weka_mean_std(np.array(acc))
    pub = pd.read_csv(ROOT / "config/published/lcwnb_table2.csv")
    cell = pub[(pub.dataset == name) & (pub.method == method)].iloc[0]
    return (round(mean, 2), round(sd, 2)), (cell["mean"], cell["std"])


@pytest.mark.parametrize("name", ["labor", "iris", "vote"])
def test_lcwnb_equals_published_cells(name):
    """Li & Li's Table 2: mean and sd over the 100 Weka folds, to the printed two decimals."""
    for kappa in (5, 10, 20):
        ours, printed = _cv_cell(LCWNB(kappa=kappa), name, f"LCWNB{kappa}")
        assert ours == printed, (name, kappa)


@needs_weka
@pytest.mark.parametrize("name", ["vote", "audiology", "zoo", "primary-tumor"])
@pytest.mark.parametrize("k,kernel,opt", [(50, "linear", "0"), (10, "linear", "0"), (30, "epanechnikov", "1"),
                                          (0, "linear", "0")])
def test_lwl_naive_bayes_equals_weka(tmp_path, weka_oracle, name, k, kernel, opt):
    X, y = _prepared(name)
    fold = _split(tmp_path, X, y)
    weka = weka_oracle("weka.classifiers.lazy.LWL", tmp_path / "train.arff", tmp_path / "test.arff",
                       "-K", str(k if k > 0 else -1), "-U", opt, "-W", "weka.classifiers.bayes.NaiveBayes")
    ours = LocallyWeightedNB(k=k, kernel=kernel).fit(X.iloc[fold.train], y.iloc[fold.train]).predict_proba(
        X.iloc[fold.test])
    np.testing.assert_allclose(ours, np.asarray(weka), rtol=0, atol=1e-12)
    assert (ours.argmax(1) == np.asarray(weka).argmax(1)).all()


@pytest.mark.parametrize("name", ["labor", "iris", "zoo"])
def test_iclnb_equals_published_cells(name):
    """Our ICLNB reconstruction (k = 10, 1 + shared-attribute clones) against Li & Li's ICLNB column."""
    ours, printed = _cv_cell(InstanceCloningNB(k=10), name, "ICLNB")
    assert ours == printed

def test_iclnb_by_hand():
    """k = 1: the nearest row (distance 0) counted 1 + 2 times; Laplace NB on that one class."""
    X = pd.DataFrame({"a": _cat([0, 1, 1], ["u", "v"]), "b": _cat([0, 1, 0], ["s", "t"])})
    y = pd.Series(_cat([0, 1, 1], ["p", "n"]))
    got = InstanceCloningNB(k=1).fit(X, y).predict_proba(X.iloc[[0]])[0]
    # weight 3 on row 0 (class p): prior p (3+1)/(3+2), n 1/5; P(u|p)=(3+1)/(3+2), P(s|p)=4/5; class n: 1/2, 1/2
    p, n = 4 / 5 * 4 / 5 * 4 / 5, 1 / 5 * 1 / 2 * 1 / 2
    np.testing.assert_allclose(got, [p / (p + n), n / (p + n)], rtol=1e-12)
