# SPDX-License-Identifier: GPL-3.0-or-later
"""scikit-learn's estimator checks over every classifier of ``REGISTRY`` (one common test).

Each registered estimator is checked at its defaults (a meta-estimator wrapping NaiveBayes),
and the variants whose code paths differ beside it (kernel and discretised NaiveBayes, other
bandwidths, pruning, solvers, neighbourhood models). As scikit-learn's ``test_common.py`` does, the
list is built from the registry (``all_estimators``), with the parameters a classifier needs
(``REQUIRED_PARAMETERS``) and its extra parameter sets (``EXTRA_PARAMETERS``) in one dict each:
a classifier added to a family's ``__all__`` is checked with nothing else edited.

A plain numeric array is read as nominal data by the nominal-only classifiers (each distinct
value of a column is a value) and as numeric by those that take numeric attributes, which is
enough for every check. A value not seen in fit is left out (or, for TAN, replaced by the
training mode), so predicting on new arrays works.

Exemptions (``EXPECTED_FAILURES``), each a semantics of Weka's kept on purpose:
- Weka reads every training row, whatever its weight, where it prepares the data, so a row of
  weight 0 is not the same as no row: NaiveBayes (a numeric attribute's precision is the mean
  gap between all distinct training values), AODE (an array's column takes its values from every
  training row, so a value only a weight-0 row has still counts in the Laplace estimates),
  Logistic (ReplaceMissingValues, RemoveUseless, the starting point of the search), NBTree (its
  internal CV folds count rows), Bagging (a bag draws rows in proportion to their weight, then weighs each drawn row 1).
- TAN, the same data as an array and as a DataFrame: TAN reads a numeric DataFrame column as
  numeric and discretises it (MDL, as Weka's BayesNet does), but reads a bare float array as
  nominal values, as every nominal-only classifier here does (with a FloatAsNominalWarning).
"""
import inspect
import re

import pandas as pd
import pytest
from estimators import REQUIRED_PARAMETERS
from sklearn.naive_bayes import GaussianNB
from sklearn.utils._param_validation import InvalidParameterError
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from nbrepro.classifiers import (
    FAMILIES,
    Calibrated,
    InnerCVSelection,
    NaiveBayes,
    OneHotClassifier,
    all_estimators,
)

WEIGHT_ZERO = "Weka reads every training row, a row of weight 0 included, where it prepares the data"
EXPECTED_FAILURES = {
    "NaiveBayes": {"check_sample_weight_equivalence_on_dense_data": WEIGHT_ZERO + " (a numeric attribute's precision)"},
    "AODE": {"check_sample_weight_equivalence_on_dense_data": WEIGHT_ZERO + " (an array column's values, the +1 "
             "of each of them in the Laplace estimates)"},
    "Logistic": {
        "check_sample_weight_equivalence_on_dense_data": WEIGHT_ZERO + " (ReplaceMissingValues, RemoveUseless)"
    },
    "NBTree": {"check_sample_weight_equivalence_on_dense_data": "Weka's internal CV folds count rows"},
    "Bagging": {
        "check_sample_weight_equivalence_on_dense_data": "Weka resamples by weight; repeated rows draw differently"
    },
    "TAN": {"check_classifier_data_not_an_array": "a numeric DataFrame is discretised, a float array read as nominal"},
}

# Further parameter sets whose code paths differ from the defaults'
EXTRA_PARAMETERS = {
    "NaiveBayes": [{"kernel": True}, {"supervised_discretization": True}],
    "KernelNB": [{"bandwidth": "ste"}, {"bandwidth": "sp", "estimator": "weka"}],
    "LSLWNB": [{"solver": "joint"}],
    "J48": [{"unpruned": True, "laplace": True}],
    "LPMBC": [{"k": 0.5, "model": "LCA"}, {"k": 3, "model": "LGA"}],
}


def _tested_estimators():
    """Every registered classifier (``all_estimators``, read when the tests are collected) at its
    defaults, then with each of its extra parameter sets: a classifier added to a family's
    ``__all__`` is checked with nothing else edited."""
    for name, cls in all_estimators().items():
        required = REQUIRED_PARAMETERS.get(name, dict)
        yield cls(**required())
        for extra in EXTRA_PARAMETERS.get(name, []):
            yield cls(**required(), **extra)


def test_every_extra_parameter_set_names_a_registered_classifier():
    assert set(REQUIRED_PARAMETERS) | set(EXTRA_PARAMETERS) <= set(all_estimators())


class ThrowawayNB(NaiveBayes):
    """A new classifier of the bayes family, defined here only (at module level: the checks pickle it)."""


def test_a_classifier_added_to_a_family_is_checked_with_nothing_else_edited(monkeypatch):
    bayes = FAMILIES["bayes"]
    monkeypatch.setattr(bayes, "ThrowawayNB", ThrowawayNB, raising=False)
    monkeypatch.setattr(bayes, "__all__", [*bayes.__all__, "ThrowawayNB"])
    tested = [type(e) for e in _tested_estimators()]
    assert ThrowawayNB in tested
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(ThrowawayNB(), expected_failed_checks=EXPECTED_FAILURES["NaiveBayes"])


@parametrize_with_checks(
    list(_tested_estimators()), expected_failed_checks=lambda est: EXPECTED_FAILURES.get(type(est).__name__, {})
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


# a meta-estimator's base, and GridSearchCV's grid, stay positional as in scikit-learn
POSITIONAL = {"Bagging": {"estimator"}, "Calibrated": {"estimator"}, "InnerCVSelection": {"estimator", "param_grid"},
              "OneHotClassifier": {"estimator"}}


@pytest.mark.parametrize("name, cls", all_estimators().items(), ids=list(all_estimators()))
def test_parameters_are_keyword_only_and_declared(name, cls):
    """Every parameter but a meta-estimator's base is keyword-only, and scikit-learn's parameter
    check (every parameter constrained; a value of a wrong type or out of range refused by fit with
    scikit-learn's own ``InvalidParameterError``) passes at the defaults."""
    signature = inspect.signature(cls.__init__)
    loose = {p.name for p in list(signature.parameters.values())[1:] if p.kind is not p.KEYWORD_ONLY}
    assert loose <= POSITIONAL.get(name, set()) | {"args", "kwargs"}, loose
    check_param_validation(name, cls(**REQUIRED_PARAMETERS.get(name, dict)()))



@pytest.mark.parametrize("name, cls", all_estimators().items(), ids=list(all_estimators()))
def test_every_estimator_documents_its_parameters_attributes_and_an_example_that_runs(name, cls):
    """Every registered estimator's docstring states its model in one displayed formula (an
    indented line with = or ∝ before Parameters, as scikit-learn's do), has Parameters (where it
    takes any), Attributes and an Examples section (run as a doctest by the test command,
    `--doctest-modules` on src/nbrepro/classifiers) that fits it and predicts."""
    doc = inspect.getdoc(cls) or ""
    model = doc.split("\nParameters\n")[0]
    assert re.search(r"^ {4,}\S.*[=∝]", model, flags=re.M), f"{name}: no displayed formula of the model"
    takes = [p for p in inspect.signature(cls.__init__).parameters if p not in ("self", "args", "kwargs")]
    assert not takes or "\nParameters\n----------\n" in doc, name
    assert "\nAttributes\n----------\n" in doc, name
    assert "\nExamples\n--------\n" in doc, name
    assert "from nbrepro.classifiers import" in doc and ".fit(X, y)" in doc and ".predict" in doc, name


def test_a_wrong_parameter_gets_scikit_learns_error():
    from nbrepro.classifiers import LCWNB

    X, y = pd.DataFrame({"a": pd.Categorical(["x", "y"] * 5)}), pd.Series(["p", "q"] * 5)
    with pytest.raises(InvalidParameterError, match="The 'kappa' parameter of LCWNB must be a float in the range"):
        LCWNB(kappa="5").fit(X, y)
    with pytest.raises(TypeError, match="positional"):
        LCWNB(5)


def test_meta_estimators_take_a_categorical_target_with_missing_classes():
    # a paper's data set may have rows without a class: a Categorical target codes them -1, and
    # the meta-estimators leave them out of their inner folds as the classifiers do
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=60), "b": rng.normal(size=60)})
    y = pd.Series(pd.Categorical(rng.choice(["p", "q"], 60), categories=["p", "q"]))
    y.iloc[:4] = np.nan
    for meta in (Calibrated(NaiveBayes()), InnerCVSelection(NaiveBayes(), param_grid={"kernel": [False, True]}),
                 OneHotClassifier(GaussianNB())):
        assert list(meta.fit(X, y).classes_) == ["p", "q"] and meta.n_features_in_ == 2


def _mixed_frame(n: int, seed: int):
    import numpy as np

    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "a": pd.Categorical(rng.choice(["x", "y", "z"], n), categories=["x", "y", "z", "never"]),
        "b": rng.normal(size=n).round(2),
        "c": pd.Categorical(rng.choice(["p", "q"], n), categories=["p", "q"]),
        "d": rng.integers(0, 5, n),
    })
    X.loc[rng.choice(n, 6, replace=False), "a"] = np.nan
    X.loc[rng.choice(n, 6, replace=False), "b"] = np.nan
    label = np.where(X["b"].fillna(0) + (X["c"] == "p") > 0.5, "hi", "lo")
    y = pd.Series(pd.Categorical(label, categories=["hi", "lo"]))
    return X, y


@pytest.mark.parametrize("estimator", [e for e in _tested_estimators() if getattr(e, "accepts_encoded_frame", False)],
                         ids=lambda e: type(e).__name__)
def test_an_encoded_frame_gives_the_frames_model(estimator):
    # a classifier that says it takes an EncodedFrame (the meta-estimators' inner fits, the CV's folds)
    # fits and predicts on it exactly as on the DataFrame it encodes, and predicts a DataFrame after
    import numpy as np
    from sklearn.base import clone

    from nbrepro.classifiers._mixed import EncodedFrame

    X, y = _mixed_frame(90, 0)
    train, test = np.arange(70), np.arange(70, 90)
    expected = clone(estimator).fit(X.iloc[train], y.iloc[train]).predict_proba(X.iloc[test])
    encoded = EncodedFrame.of(X)
    model = clone(estimator).fit(encoded.take(train), y.iloc[train])
    assert np.array_equal(model.predict_proba(encoded.take(test)), expected)
    assert np.array_equal(model.predict_proba(X.iloc[test]), expected)
    assert list(model.feature_names_in_) == list(X.columns)


def test_a_frame_is_encoded_once_only_where_its_rows_alone_cannot_change_the_encoding():
    import numpy as np

    from nbrepro.classifiers._mixed import EncodedFrame

    X, _ = _mixed_frame(20, 1)
    assert EncodedFrame.of(X) is not None
    assert EncodedFrame.of(X.assign(e=["s", "t"] * 10)) is None     # an object column: its value set is the rows'
    assert EncodedFrame.of(X.assign(b=np.inf)) is None              # the classifier's own error to raise
    assert EncodedFrame.of(X.to_numpy()) is None
    # a model fitted on another frame reads an encoded frame's rows through their DataFrame
    other = NaiveBayes().fit(*_mixed_frame(40, 2))
    assert np.array_equal(other.predict_proba(EncodedFrame.of(X)), other.predict_proba(X))
