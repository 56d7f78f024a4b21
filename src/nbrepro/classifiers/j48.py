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

import math

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ..stats.special import weka_normal_inverse
from . import _weka_utils as wu
from ._mixed import MixedInputMixin

_LOG2 = math.log(2.0)


def _log_func(x):
    """EntropyBasedSplitCrit.logFunc, elementwise: x·log2(x), 0 below 1e-6."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x < 1e-6, 0.0, x * np.log(np.where(x < 1e-6, 1.0, x)) / _LOG2)


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
        return cls.from_contributions(w[:, None], y, n_classes)

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
        best, best_i = 0.0, 0
        for i, v in enumerate(counts):
            if wu.gr(v, best):
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
        v += float(_log_func(c))
    return float(_log_func(d.total)) - v


def _new_ent(pcb: np.ndarray, per_bag: np.ndarray):
    """newEnt for one distribution, or for many at once (leading axis = candidates)."""
    v = np.zeros(pcb.shape[:-2])
    for b in range(pcb.shape[-2]):
        for c in range(pcb.shape[-1]):
            v = v + _log_func(pcb[..., b, c])
        v = v - _log_func(per_bag[..., b])
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
            split_ent -= float(_log_func(b))
        split_ent -= float(_log_func(total_weight - d.total))
        split_ent += float(_log_func(total_weight))
    if wu.eq(split_ent, 0.0):
        return 0.0
    return info_gain / (split_ent / total_weight)


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
        if self.numeric:
            out[known] = np.where(x[known] <= self.split_point, 0, 1)
        else:
            out[known] = x[known].astype(np.int64)
        return out

    def missing_weights(self) -> np.ndarray:
        return self.dist.per_bag / self.dist.total

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
        self.z_score = weka_normal_inverse(float(np.float32(1.0) - self.confidence))

    # ---- growing --------------------------------------------------------------------
    def build(self, rows: np.ndarray, w: np.ndarray) -> Node:
        node = Node()
        node.rows, node.weights = rows, w
        split = self._select(rows, w)
        if isinstance(split, Split):
            node.split = split
            W = split.contributions(self.Z[rows, split.attribute], w)
            node.sons = []
            for b in range(split.n_subsets):
                keep = _added_to_branch(W[:, b], self.Z[rows, split.attribute], split, b)
                node.sons.append(self.build(rows[keep], W[keep, b]))
        else:
            node.dist = split
            node.is_empty = wu.eq(_seq_sum(w), 0.0)
        return node

    def _select(self, rows, w):
        """C45ModelSelection.selectModel: a Split, or the node's Distribution for a leaf."""
        y = self.y[rows]
        check = Distribution.one_bag(y, w, self.r)
        if wu.sm(check.total, 2 * self.min_leaf) or wu.eq(check.total, check.per_class[check.max_class()]):
            return check
        total_weight = _seq_sum(w)
        candidates = []
        average, valid = 0.0, 0
        for a in range(self.Z.shape[1]):
            model = (self._numeric_split if self.numeric[a] else self._nominal_split)(a, rows, w, y, total_weight)
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
        x = self.Z[rows, best.attribute]
        missing = np.isnan(x)
        best.dist.add_with_unknown(y[missing], w[missing])
        if best.numeric:
            best.split_point = _largest_value_not_above(self.all_values[:, best.attribute], best.split_point)
        return best

    def _nominal_split(self, a, rows, w, y, total_weight):
        x = self.Z[rows, a]
        known = ~np.isnan(x)
        q = int(self.n_values[a])
        W = np.zeros((int(known.sum()), q))
        W[np.arange(len(W)), x[known].astype(np.int64)] = w[known]
        d = Distribution.from_contributions(W, y[known], self.r)
        if sum(1 for b in d.per_bag if wu.gr_or_eq(b, self.min_leaf)) <= 1:
            return None
        gain = float(_info_gain(_old_ent(d), _new_ent(d.per_class_per_bag, d.per_bag), d.total, total_weight))
        ratio = _gain_ratio(d, total_weight, gain)
        return Split(a, False, np.inf, q, d, gain, ratio)

    def _numeric_split(self, a, rows, w, y, total_weight):
        x = self.Z[rows, a]
        known = np.flatnonzero(~np.isnan(x))
        order = known[np.argsort(x[known], kind="stable")]
        v, yk, wk = x[order], y[order], w[order]
        n_known = len(v)
        onehot = np.zeros((n_known, self.r))
        onehot[np.arange(n_known), yk] = wk
        initial = Distribution.from_contributions(wk[:, None], yk, self.r)
        min_split = 0.1 * initial.total / self.r
        if wu.sm_or_eq(min_split, self.min_leaf):
            min_split = float(self.min_leaf)
        elif wu.gr(min_split, 25.0):
            min_split = 25.0
        if wu.sm(float(n_known), 2.0 * min_split):
            return None
        default_ent = _old_ent(initial)
        cand = np.flatnonzero(v[:-1] + 1e-5 < v[1:]) + 1  # "next": rows before it go left
        if not len(cand):
            return None
        # bag 0 gains rows one by one, bag 1 loses them, in sorted order (Weka's shiftRange)
        left = np.cumsum(onehot, axis=0)
        right = np.subtract.accumulate(np.vstack([initial.per_class_per_bag[0][None, :], onehot]), axis=0)[1:]
        left_w = np.cumsum(wk)
        right_w = np.subtract.accumulate(np.concatenate([[initial.per_bag[0]], wk]))[1:]
        at = cand - 1
        l_w, r_w = left_w[at], right_w[at]
        ok = (min_split - l_w < wu.SMALL) & (min_split - r_w < wu.SMALL)
        n_index = int(ok.sum())
        if n_index == 0:
            return None
        at = at[ok]
        pcb = np.stack([left[at], right[at]], axis=1)
        per_bag = np.stack([l_w[ok], r_w[ok]], axis=1)
        gains = _info_gain(default_ent, _new_ent(pcb, per_bag), initial.total, total_weight)
        best_gain, best_pos = 0.0, -1
        while True:  # Weka keeps the first candidate that beats the best so far by more than 1e-6
            beats = np.flatnonzero(gains[best_pos + 1:] - best_gain > wu.SMALL)
            if not len(beats):
                break
            best_pos = best_pos + 1 + int(beats[0])
            best_gain = float(gains[best_pos])
        if best_pos < 0:
            return None
        split_index = int(at[best_pos])
        gain = best_gain - wu.log2(n_index) / total_weight
        if wu.sm_or_eq(gain, 0.0):
            return None
        split_point = (v[split_index + 1] + v[split_index]) / 2.0
        if split_point == v[split_index + 1]:
            split_point = v[split_index]
        W = np.zeros((n_known, 2))
        W[: split_index + 1, 0] = wk[: split_index + 1]
        W[split_index + 1:, 1] = wk[split_index + 1:]
        d = Distribution.from_contributions(W, yk, self.r)
        ratio = _gain_ratio(d, total_weight, gain)
        return Split(a, True, float(split_point), 2, d, gain, ratio)

    # ---- collapsing and pruning -----------------------------------------------------
    def collapse(self, node: Node) -> None:
        if node.is_leaf:
            return
        if self._training_errors(node) >= node.split.dist.num_incorrect() - 1e-3:
            self._make_leaf(node)
        else:
            for son in node.sons:
                self.collapse(son)

    def _training_errors(self, node: Node) -> float:
        if node.is_leaf:
            return node.dist.num_incorrect()
        errors = 0.0
        for son in node.sons:
            errors += self._training_errors(son)
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
        x = self.Z[rows, split.attribute]
        reset = Distribution.from_contributions(split.contributions(x, w), y, self.r)
        saved, split.dist = split.dist, reset
        parts = self._split_rows(split, rows, w)  # spread by the reset distribution, as Weka's split() is
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
        split.dist = Distribution.from_contributions(split.contributions(self.Z[rows, split.attribute], w), y, self.r)
        for son, (r_rows, r_w) in zip(node.sons, self._split_rows(split, rows, w)):
            self._new_distribution(son, r_rows, r_w)

    def _split_rows(self, split: Split, rows, w):
        x = self.Z[rows, split.attribute]
        W = split.contributions(x, w)
        out = []
        for b in range(split.n_subsets):
            keep = _added_to_branch(W[:, b], x, split, b)
            out.append((rows[keep], W[keep, b]))
        return out


def _added_to_branch(weights_b: np.ndarray, x: np.ndarray, split: Split, b: int) -> np.ndarray:
    """ClassifierSplitModel.split: a row with a known value goes to its branch; a row with a
    missing value goes to every branch whose share is Utils.gr(share, 0)."""
    sub = split.subsets(x)
    known = sub == b
    if np.isnan(x).any():
        share = split.missing_weights()[b]
        known = known | (np.isnan(x) & wu.gr(share, 0.0))
    return known


def _seq_sum(w: np.ndarray) -> float:
    return float(np.cumsum(w)[-1]) if len(w) else 0.0


def _largest_value_not_above(values: np.ndarray, split_point: float) -> float:
    """C45Split.setSplitPoint: the largest training value not above the threshold (Weka's
    tolerant comparisons, rows in order)."""
    best = -np.finfo(np.float64).max
    v = values[~np.isnan(values)]
    v = v[v - split_point < wu.SMALL]
    for value in v[v - best > wu.SMALL]:  # few rows pass; keep Weka's order of comparisons
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
        The root; ``export_text()`` prints it as Weka does.
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
        if not 0 < self.confidence < 1:
            raise ValueError(f"J48: confidence must lie in (0, 1), got {self.confidence!r}")
        if self.min_samples_leaf < 1:
            raise ValueError(f"J48: min_samples_leaf must be at least 1, got {self.min_samples_leaf!r}")
        all_values = self._encode_all_rows(X, y, sample_weight)
        Z, ycodes, w = self._training
        del self._training
        builder = _TreeBuilder(Z, ycodes, self.numeric_, self.n_values_, len(self.classes_), int(self.min_samples_leaf),
                               all_values, self.confidence, self.subtree_raising)
        root = builder.build(np.arange(len(ycodes)), w)
        builder.collapse(root)
        if not self.unpruned:
            builder.prune(root)
        _drop_training_rows(root)
        self.tree_ = root
        self.min_test_depth_ = _min_test_depths(root, self.n_features_in_)
        return self

    def _encode_all_rows(self, X, y, sample_weight):
        """Fit the encoding; keep every row's values (C4.5 moves numeric thresholds onto training
        values, class-missing rows included, as Weka's J48 passes them)."""
        self._training = self._fit_mixed(X, y, sample_weight)
        return self._encode_mixed(X)

    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "tree_")
        Z = self._encode_mixed(X)
        return self._probabilities(self.tree_, Z, np.ones(len(Z)))

    def _probabilities(self, node: Node, Z: np.ndarray, weight: np.ndarray) -> np.ndarray:
        """Weka's getProbs for a block of rows: each row's weight × the distribution of the leaf it
        reaches; a missing test value adds up the non-empty branches, each with its share."""
        if node.is_leaf:
            p = node.dist.laplace_prob() if self.laplace else node.dist.prob()
            return weight[:, None] * p[None, :]
        out = np.zeros((len(Z), len(self.classes_)))
        if not len(Z):
            return out
        split = node.split
        sub = split.subsets(Z[:, split.attribute])
        missing = sub < 0
        if missing.any():
            share = split.missing_weights()
            acc = np.zeros((int(missing.sum()), len(self.classes_)))
            for b, son in enumerate(node.sons):
                if not son.is_empty:
                    acc += self._probabilities(son, Z[missing], share[b] * weight[missing])
            out[missing] = acc
        for b, son in enumerate(node.sons):
            at = sub == b
            if not at.any():
                continue
            if son.is_empty:
                p = split.dist.laplace_prob_bag(b) if self.laplace else split.dist.prob_bag(b)
                out[at] = weight[at, None] * p[None, :]
            else:
                out[at] = self._probabilities(son, Z[at], weight[at])
        return out

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
