# SPDX-License-Identifier: GPL-3.0-or-later
"""Every registered classifier, buildable at its defaults: what a meta-estimator needs beyond them
(its base, a grid), shared by the common estimator checks and the library-edge tests."""
from sklearn.naive_bayes import GaussianNB

from nbrepro.classifiers import J48, NaiveBayes, all_estimators

# What an estimator needs beyond its defaults: a meta-estimator's base (a factory: a fresh one each time)
REQUIRED_PARAMETERS = {
    "Bagging": lambda: {"estimator": J48(unpruned=True), "n_estimators": 3},
    "Calibrated": lambda: {"estimator": NaiveBayes()},
    "InnerCVSelection": lambda: {"estimator": NaiveBayes(), "param_grid": {"kernel": [False, True]}},
    "OneHotClassifier": lambda: {"estimator": GaussianNB()},
}


def at_defaults():
    """(name, a fresh estimator at its defaults) for every registered classifier."""
    return [(name, cls(**REQUIRED_PARAMETERS.get(name, dict)())) for name, cls in all_estimators().items()]
