"""Meta-estimators that papers wrap around classifiers: inner-CV selection of parameters, and
calibration of probabilities."""
from ._calibrated import Calibrated
from ._inner_cv import InnerCVSelection

__all__ = ["InnerCVSelection", "Calibrated"]
