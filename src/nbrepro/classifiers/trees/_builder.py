# SPDX-License-Identifier: GPL-3.0-or-later
"""C4.5's tree builder as Weka 3.6's ``C45PruneableClassifierTree``: grow (compiled, or the Python
recursion with the numpy split selection it replaced), collapse, prune with subtree raising.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ... import libm
from ...weka import utils as wu
from ...weka.special import weka_normal_inverse
from ._c45 import (
    Candidate,
    Distribution,
    Node,
    NumericSplitMaker,
    Split,
    class_counts_at_thresholds,
    first_records,
    gain_ratio,
    info_gain,
    largest_value_not_above,
    log_func,
    log_func_scalar,
    new_entropy,
    new_entropy_two_bags,
    nominal_split_of,
    old_entropy,
    seq_sum,
    sequential_rowsum,
)
from ._flat_tree import FlatTree, nodes_from_flat
from ._j48_kernel import grow_tree, order_by_ranks, select_split
from ._prune_kernel import add_errors  # Stats.addErrs, one compiled definition for the walk and the nodes


@functools.lru_cache(maxsize=8)
def log_table(n: int) -> np.ndarray:
    """logFunc of 0, 1, …, n (read, never written): one per size, shared by the trees of a job's
    many fits (Bagging grows ten per fit on rows of one size)."""
    return log_func(np.arange(n + 1, dtype=np.float64))


@functools.lru_cache(maxsize=8)
def _z_score(p: float) -> float:
    return weka_normal_inverse(p)


class TreeBuilder:
    """Grows, collapses and prunes one tree on (Z, y) with row weights."""

    def __init__(self, Z, y, numeric, n_values, n_classes, min_leaf, all_values, confidence, subtree_raising,
                 row_counts=None):
        self.Z, self.y, self.numeric, self.n_values = Z, y, numeric, n_values
        # how many instances each row stands for (None: one each; see ``J48._fit_encoded``)
        self._row_counts = np.empty(0, dtype=np.int64) if row_counts is None else np.asarray(row_counts, dtype=np.int64)
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
        self._row_weight = np.zeros(len(Z))  # the kernel's scratch
        self._sorted_all = {}
        # the same logFunc, looked up: up to the instances' count (rows standing for several weigh more)
        self._log_table = log_table(max(len(Z), len(all_values)))
        self.z_score = _z_score(float(np.float32(1.0) - self.confidence))
        self._leaf_errors = {}  # id(distribution) → (distribution, its estimated errors)

    # ---- growing --------------------------------------------------------------------
    def grow(self, w: np.ndarray, keep_rows: bool, ranks: np.ndarray | None = None) -> Node:
        """The collapsed tree of every row (compiled ``grow_tree``: the same tree as ``build``
        then ``collapse``); ``keep_rows``: the nodes keep their rows and weights, for pruning;
        ``ranks``: (numeric columns, rows), each value's rank in its column (``value_ranks``),
        to order the rows without sorting."""
        return nodes_from_flat(self._grow_flat(w, keep_rows, ranks), self.numeric, keep_rows)

    def _grow_flat(self, w, keep_rows, ranks) -> FlatTree:
        """``grow_tree``'s flat arrays (``FlatTree``)."""
        cols = self._numeric_columns
        if ranks is None:
            sorted0 = np.ascontiguousarray(np.argsort(self.Z[:, cols], axis=0, kind="stable").T)
        else:
            sorted0 = order_by_ranks(np.ascontiguousarray(ranks))
        return FlatTree(
            *grow_tree(
                np.asfortranarray(self.Z),
                self.y,
                np.ascontiguousarray(w, dtype=np.float64),
                sorted0,
                cols,
                self._is_numeric,
                self._n_values,
                self.r,
                self.min_leaf,
                self.multi_valued,
                self.all_values,
                self._row_weight,
                self._log_table,
                keep_rows,
                self._row_counts,
                self._values_in_rows(),
            )
        )

    def _values_in_rows(self) -> bool:
        """Do the training values (``all_values``) hold exactly the values of the rows grown on? So
        for a bag's rows (each instance a row, or a row standing for its instances) and for a fit
        whose every row is grown on."""
        Z, all_values = self.Z, self.all_values
        return (len(self._row_counts) > 0 or all_values is Z
                or (all_values.shape == Z.shape and np.array_equal(all_values, Z, equal_nan=True)))

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
            node.is_empty = wu.eq(seq_sum(w), 0.0)
        return node

    def _select(self, rows, w, sorted_rows):
        """C45ModelSelection.selectModel: a Split, or the node's Distribution for a leaf (compiled;
        ``_select_numpy`` is the same choice in numpy)."""
        a, split_point, gain, ratio, pcb, per_bag, per_class, total = select_split(
            self.Z,
            self.y,
            np.ascontiguousarray(w, dtype=np.float64),
            rows,
            np.asfortranarray(sorted_rows),
            self._numeric_columns,
            self._is_numeric,
            self._n_values,
            self.r,
            self.min_leaf,
            self.multi_valued,
            len(self.all_values),
            self._row_weight,
            self._log_table,
            self._row_counts,
        )
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
        total_weight = seq_sum(w)
        numeric_models = self._numeric_splits(rows, w, y, total_weight, sorted_rows=sorted_rows)
        nominal_models = self._nominal_splits(rows, w, y, total_weight)
        candidates = []
        average, valid = 0.0, 0
        for a in range(self.Z.shape[1]):
            model = numeric_models.get(a) if self.numeric[a] else nominal_models[a]
            candidates.append(model)
            if model is not None and (
                self.numeric[a] or self.multi_valued or wu.sm(self.n_values[a], 0.3 * self.all_values.shape[0])
            ):
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
        return largest_value_not_above(self.all_values[:, a], split_point)

    def c45_split(self, a: int, rows, w, y, total_weight):
        """C45Split.buildClassifier on one attribute: the Split, or None where none is useful."""
        if self.numeric[a]:
            candidate = self._numeric_splits(rows, w, y, total_weight, cols=[a]).get(a)
        else:
            candidate = self._nominal_split(a, rows, w, y, total_weight)
        return None if candidate is None else candidate.make()

    def _nominal_splits(self, rows, w, y, total_weight, nominal=None) -> dict:
        """C45Split on every nominal attribute (or on ``nominal``): attribute → Candidate, or None
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
        pcb = np.bincount(((owner * Q + bag) * r + y[:, None]).T.ravel(), weights=flat_w, minlength=A * Q * r).reshape(
            A, Q, r
        )
        per_bag = np.bincount((owner * Q + bag).T.ravel(), weights=flat_w, minlength=A * Q).reshape(A, Q)
        per_class = np.bincount((owner * r + y[:, None]).T.ravel(), weights=flat_w, minlength=A * r).reshape(A, r)
        total = np.cumsum(W, axis=0)[-1] if n else np.zeros(A)  # sequential per attribute; unknown rows add 0.0
        useful = np.sum((self.min_leaf - per_bag < wu.SMALL) & (np.arange(Q)[None, :] < q[:, None]), axis=1) > 1
        new_ent = new_entropy(pcb, per_bag)
        for t, a in enumerate(cols.tolist()):
            if not useful[t]:
                out[a] = None
                continue
            d = Distribution(pcb[t, : q[t]], per_bag[t, : q[t]], per_class[t], float(total[t]))
            gain = float(info_gain(old_entropy(d), new_ent[t], d.total, total_weight))
            ratio = gain_ratio(d, total_weight, gain)
            out[a] = Candidate(gain, ratio, functools.partial(nominal_split_of, a, int(q[t]), d, gain, ratio))
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
        # Weka's count of instances with a known value (firstMiss): a row may stand for several
        counts = self._row_counts
        n_instances = np.where(known, counts[rows[order]], 0).sum(axis=0) if len(counts) else n_known
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
            init = np.bincount(
                (cols_idx[None, :] * r + Yk).ravel(), weights=Wk.ravel(), minlength=len(cols) * r
            ).reshape(len(cols), r)
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
        min_split = np.where(
            min_split - self.min_leaf < wu.SMALL,
            float(self.min_leaf),
            np.where(min_split - 25.0 > wu.SMALL, 25.0, min_split),
        )
        usable = ~(2.0 * min_split - n_instances > wu.SMALL)
        old = log_func(init_w) - sequential_rowsum(log_func(init))
        i = np.arange(n - 1)[:, None]
        cand = (i + 1 < n_known[None, :]) & (V[:-1] + 1e-5 < V[1:])
        ok = (
            cand
            & (min_split[None, :] - left_w[:-1] < wu.SMALL)
            & (min_split[None, :] - right_w[:-1] < wu.SMALL)
            & usable[None, :]
        )
        n_index = ok.sum(axis=0)
        out = {}
        live = np.flatnonzero(n_index > 0)
        if not len(live):
            return {int(cols[j]): None for j in range(len(cols))}
        ii, kk = np.nonzero(ok[:, live])  # evaluate the valid thresholds only
        jj = live[kk]
        table = self._log_table if integer_weights and init_w.max(initial=0.0) < len(self._log_table) else None
        if integer_weights:
            left_at = class_counts_at_thresholds(ok[:, live], Yk[:, live], Wk[:, live], ii, kk, r)
            right_at = init[jj] - left_at
        else:
            left_at, right_at = left[ii, jj], right[ii, jj]
        new_ent = new_entropy_two_bags(left_at, right_at, left_w[ii, jj], right_w[ii, jj], table)
        gains = np.full((n - 1, len(live)), -np.inf)
        gains[ii, kk] = info_gain(old[jj], new_ent, init_w[jj], total_weight)
        pos = first_records(gains)
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
            split_ent = (
                -log_func(pb0) - log_func(pb1) - log_func(total_weight - init_w[js]) + log_func_scalar(total_weight)
            )
            split_ent = np.where(init_w[js] - 0.0 > wu.SMALL, split_ent, 0.0)
            with np.errstate(divide="ignore", invalid="ignore"):
                ratios = np.where(np.abs(split_ent) < wu.SMALL, 0.0, gain[kept] / (split_ent / total_weight))
        for t, k in enumerate(kept):
            j, p_ = int(live[k]), int(pos[k])
            a = int(cols[j])
            g = float(gain[k])
            make = NumericSplitMaker(
                a, j, p_, int(n_known[j]), V, left, left_w, init, init_w, Wk, Yk, r, g, integer_weights
            )
            if integer_weights:
                out[a] = Candidate(g, float(ratios[t]), make)
            else:
                split = make()
                out[a] = Candidate(g, gain_ratio(split.dist, total_weight, g), lambda split=split: split)
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
        # pruning asks for the same leaves' errors at every node above them: a distribution is
        # never changed once made (a new one replaces it), so its errors are kept with it
        hit = self._leaf_errors.get(id(d))
        if hit is not None and hit[0] is d:
            return hit[1]
        if wu.eq(d.total, 0.0):
            value = 0.0
        else:
            e = d.num_incorrect()
            value = e + add_errors(d.total, e, float(self.confidence), self.z_score)
        self._leaf_errors[id(d)] = (d, value)
        return value

    def _errors_for_branch(self, node: Node, rows, w) -> float:
        """getEstimatedErrorsForBranch: the subtree at ``node`` flattened and the rows passed down
        it in one compiled call (``_prune_kernel``), the same sums as ``_errors_for_branch_python``."""
        from ._prune_kernel import branch_errors, flat_subtree

        if node.is_leaf:
            return self._errors_for_branch_python(node, rows, w)
        return float(
            branch_errors(
                np.ascontiguousarray(rows, dtype=np.int64),
                np.ascontiguousarray(w, dtype=np.float64),
                self.Z,
                self.y,
                self.r,
                *flat_subtree(node),
                float(self.confidence),
                self.z_score,
            )
        )

    def _errors_for_branch_python(self, node: Node, rows, w) -> float:
        """The reference: the same walk in Python (tests/classifiers/trees/test_prune_kernel.py)."""
        y = self.y[rows]
        if node.is_leaf:
            return self._errors_for_distribution(Distribution.one_bag(y, w, self.r))
        split = node.split
        reset, sub = split.distribution(self.Z[rows, split.attribute], w, y, self.r)
        saved, split.dist = split.dist, reset
        parts = split.branches(sub, rows, w)  # spread by the reset distribution, as Weka's split() is
        split.dist = saved
        errors = 0.0
        for son, (r_rows, r_w) in zip(node.sons, parts, strict=True):
            errors += self._errors_for_branch_python(son, r_rows, r_w)
        return errors

    def _new_distribution(self, node: Node, rows, w) -> None:
        y = self.y[rows]
        node.rows, node.weights = rows, w
        if node.is_leaf:
            node.dist = Distribution.one_bag(y, w, self.r)
            if not wu.eq(seq_sum(w), 0.0):
                node.is_empty = False
            return
        split = node.split
        split.dist, sub = split.distribution(self.Z[rows, split.attribute], w, y, self.r)
        for son, (r_rows, r_w) in zip(node.sons, split.branches(sub, rows, w), strict=True):
            self._new_distribution(son, r_rows, r_w)
