# SPDX-License-Identifier: GPL-3.0-or-later
"""Decision trees as Weka 3.6 grows them: C4.5 (J48), the naive Bayes tree (NBTree), and Weka's
bagging of trees."""
from ._bagging import Bagging
from ._bagging import known_tree_depths as known_tree_depths
from ._bagging import shared_tree_depths as shared_tree_depths
from ._j48 import J48
from ._nbtree import NBTree

__all__ = ["J48", "NBTree", "Bagging"]   # the estimators (the classifiers' REGISTRY reads these)
# also public: shared_tree_depths, known_tree_depths (Bagging's trees' depths, for AWNB within one job)
