# SPDX-License-Identifier: GPL-3.0-or-later
"""Kernel density estimation for naive Bayes: bandwidth rules (R's and Weka's)."""
from ..errors import BandwidthError
from .bandwidth import RULES, bandwidth

__all__ = ["RULES", "BandwidthError", "bandwidth"]
