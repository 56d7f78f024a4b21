# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka 3.6.14's learners on numeric and mixed data, per row against Weka itself.

Each case trains on the first training fold of Weka's 3-fold CV (seed 1, Weka's row order)
and compares the class probabilities of the held-out rows to 1e-9, and every prediction.
"""
import numpy as np
import pytest
from conftest import DATA_DIR
from oracles import needs_weka, weka_fold_arff

from nbrepro.classifiers import J48, TAN, Bagging, LocallyWeightedNB, Logistic, NaiveBayes, NBTree
from nbrepro.data.arff import read_arff

pytestmark = pytest.mark.bits  # compares bits: .ci/run repeats it with numpy's AVX-512 loops off

# numeric and mixed sets; colic, hepatitis, credit-a, hypothyroid, labor, autos have missing values
DATASETS = ["colic", "hepatitis", "credit-a", "hypothyroid", "labor", "autos", "diabetes", "glass", "ionosphere",
            "sonar", "vehicle", "waveform-5000"]

CASES = {
    "NB": (lambda: NaiveBayes(), ("weka.classifiers.bayes.NaiveBayes",)),
    "NB-K": (lambda: NaiveBayes(kernel=True), ("weka.classifiers.bayes.NaiveBayes", "-K")),
    "NB-D": (lambda: NaiveBayes(supervised_discretization=True), ("weka.classifiers.bayes.NaiveBayes", "-D")),
    "J48": (lambda: J48(), ("weka.classifiers.trees.J48",)),
    "J48-U": (lambda: J48(unpruned=True), ("weka.classifiers.trees.J48", "-U")),
    "J48-A-M5-S": (
        lambda: J48(laplace=True, min_samples_leaf=5, subtree_raising=False),
        ("weka.classifiers.trees.J48", "-A", "-M", "5", "-S"),
    ),
    "Bagging-J48-U": (
        lambda: Bagging(J48(unpruned=True)),
        ("weka.classifiers.meta.Bagging", "-W", "weka.classifiers.trees.J48", "--", "-U"),
    ),
    "Bagging-NB-P60": (
        lambda: Bagging(NaiveBayes(), n_estimators=5, bag_size_percent=60, random_state=7),
        ("weka.classifiers.meta.Bagging", "-I", "5", "-P", "60", "-S", "7", "-W", "weka.classifiers.bayes.NaiveBayes"),
    ),
    "TAN": (
        lambda: TAN(),
        ("weka.classifiers.bayes.BayesNet", "-D", "-Q", "weka.classifiers.bayes.net.search.local.TAN"),
    ),
    "LWNB-50": (
        lambda: LocallyWeightedNB(k=50),
        ("weka.classifiers.lazy.LWL", "-K", "50", "-W", "weka.classifiers.bayes.NaiveBayes"),
    ),
    "LWNB-all-gauss": (
        lambda: LocallyWeightedNB(k=0, kernel="gauss"),
        ("weka.classifiers.lazy.LWL", "-U", "4", "-W", "weka.classifiers.bayes.NaiveBayes"),
    ),
    "NBTree": (lambda: NBTree(), ("weka.classifiers.trees.NBTree",)),
    "Logistic": (lambda: Logistic(), ("weka.classifiers.functions.Logistic",)),
    "Logistic-M5-R0.1": (
        lambda: Logistic(max_iter=5, ridge=0.1),
        ("weka.classifiers.functions.Logistic", "-M", "5", "-R", "0.1"),
    ),
}


def load(name):
    df, _ = read_arff(DATA_DIR / f"{name}.arff")
    return df.iloc[:, :-1], df.iloc[:, -1]


weka_split = weka_fold_arff


def assert_agrees(ours, weka, atol=1e-9):
    weka = np.asarray(weka)
    assert ours.shape == weka.shape
    np.testing.assert_allclose(ours, weka, rtol=0, atol=atol)
    assert (ours.argmax(1) == weka.argmax(1)).all()


# every training row a neighbour: Weka's LWL and ours fit one naive Bayes per test row on all
# training rows, which on the two largest sets costs minutes; the smaller sets cover it
SLOW = {("LWNB-all-gauss", "waveform-5000"), ("LWNB-all-gauss", "hypothyroid")}
# NBTree on waveform-5000: equal to Weka, but minutes of Weka and nbrepro time
KNOWN_GAPS = {("NBTree", "waveform-5000")}


@needs_weka
@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("case", list(CASES))
def test_probabilities_equal_weka(tmp_path, weka_oracle, case, name):
    if (case, name) in SLOW:
        pytest.skip("covered on the smaller sets (minutes of Weka and nbrepro time)")
    if (case, name) in KNOWN_GAPS:
        pytest.skip("minutes to run; checked by hand in the closing note of issue 11")
    make, weka_args = CASES[case]
    X, y = load(name)
    fold = weka_split(tmp_path, X, y)
    weka = weka_oracle(weka_args[0], tmp_path / "train.arff", tmp_path / "test.arff", *weka_args[1:])
    ours = make().fit(X.iloc[fold.train], y.iloc[fold.train]).predict_proba(X.iloc[fold.test])
    assert_agrees(ours, weka)


@needs_weka
@pytest.mark.parametrize("name", ["labor", "colic", "vehicle"])
@pytest.mark.parametrize("options", [(), ("-U",)])
def test_j48_prints_wekas_tree(tmp_path, weka_oracle, name, options):
    X, y = load(name)
    fold = weka_split(tmp_path, X, y)
    weka = weka_oracle.model_text("weka.classifiers.trees.J48", tmp_path / "train.arff", *options)
    ours = J48(unpruned="-U" in options).fit(X.iloc[fold.train], y.iloc[fold.train]).export_text()
    assert ours.strip() == weka.strip()


# Weka's Stacking with one base learner and Logistic as the meta learner (Hall's calibration).
# glass is left out on purpose: its meta-level problem (six nearly separable classes, collinear
# probability columns) is so ill-conditioned that Weka's own optimum moves when Java's Math.exp
# is swapped for StrictMath.exp (log-likelihood −122.798 vs −122.820), so no port can pin it.
@needs_weka
@pytest.mark.parametrize("name", ["labor", "colic", "diabetes", "vehicle"])
@pytest.mark.parametrize("base", ["NB", "J48"])
def test_calibrated_equals_wekas_stacking(tmp_path, weka_oracle, name, base):
    from nbrepro.classifiers import Calibrated

    make, weka_args = CASES[base]
    X, y = load(name)
    fold = weka_split(tmp_path, X, y)
    weka = weka_oracle(
        "weka.classifiers.meta.Stacking",
        tmp_path / "train.arff",
        tmp_path / "test.arff",
        "-X",
        "10",
        "-S",
        "1",
        "-M",
        "weka.classifiers.functions.Logistic",
        "-B",
        " ".join(weka_args),
    )
    ours = Calibrated(make()).fit(X.iloc[fold.train], y.iloc[fold.train]).predict_proba(X.iloc[fold.test])
    assert_agrees(ours, weka)
