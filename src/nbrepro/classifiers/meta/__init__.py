# SPDX-License-Identifier: GPL-3.0-or-later
"""Meta-estimators that papers wrap around classifiers: inner-CV selection of parameters, and
calibration of probabilities, and any scikit-learn classifier given a paper's attributes as numbers."""
from ._calibrated import Calibrated
from ._inner_cv import InnerCVSelection
from ._one_hot import OneHotClassifier

__all__ = ["InnerCVSelection", "Calibrated", "OneHotClassifier"]
