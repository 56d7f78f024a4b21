# SPDX-License-Identifier: GPL-3.0-or-later
"""Selective Bayesian classifier (Ratanamahatana & Gunopulos): naive Bayes on the attributes that
bagged decision trees test near their roots (Hall's SBC column).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval

from ._attribute_weighted_nb import bagged_tree_depths
from ._base import WeightedNaiveBayes


class SelectiveBayesTrees(WeightedNaiveBayes):
    """Ratanamahatana & Gunopulos's selective Bayesian classifier (SBC): naive Bayes on the
    attributes that C4.5 trees of small samples test near their roots.

        S = ∪_t {i : tree t tests A_i at depth ≤ max_depth},   P(c | x) ∝ P(c) ∏_{i ∈ S} P(x_i | c)

    The trees are Weka 3.6's pruned J48 (defaults) on ``n_trees`` bags of ``sample_percent`` %
    of the training rows (Weka Bagging's draws, seed ``random_state``). With no attribute
    selected, the model is the class prior.

    Parameters
    ----------
    n_trees : int
        Trees grown, each on its own sample.
    sample_percent : int
        Each sample's size, in % of the training rows.
    max_depth : int
        The deepest test whose attribute is selected (root = 1).
    random_state : int
        Seed of the samples (Weka's ``java.util.Random``).

    Attributes
    ----------
    weights_ (0/1), naive_bayes_, classes_

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import SelectiveBayesTrees
    >>> X = pd.DataFrame({
    ...     "outlook": pd.Categorical(["sunny", "sunny", "rain", "rain", "overcast", "overcast", "sunny", "rain"]),
    ...     "windy": pd.Categorical(["no", "yes", "no", "yes", "no", "yes", "no", "yes"])})
    >>> y = pd.Series(["no", "no", "yes", "no", "yes", "yes", "no", "yes"])
    >>> clf = SelectiveBayesTrees(sample_percent=50).fit(X, y)
    >>> clf.predict(X).tolist()
    ['no', 'no', 'no', 'no', 'no', 'no', 'no', 'no']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.5, 0.5],
           [0.5, 0.5]])
    """

    _parameter_constraints: dict = {
        "n_trees": [Interval(Integral, 1, None, closed="left")],
        "sample_percent": [Interval(Integral, 1, None, closed="left")],
        "max_depth": [Interval(Integral, 0, None, closed="left")],
        "random_state": [Integral],
    }

    def __init__(self, *, n_trees: int = 5, sample_percent: int = 10, max_depth: int = 3, random_state: int = 1):
        self.n_trees = n_trees
        self.sample_percent = sample_percent
        self.max_depth = max_depth
        self.random_state = random_state

    def _weights(self, X, y) -> np.ndarray:
        depths = bagged_tree_depths(X, y, self.n_trees, self.sample_percent, self.random_state, unpruned=False)
        return (depths <= self.max_depth).any(axis=0).astype(np.float64)
