"""Kernel density estimation for naive Bayes: bandwidth rules (R's and Weka's)."""
from .bandwidth import RULES, BandwidthError, bandwidth

__all__ = ["RULES", "BandwidthError", "bandwidth"]
