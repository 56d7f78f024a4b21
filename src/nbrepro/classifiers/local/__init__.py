# SPDX-License-Identifier: GPL-3.0-or-later
"""Local probabilistic classifiers on numeric data (Mao et al.): class densities estimated from
each query's nearest training rows (LPM-BC, the kNN variants, the non-naive Bayes)."""
from ._knn import LocalDistributionKNN, LocalMeanKNN, VotingKNN
from ._lpmbc import LPMBC
from ._nnbc import NonNaiveBayes

__all__ = ["LPMBC", "VotingKNN", "LocalMeanKNN", "LocalDistributionKNN", "NonNaiveBayes"]
