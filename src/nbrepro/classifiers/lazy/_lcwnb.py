# SPDX-License-Identifier: GPL-3.0-or-later
"""Lazy cell-weighted naive Bayes (Li & Li), Figure 1 of the paper."""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval

from .._nominal import HANDLE_UNKNOWN
from ._base import LazyNominalMixin


class LCWNB(LazyNominalMixin):
    """Lazy cell-weighted naive Bayes (Li & Li), the algorithm of their Figure 1.

    For a test row x*, training row j of class y gets weight γ_y^H(x_j, x*) (Hamming
    distance over the attributes, 0⁰ = 1). γ_y ∈ [0, 1] is found by bisection so that
    the expected sample size S_y = Σ_ℓ V_ℓ(y) γ_y^ℓ equals min(max(V_0(y), κ), n_y)
    (V_ℓ(y): class-y training rows at distance ℓ). With ρ = Σ_y S_y / Σ_y Σ_ℓ V_ℓ(y) γ_y^{2ℓ}
    (effective-sample-size rescaling) and T(i, y) = Σ_j γ_y^{H_j} [x_ji = x*_i][y_j = y]:

        P(y | x*) ∝ (1 + ρ S_y) ∏_i (1 + ρ T(i, y)) / (q_i + ρ S_y)

    (Laplace estimators α = 1, β = r, ζ_i = 1, τ_i = q_i; β cancels). γ_y is 0 when
    V_0(y) ≥ κ and 1 when n_y ≤ κ; otherwise ``n_bisections`` halvings of [0, 1] and the
    midpoint of the last interval, so ``|γ_y − γ_y*| ≤ 2^-(n_bisections+1)``.

    A missing or undeclared test value leaves its attribute out of the distance and the
    product; a missing training value never matches.

    Parameters
    ----------
    kappa : float
        Target expected sample size per class (the paper's κ: 5, 10 or 20).
    n_bisections : int
        Bisection steps for each γ_y.
    handle_unknown : {"ignore", "error"}

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

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import LCWNB
    >>> X = pd.DataFrame({
    ...     "outlook": pd.Categorical(["sunny", "sunny", "rain", "rain", "overcast", "overcast", "sunny", "rain"]),
    ...     "windy": pd.Categorical(["no", "yes", "no", "yes", "no", "yes", "no", "yes"])})
    >>> y = pd.Series(["no", "no", "yes", "no", "yes", "yes", "no", "yes"])
    >>> clf = LCWNB(kappa=5).fit(X, y)
    >>> clf.predict(X).tolist()
    ['no', 'no', 'yes', 'yes', 'yes', 'yes', 'no', 'yes']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.8, 0.2],
           [0.8, 0.2]])
    """

    _parameter_constraints: dict = {
        "kappa": [Interval(Real, 0, None, closed="neither")],
        "n_bisections": [Interval(Integral, 0, None, closed="left")],
        "handle_unknown": HANDLE_UNKNOWN,
    }

    def __init__(self, *, kappa: float = 5.0, n_bisections: int = 30, handle_unknown: str = "ignore"):
        self.kappa = kappa
        self.n_bisections = n_bisections
        self.handle_unknown = handle_unknown

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        from ._hamming_kernel import lcwnb_proba  # numba: imported where first needed

        known, test = self._test_codes(codes)
        return lcwnb_proba(self._codes, self._columns, self._y, len(self.classes_), test, known,
                           self.n_values_.astype(np.float64), float(self.kappa), int(self.n_bisections))
