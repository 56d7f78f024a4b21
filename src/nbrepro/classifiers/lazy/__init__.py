# SPDX-License-Identifier: GPL-3.0-or-later
"""Lazy naive Bayes on nominal data: a model built for each test row from the training rows
weighted by their similarity to it (LCWNB, LWNB as Weka's LWL, ICLNB)."""
from ._iclnb import InstanceCloningNB
from ._lcwnb import LCWNB
from ._lwnb import LocallyWeightedNB

__all__ = ["LCWNB", "LocallyWeightedNB", "InstanceCloningNB"]
