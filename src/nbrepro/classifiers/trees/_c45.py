# SPDX-License-Identifier: GPL-3.0-or-later
"""C4.5 revision 8's pieces as Weka 3.6 computes them (``Distribution``, ``C45Split``,
``InfoGainSplitCrit``, ``GainRatioSplitCrit``): a node's class distribution over a split's branches,
entropy, information gain and gain ratio, and the split of one attribute (the pessimistic error of
pruning, ``Stats.addErrs``, is ``_prune_kernel.add_errors``). J48's builder and NBTree's use them.
"""

from __future__ import annotations

import math

import numpy as np

from ... import libm
from ...weka import utils as wu

_LOG2 = math.log(2.0)


def log_func(x):
    """EntropyBasedSplitCrit.logFunc, elementwise: x·log2(x), 0 below 1e-6."""
    x = np.asarray(x, dtype=np.float64)
    small = x < 1e-6
    return np.where(small, 0.0, x * libm.log(np.where(small, 1.0, x)) / _LOG2)


def log_func_scalar(x: float) -> float:
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
    def from_contributions(cls, W: np.ndarray, y: np.ndarray, n_classes: int) -> Distribution:
        """From each row's weight in each bag (rows × bags), rows in Weka's order; a row with
        a known test value has its whole weight in one bag."""
        n, B = W.shape
        pcb = (
            np.stack([np.bincount(y, weights=W[:, b], minlength=n_classes) for b in range(B)])
            if n
            else np.zeros((B, n_classes))
        )
        flat = W.ravel()
        per_bag = np.cumsum(W, axis=0)[-1] if n else np.zeros(B)
        per_class = np.bincount(np.repeat(y, B), weights=flat, minlength=n_classes) if n else np.zeros(n_classes)
        total = np.cumsum(flat)[-1] if n else 0.0
        return cls(pcb, per_bag, per_class, total)

    @classmethod
    def one_bag(cls, y: np.ndarray, w: np.ndarray, n_classes: int) -> Distribution:
        per_class = np.bincount(y, weights=w, minlength=n_classes)
        total = seq_sum(w)
        return cls(per_class[None, :].copy(), np.array([total]), per_class, total)

    @classmethod
    def from_bags(cls, bag: np.ndarray, y: np.ndarray, w: np.ndarray, n_bags: int, n_classes: int) -> Distribution:
        """Every row's whole weight in one bag: the same sums as ``from_contributions``, faster."""
        pcb = np.bincount(bag * n_classes + y, weights=w, minlength=n_bags * n_classes).reshape(n_bags, n_classes)
        return cls(
            pcb,
            np.bincount(bag, weights=w, minlength=n_bags),
            np.bincount(y, weights=w, minlength=n_classes),
            seq_sum(w),
        )

    def copy(self) -> Distribution:
        return Distribution(self.per_class_per_bag.copy(), self.per_bag.copy(), self.per_class.copy(), self.total)

    def add_with_unknown(self, y_missing: np.ndarray, w_missing: np.ndarray) -> None:
        """addInstWithUnknown: rows with a missing test value spread over the bags in proportion."""
        B = len(self.per_bag)
        probs = np.full(B, 1.0 / B) if wu.eq(self.total, 0.0) else self.per_bag / self.total
        for c, w in zip(y_missing, w_missing, strict=True):
            self.per_class[c] += w
            self.total += w
            for j in range(B):
                nw = probs[j] * w
                self.per_class_per_bag[j, c] += nw
                self.per_bag[j] += nw

    # ---- queries, with Weka's tolerant comparisons ------------------------------------
    def max_class(self, bag: int | None = None) -> int:
        counts = self.per_class_per_bag[bag] if bag is not None and wu.gr(self.per_bag[bag], 0.0) else self.per_class
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


def old_entropy(d: Distribution) -> float:
    v = 0.0
    for c in d.per_class:
        v += log_func_scalar(float(c))
    return log_func_scalar(d.total) - v


def new_entropy(pcb: np.ndarray, per_bag: np.ndarray):
    """newEnt for one distribution, or for many at once (leading axis = candidates)."""
    L, Lb = log_func(pcb), log_func(per_bag)
    v = np.zeros(pcb.shape[:-2])
    for b in range(pcb.shape[-2]):
        for c in range(pcb.shape[-1]):
            v = v + L[..., b, c]
        v = v - Lb[..., b]
    return -v


def new_entropy_two_bags(left, right, left_w, right_w, table=None):
    """newEnt of a two-bag split for many thresholds: rows of per-class weights left and right.
    ``table``: logFunc of 0, 1, 2, …, to look up whole-number weights instead of taking logs."""
    log = log_func if table is None else (lambda a: table[a.astype(np.int64)])
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


def info_gain(old_ent, new_ent, bags_total, total_weight):
    """InfoGainSplitCrit.splitCritValue; arrays allowed."""
    unknown_rate = (total_weight - bags_total) / total_weight
    numerator = (1.0 - unknown_rate) * (old_ent - new_ent)
    near_zero = np.abs(numerator) < wu.SMALL
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(near_zero, 0.0, numerator / bags_total)


def gain_ratio(d: Distribution, total_weight: float, info_gain: float) -> float:
    split_ent = 0.0
    if wu.gr(d.total, 0.0):
        for b in d.per_bag:
            split_ent -= log_func_scalar(float(b))
        split_ent -= log_func_scalar(total_weight - d.total)
        split_ent += log_func_scalar(total_weight)
    if wu.eq(split_ent, 0.0):
        return 0.0
    return info_gain / (split_ent / total_weight)


class Candidate:
    """A possible split: its information gain and gain ratio, and how to build it."""

    __slots__ = ("info_gain", "gain_ratio", "make")

    def __init__(self, info_gain, gain_ratio, make):
        self.info_gain, self.gain_ratio, self.make = info_gain, gain_ratio, make


class NumericSplitMaker:
    """Builds the chosen numeric Split from the sorted arrays of ``_numeric_splits``."""

    def __init__(self, a, j, pos, nk, V, left, left_w, init, init_w, Wk, Yk, r, gain, integer_weights):
        self.args = (a, j, pos, nk, V, left, left_w, init, init_w, Wk, Yk, r, gain, integer_weights)

    def __call__(self) -> Split:
        a, j, pos, nk, V, left, left_w, init, init_w, Wk, Yk, r, gain, integer_weights = self.args
        v = V[:, j]
        split_point = (v[pos + 1] + v[pos]) / 2.0
        if split_point == v[pos + 1]:  # a precision problem: Weka takes the smaller value
            split_point = v[pos]
        if integer_weights:  # whole-number sums: exact in any order
            below = np.bincount(Yk[: pos + 1, j], weights=Wk[: pos + 1, j], minlength=r)
            d = Distribution(
                np.stack([below, init[j] - below]),
                np.array([left_w[pos, j], left_w[nk - 1, j] - left_w[pos, j]]),
                init[j].copy(),
                float(init_w[j]),
            )
        else:  # fractional weights: each bag summed afresh in order, as Weka's addRange does
            W2 = np.zeros((nk, 2))
            W2[: pos + 1, 0] = Wk[: pos + 1, j]
            W2[pos + 1 : nk, 1] = Wk[pos + 1 : nk, j]
            d = Distribution.from_contributions(W2, Yk[:nk, j], r)
        return Split(a, True, float(split_point), 2, d, gain, None)


def nominal_split_of(a, q, d, gain, ratio):
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


def sequential_rowsum(A: np.ndarray) -> np.ndarray:
    """Row sums added left to right, as a Java loop adds them."""
    out = np.zeros(A.shape[0])
    for c in range(A.shape[1]):
        out = out + A[:, c]
    return out


def class_counts_at_thresholds(ok, Y, W, ii, kk, r):
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


def first_records(gains: np.ndarray) -> np.ndarray:
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
            beats = np.flatnonzero(col[pos + 1 :] - b > wu.SMALL)
            if not len(beats):
                break
            pos = pos + 1 + int(beats[0])
            b = float(col[pos])
        out[k] = pos
    return out


def seq_sum(w: np.ndarray) -> float:
    return float(np.cumsum(w)[-1]) if len(w) else 0.0


def largest_value_not_above(values: np.ndarray, split_point: float) -> float:
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
