# SPDX-License-Identifier: GPL-3.0-or-later
"""Function learners as Weka 3.6 fits them: multinomial logistic regression with a ridge,
by Weka's own quasi-Newton optimiser."""
from ._logistic import Logistic

__all__ = ["Logistic"]
