"""scikit-learn's estimator checks on NaiveBayes.

No exemptions are needed: a plain numeric array is read as nominal data (each distinct value of a
column is a value), which is enough for every check.
"""
from sklearn.utils.estimator_checks import parametrize_with_checks

from nbrepro.classifiers import NaiveBayes



@parametrize_with_checks([NaiveBayes()])
def test_sklearn_compatible(estimator, check):
    check(estimator)
