# SPDX-License-Identifier: GPL-3.0-or-later
"""A grown tree as the compiled grower leaves it: flat arrays of nodes (tests, split points, class
distributions per branch), with its prediction and test depths read off the arrays, and the linked
nodes built from them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._c45 import Distribution, Node, Split
from ._j48_kernel import flat_tree_probabilities, min_test_depths_flat


class FlatTree(NamedTuple):
    """``grow_tree``'s tree as arrays, nodes numbered as grown (a node's sons after it): per node
    the attribute tested (-1 at a leaf), split point, info gain, gain ratio, total weight,
    is_empty, collapsed (a split that collapse made a leaf), alive (in the tree after
    collapsing), first son's slot in ``sons``; per bag (``bag_start``) the bag weights and
    (bag, class) weights; per node the class weights; with rows kept, each node's rows and
    weights (``row_start``). Unpruned J48 keeps its tree so: predicting from the arrays
    (``flat_tree_probabilities``) spares building a deep tree's nodes in Python."""

    attr: np.ndarray
    split_point: np.ndarray
    gain: np.ndarray
    ratio: np.ndarray
    total: np.ndarray
    empty: np.ndarray
    collapsed: np.ndarray
    alive: np.ndarray
    son_start: np.ndarray
    sons: np.ndarray
    bag_start: np.ndarray
    per_bag: np.ndarray
    per_class_per_bag: np.ndarray
    per_class: np.ndarray
    row_start: np.ndarray
    rows: np.ndarray
    weights: np.ndarray

    def min_test_depths(self, n_features: int) -> np.ndarray:
        """``_min_test_depths`` of the tree, read off the arrays."""
        return min_test_depths_flat(
            self.attr, self.collapsed, self.alive, self.son_start, self.bag_start, self.sons, n_features
        )

    def probabilities(self, Z: np.ndarray, numeric: np.ndarray, laplace: bool) -> np.ndarray:
        """``tree_probabilities`` of J48's nodes, from the arrays (compiled)."""
        return flat_tree_probabilities(
            np.ascontiguousarray(Z, dtype=np.float64),
            self.attr,
            self.split_point,
            np.asarray(numeric, dtype=np.bool_),
            self.son_start,
            self.sons,
            self.bag_start,
            self.per_bag,
            self.per_class_per_bag,
            self.per_class,
            self.total,
            self.empty,
            self.collapsed,
            bool(laplace),
        )


def nodes_from_flat(t: FlatTree, numeric, keep_rows: bool = False) -> Node:
    """The root of ``t`` as ``Node``s (``keep_rows``: each with its rows and weights)."""
    nodes = [None] * len(t.attr)
    for i in np.flatnonzero(t.alive)[::-1].tolist():  # sons before their parent
        node = Node()
        s, e = t.bag_start[i], t.bag_start[i + 1]
        d = Distribution(t.per_class_per_bag[s:e], t.per_bag[s:e], t.per_class[i], t.total[i])
        if keep_rows:
            node.rows, node.weights = (
                t.rows[t.row_start[i] : t.row_start[i + 1]],
                t.weights[t.row_start[i] : t.row_start[i + 1]],
            )
        a = int(t.attr[i])
        if a < 0 or t.collapsed[i]:
            node.dist = d
            node.is_empty = bool(t.empty[i])
        else:
            node.split = Split(
                a, bool(numeric[a]), float(t.split_point[i]), e - s, d, float(t.gain[i]), float(t.ratio[i])
            )
            node.sons = [nodes[j] for j in t.sons[t.son_start[i] : t.son_start[i] + e - s].tolist()]
        nodes[i] = node
    return nodes[0]
