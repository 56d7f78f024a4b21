# SPDX-License-Identifier: GPL-3.0-or-later
"""NBTree (Kohavi 1996) as Weka 3.6's ``weka.classifiers.trees.NBTree``: a decision tree with a
naive Bayes model at each leaf.

At each node Weka fits naive Bayes to the node's rows (numeric attributes MDL-discretised on
those rows) and estimates its errors by 5-fold cross-validation on the rows in their current
order. For each attribute it takes C4.5's split (``C45Split``, at least 2 rows per branch),
and estimates the split's errors as the sum, over the branches with at least 5 rows, of a
5-fold cross-validation (rows shuffled by one ``java.util.Random(1)`` per split, then
stratified) of naive Bayes fitted to the branch (discretised afresh); a branch with fewer
rows (Weka: fewer than 5 for a nominal split, 5 or fewer for a numeric one) counts all its
weight as errors. A row with a missing value goes to every branch, its
weight times the branch's share. The split with the fewest errors is taken if it has at
least 30 rows, at least two branches with 5 rows, and 5% fewer errors than the node's own
naive Bayes; the tree then splits the rows as C4.5 does and recurses.

Weka sorts a node's rows in place (with its own quicksort) each time it evaluates a numeric
attribute, and the order decides the cross-validation folds of the nodes below: the rows
are kept in Weka's order throughout.
"""
from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from ...preprocess.mdl import (
    PresortedColumns,
    mdl_cut_points_packed,
    mdl_cut_points_presorted,
    mdl_cut_points_weighted,
    presort_columns,
)
from ...protocols.weka_cv import fold_bounds
from ...weka import utils as wu
from ...weka._order_kernel import weka_sorts_in_turn
from ...weka.product import TINY
from ...weka.random import JavaRandom
from .._mixed import MixedInputMixin
from .._nominal import HANDLE_UNKNOWN
from ..bayes import NaiveBayes
from ._builder import log_table
from ._c45 import Distribution, Split, seq_sum
from ._j48 import tree_probabilities
from ._nbtree_kernel import c45_candidates, encode_with_cuts, naive_bayes_cv_errors

_FOLDS = 5
_MIN_ROWS_FOR_CV = 5
_NO_VALUES = np.empty((0, 0))
_NO_ORDERS = np.empty((0, 0), dtype=np.int64)


class _DiscretizedNB:
    """NBTreeNoSplit's model: supervised Discretize fitted to a set of rows, then Weka's
    NaiveBayes on the discretised rows (weighted Laplace counts). With ``fit=False`` only the
    cut points and the codes (a branch whose errors are all that is wanted). ``rows`` and
    ``presorted``: the rows of the tree's data that ``Z`` holds, and their node's rows sorted by
    each numeric attribute (``NBTree._sorted_rows``, a ``PresortedColumns``), to cut without
    sorting again."""

    def __init__(self, tree: NBTree, Z: np.ndarray, y: np.ndarray, w: np.ndarray, fit: bool = True,
                 rows: np.ndarray | None = None, presorted: PresortedColumns | None = None):
        # the tree's settings, not the tree: a reference back would make every fitted NBTree a
        # reference cycle, freed only by the cyclic collector (a pipeline job's 50 calibrated
        # fits held about 1 GB of such garbage at once)
        self.numeric = tree.numeric_
        self.n_classes = r = len(tree.classes_)
        numeric = tree._numeric_columns
        self.whole = bool(np.all(w == np.round(w)))
        m = len(tree.n_values_)
        n_cuts = np.zeros(m, dtype=np.int64)
        if np.all(w == 1.0) and presorted is not None:  # the node's sorted rows, scanned: the same cuts
            cut_values, n_cuts[numeric] = mdl_cut_points_presorted(presorted, tree._y, r, rows)
        elif np.all(w == 1.0):  # unit weights: every column's cuts in one pass (exactly the one-column ones)
            cut_values, n_cuts[numeric] = mdl_cut_points_packed(Z[:, numeric], y, r)
        else:
            # with fractional weights the order of Weka's sums shows: follow Discretize's sorts
            cut_values, n_cuts[numeric] = mdl_cut_points_weighted(Z, y, r, w, numeric, weka_order=not self.whole)
        self._cut_values = cut_values  # each numeric column's cut points in turn, ascending
        self._cut_offsets = np.concatenate([[0], np.cumsum(n_cuts)]).astype(np.int64)
        self.n_values = np.where(tree.numeric_, n_cuts + 1, tree.n_values_).astype(np.int64)
        self.codes = self.encode(Z)
        self.nb = _naive_bayes(self.n_values, r)
        if fit:
            self.counts = self.nb._count(self.codes, y, w)
            self.nb._fit_counts(self.counts)

    def encode(self, Z: np.ndarray) -> np.ndarray:
        return encode_with_cuts(np.ascontiguousarray(Z, dtype=np.float64), self.numeric,
                                self._cut_values, self._cut_offsets)

    def proba(self, Z: np.ndarray) -> np.ndarray:
        return self.nb._proba_block(self.encode(Z))  # Weka's product in one compiled pass (the same bits)


def _naive_bayes(n_values: np.ndarray, n_classes: int) -> NaiveBayes:
    nb = NaiveBayes()
    nb.classes_ = np.arange(n_classes)
    nb.n_values_ = n_values
    return nb


def _cv_errors(model: _DiscretizedNB, y: np.ndarray, w: np.ndarray, codes=None, compiled: bool = True) -> float:
    """NBTreeNoSplit.crossValidate: 5 folds over the rows in their order (Instances.testCV); each
    fold's naive Bayes is the full one with the fold's rows unlearned; the weight of the rows
    it predicts wrongly (first largest probability; none when it is 0). ``codes``: the rows'
    codes in this order (default the model's). ``compiled=False``: the numpy reference."""
    codes = model.codes if codes is None else codes
    if compiled:  # the same arithmetic in the same order: the same bits
        return naive_bayes_cv_errors(codes, np.ascontiguousarray(y, dtype=np.int64), np.asarray(w, dtype=np.float64),
                                     model.n_values, model.n_classes, _FOLDS, TINY, 1e75)
    n = len(y)
    errors = 0.0
    nb = _naive_bayes(model.n_values, model.n_classes)
    counts = nb._count(codes, y, w)
    for f in range(_FOLDS):
        lo, hi = fold_bounds(n, _FOLDS, f)
        if hi <= lo:
            continue
        test = np.arange(lo, hi)
        held = nb._count(codes[test], y[test], w[test])
        nb._fit_counts({k: counts[k] - held[k] for k in held})
        p = nb._proba_block(codes[test])
        pred = np.argmax(p, axis=1)
        wrong = (p[np.arange(len(test)), pred] > 0) & (pred != y[test])
        for weight in w[test][wrong]:
            errors += float(weight)
    return errors


class _Leaf:
    """NBTreeNoSplit: naive Bayes on the node's discretised rows, and its estimated errors."""

    def __init__(self, tree, rows, w, presorted=None):
        Z, y = tree._Z[rows], tree._y[rows]
        self.model = _DiscretizedNB(tree, Z, y, w, rows=rows, presorted=presorted)
        self.errors = _cv_errors(self.model, y, w) if len(rows) >= _MIN_ROWS_FOR_CV else 0.0
        self.model.codes = None  # the rows' codes served the errors; prediction encodes afresh


class _Node:
    __slots__ = ("leaf", "split", "sons", "is_empty")

    def __init__(self, leaf, split=None, sons=None, is_empty=False):
        self.leaf, self.split, self.sons, self.is_empty = leaf, split, sons, is_empty


class NBTree(MixedInputMixin):
    """Naive Bayes tree (Weka 3.6 ``weka.classifiers.trees.NBTree``; see the module docstring).

        P(c | x) = Σ_leaves share(x, leaf) · P_NB,leaf(c | x)

    share(x, leaf) is 1 for the leaf x reaches (a split on a missing value shares x among the
    branches); P_NB,leaf is naive Bayes fitted to the leaf's rows, numeric attributes
    discretised by MDL on those rows.

    Parameters
    ----------
    min_split_rows : int
        Least weight at a node for it to be split (Weka's fixed 30).
    handle_unknown : {"ignore", "error"}
        A nominal test value outside the declared values is missing ("ignore") or an error.

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    n_features_in_ : int
        The number of attributes seen in ``fit``.
    feature_names_in_ : ndarray
        The attribute names, when ``fit`` was given a DataFrame.
    numeric_ : ndarray of bool
        Which attributes are numeric.
    categories_ : list
        Per attribute, its declared values in code order (None for a numeric one).
    n_values_ : ndarray
        Per attribute, its number of declared values (0 for a numeric one).
    tree_ : node
        The root of the tree, with a naive Bayes model at each leaf.

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import NBTree
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> clf = NBTree().fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.962, 0.038],
           [0.962, 0.038]])
    """

    _parameter_constraints: dict = {
        "min_split_rows": [Interval(Integral, 1, None, closed="left")],
        "handle_unknown": HANDLE_UNKNOWN,
    }

    def __init__(self, *, min_split_rows: int = 30, handle_unknown: str = "ignore"):
        self.min_split_rows = min_split_rows
        self.handle_unknown = handle_unknown

    def fit(self, X, y, sample_weight=None):
        Z, ycodes, w = self._fit_mixed(X, y, sample_weight)
        self._Z, self._y = np.ascontiguousarray(Z, dtype=np.float64), np.ascontiguousarray(ycodes, dtype=np.int64)
        self._numeric_columns = np.flatnonzero(self.numeric_)
        self._member = np.zeros(len(ycodes), dtype=bool)  # scratch for mdl_cut_points_presorted
        from ...preprocess._mdl_kernel import xlnx_table  # numba; imports classifiers, so not at the top

        self._xlnx = xlnx_table(len(ycodes))  # the cut search's k ln k, once for every node
        self._log_table = log_table(len(ycodes))  # C4.5's logFunc of 0, 1, 2, …
        self.tree_ = self._build(np.arange(len(ycodes)), w)
        del self._Z, self._y, self._log_table, self._numeric_columns, self._member, self._xlnx
        return self

    # ---- growing ------------------------------------------------------------------------
    def _build(self, rows: np.ndarray, w: np.ndarray, parent: PresortedColumns | None = None) -> _Node:
        presorted = self._sorted_rows(rows, w, parent)
        leaf = _Leaf(self, rows, w, presorted)
        as_leaf = _Node(leaf, is_empty=wu.eq(seq_sum(w), 0.0))
        if len(rows) < _MIN_ROWS_FOR_CV or leaf.errors == 0:
            return as_leaf
        y = self._y[rows]
        check = Distribution.one_bag(y, w, len(self.classes_))
        if wu.sm(check.total, self.min_split_rows) or wu.eq(check.total, check.per_class[check.max_class()]):
            return as_leaf
        best, best_errors = None, leaf.errors
        # NBTreeSplit sorts the node's rows by each numeric attribute, and so does its C45Split:
        # the orders each attribute's evaluation sees, all in one call
        numeric = self._numeric_columns
        sorted_orders = weka_sorts_in_turn(self._Z, rows, numeric, 2) if len(numeric) else None
        splits = self._c45_splits(rows, w, sorted_orders)
        start_rows, start_w = rows, w
        k = 0  # numeric attributes seen so far
        for a in range(self._Z.shape[1]):
            if self.numeric_[a]:  # the rows stay in this order for the attributes after it
                rows, w = start_rows[sorted_orders[k]], start_w[sorted_orders[k]]
                k += 1
            split, errors = self._evaluate_split(a, rows, w, leaf.errors, splits[a], presorted, best_errors)
            if split is not None and errors < best_errors:
                best, best_errors = split, errors
        if best is None or (leaf.errors - best_errors) / leaf.errors < 0.05:
            return as_leaf
        sub = best.subsets(self._Z[rows, best.attribute])
        sons = [self._build(r_rows, r_w, presorted) for r_rows, r_w in best.branches(sub, rows, w)]
        return _Node(leaf, best, sons)

    def _c45_splits(self, rows, w, sorted_orders) -> list:
        """C4.5's split (``C45Split``, at least 2 rows per branch) on every attribute of a node:
        a Split or None per attribute, in one compiled call (``c45_candidates``). Each attribute
        is evaluated on the rows in the order Weka's in-place sorts leave: a numeric one in its
        own sorted order (``sorted_orders``, ``weka_sorts_in_turn``), a nominal one in the order
        the numeric attributes before it left; with fractional weights the order shows in the
        sums. NBTree chooses among splits by their errors, so the splits carry no gain."""
        n, m = len(rows), self._Z.shape[1]
        numeric = self._numeric_columns
        orders = np.arange(n)[None, :] if sorted_orders is None else np.vstack([np.arange(n)[None, :], sorted_orders])
        order_of = np.searchsorted(numeric, np.arange(m))  # the numeric attributes before each nominal one
        order_of[numeric] = np.arange(1, len(numeric) + 1)
        has, split_point, pcb, pb, pc, total = c45_candidates(
            self._Z, self._y, rows, np.ascontiguousarray(w, dtype=np.float64), orders, order_of, self.numeric_,
            self.n_values_, len(self.classes_), 2, self._log_table)
        out = []
        for a in range(m):
            if not has[a]:
                out.append(None)
                continue
            q = 2 if self.numeric_[a] else int(self.n_values_[a])
            dist = Distribution(pcb[a, :q].copy(), pb[a, :q].copy(), pc[a].copy(), float(total[a]))
            out.append(Split(a, bool(self.numeric_[a]), float(split_point[a]) if self.numeric_[a] else np.inf, q,
                             dist, np.nan, np.nan))
        return out

    def _sorted_rows(self, rows, w, parent: PresortedColumns | None = None):
        """The node's rows sorted by each numeric attribute (one row per attribute), for the
        cut points of the node and of every branch of every candidate split: None where
        weights are not all 1 (then Weka's order of sums matters and each cut sorts itself).
        ``parent``: the parent node's, whose rows hold these: kept where they are these rows
        (a filter of a sorted order is sorted; with unit weights the order of equal values
        does not change a cut), instead of sorting again."""
        if not len(self._numeric_columns) or not np.all(w == 1.0):
            return None
        if parent is None:
            return presort_columns(self._Z, rows, self._numeric_columns, self._member, self._xlnx)
        return parent.restricted_to(rows)

    def _evaluate_split(self, a, rows, w, global_errors, split, presorted=None, best_errors=None):
        """NBTreeSplit.buildClassifier: (``split``, its estimated errors), or (None, _) if not
        useful. ``split``: C4.5's split on ``a`` at this node (``_c45_splits``; None: there is none).
        ``best_errors``: the fewest errors of a split so far at this node (the node's own naive
        Bayes's before any): once the branches scored add up to that many, or to so many that the
        split would not be 5% better than the node's naive Bayes, the split cannot be taken, and
        the branches left are not scored (None). Each split draws from its own generator, so
        the splits after it are scored as before: the same tree."""
        if split is None:
            return None, global_errors
        sub = split.subsets(self._Z[rows, a])
        missing = sub < 0
        share = split.missing_weights() if missing.any() else None
        rnd = JavaRandom(1)
        errors, enough = 0.0, 0
        # Weka cross-validates a branch with at least 5 rows (nominal split) or more than 5 (numeric)
        least = _MIN_ROWS_FOR_CV + 1 if self.numeric_[a] else _MIN_ROWS_FOR_CV
        for b in range(split.n_subsets):
            # errors only grow branch by branch (each adds a sum of weights)
            if best_errors is not None and (errors >= best_errors or (global_errors - errors) / global_errors < 0.05):
                return None, global_errors
            at = (sub == b) | missing  # a row with a missing value goes to every branch
            b_rows = rows[at]
            b_w = np.where(missing, w * share[b] if share is not None else w, w)[at]
            if len(b_rows) >= least:
                enough += 1
                errors += self._branch_errors(b_rows, b_w, rnd, presorted)
            else:
                for weight in b_w:
                    errors += float(weight)
        if enough <= 1:
            return None, global_errors
        return split, errors

    def _branch_errors(self, rows, w, rnd: JavaRandom, presorted=None) -> float:
        """A candidate branch's estimated errors: its rows discretised afresh, shuffled and
        stratified by the split's generator, then 5-fold naive Bayes errors; in one compiled call
        (``_nbtree_branch_kernel``; tests/classifiers/trees/test_j48_kernel.py holds the step-by-step reference)."""
        from ._nbtree_branch_kernel import branch_cv_errors  # numba; imports preprocess, so not at the top

        have = presorted is not None
        errors, state = branch_cv_errors(
            self._Z, self._y, rows, np.ascontiguousarray(w, dtype=np.float64), self.numeric_, self._numeric_columns,
            self.n_values_, len(self.classes_), rnd._state,
            presorted.values if have else _NO_VALUES, presorted.orders if have else _NO_ORDERS,
            self._member, self._xlnx, have, _FOLDS, TINY, 1e75)
        rnd._state = int(state)
        return float(errors)

    # ---- prediction -----------------------------------------------------------------------
    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "tree_")
        Z = self._encode_mixed(X)
        return tree_probabilities(self.tree_, Z, np.ones(len(Z)), len(self.classes_),
                                  lambda node, Z: node.leaf.model.proba(Z),
                                  # an empty branch takes the node's own naive Bayes (NBTreeSplit.classProb)
                                  lambda node, b, Z: node.leaf.model.proba(Z))
