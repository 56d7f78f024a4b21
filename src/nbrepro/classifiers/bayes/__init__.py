# SPDX-License-Identifier: GPL-3.0-or-later
"""Naive Bayes and its one-dependence relatives, as Weka 3.6 computes them, and Orhan et al.'s
frequency/Gaussian naive Bayes with least-squares weights.

    P(c | x) ∝ P(c) ∏_i P(x_i | c)          (TAN, AODE, WAODE, HNB: P(x_i | c, x_parent))
"""
from ._aode import AODE
from ._gaussian_nb import FrequencyGaussianNB
from ._hnb import HNB
from ._kernel_nb import KernelNB
from ._least_squares_nb import LSLWNB
from ._naive_bayes import NaiveBayes
from ._tan import TAN
from ._waode import WAODE

__all__ = ["NaiveBayes", "KernelNB", "TAN", "AODE", "WAODE", "HNB", "FrequencyGaussianNB", "LSLWNB"]
