"""scikit-learn's estimator checks on every classifier.

No exemptions are needed: a plain numeric array is read as nominal data (each distinct value of a
column is a value), which is enough for every check. A value not seen in fit is left out (or, for
TAN, replaced by the training mode), so predicting on new arrays works.
"""
from sklearn.utils.estimator_checks import parametrize_with_checks

from nbrepro.classifiers import AODE, HNB, TAN, WAODE, NaiveBayes


@parametrize_with_checks([NaiveBayes(), TAN(), AODE(), WAODE(), HNB()])
def test_sklearn_compatible(estimator, check):
    check(estimator)
