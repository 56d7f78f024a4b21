# SPDX-License-Identifier: GPL-3.0-or-later
"""Multinomial ridge logistic regression as Weka 3.6's ``weka.classifiers.functions.Logistic``
(le Cessie & van Houwelingen 1992).

Weka's data preparation is reproduced exactly: missing values replaced by the training
mean or mode (``ReplaceMissingValues``), constant and all-distinct nominal attributes
dropped (``RemoveUseless``), nominal attributes coded as one 0/1 column (two values) or
one indicator per value (``NominalToBinary``), and every column standardised with the
weighted mean and the weighted sample standard deviation. The penalised likelihood is
Weka's, with the last class as reference and the intercepts unpenalised, and it is
minimised along Weka's own quasi-Newton path (``weka.core.Optimization``, ported in
``tests/classifiers/functions/weka_optimization_reference.py``, and compiled with the
objective in ``_logistic_kernel``). Weka's optimiser stops loosely (relative steps below
1.5e-8), so only the same path gives Weka's coefficients; a tighter optimiser would differ from Weka
in the fifth decimal of the probabilities.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, Options
from sklearn.utils.validation import check_is_fitted

from ... import libm
from ...errors import OptimizationError
from .._mixed import MixedInputMixin
from .._nominal import HANDLE_UNKNOWN
from . import _logistic_kernel as lk


def _sequential_column_sums(A: np.ndarray) -> np.ndarray:
    return np.cumsum(A, axis=0)[-1] if len(A) else np.zeros(A.shape[1])


_FAILURES = {
    lk.NAN_OBJECTIVE: "objective function value is NaN",
    lk.ASCENT: "g'·p positive: not a descent direction",
    lk.INFEASIBLE: "line search: infeasible step",
    lk.CHOLESKY_D: "Cholesky update: d is NaN",
    lk.CHOLESKY_SIGMA: "Cholesky update: sigma is NaN or infinite",
    lk.NAN_LDIRECTION: "L·direction is NaN",
    lk.NAN_DIRECTION: "direction is NaN",
}


def minimize_likelihood(
    S: np.ndarray, y: np.ndarray, w: np.ndarray, ridge: float, x0: np.ndarray, max_iter: int = -1
) -> tuple[np.ndarray, float, int]:
    """Weka Logistic's penalised likelihood (``Logistic$OptEng``) minimised along Weka's
    quasi-Newton path, compiled (``_logistic_kernel``; tested against ``weka_minimize``):
    (x, objective, iterations).

    −Σ_i w_i log P(y_i | s_i) + ridge·Σ_c Σ_{j≥1} β_cj², with β flattened class by class, the
    last class the reference and the intercepts unpenalised. Every sum runs in Weka's order
    (over columns within a row, over rows in training order), so the optimiser takes Weka's
    path."""
    S = np.ascontiguousarray(S, dtype=np.float64)
    x, fun, iterations, _, status = lk.minimize_penalised_likelihood(
        S,
        np.ascontiguousarray(S.T),
        np.ascontiguousarray(y, dtype=np.int64),
        np.ascontiguousarray(w, dtype=np.float64),
        float(ridge),
        np.ascontiguousarray(x0, dtype=np.float64),
        int(max_iter),
    )
    if status:
        raise OptimizationError(_FAILURES[status])
    return x, float(fun), int(iterations)


class Logistic(MixedInputMixin):
    """Ridge logistic regression (Weka 3.6 ``weka.classifiers.functions.Logistic -R ridge``).

        P(c | x) = exp(β_c·x) / (1 + Σ_{c' < K} exp(β_c'·x)),   β_K = 0

    fitted by maximising Σ_i w_i log P(y_i | x_i) − ridge · Σ_c Σ_{j ≥ 1} β_cj² on the
    standardised columns (intercepts not penalised), then mapped back to the input's units.

    Parameters
    ----------
    ridge : float
        Weka ``-R`` (1e-8).
    max_iter : int
        Weka ``-M``: -1 (default) searches until Weka's optimiser converges, restarting it
        every 200 iterations; k > 0 stops after k iterations.

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
    fill_ : ndarray
        The values that replace a missing one: each attribute's training mean or mode, as Weka's.
    kept_attributes_ : ndarray
        The columns kept after Weka's removal of useless attributes.
    n_iter_ : int
        Iterations of the quasi-Newton search.
    log_likelihood_ : float
        The penalised log-likelihood at the optimum.
    coef_ : ndarray
        (1 + attributes, classes − 1) coefficients on the original scale, the intercept first.

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import Logistic
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> clf = Logistic().fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[1., 0.],
           [1., 0.]])
    """

    _parameter_constraints: dict = {
        "ridge": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Options(Integral, {-1}), Interval(Integral, 1, None, closed="left")],
        "handle_unknown": HANDLE_UNKNOWN,
    }

    def __init__(self, *, ridge: float = 1e-8, max_iter: int = -1, handle_unknown: str = "ignore"):
        self.ridge = ridge
        self.max_iter = max_iter
        self.handle_unknown = handle_unknown

    # ---- Weka's filters -------------------------------------------------------------
    def _fit_filters(self, Z: np.ndarray, w: np.ndarray) -> None:
        m = Z.shape[1]
        self.fill_ = np.zeros(m)
        for j in range(m):
            x = Z[:, j]
            known = ~np.isnan(x)
            if self.numeric_[j]:
                count = _sequential_column_sums(w[known][:, None])[0] if known.any() else 0.0
                total = _sequential_column_sums((w[known] * x[known])[:, None])[0] if known.any() else 0.0
                self.fill_[j] = total / count if count > 0 else 0.0
            else:
                counts = np.bincount(x[known].astype(np.int64), weights=w[known], minlength=int(self.n_values_[j]))
                self.fill_[j] = float(np.argmax(counts)) if len(counts) else 0.0  # first largest: Utils.maxIndex
        F = self._replace_missing(Z)
        keep = []
        n = len(F)
        for j in range(m):
            distinct = len(np.unique(F[:, j]))
            if distinct < 2:
                continue  # constant (or all missing)
            if not self.numeric_[j] and distinct / n * 100.0 > 99.0:
                continue  # a nominal attribute with (nearly) a value per row
            keep.append(j)
        self.kept_attributes_ = np.array(keep, dtype=np.int64)

    def _replace_missing(self, Z: np.ndarray) -> np.ndarray:
        return np.where(np.isnan(Z), self.fill_[None, :], Z)

    def _design(self, Z: np.ndarray) -> np.ndarray:
        """ReplaceMissingValues → RemoveUseless → NominalToBinary, with a leading column of ones."""
        F = self._replace_missing(Z)
        cols = [np.ones(len(F))]
        for j in self.kept_attributes_:
            if self.numeric_[j] or self.n_values_[j] == 2:
                cols.append(F[:, j])
            else:
                codes = F[:, j].astype(np.int64)
                for v in range(int(self.n_values_[j])):
                    cols.append((codes == v).astype(np.float64))
        return np.column_stack(cols)

    # ---- fitting --------------------------------------------------------------------
    def fit(self, X, y, sample_weight=None):
        Z, ycodes, w = self._fit_mixed(X, y, sample_weight)
        if len(ycodes) == 0:
            raise ValueError("Logistic: no training row has a known class")
        self._fit_filters(Z, w)
        D = self._design(Z)
        K = len(self.classes_)
        n, dim = D.shape
        total_w = float(_sequential_column_sums(w[:, None])[0])
        if total_w <= 1 and n > 1:
            raise ValueError("Logistic: sum of weights of instances less than 1, please reweight (Weka's check)")
        mean = _sequential_column_sums(w[:, None] * D) / total_w
        sq = _sequential_column_sums(w[:, None] * D * D)
        sd = np.sqrt(np.abs(sq - total_w * mean * mean) / (total_w - 1)) if total_w > 1 else np.zeros(dim)
        mean[0], sd[0] = 0.0, 1.0
        scale = sd != 0
        S = D.copy()
        with np.errstate(over="ignore", invalid="ignore"):
            S[:, scale] = (D[:, scale] - mean[scale]) / sd[scale]
        bad = ~np.isfinite(S).all(axis=0) | ~np.isfinite(mean) | ~np.isfinite(sd)
        if bad.any():
            # the optimiser would stop with "objective function value is NaN", naming nothing
            owners = [None] + [
                j
                for j in self.kept_attributes_
                for _ in range(1 if self.numeric_[j] or self.n_values_[j] == 2 else int(self.n_values_[j]))
            ]
            j = owners[int(np.argmax(bad))]
            name = self.feature_names_in_[j] if hasattr(self, "feature_names_in_") else j
            raise ValueError(
                f"Logistic: numeric attribute {name!r} cannot be standardised (its mean or standard "
                "deviation overflows a double, e.g. values near ±1e308), so the optimiser would reach "
                "'objective function value is NaN' or fit it as zero: rescale it or remove it"
            )
        counts = np.bincount(ycodes, minlength=K).astype(np.float64)  # unweighted, as Weka's sY
        x0 = np.zeros((K - 1, dim))
        x0[:, 0] = libm.log(counts[:-1] + 1.0) - libm.log(counts[-1] + 1.0)
        if K > 1 and n > 0:
            x, fun, self.n_iter_ = minimize_likelihood(S, ycodes, w, float(self.ridge), x0.ravel(), int(self.max_iter))
            B = x.reshape(K - 1, dim)
            self.log_likelihood_ = -fun
        else:
            B = x0
            self.n_iter_ = 0
            self.log_likelihood_ = 0.0
        # back to the input's units (Weka: m_Par[j] /= sd_j; m_Par[0] -= m_Par[j]·mean_j, j in order)
        coef = B.T.copy()  # (dim, K-1), Weka's m_Par
        for j in range(1, dim):
            if sd[j] != 0:
                coef[j] /= sd[j]
                coef[0] -= coef[j] * mean[j]
        self.coef_ = coef
        return self

    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "coef_")
        D = self._design(self._encode_mixed(X))
        K = len(self.classes_)
        v = np.zeros((len(D), K))
        for k in range(D.shape[1]):  # Σ_k m_Par[k][j]·data[k], k in order
            v[:, : K - 1] += self.coef_[k][None, :] * D[:, k : k + 1]
        prob = np.empty_like(v)
        with np.errstate(over="ignore"):  # as Java's Math.exp: an overflow is infinity, the probability 0
            for m in range(K):
                s = np.zeros(len(D))
                for c in range(K - 1):
                    s += libm.exp(v[:, c] - v[:, m])
                prob[:, m] = 1.0 / (s + libm.exp(-v[:, m]))
        return prob
