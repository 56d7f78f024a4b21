# SPDX-License-Identifier: GPL-3.0-or-later
"""Tree-augmented naive Bayes, exactly as Weka 3.6's ``BayesNet -Q ...search.local.TAN``."""
from __future__ import annotations

from numbers import Real

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import Interval

from ... import libm
from ...preprocess.mdl import MDLDiscretizer
from ...weka.special import weka_ln_gamma
from .._mixed import is_numeric_dtype
from .._nominal import HANDLE_UNKNOWN, NominalClassifierMixin, java_normalize, refuse_fit_params
from ._joint import diagonal, flat_index, pair_counts, value_offsets


class TAN(NominalClassifierMixin):
    """Tree-augmented naive Bayes (Friedman, Geiger & Goldszmidt 1997), as Weka 3.6
    ``BayesNet -Q weka.classifiers.bayes.net.search.local.TAN -E SimpleEstimator -A 0.5``.

        P(c | x) ∝ P̂(c) ∏_i P̂(x_i | c, x_π(i))

    Every attribute has the class as a parent, and all but one a second parent π(i) from a
    tree over the attributes. The tree is Weka's greedy maximum spanning tree on the gain
    in Bayesian (Dirichlet, α = 0.5 per cell) log score from adding j as a parent of i:

        Δ(i, j) = score(i | C, X_j) − score(i | C),
        score = Σ_cfg [Σ_v lnΓ(α + n_cfg,v) − lnΓ(Σ_v (α + n_cfg,v)) − q·lnΓ(α) + lnΓ(q·α)]

    (first the largest Δ over all pairs, then the largest Δ joining a new attribute to the
    tree, ties to the first pair in Weka's loop order, arcs directed as Weka directs them).
    The tables are P̂(v | cfg) = (n_cfg,v + α)/(n_cfg + q·α) (SimpleEstimator, ``alpha``).
    Numeric attributes (float or int columns of a DataFrame) are first discretised by
    Fayyad–Irani MDL fitted to the training rows, as BayesNet's supervised Discretize.
    Missing values are replaced by the training mode, as BayesNet's ReplaceMissingValues.
    Scores use Weka's own lnΓ and Weka's order of summation; class probabilities are
    formed as Weka forms them (log-space sum, attributes then the class, then exp).

    Parameters
    ----------
    alpha : float
        Prior count per cell of the conditional probability tables (Weka ``-A``).
    handle_unknown : {"ignore", "error"}
        An undeclared test value is replaced by the training mode, or raises ``ValueError``.

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    n_features_in_ : int
        The number of attributes seen in ``fit``.
    feature_names_in_ : ndarray
        The attribute names, when ``fit`` was given a DataFrame.
    categories_ : list
        Per attribute, its declared values in code order (None for a numeric one).
    n_values_ : ndarray
        Per attribute, its number of declared values (0 for a numeric one).
    parent_ : ndarray
        Each attribute's parent in the tree (-1 for the root).
    modes_ : ndarray
        Each attribute's training mode, which replaces a missing value.
    discretizer_ : MDLDiscretizer or None
        The MDL discretisation of numeric DataFrame columns, as BayesNet applies.

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import TAN
    >>> X = pd.DataFrame({
    ...     "outlook": pd.Categorical(["sunny", "sunny", "rain", "rain", "overcast", "overcast", "sunny", "rain"]),
    ...     "windy": pd.Categorical(["no", "yes", "no", "yes", "no", "yes", "no", "yes"])})
    >>> y = pd.Series(["no", "no", "yes", "no", "yes", "yes", "no", "yes"])
    >>> clf = TAN().fit(X, y)
    >>> clf.predict(X).tolist()
    ['no', 'no', 'yes', 'no', 'yes', 'yes', 'no', 'no']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.833, 0.167],
           [0.75 , 0.25 ]])
    """

    # a DataFrame's numeric column is MDL-discretised (as BayesNet does); a bare array's values are nominal
    array_columns = "nominal"
    no_sample_weight = "Weka 3.6's BayesNet takes instance weights, nbrepro's TAN not yet"

    attribute_kinds = frozenset(
        {"nominal", "numeric"}
    )  # a numeric DataFrame column is discretised (MDL), as Weka's BayesNet does

    _SCORE_ALPHA = 0.5  # Weka's LocalScoreSearchAlgorithm fixes the score's prior at 0.5, whatever -A says

    _parameter_constraints: dict = {
        "alpha": [Interval(Real, 0, None, closed="neither")],
        "handle_unknown": HANDLE_UNKNOWN,
    }

    def __init__(self, *, alpha: float = 0.5, handle_unknown: str = "ignore"):
        self.alpha = alpha
        self.handle_unknown = handle_unknown

    def fit(self, X, y, **params):
        refuse_fit_params(self, params)
        self.discretizer_ = None
        if isinstance(X, pd.DataFrame) and any(is_numeric_dtype(t) for t in X.dtypes):
            self.discretizer_ = MDLDiscretizer().fit(X, y)
            X = self.discretizer_.transform(X)
        return super().fit(X, y)

    def predict_proba(self, X) -> np.ndarray:
        if getattr(self, "discretizer_", None) is not None and isinstance(X, pd.DataFrame):
            X = self.discretizer_.transform(X)
        return super().predict_proba(X)

    def _fit_codes(self, codes: np.ndarray, y: np.ndarray) -> None:
        r = len(self.classes_)
        d = codes.shape[1]
        self.modes_ = np.array(
            [
                np.bincount(col[col >= 0], minlength=q).argmax() if q else 0
                for col, q in zip(codes.T, self.n_values_, strict=True)
            ],
            dtype=np.int64,
        )
        codes = np.where(codes >= 0, codes, self.modes_[None, :])
        offsets, T = value_offsets(self.n_values_, missing_slot=False)
        joint = pair_counts(flat_index(codes, offsets, self.n_values_), y, T, r)  # (T, T, r)
        class_count = np.bincount(y, minlength=r).astype(np.float64)
        self.parent_ = tan_structure(joint, offsets, self.n_values_, len(y), self._SCORE_ALPHA)

        a = float(self.alpha)
        self._log_tables = []
        for i in range(d):
            qi = int(self.n_values_[i])
            own = slice(offsets[i], offsets[i] + qi)
            j = self.parent_[i]
            if j < 0:
                n_cv = diagonal(joint)[own]  # (q_i, r)
                table = (n_cv + a) / (a * qi + class_count[None, :])
            else:
                other = slice(offsets[j], offsets[j] + self.n_values_[j])
                n_cuv = joint[other, own]  # (q_j, q_i, r)
                table = (n_cuv + a) / (a * qi + n_cuv.sum(axis=1, keepdims=True))
                table = table.reshape(-1, r)
            with np.errstate(divide="ignore"):
                self._log_tables.append(libm.log(table))
        with np.errstate(divide="ignore"):
            self._log_prior = libm.log((class_count + a) / (a * r + len(y)))

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        codes = np.where(codes >= 0, codes, self.modes_[None, :])
        n, d = codes.shape
        log_p = np.zeros((n, len(self.classes_)))
        for i in range(d):
            j = self.parent_[i]
            row = codes[:, i] if j < 0 else codes[:, j] * self.n_values_[i] + codes[:, i]
            log_p += np.take(self._log_tables[i], row, axis=0)
        log_p += self._log_prior[None, :]  # the class is the last node, as in the papers' ARFF files
        f = 1.0 + log_p  # SimpleEstimator starts each class at 1.0 and adds the log-likelihood
        probs = libm.exp(f - f.max(axis=1, keepdims=True))
        return java_normalize(probs)


def _ln_gamma_of_halves(max_twice: int) -> np.ndarray:
    """lnΓ(m/2) for m = 0..max_twice (m = 0 unused): every argument the α = 0.5 score takes."""
    table = np.zeros(max_twice + 1)
    table[1:] = weka_ln_gamma(np.arange(1, max_twice + 1) / 2.0)
    return table


def _bayes_scores(n: np.ndarray, cfg_ok: np.ndarray, q: np.ndarray, alpha: float, lg: np.ndarray) -> np.ndarray:
    """Weka's BAYES node score for a batch of (node, parent set) count tables.

    ``n``: (batch, configs, vmax) counts with zeros in padding; ``cfg_ok``: (batch, configs);
    ``q``: (batch,) number of values of each node. The sum runs in Weka's order — config by
    config, each value's lnΓ(α + n), then −lnΓ(Σ), −q·lnΓ(α), +lnΓ(q·α) — as one sequential
    accumulation, padding contributing exact zeros.
    """
    batch, configs, vmax = n.shape
    sym_ok = (np.arange(vmax)[None, :] < q[:, None])[:, None, :] & cfg_ok[:, :, None]
    twice = (2 * n + 1).astype(np.int64)  # α + n = (2n + 1)/2 with α = 0.5
    per_value = np.where(sym_ok, lg[twice], 0.0)
    total_twice = (2 * n.sum(axis=2) + q[:, None]).astype(np.int64)  # Σ_v (α + n_v) = (2·n_cfg + q)/2
    minus_sum = np.where(cfg_ok, -lg[total_twice], 0.0)
    minus_prior = np.where(cfg_ok, -(q.astype(np.float64) * lg[1])[:, None], 0.0)
    plus_prior = np.where(cfg_ok, lg[q][:, None], 0.0)
    seq = np.concatenate([per_value, minus_sum[..., None], minus_prior[..., None], plus_prior[..., None]], axis=2)
    return np.add.accumulate(seq.reshape(batch, -1), axis=1)[:, -1]


def tan_structure(
    joint: np.ndarray, offsets: np.ndarray, n_values: np.ndarray, n_rows: int, alpha: float = 0.5
) -> np.ndarray:
    """Tree parent of each attribute (-1 for none) as Weka 3.6's TAN search chooses it.

    ``joint``: (T, T, r) joint counts of two flat attribute values and the class.
    """
    if alpha != 0.5:
        raise ValueError("tan_structure: Weka's score uses α = 0.5")
    r = joint.shape[2]
    d = len(n_values)
    parent = np.full(d, -1, dtype=np.int64)
    if d <= 1:
        return parent
    vmax = int(n_values.max())
    grid = np.arange(vmax)
    valid = grid[None, :] < n_values[:, None]
    flat = np.where(valid, offsets[:, None] + grid[None, :], 0)
    lg = _ln_gamma_of_halves(2 * n_rows + vmax + 2)
    q = np.asarray(n_values, dtype=np.int64)

    # base: parents {class}; configs = classes
    diag = diagonal(joint).T[:, flat]  # (r, d, vmax)
    base_n = np.where(valid[None], diag, 0.0).transpose(1, 0, 2)  # (d, r, vmax)
    base = _bayes_scores(base_n, np.ones((d, r), bool), q, alpha, lg)

    # with an extra parent j: configs = (class, value of j), class-major
    scores = np.empty((d, d))
    for i in range(d):  # one head at a time keeps memory at d·r·vmax·q_i values
        qi = int(q[i])
        n_ij = np.moveaxis(joint[flat[:, :, None], flat[i, :qi][None, None, :]], 3, 0)  # (r, j, vj, vi)
        n_ij = np.where(valid[None, :, :, None], n_ij, 0.0)
        n_ij = n_ij.transpose(1, 0, 2, 3).reshape(d, r * vmax, qi)
        cfg_ok = np.broadcast_to(valid[:, None, :], (d, r, vmax)).reshape(d, r * vmax)
        scores[i] = _bayes_scores(n_ij, cfg_ok, np.full(d, q[i]), alpha, lg)
    delta = scores - base[:, None]

    # Weka's greedy search: head i gains tail j as a parent; first pass any pair, then one end linked
    linked = np.zeros(d, bool)
    links = []
    off_diagonal = ~np.eye(d, dtype=bool)
    for step in range(d - 1):
        candidate = off_diagonal if step == 0 else off_diagonal & (linked[:, None] != linked[None, :])
        # Weka scans heads then tails and keeps a strictly larger delta: the first maximum in row-major order
        head, tail = divmod(int(np.argmax(np.where(candidate, delta, -np.inf))), d)
        links.append((tail, head))
        linked[[head, tail]] = True
    has_parent = np.zeros(d, bool)
    for tail, head in links:  # Weka's arc direction: the tail takes the head as parent if it can
        if not has_parent[tail]:
            parent[tail] = head
            has_parent[tail] = True
        else:
            parent[head] = tail
            has_parent[head] = True
    return parent
