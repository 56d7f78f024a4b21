"""scikit-learn's estimator checks on every classifier.

A plain numeric array is read as nominal data by the nominal-only classifiers (each distinct
value of a column is a value) and as numeric by those that take numeric attributes, which is
enough for every check. A value not seen in fit is left out (or, for TAN, replaced by the
training mode), so predicting on new arrays works.

Exemptions, each a semantics kept on purpose:
- NaiveBayes, sample-weight equivalence: Weka takes a numeric attribute's precision (the mean
  gap between distinct training values) from every training row, whatever its weight, so a
  row of weight 0 is not the same as no row.
- TAN, the same data as an array and as a DataFrame: TAN reads a numeric DataFrame column as
  numeric and discretises it (MDL, as Weka's BayesNet does), but reads a bare float array as
  nominal values, as every nominal-only classifier here does (with a FloatAsNominalWarning).
"""
from sklearn.utils.estimator_checks import parametrize_with_checks

from nbrepro.classifiers import (AODE, HNB, LPMBC, TAN, WAODE, KernelNB, LocalDistributionKNN, LocalMeanKNN, NaiveBayes,
                                 NonNaiveBayes, VotingKNN)

WEIGHT_ZERO_ROWS_SET_PRECISION = ("Weka's NaiveBayes takes a numeric attribute's precision from every training row, "
                                  "a row of weight 0 included")
EXPECTED_FAILURES = {"NaiveBayes": {"check_sample_weight_equivalence_on_dense_data": WEIGHT_ZERO_ROWS_SET_PRECISION},
                     "TAN": {"check_classifier_data_not_an_array": "a numeric DataFrame is discretised, a float "
                                                                   "array read as nominal"}}


@parametrize_with_checks([NaiveBayes(), NaiveBayes(kernel=True), NaiveBayes(supervised_discretization=True),
                          TAN(), AODE(), WAODE(), HNB(), KernelNB(), KernelNB("ste"), KernelNB("sp", "weka"),
                          LPMBC(), LPMBC(k=0.5, model="LCA"), LPMBC(k=3, model="LGA"), VotingKNN(), LocalMeanKNN(),
                          LocalDistributionKNN(), NonNaiveBayes()],
                         expected_failed_checks=lambda est: EXPECTED_FAILURES.get(type(est).__name__, {}))
def test_sklearn_compatible(estimator, check):
    check(estimator)
