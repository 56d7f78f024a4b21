"""Lazy cell-weighted naive Bayes (Li & Li), Figure 1 of the paper, vectorised over test rows."""
from __future__ import annotations

import numpy as np

from ._lazy import LazyNominalMixin


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
    midpoint of the last interval, so |γ_y − γ_y*| ≤ 2^-(n_bisections+1).

    A missing or undeclared test value leaves its attribute out of the distance and the
    product; a missing training value never matches.

    Parameters
    ----------
    kappa : float
        Target expected sample size per class (the paper's κ: 5, 10 or 20).
    n_bisections : int
        Bisection steps for each γ_y.
    handle_unknown : {"ignore", "error"}
    """

    def __init__(self, kappa: float = 5.0, n_bisections: int = 30, handle_unknown: str = "ignore"):
        self.kappa = kappa
        self.n_bisections = n_bisections
        self.handle_unknown = handle_unknown

    def _check_params(self) -> None:
        if not self.kappa > 0:
            raise ValueError(f"LCWNB: kappa must be positive, got {self.kappa!r}")

    def _block(self, idx: np.ndarray, known: np.ndarray, shared: np.ndarray) -> np.ndarray:
        c, m = idx.shape
        r = len(self.classes_)
        # Hamming distance over the test row's known attributes: exact small integers
        H = (known.sum(axis=1)[:, None] - shared).astype(np.int64)
        # V_ℓ(y): training rows of class y at distance ℓ
        L = m + 1
        cell = (np.arange(c)[:, None] * r + self._y[None, :]) * L + H
        V = np.bincount(cell.ravel(), minlength=c * r * L).reshape(c, r, L).astype(np.float64)
        gamma = self._gammas(V)  # (c, r)
        powers = np.cumprod(np.concatenate([np.ones((c, r, 1)), np.repeat(gamma[:, :, None], m, axis=2)], axis=2),
                            axis=2)  # γ^0 … γ^m, with 0^0 = 1
        S = np.einsum("cyl,cyl->cy", V, powers)
        S2 = np.einsum("cyl,cyl->cy", V, powers ** 2)
        with np.errstate(invalid="ignore", divide="ignore"):
            rho = S.sum(axis=1) / S2.sum(axis=1)
        rho = np.where(np.isfinite(rho), rho, 1.0)
        # weights γ_{y_j}^{H_j}, then T(i, y) = weighted count of class-y rows matching x*_i
        W = np.take_along_axis(powers.reshape(c, r * L), self._y[None, :] * L + H, axis=1)
        log_q = np.log1p(rho[:, None] * S)  # log(1 + ρ S_y)
        for y, rows in enumerate(self._class_rows):
            Ty = W[:, rows] @ self._onehot[rows]  # (c, T): every value's weighted count
            Tstar = np.take_along_axis(Ty, idx, axis=1)  # (c, m) at the test row's values
            num = np.log1p(rho[:, None] * Tstar)
            den = np.log(self.n_values_[None, :] + (rho * S[:, y])[:, None])
            log_q[:, y] += np.where(known, num - den, 0.0).sum(axis=1)
        log_q -= log_q.max(axis=1, keepdims=True)
        p = np.exp(log_q)
        return p / p.sum(axis=1, keepdims=True)

    def _gammas(self, V: np.ndarray) -> np.ndarray:
        """γ_y per test row and class: S_y(γ) = Σ_ℓ V_ℓ γ^ℓ closest to κ, by bisection."""
        n_y = V.sum(axis=2)
        target = np.minimum(np.maximum(V[:, :, 0], self.kappa), n_y)
        lo = np.zeros(n_y.shape)
        hi = np.ones(n_y.shape)
        for _ in range(self.n_bisections):
            mid = 0.5 * (lo + hi)
            s = V[:, :, -1].copy()  # Horner: Σ_ℓ V_ℓ mid^ℓ
            for ell in range(V.shape[2] - 2, -1, -1):
                s = s * mid + V[:, :, ell]
            below = s < target
            lo = np.where(below, mid, lo)
            hi = np.where(below, hi, mid)
        gamma = 0.5 * (lo + hi)
        gamma = np.where(target <= V[:, :, 0], 0.0, gamma)  # V_0 ≥ κ: only exact matches
        return np.where(target >= n_y, 1.0, gamma)  # n_y ≤ κ: every row of the class, weight 1
