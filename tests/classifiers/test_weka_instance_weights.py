# SPDX-License-Identifier: GPL-3.0-or-later
"""Instance weights (``sample_weight``) against Weka 3.6.14's: the training ARFF carries each row's
weight (``{w}`` after its values, as Weka's ARFF reader takes it), the ports get the same weights.
Weights 0.5, 1, 1.5, 2 and 0 by turns: fractional sums, and rows of weight 0 that Weka still reads."""
import numpy as np
import pytest
from conftest import DATA_DIR, discretized
from oracles import needs_weka, weka_fold_arff

from nbrepro.classifiers import AODE, J48, Logistic, NaiveBayes, NBTree
from nbrepro.data.arff import read_arff

pytestmark = pytest.mark.bits  # compares bits: .ci/run repeats it with numpy's AVX-512 loops off

PORTS = {"AODE": (AODE, "weka.classifiers.bayes.AODE"), "NaiveBayes": (NaiveBayes, "weka.classifiers.bayes.NaiveBayes"),
         "J48": (J48, "weka.classifiers.trees.J48")}


def _weighted(arff, weights):
    """The ARFF with each data row's weight appended."""
    head, data = arff.read_text().split("@data\n", 1)
    rows = [r for r in data.splitlines() if r.strip()]
    assert len(rows) == len(weights)
    arff.write_text(head + "@data\n" + "".join(f"{r},{{{float(w)!r}}}\n" for r, w in zip(rows, weights, strict=True)))


def _agree_weighted(tmp_path, weka_oracle, port, X, y):
    """The port and Weka, trained on one Weka fold's training rows weighted 0.5, 1, 1.5, 2, 0 by turns,
    agree on its test rows."""
    ours, weka_class = port
    fold = weka_fold_arff(tmp_path, X, y)
    w = np.array([0.5, 1.0, 1.5, 2.0, 0.0])[np.arange(len(fold.train)) % 5]
    _weighted(tmp_path / "train.arff", w)
    weka = np.asarray(weka_oracle(weka_class, tmp_path / "train.arff", tmp_path / "test.arff"))
    got = ours().fit(X.iloc[fold.train], y.iloc[fold.train], sample_weight=w).predict_proba(X.iloc[fold.test])
    np.testing.assert_allclose(got, weka, rtol=0, atol=1e-12)


@needs_weka
@pytest.mark.parametrize("name", ["vote", "labor", "zoo", "soybean"])
@pytest.mark.parametrize("method", list(PORTS))
def test_instance_weights_as_weka(tmp_path, weka_oracle, method, name):
    _agree_weighted(tmp_path, weka_oracle, PORTS[method], *discretized(name))


NUMERIC = {**PORTS, "Logistic": (Logistic, "weka.classifiers.functions.Logistic"),
           "NBTree": (NBTree, "weka.classifiers.trees.NBTree")}


@needs_weka
@pytest.mark.parametrize("name", ["iris", "diabetes", "labor"])
@pytest.mark.parametrize("method", [m for m in NUMERIC if m != "AODE"])
def test_instance_weights_on_numeric_attributes_as_weka(tmp_path, weka_oracle, method, name):
    df, _ = read_arff(DATA_DIR / f"{name}.arff")
    _agree_weighted(tmp_path, weka_oracle, NUMERIC[method], df.iloc[:, :-1], df.iloc[:, -1])
