# SPDX-License-Identifier: GPL-3.0-or-later
"""C4.5 revision 8 as Weka 3.6's ``weka.classifiers.trees.J48``.

The tree is grown, collapsed and pruned exactly as Weka does it (``C45ModelSelection``,
``C45Split``, ``C45PruneableClassifierTree``, ``Distribution``, ``Stats.addErrs``):

- Split choice: among attributes whose split has at least the average information gain
  (less 1e-3), the one with the largest gain ratio. A nominal attribute splits into one
  branch per declared value; a numeric one at the midpoint of the best threshold, the gain
  reduced by log2(#thresholds)/N, and the threshold moved down to the largest training value
  not above it. Each branch needs ``min_samples_leaf`` rows (numeric: at least 10% of the
  rows per class, capped at 25).
- Missing values: a row with a missing test value goes down every branch with weight
  proportional to the branch's known weight (C4.5's fractional instances), in training and
  in prediction.
- Pruning: subtrees that do not reduce training errors are collapsed; then, bottom up, a
  node becomes a leaf, or is replaced by its largest branch (subtree raising), when its
  pessimistic error estimate (upper confidence limit at ``confidence``) is no larger.
- Leaves predict the class distribution of their training weight (``laplace=True``: with
  Laplace's correction). As in Weka, probabilities are not renormalised; where a missing
  value sends a row towards an empty branch, its row sums to less than 1.

Weka's comparisons carry its tolerance (1e-6) and its sums run in its order, so that ties
fall as in Weka.
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from .._mixed import MixedInputMixin
from .._nominal import HANDLE_UNKNOWN
from ._builder import TreeBuilder
from ._c45 import Node
from ._export import weka_tree_text
from ._flat_tree import nodes_from_flat


class J48(MixedInputMixin):
    """C4.5 decision tree, exactly as Weka 3.6's ``weka.classifiers.trees.J48`` (see the module
    docstring for the algorithm).

        P(c | x) = Σ_leaves share(x, leaf) · n_leaf(c) / n_leaf

    share(x, leaf) is 1 for the leaf x reaches, or split over several leaves when x has a
    missing value on a tested attribute.

    Parameters
    ----------
    confidence : float
        Weka ``-C``: confidence of the pessimistic error estimate used to prune (0.25).
    min_samples_leaf : int
        Weka ``-M``: least weight in at least two branches of a split (2).
    unpruned : bool
        Weka ``-U``: no pruning (subtrees that do not reduce training error are still collapsed,
        as in Weka).
    subtree_raising : bool
        ``False`` is Weka ``-S``.
    laplace : bool
        Weka ``-A``: Laplace-corrected leaf probabilities.
    handle_unknown : {"ignore", "error"}
        A nominal test value outside the declared values is missing ("ignore") or an error.

    Attributes
    ----------
    tree_ : Node
        The root; ``export_text()`` prints it as Weka does. (An unpruned tree is kept as
        ``flat_tree_``, a ``FlatTree`` of arrays, and its nodes built when first asked for.)
    min_test_depth_ : ndarray
        For each attribute, the depth of its shallowest test (root = 1); ``inf`` if never tested.

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import J48
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> clf = J48(min_samples_leaf=1).fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[1., 0.],
           [1., 0.]])
    >>> clf.export_text().splitlines()[3:5]   # the tree as Weka prints it
    ['x <= 1.3: a (4.0)', 'x > 1.3: b (4.0)']
    """

    _parameter_constraints: dict = {
        "confidence": [Interval(Real, 0, 1, closed="neither")],
        "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
        "unpruned": ["boolean"],
        "subtree_raising": ["boolean"],
        "laplace": ["boolean"],
        "handle_unknown": HANDLE_UNKNOWN,
    }

    def __init__(self, *, confidence: float = 0.25, min_samples_leaf: int = 2, unpruned: bool = False,
                 subtree_raising: bool = True, laplace: bool = False, handle_unknown: str = "ignore"):
        self.confidence = confidence
        self.min_samples_leaf = min_samples_leaf
        self.unpruned = unpruned
        self.subtree_raising = subtree_raising
        self.laplace = laplace
        self.handle_unknown = handle_unknown

    def fit(self, X, y, sample_weight=None):
        all_values = self._encode_all_rows(X, y, sample_weight)
        Z, ycodes, w = self._training
        del self._training
        return self._grow(Z, ycodes, w, all_values)

    # the encoding a fit learns from the data's types (``MixedInputMixin``), shared by
    # ``_fit_encoded``
    _ENCODING = ("feature_names_in_", "numeric_", "categories_", "n_features_in_", "n_values_", "classes_",
                 "_dtypes", "_array_input", "_header")

    def _fit_encoded(self, encoder: J48, Z: np.ndarray, ycodes: np.ndarray, all_values: np.ndarray,
                     ranks: np.ndarray | None = None, depths_only: bool = False,
                     row_counts: np.ndarray | None = None) -> J48:
        """``fit`` on rows already encoded by ``encoder`` (a J48 whose ``_fit_mixed`` saw a frame
        whose every nominal column and class are Categorical, so that the encoding depends on the
        types alone): unit weights, every row with a known class. Bagging grows its members so,
        encoding the frame once instead of once per bag, and ranking its numeric values once
        (``ranks``: ``value_ranks`` of these rows). ``depths_only`` (unpruned trees): only
        ``min_test_depth_`` is learned, no tree to predict with. ``row_counts``: row i stands for
        ``row_counts[i]`` identical instances of weight 1 (``all_values``: every instance), and
        weighs that much; the same tree when no value is missing (see ``Bagging``)."""
        for name in self._ENCODING:
            if hasattr(encoder, name):
                setattr(self, name, getattr(encoder, name))
        w = np.ones(len(ycodes)) if row_counts is None else np.asarray(row_counts, dtype=np.float64)
        return self._grow(Z, ycodes, w, all_values, ranks, depths_only, row_counts)

    def _grow(self, Z, ycodes, w, all_values, ranks=None, depths_only=False, row_counts=None) -> J48:
        builder = TreeBuilder(Z, ycodes, self.numeric_, self.n_values_, len(self.classes_), int(self.min_samples_leaf),
                               all_values, self.confidence, self.subtree_raising, row_counts)
        self.__dict__.pop("tree_", None)
        self.__dict__.pop("flat_tree_", None)
        if self.unpruned:  # no pruning to do on nodes: the tree stays as the kernel's arrays
            return self._grow_arrays(builder, w, ranks, depths_only)
        return self._grow_nodes(builder, w, ranks)

    def _grow_arrays(self, builder, w, ranks=None, depths_only=False) -> J48:
        """An unpruned tree as the compiled grower's arrays (``flat_tree_``), predicted from directly."""
        flat = builder._grow_flat(w, False, ranks)
        self.min_test_depth_ = flat.min_test_depths(self.n_features_in_)
        if not depths_only:
            self.flat_tree_ = flat
        return self

    def _grow_nodes(self, builder, w, ranks=None) -> J48:
        """The tree as nodes, pruned unless ``unpruned`` (an unpruned tree as nodes is the reference
        its arrays are tested against)."""
        root = builder.grow(w, keep_rows=not self.unpruned, ranks=ranks)
        if not self.unpruned:
            builder.prune(root)
        _drop_training_rows(root)
        self.tree_ = root
        self.min_test_depth_ = _min_test_depths(root, self.n_features_in_)
        return self

    def __getattr__(self, name):
        # an unpruned tree's nodes are built from its arrays only when asked for
        # (``export_text``, inspection); predicting reads the arrays
        if name == "tree_" and "flat_tree_" in self.__dict__:
            self.tree_ = nodes_from_flat(self.__dict__["flat_tree_"], self.numeric_)
            return self.tree_
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _encode_all_rows(self, X, y, sample_weight):
        """Fit the encoding; keep every row's values (C4.5 moves numeric thresholds onto training
        values, class-missing rows included, as Weka's J48 passes them)."""
        self._training = self._fit_mixed(X, y, sample_weight)
        return self._encode_mixed(X)

    def predict_proba(self, X) -> np.ndarray:
        if "flat_tree_" in self.__dict__:
            return self.flat_tree_.probabilities(self._encode_mixed(X), self.numeric_, self.laplace)
        check_is_fitted(self, "tree_")
        Z = self._encode_mixed(X)
        return tree_probabilities(self.tree_, Z, np.ones(len(Z)), len(self.classes_), self._leaf_probabilities,
                                  self._empty_branch_probabilities)

    def _leaf_probabilities(self, node: Node, Z: np.ndarray) -> np.ndarray:
        p = node.dist.laplace_prob() if self.laplace else node.dist.prob()
        return np.broadcast_to(p, (len(Z), len(p)))

    def _empty_branch_probabilities(self, node: Node, b: int, Z: np.ndarray) -> np.ndarray:
        p = node.split.dist.laplace_prob_bag(b) if self.laplace else node.split.dist.prob_bag(b)
        return np.broadcast_to(p, (len(Z), len(p)))

    def export_text(self) -> str:
        """The tree as Weka's ``J48.toString()`` prints it."""
        check_is_fitted(self, "tree_")
        names = self.feature_names_in_ if hasattr(self, "feature_names_in_") else None
        return weka_tree_text(self.tree_, self.unpruned, names, self.categories_, self.classes_)

def tree_probabilities(node, Z: np.ndarray, weight: np.ndarray, n_classes: int, leaf, empty_branch) -> np.ndarray:
    """Weka's ClassifierTree.getProbs for a block of rows: each row's weight × the probabilities
    of the leaf it reaches, ``leaf(node, Z)``. A missing test value adds up the non-empty
    branches, each with its share of the weight; a known value that meets an empty branch
    takes ``empty_branch(node, b, Z)``. Nodes have ``split`` (None at a leaf), ``sons`` and
    ``is_empty``; J48 and NBTree differ only in the two callables."""
    if node.split is None:
        return weight[:, None] * leaf(node, Z)
    out = np.zeros((len(Z), n_classes))
    if not len(Z):
        return out
    split = node.split
    sub = split.subsets(Z[:, split.attribute])
    missing = sub < 0
    if missing.any():
        share = split.missing_weights()
        acc = np.zeros((int(missing.sum()), n_classes))
        for b, son in enumerate(node.sons):
            if not son.is_empty:
                acc += tree_probabilities(son, Z[missing], share[b] * weight[missing], n_classes, leaf, empty_branch)
        out[missing] = acc
    for b, son in enumerate(node.sons):
        at = sub == b
        if not at.any():
            continue
        if son.is_empty:
            out[at] = weight[at, None] * empty_branch(node, b, Z[at])
        else:
            out[at] = tree_probabilities(son, Z[at], weight[at], n_classes, leaf, empty_branch)
    return out


def value_ranks(Z: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """(columns, rows): each row's value's rank among its column's distinct values (equal values
    one rank, missing values the last), so that any selection of the rows sorts by counting."""
    ranks = np.empty((len(columns), len(Z)), dtype=np.int64)
    for i, a in enumerate(columns):
        ranks[i] = np.unique(Z[:, a], return_inverse=True, equal_nan=True)[1].ravel()
    return ranks


def _drop_training_rows(node: Node) -> None:
    node.rows = node.weights = None
    for son in node.sons or ():
        _drop_training_rows(son)


def _min_test_depths(root: Node, n_features: int) -> np.ndarray:
    depth = np.full(n_features, np.inf)
    stack = [(root, 1)]
    while stack:
        node, d = stack.pop()
        if node.is_leaf:
            continue
        a = node.split.attribute
        depth[a] = min(depth[a], d)
        stack.extend((son, d + 1) for son in node.sons)
    return depth
