"""Decision trees as Weka 3.6 grows them: C4.5 (J48), the naive Bayes tree (NBTree), and Weka's
bagging of trees."""
from ._bagging import Bagging
from ._j48 import J48
from ._nbtree import NBTree

__all__ = ["J48", "NBTree", "Bagging"]
