# SPDX-License-Identifier: GPL-3.0-or-later
"""Bootstrap aggregation as Weka 3.6's ``weka.classifiers.meta.Bagging``, bag for bag.

Weka draws each bag with ``Instances.resampleWithWeights``: Walker's alias method over the
rows' weights, one ``java.util.Random(seed)`` for all bags, each draw ``n·nextDouble()``.
The same generator, the same alias table and the same draws give the same bags, so a
deterministic base learner (J48, NaiveBayes) gives Weka's ensemble exactly.
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict
from contextlib import contextmanager
from contextvars import ContextVar
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.utils import check_array, check_consistent_length, column_or_1d
from sklearn.utils._param_validation import HasMethods, Interval
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from ...weka._random_kernel import alias_draws, alias_table, shuffled_indices
from ...weka.random import JavaRandom
from ...weka.utils import eq
from .._mixed import EncodedFrame, take_rows
from .._nominal import ProbaPredictMixin, column_arrays, declared_target, declared_values, encode_target, java_normalize


def weka_alias_table(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Walker's alias table (Q, A) as Weka 3.6's ``resampleWithWeights`` builds it (compiled:
    ``alias_table``; Q holds q + i, the form the draws compare with)."""
    return alias_table(np.ascontiguousarray(weights, dtype=np.float64))


def weka_bag(weights: np.ndarray, rnd: JavaRandom, table=None) -> np.ndarray:
    """Row positions of one bag of len(weights) draws (``Instances.resampleWithWeights``).
    ``table``: the weights' alias table (``weka_alias_table``), when drawing many bags from them."""
    n = len(weights)
    if n == 0:
        return np.empty(0, dtype=np.int64)
    if np.any(np.asarray(weights) < 0):
        raise ValueError("Bagging: weights have to be positive")
    Q, A = weka_alias_table(np.asarray(weights, dtype=np.float64)) if table is None else table
    out, state = alias_draws(np.ascontiguousarray(Q, dtype=np.float64), np.ascontiguousarray(A, dtype=np.int64),
                             rnd._state)
    rnd._state = int(state)
    return out


def drawn_once(bag: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows a bag drew, each once, and how many times each was drawn."""
    return np.unique(bag, return_counts=True)


def fit_fingerprint(X, y, sample_weight, **params) -> bytes:
    """A digest of everything a fit sees: the rows' values, the columns' names, types and
    declared categories, the classes, the weights and ``params`` (by repr)."""
    h = hashlib.blake2b(digest_size=20)
    for part in (X, y):
        if isinstance(part, EncodedFrame):  # the matrix the fit reads, and the header it was encoded by
            h.update(np.ascontiguousarray(part.values).tobytes())
            h.update(repr([(str(c), str(t), declared_values(t) if isinstance(t, pd.CategoricalDtype) else None)
                           for c, t in zip(part.columns, part.dtypes, strict=True)]).encode())
        elif isinstance(part, (pd.DataFrame, pd.Series)):
            # column by column: a Categorical's codes and a numpy column's values as bytes (what
            # the fit reads), any other column through pandas' hash; a Series as a one-column frame
            frame = isinstance(part, pd.DataFrame)
            names = list(part.columns) if frame else [part.name]
            arrays = (column_arrays(part, part.columns) if frame
                      else [part.to_numpy() if isinstance(part.dtype, np.dtype) else part.array])
            for a in arrays:
                if isinstance(a, pd.Categorical):
                    h.update(a.codes.tobytes())
                elif isinstance(a, np.ndarray) and a.dtype != object:
                    h.update(np.ascontiguousarray(a).tobytes())
                else:
                    h.update(pd.util.hash_array(np.asarray(a, dtype=object)).tobytes())
            h.update(repr([(str(c), str(a.dtype), declared_values(a.dtype) if isinstance(a.dtype, pd.CategoricalDtype)
                            else None) for c, a in zip(names, arrays, strict=True)]).encode())
        else:
            a = np.asarray(part)
            h.update(repr((a.dtype.str, a.shape)).encode())
            h.update(np.ascontiguousarray(a).tobytes() if a.dtype != object else repr(a.tolist()).encode())
    h.update(b"-" if sample_weight is None else np.asarray(sample_weight, dtype=np.float64).tobytes())
    h.update(repr(sorted(params.items())).encode())
    return h.digest()


class _RecentDepths:
    """The members' shallowest test depths of recent Bagging fits of trees, by fit fingerprint
    (bounded: the calibration's 11 fits × 50 folds of one column fit)."""

    def __init__(self, size: int = 2048):
        self.size = size
        self._items: OrderedDict[bytes, np.ndarray] = OrderedDict()

    def get(self, key: bytes):
        depths = self._items.get(key)
        if depths is not None:
            self._items.move_to_end(key)
            return depths.copy()
        return None

    def put(self, key: bytes, depths: np.ndarray) -> None:
        self._items[key] = depths.copy()
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


_TREE_DEPTHS: ContextVar[_RecentDepths | None] = ContextVar("nbrepro_tree_depths", default=None)


@contextmanager
def shared_tree_depths():
    """Within this block, Bagging fits of trees leave their members' depths for later fits of
    the same trees on the same rows to read (``known_tree_depths``); outside it nothing is kept.

    Hall's AWNB weights come from exactly the trees Weka's Bagging grows: AWNB(i=10, j=100)
    from the bagged-J48 column's trees, ASNB from AWNB(i=10, j=50)'s. An evaluation job
    (``experiment.evaluate_many``) opens one block, so a column fitted after the one that grew
    its trees, on the same folds, does not grow them again; the depths are the same either way.
    Scoped rather than process-wide: a library user's fits share nothing they did not ask for."""
    token = _TREE_DEPTHS.set(_RecentDepths())
    try:
        yield
    finally:
        _TREE_DEPTHS.reset(token)


def known_tree_depths(X, y, tree, n_estimators, bag_size_percent, random_state):
    """(trees, attributes) depths a Bagging fit of ``tree`` on these rows left in the current
    ``shared_tree_depths`` block, or None."""
    memo = _TREE_DEPTHS.get()
    if memo is None:
        return None
    return memo.get(bagging_fingerprint(X, y, None, tree, n_estimators, bag_size_percent, random_state))


def bagging_fingerprint(X, y, sample_weight, estimator, n_estimators, bag_size_percent, random_state) -> bytes:
    """The fingerprint under which a Bagging fit of these inputs records its members' depths."""
    return fit_fingerprint(X, y, sample_weight, member=type(estimator).__name__,
                           member_params=repr(sorted(estimator.get_params(deep=False).items())),
                           n_estimators=int(n_estimators), bag_size_percent=int(bag_size_percent),
                           random_state=int(random_state))


class Bagging(ProbaPredictMixin, MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Bagging (Weka 3.6 ``weka.classifiers.meta.Bagging -P bag_size_percent -I n_estimators -S
    random_state -W …``).

        P(c | x) = Σ_k P_k(c | x) / Σ_c' Σ_k P_k(c' | x)

    over the members fitted to the bags; each bag draws n rows with replacement (probability
    proportional to the row weight) and gives each drawn row weight 1. With
    ``bag_size_percent < 100`` the bag is shuffled and cut to that share. A member with a
    ``random_state`` parameter gets the next ``Random.nextInt()``, as Weka seeds a
    ``Randomizable`` member.

    Parameters
    ----------
    estimator : classifier
        The member (cloned for each bag); Hall uses unpruned J48.
    n_estimators : int
        Number of bags (Weka ``-I``, 10).
    bag_size_percent : int
        Bag size as a percentage of the training rows (Weka ``-P``, 100).
    random_state : int
        Weka ``-S`` (1): the seed of the one ``java.util.Random`` all bags are drawn from.

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    n_features_in_ : int
        The number of attributes seen in ``fit``.
    feature_names_in_ : ndarray
        The attribute names, when ``fit`` was given a DataFrame.
    estimators_ : list
        The fitted base estimators, one per bag.
    bags_ : list of ndarray
        Each bag's training rows (drawn with replacement, as Weka draws them).

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import J48, Bagging
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> clf = Bagging(J48(), n_estimators=5).fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[1., 0.],
           [1., 0.]])
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict_proba"])],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "bag_size_percent": [Interval(Integral, 1, 100, closed="both")],
        "random_state": [Integral],
    }

    def __init__(self, estimator=None, *, n_estimators: int = 10, bag_size_percent: int = 100, random_state: int = 1):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.bag_size_percent = bag_size_percent
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        return self._fit(X, y, sample_weight)

    def _fit(self, X, y, sample_weight=None, depths_only: bool = False):
        """``fit``; ``depths_only``: unpruned J48 members learn only their ``min_test_depth_``
        (AWNB's use: the same bags and trees, no nodes to predict with)."""
        self._validate_params()  # e.g. an estimator is required: J48(unpruned=True) in Hall's bags
        X_given = X
        if isinstance(X, EncodedFrame) and not self.accepts_encoded_frame:
            X = X.frame()
        if not isinstance(X, (pd.DataFrame, EncodedFrame)):
            X = check_array(X, dtype=None, ensure_all_finite="allow-nan")
        self.classes_, codes = encode_target(self, y)
        check_consistent_length(X, codes)
        keep = np.flatnonzero(codes >= 0)  # Weka deletes rows with a missing class first
        n = len(keep)
        if n == 0:
            raise ValueError("Bagging: no training row has a known class")
        if sample_weight is None:
            weights = np.ones(n)
        else:
            sample_weight = _check_sample_weight(sample_weight, np.empty((len(codes), 0)), ensure_non_negative=True)
            if not sample_weight.sum() > 0:
                raise ValueError("Bagging: every sample weight is zero, so there is nothing to fit")
            weights = sample_weight[keep]
        if isinstance(X, (pd.DataFrame, EncodedFrame)):
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
        self.n_features_in_ = X.shape[1]
        # a bag may draw rows of one class only: its member sees every class the ensemble saw
        y_series = declared_target(y if isinstance(y, pd.Series) else pd.Series(column_or_1d(y)), self.classes_)
        bag_size = n * int(self.bag_size_percent) // 100
        if bag_size == 0:  # Weka's bag would hold no row: say so, rather than the member's empty-data error
            raise ValueError(
                f"Bagging: a bag of {int(self.bag_size_percent)} % of n_samples={n} training rows holds no row"
            )
        rnd = JavaRandom(int(self.random_state))
        self.estimators_, self.bags_ = [], []
        table = weka_alias_table(np.asarray(weights, dtype=np.float64))  # the same for every bag
        encoder = self._shared_encoder(X, y_series, keep)
        self._shared_encoding = encoder is not None and not depths_only
        # A row drawn k times can be grown on as one row of weight k: every sum the tree takes is
        # then of whole numbers, the same in any grouping, and Weka's one count of instances
        # (C45Split's firstMiss) is counted from the rows' counts. Not with a missing value
        # (a row shared out over branches weighs a fraction, and k fractions summed one by one
        # differ from k times one in the last bits), nor where pruning estimates from the rows.
        counted = (encoder is not None and self.estimator.unpruned and sample_weight is None
                   and not np.isnan(encoder[1]).any())
        for _ in range(int(self.n_estimators)):
            bag = weka_bag(weights, rnd, table)
            if bag_size < n:  # Instances.randomize, then the first bag_size rows
                order, state = shuffled_indices(len(bag), rnd._state)
                rnd._state = int(state)
                bag = bag[order[:bag_size]]
            member = clone(self.estimator)
            if "random_state" in member.get_params():
                member.set_params(random_state=rnd.next_int())
            rows = keep[bag]
            if counted:
                drawn, times = drawn_once(bag)
                member._fit_encoded(encoder[0], encoder[1][drawn], encoder[2][drawn], encoder[1][bag],
                                    encoder[3][:, drawn], depths_only=depths_only, row_counts=times)
            elif encoder is not None:
                Zb = encoder[1][bag]
                member._fit_encoded(encoder[0], Zb, encoder[2][bag], Zb, encoder[3][:, bag], depths_only=depths_only)
            else:
                member.fit(take_rows(X, rows), y_series.iloc[rows])
            self.estimators_.append(member)
            self.bags_.append(rows)
        memo = _TREE_DEPTHS.get()
        if memo is not None and all(hasattr(m, "min_test_depth_") for m in self.estimators_):  # trees: for AWNB
            memo.put(
                bagging_fingerprint(
                    X_given,
                    y,
                    sample_weight,
                    self.estimator,
                    self.n_estimators,
                    self.bag_size_percent,
                    self.random_state,
                ),
                np.vstack([m.min_test_depth_ for m in self.estimators_]),
            )
        return self

    def _shared_encoder(self, X, y, keep):
        """(encoder, codes, class codes, ranks of the numeric values) of the rows ``keep`` when the
        members are J48 trees and the encoding depends only on the columns' types (every nominal
        column and the class Categorical): then each bag is a selection of these rows, encoded
        and ranked once. None otherwise
        (an object column's value set, or the classes of an object target, depend on the rows
        a bag draws)."""
        from ._j48 import J48, value_ranks

        if type(self.estimator) is not J48 or not isinstance(y.dtype, pd.CategoricalDtype):
            return None
        X = EncodedFrame.of(X)
        if X is None:
            return None
        encoder = clone(self.estimator)
        Z, codes, _ = encoder._fit_mixed(X.take(keep), y.iloc[keep])
        return encoder, Z, codes, value_ranks(Z, np.flatnonzero(encoder.numeric_))

    @property
    def accepts_encoded_frame(self) -> bool:
        """Whether fit and predict take an ``EncodedFrame``: where the members do."""
        return bool(getattr(self.estimator, "accepts_encoded_frame", False))

    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "estimators_")
        sums = None
        # members that share one encoding and keep their trees as arrays: X encoded once for all
        shared = getattr(self, "_shared_encoding", False) and all("flat_tree_" in m.__dict__ for m in self.estimators_)
        Z = self.estimators_[0]._encode_mixed(X) if shared else None
        for member in self.estimators_:
            p = (
                member.flat_tree_.probabilities(Z, member.numeric_, member.laplace)
                if shared
                else member.predict_proba(X)
            )
            p = self._aligned(member, p)
            sums = p.copy() if sums is None else sums + p
        total = sums[:, 0].copy()
        for j in range(1, sums.shape[1]):
            total += sums[:, j]
        zero = np.array([eq(float(t), 0.0) for t in total])
        out = java_normalize(sums)
        out[zero] = sums[zero]  # Weka returns an all-zero sum unnormalised
        return out

    def _aligned(self, member, p: np.ndarray) -> np.ndarray:
        """A member's probabilities in the ensemble's class order (a bag may miss a class)."""
        if len(member.classes_) == len(self.classes_) and np.array_equal(member.classes_, self.classes_):
            return p
        out = np.zeros((p.shape[0], len(self.classes_)))
        index = {c: i for i, c in enumerate(self.classes_)}
        for j, c in enumerate(member.classes_):
            out[:, index[c]] = p[:, j]
        return out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True  # as the members: nominal columns are read as such
        tags.input_tags.string = True
        return tags
