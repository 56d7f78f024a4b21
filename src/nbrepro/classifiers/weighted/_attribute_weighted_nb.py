# SPDX-License-Identifier: GPL-3.0-or-later
"""Hall's attribute-weighted naive Bayes (AWNB): weights from the depths of bagged unpruned trees.

    w_i = (1/T) Σ_t d_t(i)^(−1/2)     (0 where tree t never tests attribute i; the root has depth 1)
    P(c | x) ∝ P(c) ∏_i P(x_i | c)^(w_i)

Hall (2006), Figure 1 and Eq. 2. The trees are Weka 3.6's unpruned J48 (``-U``, other options
at their defaults) fitted to Weka Bagging's bags (``-P sample_percent -I n_trees -S
random_state``): each bag draws n rows with replacement, is shuffled and cut to
sample_percent % of n. The naive Bayes is Weka 3.6's ``NaiveBayes`` (Laplace counts, a
Gaussian per numeric attribute) with each attribute's factor raised to its weight before
Weka's floored product; the class prior is not weighted.
"""
from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval

from ..trees import J48, Bagging, known_tree_depths
from ._base import WeightedNaiveBayes


def bagged_tree_depths(X, y, n_trees: int = 10, sample_percent: int = 50, random_state: int = 1,
                       resample: bool = True, unpruned: bool = True) -> np.ndarray:
    """(trees, attributes): the depth of each attribute's shallowest test (root = 1, ``inf`` if
    untested) in J48 trees fitted to Weka Bagging's bags (``-P sample_percent -I n_trees -S
    random_state``); ``resample=False``: one tree on all the rows (then n_trees must be 1)."""
    if not resample:
        if int(n_trees) != 1:
            raise ValueError(f"bagged_tree_depths: resample=False fits one tree on all rows, so n_trees must be 1, "
                             f"got {n_trees!r}")
        trees = [J48(unpruned=unpruned).fit(X, y)]
    else:
        tree = J48(unpruned=unpruned)
        # the same bags of the same rows grow the same trees: a column fitted before on these
        # rows in the same evaluation job (the bagged trees, AWNB beside ASNB) has left their depths
        known = known_tree_depths(X, y, tree, n_trees, sample_percent, random_state)
        if known is not None:
            return known
        bagging = Bagging(tree, n_estimators=int(n_trees), bag_size_percent=int(sample_percent),
                          random_state=int(random_state))._fit(X, y, depths_only=True)
        trees = bagging.estimators_
    return np.vstack([t.min_test_depth_ for t in trees])


def tree_depth_weights(X, y, n_trees: int = 10, sample_percent: int = 50, random_state: int = 1,
                       resample: bool = True) -> np.ndarray:
    """Hall's weights: the mean over ``n_trees`` unpruned J48 trees of 1/√(depth of the
    attribute's shallowest test), 0 for an attribute a tree does not test.

    ``resample=False`` fits one tree to all the rows (Hall's "i = 1 … using all the training
    data"); ``n_trees`` must then be 1.
    """
    depths = bagged_tree_depths(X, y, n_trees, sample_percent, random_state, resample)
    with np.errstate(divide="ignore"):
        inverse_sqrt = np.where(np.isfinite(depths), 1.0 / np.sqrt(depths), 0.0)
    return inverse_sqrt.mean(axis=0)


class AttributeWeightedNB(WeightedNaiveBayes):
    """Naive Bayes with Hall's decision-tree attribute weights (AWNB; ASNB with ``binary=True``).

        P(c | x) ∝ P(c) ∏_i P(x_i | c)^(w_i),   w_i = mean over bagged unpruned trees of 1/√(min depth of i)

    Parameters
    ----------
    n_trees : int
        Bagging iterations (Hall's i).
    sample_percent : int
        Size of each bag as a percentage of the training rows (Hall's j), drawn with replacement.
    random_state : int
        Weka Bagging's ``-S``: the seed of the bags.
    resample : bool
        False: one tree on all the training rows (Hall's i = 1, j = 100 "using all the training
        data"); then n_trees must be 1.
    binary : bool
        ASNB: every non-zero weight set to 1 (naive Bayes on the attributes the trees test).

    Attributes
    ----------
    weights_ : ndarray of shape (n_features,)
    naive_bayes_ : the fitted ``NaiveBayes`` (Weka 3.6's) whose factors are weighted
    classes_

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import AttributeWeightedNB
    >>> X = pd.DataFrame({
    ...     "outlook": pd.Categorical(["sunny", "sunny", "rain", "rain", "overcast", "overcast", "sunny", "rain"]),
    ...     "windy": pd.Categorical(["no", "yes", "no", "yes", "no", "yes", "no", "yes"])})
    >>> y = pd.Series(["no", "no", "yes", "no", "yes", "yes", "no", "yes"])
    >>> clf = AttributeWeightedNB(n_trees=3).fit(X, y)
    >>> clf.predict(X).tolist()
    ['no', 'no', 'no', 'no', 'no', 'no', 'no', 'no']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.5, 0.5],
           [0.5, 0.5]])
    """

    _parameter_constraints: dict = {
        "n_trees": [Interval(Integral, 1, None, closed="left")],
        "sample_percent": [Interval(Integral, 1, None, closed="left")],
        "random_state": [Integral],
        "resample": ["boolean"],
        "binary": ["boolean"],
    }

    def __init__(self, *, n_trees: int = 10, sample_percent: int = 50, random_state: int = 1, resample: bool = True,
                 binary: bool = False):
        self.n_trees = n_trees
        self.sample_percent = sample_percent
        self.random_state = random_state
        self.resample = resample
        self.binary = binary

    def _weights(self, X, y) -> np.ndarray:
        weights = tree_depth_weights(X, y, self.n_trees, self.sample_percent, self.random_state, self.resample)
        return (weights > 0).astype(np.float64) if self.binary else weights


