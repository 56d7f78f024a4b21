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

import functools
import math
from typing import NamedTuple

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ... import libm
from ...weka.special import weka_normal_inverse
from ...weka import utils as wu
from ._j48_kernel import flat_tree_probabilities, grow_tree, min_test_depths_flat, order_by_ranks, select_split
from .._mixed import MixedInputMixin

_LOG2 = math.log(2.0)


def _log_func(x):
    """EntropyBasedSplitCrit.logFunc, elementwise: x·log2(x), 0 below 1e-6."""
    x = np.asarray(x, dtype=np.float64)
    small = x < 1e-6
    return np.where(small, 0.0, x * libm.log(np.where(small, 1.0, x)) / _LOG2)


def _log_func1(x: float) -> float:
    return 0.0 if x < 1e-6 else x * math.log(x) / _LOG2


class Distribution:
    """Weka's ``j48.Distribution``: weight per (bag, class), per bag, per class and in total,
    each summed separately in row order as Weka adds them."""

    __slots__ = ("per_class_per_bag", "per_bag", "per_class", "total")

    def __init__(self, per_class_per_bag, per_bag, per_class, total):
        self.per_class_per_bag = per_class_per_bag
        self.per_bag = per_bag
        self.per_class = per_class
        self.total = float(total)

    @classmethod
    def from_contributions(cls, W: np.ndarray, y: np.ndarray, n_classes: int) -> "Distribution":
        """From each row's weight in each bag (rows × bags), rows in Weka's order; a row with
        a known test value has its whole weight in one bag."""
        n, B = W.shape
        pcb = np.stack([np.bincount(y, weights=W[:, b], minlength=n_classes) for b in range(B)]) if n else \
            np.zeros((B, n_classes))
        flat = W.ravel()
        per_bag = np.cumsum(W, axis=0)[-1] if n else np.zeros(B)
        per_class = np.bincount(np.repeat(y, B), weights=flat, minlength=n_classes) if n else np.zeros(n_classes)
        total = np.cumsum(flat)[-1] if n else 0.0
        return cls(pcb, per_bag, per_class, total)

    @classmethod
    def one_bag(cls, y: np.ndarray, w: np.ndarray, n_classes: int) -> "Distribution":
        per_class = np.bincount(y, weights=w, minlength=n_classes)
        total = _seq_sum(w)
        return cls(per_class[None, :].copy(), np.array([total]), per_class, total)

    @classmethod
    def from_bags(cls, bag: np.ndarray, y: np.ndarray, w: np.ndarray, n_bags: int, n_classes: int) -> "Distribution":
        """Every row's whole weight in one bag: the same sums as ``from_contributions``, faster."""
        pcb = np.bincount(bag * n_classes + y, weights=w, minlength=n_bags * n_classes).reshape(n_bags, n_classes)
        return cls(pcb, np.bincount(bag, weights=w, minlength=n_bags), np.bincount(y, weights=w, minlength=n_classes),
                   _seq_sum(w))

    def copy(self) -> "Distribution":
        return Distribution(self.per_class_per_bag.copy(), self.per_bag.copy(), self.per_class.copy(), self.total)

    def add_with_unknown(self, y_missing: np.ndarray, w_missing: np.ndarray) -> None:
        """addInstWithUnknown: rows with a missing test value spread over the bags in proportion."""
        B = len(self.per_bag)
        probs = np.full(B, 1.0 / B) if wu.eq(self.total, 0.0) else self.per_bag / self.total
        for c, w in zip(y_missing, w_missing):
            self.per_class[c] += w
            self.total += w
            for j in range(B):
                nw = probs[j] * w
                self.per_class_per_bag[j, c] += nw
                self.per_bag[j] += nw

    # ---- queries, with Weka's tolerant comparisons ------------------------------------
    def max_class(self, bag: int | None = None) -> int:
        if bag is not None and wu.gr(self.per_bag[bag], 0.0):
            counts = self.per_class_per_bag[bag]
        else:
            counts = self.per_class
        top = int(np.argmax(counts))
        m = counts[top]
        if m > wu.SMALL and np.count_nonzero(counts > m - 2 * wu.SMALL) == 1:
            return top  # clearly ahead of every other class: Weka's scan ends on it
        best, best_i = 0.0, 0
        for i, v in enumerate(counts.tolist()):
            if v - best > wu.SMALL:
                best, best_i = v, i
        return best_i

    def max_bag(self) -> int:
        best, best_i = 0.0, -1
        for i, v in enumerate(self.per_bag):
            if wu.gr_or_eq(v, best):
                best, best_i = v, i
        return best_i

    def num_incorrect(self, bag: int | None = None) -> float:
        if bag is None:
            return self.total - self.per_class[self.max_class()]
        return self.per_bag[bag] - self.per_class_per_bag[bag, self.max_class(bag)]

    def prob(self) -> np.ndarray:
        return self.per_class / self.total if not wu.eq(self.total, 0.0) else np.zeros_like(self.per_class)

    def prob_bag(self, bag: int) -> np.ndarray:
        if wu.gr(self.per_bag[bag], 0.0):
            return self.per_class_per_bag[bag] / self.per_bag[bag]
        return self.prob()

    def laplace_prob(self) -> np.ndarray:
        return (self.per_class + 1.0) / (self.total + len(self.per_class))

    def laplace_prob_bag(self, bag: int) -> np.ndarray:
        if wu.gr(self.per_bag[bag], 0.0):
            return (self.per_class_per_bag[bag] + 1.0) / (self.per_bag[bag] + len(self.per_class))
        return self.laplace_prob()


def _old_ent(d: Distribution) -> float:
    v = 0.0
    for c in d.per_class:
        v += _log_func1(float(c))
    return _log_func1(d.total) - v


def _new_ent(pcb: np.ndarray, per_bag: np.ndarray):
    """newEnt for one distribution, or for many at once (leading axis = candidates)."""
    L, Lb = _log_func(pcb), _log_func(per_bag)
    v = np.zeros(pcb.shape[:-2])
    for b in range(pcb.shape[-2]):
        for c in range(pcb.shape[-1]):
            v = v + L[..., b, c]
        v = v - Lb[..., b]
    return -v


def _new_ent_two_bags(left, right, left_w, right_w, table=None):
    """newEnt of a two-bag split for many thresholds: rows of per-class weights left and right.
    ``table``: logFunc of 0, 1, 2, …, to look up whole-number weights instead of taking logs."""
    log = _log_func if table is None else (lambda a: table[a.astype(np.int64)])
    L, R = log(left), log(right)
    _log_func_bag = log
    v = np.zeros(len(left_w))
    for c in range(L.shape[1]):
        v = v + L[:, c]
    v = v - _log_func_bag(left_w)
    for c in range(R.shape[1]):
        v = v + R[:, c]
    v = v - _log_func_bag(right_w)
    return -v


def _info_gain(old_ent, new_ent, bags_total, total_weight):
    """InfoGainSplitCrit.splitCritValue; arrays allowed."""
    unknown_rate = (total_weight - bags_total) / total_weight
    numerator = (1.0 - unknown_rate) * (old_ent - new_ent)
    near_zero = np.abs(numerator) < wu.SMALL
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(near_zero, 0.0, numerator / bags_total)


def _gain_ratio(d: Distribution, total_weight: float, info_gain: float) -> float:
    split_ent = 0.0
    if wu.gr(d.total, 0.0):
        for b in d.per_bag:
            split_ent -= _log_func1(float(b))
        split_ent -= _log_func1(total_weight - d.total)
        split_ent += _log_func1(total_weight)
    if wu.eq(split_ent, 0.0):
        return 0.0
    return info_gain / (split_ent / total_weight)


class _Candidate:
    """A possible split: its information gain and gain ratio, and how to build it."""

    __slots__ = ("info_gain", "gain_ratio", "make")

    def __init__(self, info_gain, gain_ratio, make):
        self.info_gain, self.gain_ratio, self.make = info_gain, gain_ratio, make


class _NumericSplitMaker:
    """Builds the chosen numeric Split from the sorted arrays of ``_numeric_splits``."""

    def __init__(self, a, j, pos, nk, V, left, left_w, init, init_w, Wk, Yk, r, gain, integer_weights):
        self.args = (a, j, pos, nk, V, left, left_w, init, init_w, Wk, Yk, r, gain, integer_weights)

    def __call__(self) -> "Split":
        a, j, pos, nk, V, left, left_w, init, init_w, Wk, Yk, r, gain, integer_weights = self.args
        v = V[:, j]
        split_point = (v[pos + 1] + v[pos]) / 2.0
        if split_point == v[pos + 1]:  # a precision problem: Weka takes the smaller value
            split_point = v[pos]
        if integer_weights:  # whole-number sums: exact in any order
            below = np.bincount(Yk[: pos + 1, j], weights=Wk[: pos + 1, j], minlength=r)
            d = Distribution(np.stack([below, init[j] - below]),
                             np.array([left_w[pos, j], left_w[nk - 1, j] - left_w[pos, j]]),
                             init[j].copy(), float(init_w[j]))
        else:  # fractional weights: each bag summed afresh in order, as Weka's addRange does
            W2 = np.zeros((nk, 2))
            W2[: pos + 1, 0] = Wk[: pos + 1, j]
            W2[pos + 1: nk, 1] = Wk[pos + 1: nk, j]
            d = Distribution.from_contributions(W2, Yk[:nk, j], r)
        return Split(a, True, float(split_point), 2, d, gain, None)


def _nominal_split_of(a, q, d, gain, ratio):
    return Split(a, False, np.inf, q, d, gain, ratio)


class Split:
    """A C45Split: the attribute tested, its branches, and the training distribution over them."""

    __slots__ = ("attribute", "numeric", "split_point", "n_subsets", "dist", "info_gain", "gain_ratio")

    def __init__(self, attribute, numeric, split_point, n_subsets, dist, info_gain, gain_ratio):
        self.attribute = attribute
        self.numeric = numeric
        self.split_point = split_point
        self.n_subsets = n_subsets
        self.dist = dist
        self.info_gain = info_gain
        self.gain_ratio = gain_ratio

    def subsets(self, x: np.ndarray) -> np.ndarray:
        """whichSubset per row: the branch index, -1 for a missing value."""
        out = np.full(len(x), -1, dtype=np.int64)
        known = ~np.isnan(x)
        if self.numeric:  # Weka: Utils.smOrEq(value, splitPoint), within its tolerance of 1e-6
            out[known] = np.where(x[known] - self.split_point < wu.SMALL, 0, 1)
        else:
            out[known] = x[known].astype(np.int64)
        return out

    def missing_weights(self) -> np.ndarray:
        return self.dist.per_bag / self.dist.total

    def distribution(self, x: np.ndarray, w: np.ndarray, y: np.ndarray, n_classes: int):
        """(Weka's ``Distribution(data, this)``, whichSubset per row): a row with a missing value
        is spread by the split's current distribution."""
        sub = self.subsets(x)
        if (sub >= 0).all():
            return Distribution.from_bags(sub, y, w, self.n_subsets, n_classes), sub
        return Distribution.from_contributions(self.contributions(x, w), y, n_classes), sub

    def branches(self, sub: np.ndarray, rows: np.ndarray, w: np.ndarray) -> list:
        """ClassifierSplitModel.split: (rows, weights) per branch. A row with a known value goes
        to its branch; one with a missing value to every branch whose share is Utils.gr(share, 0),
        with its weight times the share."""
        missing = sub < 0
        if not missing.any():
            return [(rows[sub == b], w[sub == b]) for b in range(self.n_subsets)]
        share = self.missing_weights()
        out = []
        for b in range(self.n_subsets):
            keep = (sub == b) | (missing & wu.gr(share[b], 0.0))
            out.append((rows[keep], np.where(missing, share[b] * w, w)[keep]))
        return out

    def contributions(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        """Each row's weight per branch (rows × branches), a missing value spread by ``missing_weights``."""
        sub = self.subsets(x)
        W = np.zeros((len(x), self.n_subsets))
        known = sub >= 0
        W[np.flatnonzero(known), sub[known]] = w[known]
        if (~known).any():
            W[~known] = w[~known, None] * self.missing_weights()[None, :]
        return W


class Node:
    """A C45PruneableClassifierTree node: a leaf (``split is None``) or a split with sons."""

    __slots__ = ("split", "dist", "sons", "is_empty", "rows", "weights")

    def __init__(self):
        self.split = None
        self.dist = None
        self.sons = None
        self.is_empty = False
        self.rows = None
        self.weights = None

    @property
    def is_leaf(self) -> bool:
        return self.sons is None

    def model_dist(self) -> Distribution:
        return self.split.dist if self.split is not None else self.dist


_FLAT_UNPRUNED = True  # False: unpruned trees kept as nodes too (the reference the arrays are tested against)


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
        return min_test_depths_flat(self.attr, self.collapsed, self.alive, self.son_start, self.bag_start, self.sons,
                                    n_features)

    def probabilities(self, Z: np.ndarray, numeric: np.ndarray, laplace: bool) -> np.ndarray:
        """``tree_probabilities`` of J48's nodes, from the arrays (compiled)."""
        return flat_tree_probabilities(np.ascontiguousarray(Z, dtype=np.float64), self.attr, self.split_point,
                                       np.asarray(numeric, dtype=np.bool_), self.son_start, self.sons, self.bag_start,
                                       self.per_bag, self.per_class_per_bag, self.per_class, self.total, self.empty,
                                       self.collapsed, bool(laplace))


def nodes_from_flat(t: FlatTree, numeric, keep_rows: bool = False) -> Node:
    """The root of ``t`` as ``Node``s (``keep_rows``: each with its rows and weights)."""
    nodes = [None] * len(t.attr)
    for i in np.flatnonzero(t.alive)[::-1].tolist():  # sons before their parent
        node = Node()
        s, e = t.bag_start[i], t.bag_start[i + 1]
        d = Distribution(t.per_class_per_bag[s:e], t.per_bag[s:e], t.per_class[i], t.total[i])
        if keep_rows:
            node.rows, node.weights = t.rows[t.row_start[i]: t.row_start[i + 1]], t.weights[t.row_start[i]: t.row_start[i + 1]]
        a = int(t.attr[i])
        if a < 0 or t.collapsed[i]:
            node.dist = d
            node.is_empty = bool(t.empty[i])
        else:
            node.split = Split(a, bool(numeric[a]), float(t.split_point[i]), e - s, d, float(t.gain[i]),
                               float(t.ratio[i]))
            node.sons = [nodes[j] for j in t.sons[t.son_start[i]: t.son_start[i] + e - s].tolist()]
        nodes[i] = node
    return nodes[0]


class _TreeBuilder:
    """Grows, collapses and prunes one tree on (Z, y) with row weights."""

    def __init__(self, Z, y, numeric, n_values, n_classes, min_leaf, all_values, confidence, subtree_raising):
        self.Z, self.y, self.numeric, self.n_values = Z, y, numeric, n_values
        self.r = n_classes
        self.min_leaf = min_leaf
        self.all_values = all_values  # every training row given to fit (C45ModelSelection's m_allData)
        self.confidence = np.float32(confidence)
        self.subtree_raising = subtree_raising
        # C45ModelSelection: are all attributes nominal with many values (≥ 30% of the rows)?
        n_all = all_values.shape[0]
        self.multi_valued = not any(num or wu.sm(n_values[j], 0.3 * n_all) for j, num in enumerate(numeric))
        self._numeric_columns = np.flatnonzero(numeric)
        self._is_numeric = np.asarray(numeric, dtype=np.bool_)
        self._n_values = np.asarray(n_values, dtype=np.int64)
        self._position = np.zeros(len(Z), dtype=np.int64)  # the kernel's scratch
        self._sorted_all = {}
        self._log_table = _log_func(np.arange(len(Z) + 1, dtype=np.float64))  # the same logFunc, looked up
        self.z_score = weka_normal_inverse(float(np.float32(1.0) - self.confidence))

    # ---- growing --------------------------------------------------------------------
    def grow(self, w: np.ndarray, keep_rows: bool, ranks: np.ndarray | None = None) -> Node:
        """The collapsed tree of every row (compiled ``grow_tree``: the same tree as ``build``
        then ``collapse``); ``keep_rows``: the nodes keep their rows and weights, for pruning;
        ``ranks``: (numeric columns, rows), each value's rank in its column (``value_ranks``),
        to order the rows without sorting."""
        return nodes_from_flat(self._grow_flat(w, keep_rows, ranks), self.numeric, keep_rows)

    def _grow_flat(self, w, keep_rows, ranks) -> "FlatTree":
        """``grow_tree``'s flat arrays (``FlatTree``)."""
        cols = self._numeric_columns
        if ranks is None:
            sorted0 = np.ascontiguousarray(np.argsort(self.Z[:, cols], axis=0, kind="stable").T)
        else:
            sorted0 = order_by_ranks(np.ascontiguousarray(ranks))
        return FlatTree(*grow_tree(np.asfortranarray(self.Z), self.y, np.ascontiguousarray(w, dtype=np.float64), sorted0, cols,
                         self._is_numeric, self._n_values, self.r, self.min_leaf, self.multi_valued, self.all_values,
                         self._position, self._log_table, keep_rows))

    def build(self, rows: np.ndarray, w: np.ndarray, sorted_rows: np.ndarray | None = None) -> Node:
        """Grow the subtree of ``rows``; ``sorted_rows``: the rows sorted by each numeric attribute
        (missing last), filtered down from the root's one sort instead of sorting at every node."""
        if sorted_rows is None:
            cols = self._numeric_columns
            sorted_rows = rows[np.argsort(self.Z[np.ix_(rows, cols)], axis=0, kind="stable")]
        node = Node()
        node.rows, node.weights = rows, w
        split = self._select(rows, w, sorted_rows)
        if isinstance(split, Split):
            node.split = split
            parts = split.branches(split.subsets(self.Z[rows, split.attribute]), rows, w)
            node.sons = []
            for r_rows, r_w in parts:
                member = np.zeros(len(self.Z), dtype=bool)
                member[r_rows] = True
                kept = sorted_rows.T[member[sorted_rows.T]].reshape(sorted_rows.shape[1], len(r_rows)).T
                node.sons.append(self.build(r_rows, r_w, kept))
        else:
            node.dist = split
            node.is_empty = wu.eq(_seq_sum(w), 0.0)
        return node

    def _select(self, rows, w, sorted_rows):
        """C45ModelSelection.selectModel: a Split, or the node's Distribution for a leaf (compiled;
        ``_select_numpy`` is the same choice in numpy)."""
        a, split_point, gain, ratio, pcb, per_bag, per_class, total = select_split(
            self.Z, self.y, np.ascontiguousarray(w, dtype=np.float64), rows, np.asfortranarray(sorted_rows),
            self._numeric_columns,
            self._is_numeric, self._n_values, self.r, self.min_leaf, self.multi_valued, len(self.all_values),
            self._position, self._log_table)
        d = Distribution(pcb, per_bag, per_class, total)
        if a < 0:
            return d
        if self.numeric[a]:
            best = Split(a, True, split_point, 2, d, gain, ratio)
        else:
            best = Split(a, False, np.inf, int(self.n_values[a]), d, gain, ratio)
        return self._finish_split(best, rows, w, self.y[rows])

    def _finish_split(self, best, rows, w, y):
        """The chosen split's distribution takes the rows with a missing value; a numeric
        threshold moves down onto a training value."""
        x = self.Z[rows, best.attribute]
        missing = np.isnan(x)
        best.dist.add_with_unknown(y[missing], w[missing])
        if best.numeric:
            best.split_point = self._largest_value_not_above(best.attribute, best.split_point)
        return best

    def _select_numpy(self, rows, w, sorted_rows=None):
        """C45ModelSelection.selectModel in numpy: the reference for ``select_split``."""
        y = self.y[rows]
        check = Distribution.one_bag(y, w, self.r)
        if wu.sm(check.total, 2 * self.min_leaf) or wu.eq(check.total, check.per_class[check.max_class()]):
            return check
        total_weight = _seq_sum(w)
        numeric_models = self._numeric_splits(rows, w, y, total_weight, sorted_rows=sorted_rows)
        nominal_models = self._nominal_splits(rows, w, y, total_weight)
        candidates = []
        average, valid = 0.0, 0
        for a in range(self.Z.shape[1]):
            model = numeric_models.get(a) if self.numeric[a] else nominal_models[a]
            candidates.append(model)
            if model is not None:
                if self.numeric[a] or self.multi_valued or wu.sm(self.n_values[a], 0.3 * self.all_values.shape[0]):
                    average += model.info_gain
                    valid += 1
        if valid == 0:
            return check
        average /= valid
        best, best_ratio = None, 0.0
        for model in candidates:
            if model is not None and model.info_gain >= average - 1e-3 and wu.gr(model.gain_ratio, best_ratio):
                best, best_ratio = model, model.gain_ratio
        if wu.eq(best_ratio, 0.0):
            return check
        best = best.make()
        best.gain_ratio = best_ratio
        return self._finish_split(best, rows, w, y)

    def _largest_value_not_above(self, a: int, split_point: float) -> float:
        """C45Split.setSplitPoint over all training rows, from the column sorted once."""
        if a not in self._sorted_all:
            v = self.all_values[:, a]
            self._sorted_all[a] = np.sort(v[~np.isnan(v)])
        v = self._sorted_all[a]
        k = int(np.count_nonzero(v - split_point < wu.SMALL))  # v − split_point is monotone in v
        if k == 0:
            return -np.finfo(np.float64).max
        top = float(v[k - 1])
        if v[np.searchsorted(v, top - 2 * wu.SMALL, side="right")] == top:
            return top  # nothing within Weka's tolerance below the maximum: the scan ends on it
        return _largest_value_not_above(self.all_values[:, a], split_point)

    def c45_split(self, a: int, rows, w, y, total_weight):
        """C45Split.buildClassifier on one attribute: the Split, or None where none is useful."""
        if self.numeric[a]:
            candidate = self._numeric_splits(rows, w, y, total_weight, cols=[a]).get(a)
        else:
            candidate = self._nominal_split(a, rows, w, y, total_weight)
        return None if candidate is None else candidate.make()

    def _nominal_splits(self, rows, w, y, total_weight, nominal=None) -> dict:
        """C45Split on every nominal attribute (or on ``nominal``): attribute → _Candidate, or None
        where no split is useful. The attributes with few values are evaluated together; an
        attribute with many (an identifier) alone, since it would pad every other to its width."""
        if nominal is None:
            nominal = np.flatnonzero(~np.asarray(self.numeric, dtype=bool))
        wide = self.n_values[nominal] > 32
        out = self._nominal_batch(nominal[~wide], rows, w, y, total_weight)
        for a in nominal[wide]:
            out.update(self._nominal_batch(np.array([a]), rows, w, y, total_weight))
        return out

    def _nominal_split(self, a, rows, w, y, total_weight):
        return self._nominal_batch(np.array([a]), rows, w, y, total_weight)[a]

    def _nominal_batch(self, cols, rows, w, y, total_weight) -> dict:
        """The nominal attributes ``cols`` at once. Their counts come from one bincount, each bin
        summed in row order as Weka adds them; the entropies run over values and classes in
        Weka's order, padded values adding exact zeros, so every attribute's gain and ratio have
        the bits of a pass on it alone."""
        if not len(cols):
            return {}
        out = {}
        r, n, A = self.r, len(rows), len(cols)
        q = self.n_values[cols].astype(np.int64)
        Q = int(q.max())
        X = self.Z[np.ix_(rows, cols)]
        known = ~np.isnan(X)
        bag = np.where(known, X, 0.0).astype(np.int64)
        W = np.where(known, w[:, None], 0.0)
        owner = np.broadcast_to(np.arange(A), (n, A))
        flat_w = W.T.ravel()  # attribute by attribute, rows in order: each bin's additions in row order
        pcb = np.bincount(((owner * Q + bag) * r + y[:, None]).T.ravel(), weights=flat_w,
                          minlength=A * Q * r).reshape(A, Q, r)
        per_bag = np.bincount((owner * Q + bag).T.ravel(), weights=flat_w, minlength=A * Q).reshape(A, Q)
        per_class = np.bincount((owner * r + y[:, None]).T.ravel(), weights=flat_w, minlength=A * r).reshape(A, r)
        total = np.cumsum(W, axis=0)[-1] if n else np.zeros(A)  # sequential per attribute; unknown rows add 0.0
        useful = np.sum((self.min_leaf - per_bag < wu.SMALL) & (np.arange(Q)[None, :] < q[:, None]), axis=1) > 1
        new_ent = _new_ent(pcb, per_bag)
        for t, a in enumerate(cols.tolist()):
            if not useful[t]:
                out[a] = None
                continue
            d = Distribution(pcb[t, :q[t]], per_bag[t, :q[t]], per_class[t], float(total[t]))
            gain = float(_info_gain(_old_ent(d), new_ent[t], d.total, total_weight))
            ratio = _gain_ratio(d, total_weight, gain)
            out[a] = _Candidate(gain, ratio, functools.partial(_nominal_split_of, a, int(q[t]), d, gain, ratio))
        return out

    def _numeric_splits(self, rows, w, y, total_weight, cols=None, sorted_rows=None) -> dict:
        """C45Split.handleNumericAttribute for every numeric attribute at once: attribute → Split
        (or None). Rows sorted by each attribute; Weka moves them one by one from the right
        bag to the left, so the right bag's weights are running subtractions."""
        cols = self._numeric_columns if cols is None else np.asarray(cols, dtype=np.int64)
        if not len(cols):
            return {}
        r, n = self.r, len(rows)
        if sorted_rows is not None and cols is self._numeric_columns:
            position = np.empty(len(self.Z), dtype=np.int64)
            position[rows] = np.arange(n)
            order = position[sorted_rows]
            V = self.Z[sorted_rows, cols[None, :]]
        else:
            X = self.Z[np.ix_(rows, cols)]
            order = np.argsort(X, axis=0, kind="stable")  # missing (NaN) last
            V = np.take_along_axis(X, order, axis=0)
        known = ~np.isnan(V)
        n_known = known.sum(axis=0)
        Wk = np.where(known, w[order], 0.0)
        Yk = y[order]
        cols_idx = np.arange(len(cols))
        left_w = np.cumsum(Wk, axis=0)
        last = np.maximum(n_known - 1, 0)
        init_w = np.where(n_known > 0, left_w[last, cols_idx], 0.0)
        integer_weights = bool(np.all(w == np.round(w)))
        if integer_weights:
            # sums of whole numbers are exact in any order: the per-class counts are taken only
            # at the thresholds evaluated below, not for every row (no rows × attributes × classes array)
            left = None
            init = np.bincount((cols_idx[None, :] * r + Yk).ravel(), weights=Wk.ravel(),
                               minlength=len(cols) * r).reshape(len(cols), r)
            right_w = init_w[None] - left_w
        else:
            onehot = np.zeros((n, len(cols), r))
            np.put_along_axis(onehot, Yk[:, :, None], Wk[:, :, None], axis=2)
            left = np.cumsum(onehot, axis=0)
            init = np.where((n_known > 0)[:, None], left[last, cols_idx], 0.0)  # (m, r): known weight per class
            # Weka moves rows one by one from the right bag: running subtractions, in order
            right = np.subtract.accumulate(np.concatenate([init[None], onehot]), axis=0)[1:]
            right_w = np.subtract.accumulate(np.concatenate([init_w[None], Wk]), axis=0)[1:]

        min_split = 0.1 * init_w / r
        min_split = np.where(min_split - self.min_leaf < wu.SMALL, float(self.min_leaf),
                             np.where(min_split - 25.0 > wu.SMALL, 25.0, min_split))
        usable = ~(2.0 * min_split - n_known > wu.SMALL)
        old = _log_func(init_w) - _sequential_rowsum(_log_func(init))
        i = np.arange(n - 1)[:, None]
        cand = (i + 1 < n_known[None, :]) & (V[:-1] + 1e-5 < V[1:])
        ok = (cand & (min_split[None, :] - left_w[:-1] < wu.SMALL) & (min_split[None, :] - right_w[:-1] < wu.SMALL)
              & usable[None, :])
        n_index = ok.sum(axis=0)
        out = {}
        live = np.flatnonzero(n_index > 0)
        if not len(live):
            return {int(cols[j]): None for j in range(len(cols))}
        ii, kk = np.nonzero(ok[:, live])  # evaluate the valid thresholds only
        jj = live[kk]
        table = self._log_table if integer_weights and init_w.max(initial=0.0) < len(self._log_table) else None
        if integer_weights:
            left_at = _class_counts_at_thresholds(ok[:, live], Yk[:, live], Wk[:, live], ii, kk, r)
            right_at = init[jj] - left_at
        else:
            left_at, right_at = left[ii, jj], right[ii, jj]
        new_ent = _new_ent_two_bags(left_at, right_at, left_w[ii, jj], right_w[ii, jj], table)
        gains = np.full((n - 1, len(live)), -np.inf)
        gains[ii, kk] = _info_gain(old[jj], new_ent, init_w[jj], total_weight)
        pos = _first_records(gains)
        has = pos >= 0
        best = np.where(has, gains[np.maximum(pos, 0), np.arange(len(live))], 0.0)
        with np.errstate(divide="ignore"):
            gain = best - libm.log(np.maximum(n_index[live], 1)) / math.log(2.0) / total_weight
        keep = has & ~(gain < wu.SMALL)  # Weka: no split when Utils.smOrEq(gain, 0)
        kept = np.flatnonzero(keep)
        js, ps = live[kept], pos[kept]
        nk = n_known[js]
        if integer_weights:  # sums of integers: exact in any order, so the ratios vectorise
            pb0 = left_w[ps, js]
            pb1 = left_w[nk - 1, js] - pb0
            split_ent = -_log_func(pb0) - _log_func(pb1) - _log_func(total_weight - init_w[js]) + _log_func1(total_weight)
            split_ent = np.where(init_w[js] - 0.0 > wu.SMALL, split_ent, 0.0)
            with np.errstate(divide="ignore", invalid="ignore"):
                ratios = np.where(np.abs(split_ent) < wu.SMALL, 0.0, gain[kept] / (split_ent / total_weight))
        for t, k in enumerate(kept):
            j, p_ = int(live[k]), int(pos[k])
            a = int(cols[j])
            g = float(gain[k])
            make = _NumericSplitMaker(a, j, p_, int(n_known[j]), V, left, left_w, init, init_w, Wk, Yk, r, g,
                                      integer_weights)
            if integer_weights:
                out[a] = _Candidate(g, float(ratios[t]), make)
            else:
                split = make()
                out[a] = _Candidate(g, _gain_ratio(split.dist, total_weight, g), lambda split=split: split)
        for j in range(len(cols)):
            out.setdefault(int(cols[j]), None)
        return out

    # ---- collapsing and pruning -----------------------------------------------------
    def collapse(self, node: Node, errors: dict | None = None) -> None:
        if errors is None:  # every subtree's training errors, summed bottom up once
            errors = {}
            self._training_errors(node, errors)
        if node.is_leaf:
            return
        if errors[id(node)] >= node.split.dist.num_incorrect() - 1e-3:
            self._make_leaf(node)
        else:
            for son in node.sons:
                self.collapse(son, errors)

    def _training_errors(self, node: Node, memo: dict) -> float:
        if node.is_leaf:
            errors = node.dist.num_incorrect()
        else:
            errors = 0.0
            for son in node.sons:
                errors += self._training_errors(son, memo)
        memo[id(node)] = errors
        return errors

    @staticmethod
    def _make_leaf(node: Node) -> None:
        node.dist = node.split.dist
        node.split = None
        node.sons = None

    def prune(self, node: Node) -> None:
        if node.is_leaf:
            return
        for son in node.sons:
            self.prune(son)
        largest = node.split.dist.max_bag()
        if self.subtree_raising:
            errors_largest = self._errors_for_branch(node.sons[largest], node.rows, node.weights)
        else:
            errors_largest = np.finfo(np.float64).max
        errors_leaf = self._errors_for_distribution(node.split.dist)
        errors_tree = self._estimated_errors(node)
        if wu.sm_or_eq(errors_leaf, errors_tree + 0.1) and wu.sm_or_eq(errors_leaf, errors_largest + 0.1):
            self._make_leaf(node)
            return
        if wu.sm_or_eq(errors_largest, errors_tree + 0.1):
            raised = node.sons[largest]
            node.split, node.sons, node.dist = raised.split, raised.sons, raised.dist
            self._new_distribution(node, node.rows, node.weights)
            self.prune(node)

    def _estimated_errors(self, node: Node) -> float:
        if node.is_leaf:
            return self._errors_for_distribution(node.dist)
        errors = 0.0
        for son in node.sons:
            errors += self._estimated_errors(son)
        return errors

    def _errors_for_distribution(self, d: Distribution) -> float:
        if wu.eq(d.total, 0.0):
            return 0.0
        e = d.num_incorrect()
        return e + add_errors(d.total, e, self.confidence, self.z_score)

    def _errors_for_branch(self, node: Node, rows, w) -> float:
        y = self.y[rows]
        if node.is_leaf:
            return self._errors_for_distribution(Distribution.one_bag(y, w, self.r))
        split = node.split
        reset, sub = split.distribution(self.Z[rows, split.attribute], w, y, self.r)
        saved, split.dist = split.dist, reset
        parts = split.branches(sub, rows, w)  # spread by the reset distribution, as Weka's split() is
        split.dist = saved
        errors = 0.0
        for son, (r_rows, r_w) in zip(node.sons, parts):
            errors += self._errors_for_branch(son, r_rows, r_w)
        return errors

    def _new_distribution(self, node: Node, rows, w) -> None:
        y = self.y[rows]
        node.rows, node.weights = rows, w
        if node.is_leaf:
            node.dist = Distribution.one_bag(y, w, self.r)
            if not wu.eq(_seq_sum(w), 0.0):
                node.is_empty = False
            return
        split = node.split
        split.dist, sub = split.distribution(self.Z[rows, split.attribute], w, y, self.r)
        for son, (r_rows, r_w) in zip(node.sons, split.branches(sub, rows, w)):
            self._new_distribution(son, r_rows, r_w)


def _sequential_rowsum(A: np.ndarray) -> np.ndarray:
    """Row sums added left to right, as a Java loop adds them."""
    out = np.zeros(A.shape[0])
    for c in range(A.shape[1]):
        out = out + A[:, c]
    return out


def _class_counts_at_thresholds(ok, Y, W, ii, kk, r):
    """Per-class weight of the rows up to and including sorted position ii[t] of column kk[t],
    for whole-number weights: each column's rows are cut into segments at its thresholds
    (``ok``), counted per segment and class with one bincount, and summed cumulatively."""
    n, m = Y.shape
    seg = np.zeros((n, m), dtype=np.int64)
    np.cumsum(ok, axis=0, out=seg[1:])  # rows after k thresholds lie in segment k
    n_seg = seg[-1] + 1
    offset = np.concatenate(([0], np.cumsum(n_seg)[:-1]))
    bins = ((offset[None, :] + seg) * r + Y).ravel()
    counts = np.bincount(bins, weights=W.ravel(), minlength=int(n_seg.sum()) * r).reshape(-1, r)
    C = np.cumsum(counts, axis=0)
    before = np.where((offset > 0)[:, None], C[np.maximum(offset - 1, 0)], 0.0)
    return C[offset[kk] + seg[ii, kk]] - before[kk]


def _first_records(gains: np.ndarray) -> np.ndarray:
    """Per column, the index Weka's scan keeps: starting from 0, a candidate replaces the best so
    far when it beats it by more than 1e-6; -1 if none ever does."""
    n, m = gains.shape
    top = np.argmax(gains, axis=0)
    best = gains[top, np.arange(m)]
    second = np.partition(gains, n - 2, axis=0)[n - 2] if n > 1 else np.full(m, -np.inf)
    out = np.where(best > wu.SMALL, top, -1)
    # a column whose best is clearly ahead of every other candidate ends its scan on it; others scan
    for k in np.flatnonzero((best > wu.SMALL) & ~(second < best - 2 * wu.SMALL)):
        col, b, pos = gains[:, k], 0.0, -1
        while True:
            beats = np.flatnonzero(col[pos + 1:] - b > wu.SMALL)
            if not len(beats):
                break
            pos = pos + 1 + int(beats[0])
            b = float(col[pos])
        out[k] = pos
    return out


def _seq_sum(w: np.ndarray) -> float:
    return float(np.cumsum(w)[-1]) if len(w) else 0.0


def _largest_value_not_above(values: np.ndarray, split_point: float) -> float:
    """C45Split.setSplitPoint: the largest training value not above the threshold, by Weka's
    scan over the rows in order with its tolerant comparisons."""
    v = values[~np.isnan(values)]
    v = v[v - split_point < wu.SMALL]
    if not len(v):
        return -np.finfo(np.float64).max
    top = float(v.max())
    near = v[v > top - 2 * wu.SMALL]
    if np.all(near == top):  # nothing within Weka's tolerance of the maximum: the scan ends on it
        return top
    best = -np.finfo(np.float64).max
    for value in v:
        if value - best > wu.SMALL:
            best = float(value)
    return best


def add_errors(n: float, e: float, confidence, z: float) -> float:
    """Stats.addErrs: the pessimistic extra errors of a leaf with n rows and e errors."""
    cf = float(confidence)
    if cf > 0.5:
        return 0.0
    if e < 1:
        base = n * (1 - math.pow(cf, 1 / n))
        if e == 0:
            return base
        return base + e * (add_errors(n, 1, confidence, z) - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    f = (e + 0.5) / n
    r = (f + (z * z) / (2 * n) + z * math.sqrt((f / n) - (f * f / n) + (z * z / (4 * n * n)))) / (1 + (z * z) / n)
    return (r * n) - e


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
    """

    def __init__(self, confidence: float = 0.25, min_samples_leaf: int = 2, unpruned: bool = False,
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
                 "_dtypes", "_array_input")

    def _fit_encoded(self, encoder: "J48", Z: np.ndarray, ycodes: np.ndarray, all_values: np.ndarray,
                     ranks: np.ndarray | None = None, depths_only: bool = False) -> "J48":
        """``fit`` on rows already encoded by ``encoder`` (a J48 whose ``_fit_mixed`` saw a frame
        whose every nominal column and class are Categorical, so that the encoding depends on the
        types alone): unit weights, every row with a known class. Bagging grows its members so,
        encoding the frame once instead of once per bag, and ranking its numeric values once
        (``ranks``: ``value_ranks`` of these rows). ``depths_only`` (unpruned trees): only
        ``min_test_depth_`` is learned, no tree to predict with."""
        for name in self._ENCODING:
            if hasattr(encoder, name):
                setattr(self, name, getattr(encoder, name))
        return self._grow(Z, ycodes, np.ones(len(ycodes)), all_values, ranks, depths_only)

    def _grow(self, Z, ycodes, w, all_values, ranks=None, depths_only=False) -> "J48":
        if not 0 < self.confidence < 1:
            raise ValueError(f"J48: confidence must lie in (0, 1), got {self.confidence!r}")
        if self.min_samples_leaf < 1:
            raise ValueError(f"J48: min_samples_leaf must be at least 1, got {self.min_samples_leaf!r}")
        builder = _TreeBuilder(Z, ycodes, self.numeric_, self.n_values_, len(self.classes_), int(self.min_samples_leaf),
                               all_values, self.confidence, self.subtree_raising)
        self.__dict__.pop("tree_", None)
        self.__dict__.pop("flat_tree_", None)
        if self.unpruned and _FLAT_UNPRUNED:  # no pruning to do on nodes: the tree stays as the kernel's arrays
            flat = builder._grow_flat(w, False, ranks)
            self.min_test_depth_ = flat.min_test_depths(self.n_features_in_)
            if not depths_only:
                self.flat_tree_ = flat
            return self
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
        head = "J48 unpruned tree\n------------------\n" if self.unpruned else "J48 pruned tree\n------------------\n"
        root = self.tree_
        if root.is_leaf:
            body = ": " + self._label(root.dist, 0)
        else:
            lines = []
            self._dump(root, 0, lines)
            body = "".join(lines)
        n_leaves, n_nodes = _count(root)
        return f"{head}{body}\n\nNumber of Leaves  : \t{n_leaves}\n\nSize of the tree : \t{n_nodes}\n"

    def _dump(self, node: Node, depth: int, lines: list) -> None:
        split = node.split
        name = str(self.feature_names_in_[split.attribute]) if hasattr(self, "feature_names_in_") else \
            f"x{split.attribute}"
        for b, son in enumerate(node.sons):
            lines.append("\n" + "|   " * depth + name)
            if split.numeric:
                lines.append((" <= " if b == 0 else " > ") + wu.double_to_string(split.split_point, 6))
            else:
                lines.append(" = " + str(self.categories_[split.attribute][b]))
            if son.is_leaf:
                lines.append(": " + self._label(split.dist, b))
            else:
                self._dump(son, depth + 1, lines)

    def _label(self, d: Distribution, bag: int) -> str:
        text = f"{self.classes_[d.max_class(bag)]} ({wu.java_double(wu.round_double(d.per_bag[bag], 2))}"
        wrong = d.num_incorrect(bag)
        if wu.gr(wrong, 0.0):
            text += "/" + wu.java_double(wu.round_double(wrong, 2))
        return text + ")"


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


def _count(node: Node) -> tuple[int, int]:
    if node.is_leaf:
        return 1, 1
    leaves, nodes = 0, 1
    for son in node.sons:
        l, n = _count(son)
        leaves += l
        nodes += n
    return leaves, nodes


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
