"""scikit-learn's estimator checks over every classifier of ``REGISTRY`` (one common test).

Each registered estimator is checked at its defaults (a meta-estimator wrapping NaiveBayes),
and the variants whose code paths differ beside it (kernel and discretised NaiveBayes, other
bandwidths, pruning, solvers, neighbourhood models). ``test_every_registered_classifier_is_checked``
fails when an estimator is registered without being checked here.

A plain numeric array is read as nominal data by the nominal-only classifiers (each distinct
value of a column is a value) and as numeric by those that take numeric attributes, which is
enough for every check. A value not seen in fit is left out (or, for TAN, replaced by the
training mode), so predicting on new arrays works.

Exemptions (``EXPECTED_FAILURES``), each a semantics of Weka's kept on purpose:
- Weka reads every training row, whatever its weight, where it prepares the data, so a row of
  weight 0 is not the same as no row: NaiveBayes (a numeric attribute's precision is the mean
  gap between all distinct training values), Logistic (ReplaceMissingValues, RemoveUseless,
  the starting point of the search), NBTree (its internal CV folds count rows), Bagging (a bag
  draws rows in proportion to their weight, then weighs each drawn row 1).
- TAN, the same data as an array and as a DataFrame: TAN reads a numeric DataFrame column as
  numeric and discretises it (MDL, as Weka's BayesNet does), but reads a bare float array as
  nominal values, as every nominal-only classifier here does (with a FloatAsNominalWarning).
"""
from sklearn.utils.estimator_checks import parametrize_with_checks

from nbrepro.classifiers import (AODE, HNB, J48, LCWNB, LPMBC, LSLWNB, REGISTRY, TAN, WAODE, AttributeWeightedNB, Bagging,
                                 Calibrated, CorrelationSelectedNB, FrequencyGaussianNB, GainRatioWeightedNB,
                                 InnerCVSelection, InstanceCloningNB, KernelNB, LocalDistributionKNN, LocallyWeightedNB,
                                 LocalMeanKNN, Logistic, NaiveBayes, NBTree, NonNaiveBayes, ReliefFWeightedNB,
                                 SelectiveBayesTrees, SelectiveNB, VotingKNN)

WEIGHT_ZERO = "Weka reads every training row, a row of weight 0 included, where it prepares the data"
EXPECTED_FAILURES = {
    "NaiveBayes": {"check_sample_weight_equivalence_on_dense_data": WEIGHT_ZERO + " (a numeric attribute's precision)"},
    "Logistic": {"check_sample_weight_equivalence_on_dense_data": WEIGHT_ZERO + " (ReplaceMissingValues, RemoveUseless)"},
    "NBTree": {"check_sample_weight_equivalence_on_dense_data": "Weka's internal CV folds count rows"},
    "Bagging": {"check_sample_weight_equivalence_on_dense_data": "Weka resamples by weight; repeated rows draw differently"},
    "TAN": {"check_classifier_data_not_an_array": "a numeric DataFrame is discretised, a float array read as nominal"},
}

ESTIMATORS = [
    # bayes
    NaiveBayes(), NaiveBayes(kernel=True), NaiveBayes(supervised_discretization=True), KernelNB(), KernelNB("ste"),
    KernelNB("sp", "weka"), TAN(), AODE(), WAODE(), HNB(), FrequencyGaussianNB(), LSLWNB(), LSLWNB(solver="joint"),
    # trees
    J48(), J48(unpruned=True, laplace=True), NBTree(), Bagging(J48(unpruned=True), n_estimators=3),
    # functions
    Logistic(),
    # lazy
    LCWNB(), LocallyWeightedNB(), InstanceCloningNB(),
    # local
    LPMBC(), LPMBC(k=0.5, model="LCA"), LPMBC(k=3, model="LGA"), VotingKNN(), LocalMeanKNN(), LocalDistributionKNN(),
    NonNaiveBayes(),
    # weighted
    AttributeWeightedNB(), GainRatioWeightedNB(), ReliefFWeightedNB(), SelectiveBayesTrees(), SelectiveNB(),
    CorrelationSelectedNB(),
    # meta
    Calibrated(NaiveBayes()), InnerCVSelection(NaiveBayes(), param_grid={"kernel": [False, True]}),
]


def test_every_registered_classifier_is_checked():
    assert {type(e).__name__ for e in ESTIMATORS} == set(REGISTRY)


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=lambda est: EXPECTED_FAILURES.get(type(est).__name__, {}))
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_meta_estimators_take_a_categorical_target_with_missing_classes():
    # a paper's data set may have rows without a class: a Categorical target codes them -1, and
    # the meta-estimators leave them out of their inner folds as the classifiers do
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=60), "b": rng.normal(size=60)})
    y = pd.Series(pd.Categorical(rng.choice(["p", "q"], 60), categories=["p", "q"]))
    y.iloc[:4] = np.nan
    for meta in (Calibrated(NaiveBayes()), InnerCVSelection(NaiveBayes(), param_grid={"kernel": [False, True]})):
        assert list(meta.fit(X, y).classes_) == ["p", "q"] and meta.n_features_in_ == 2
