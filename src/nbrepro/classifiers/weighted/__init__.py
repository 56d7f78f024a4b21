# SPDX-License-Identifier: GPL-3.0-or-later
"""Naive Bayes with attribute weights or a selected subset of attributes:

    P(c | x) ∝ P(c) ∏_i P(x_i | c)^(w_i)

w from bagged trees' test depths (AWNB), gain ratio or ReliefF scores, 0/1 from a selection
(SBC's trees, CFS, selective NB)."""
from ._attribute_weighted_nb import AttributeWeightedNB
from ._cfs import CorrelationSelectedNB
from ._score_weighted_nb import GainRatioWeightedNB, ReliefFWeightedNB
from ._selective_bayes_trees import SelectiveBayesTrees
from ._selective_nb import SelectiveNB

__all__ = ["AttributeWeightedNB", "GainRatioWeightedNB", "ReliefFWeightedNB", "SelectiveBayesTrees", "SelectiveNB",
           "CorrelationSelectedNB"]
