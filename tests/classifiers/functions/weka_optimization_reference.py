# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka 3.6's quasi-Newton minimiser (``weka.core.Optimization.findArgmin``), unconstrained.

Weka's Logistic (and other Weka learners) minimise with Xin Xu's BFGS: a Cholesky-factored
inverse-Hessian approximation B = L·D·Lᵀ, updated by two rank-one modifications per step (Gill,
Golub, Murray & Saunders 1974), and a safeguarded line search (Dennis & Schnabel; Numerical
Recipes' ``lnsrch``) that asks for sufficient decrease (α-condition, 1e-4) and an increasing
derivative (β-condition, 0.9). It stops when the step, the scaled gradient or dg·dx falls
below √ε ≈ 1.49e-8. Its stopping point is therefore a property of the path, not of the
optimum: a generic optimiser reaches the same optimum but stops at a different point, and
the class probabilities then differ in the fifth decimal. This port follows Weka's path
operation by operation (same order of every floating-point sum), so the result equals
Weka's to rounding of ``exp``/``log``.

This module is the readable reference: Logistic runs the same path compiled together with its
objective (``_logistic_kernel``), and a test holds the two to the same bits.

Only the unconstrained case is ported: Weka's Logistic passes no bounds (all NaN), so the
active-set machinery (fixing and releasing variables at bounds) never runs there.

No library does this: scipy's BFGS and L-BFGS-B use other line searches and stopping rules.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from nbrepro.classifiers.functions._optimization_kernel import solve_lower, solve_upper_transposed, update_cholesky
from nbrepro.errors import OptimizationError

_EPSILON = 2.220446049250313e-16  # Weka halves 1.0 until 1 + ε == 1, then doubles: 2⁻⁵²
_ZERO = float(np.sqrt(_EPSILON))
_ALF = 1.0e-4
_BETA = 0.9
_TOLX = 1.0e-6
_STPMX = 100.0
_MAX_VALUE = np.finfo(np.float64).max


@dataclass
class MinimizeResult:
    x: np.ndarray
    fun: float
    n_iter: int
    n_restarts: int


def sequential_sum(start: float, terms: np.ndarray) -> float:
    """start + terms[0] + terms[1] + … added left to right, as a Java loop does."""
    if len(terms) == 0:
        return float(start)
    return float(np.cumsum(np.concatenate(([start], terms)))[-1])


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    return sequential_sum(0.0, a * b)


def _solve_lower_reference(T: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Forward substitution T·r = b (Optimization.solveTriangle, isLower, nothing fixed).

    Column by column: each b_j still loses T_jk·r_k for k = 0, 1, … in Weka's order.
    T is best column-major (Fortran order): each step reads one column."""
    n = len(b)
    num = np.array(b, dtype=np.float64)
    r = np.zeros(n)
    diag = np.diagonal(T).tolist()
    for k in range(n):
        rk = float(num[k]) / diag[k]
        r[k] = rk
        num[k + 1:] -= T[k + 1:, k] * rk
    return r


def _solve_upper_transposed_reference(L: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Back substitution Lᵀ·r = b, reading L's lower triangle (solveTriangle, not isLower).

    Row by row: Weka subtracts L_kj·r_k for k = j+1, j+2, … in ascending order, which a
    column-by-column sweep (descending k) would not; each row's sum is a cumulative sum
    of [b_j, −L_(j+1)j·r_(j+1), …] in a reused buffer."""
    n = len(b)
    r = np.zeros(n)
    diag = np.diagonal(L).tolist()
    terms = np.empty(n + 1)
    running = np.empty(n + 1)
    for j in range(n - 1, -1, -1):
        m = n - 1 - j
        terms[0] = b[j]
        np.multiply(L[j + 1:, j], r[j + 1:], out=terms[1:m + 1])
        np.negative(terms[1:m + 1], out=terms[1:m + 1])
        np.cumsum(terms[:m + 1], out=running[:m + 1])
        r[j] = float(running[m]) / diag[j]
    return r


def _update_cholesky_reference(L: np.ndarray, D: np.ndarray, v: np.ndarray, coeff: float) -> None:
    """L·D·Lᵀ += coeff·v·vᵀ in place (Optimization.updateCholeskyFactor; C1 if coeff > 0, else C2).

    Weka sweeps j = 0, 1, …: it takes p_j from a working copy of v, subtracts p_j·L[r, j]
    from every later entry r, and moves L[r, j] by b_j times that entry. The p_j are
    therefore the forward substitution L·p = v, and the entries Weka reads are its partial
    sums; both are computed here in Weka's order (a column sweep, then one cumulative sum
    per row), and only the scalar recurrences for D and b run in a Python loop."""
    n = len(v)
    v = np.asarray(v, dtype=np.float64)
    P = _solve_lower_reference(L, v)  # unit diagonal: p_j = v_j − Σ_{i<j} L_ji p_i, i ascending
    # numpy scalars: a division by zero gives ±inf or NaN, as in Java, where Python floats raise
    p = P
    d_new = np.array(D, dtype=np.float64)
    b = np.zeros(n)
    with np.errstate(all="ignore"):
        _cholesky_recurrences(p, d_new, b, P, D, coeff, n)
    # entry r of the working vector after step j: v_r − p_0 L_r0 − … − p_j L_rj, in that order
    steps = np.empty((n, n + 1))
    steps[:, 0] = v
    np.multiply(L, P[None, :], out=steps[:, 1:])
    np.negative(steps[:, 1:], out=steps[:, 1:])
    partial = np.cumsum(steps, axis=1)[:, 1:]
    with np.errstate(all="ignore"):  # an infinite b_j times a zero above the diagonal, dropped by tril
        L += np.tril(np.asarray(b)[None, :] * partial, -1)  # below the diagonal only; adding 0 elsewhere is exact
    D[:] = d_new


def _cholesky_recurrences(p, d_new, b, P, D, coeff, n):
    """The scalar recurrences of updateCholeskyFactor for D and b (C1 if coeff > 0, else C2)."""
    if coeff > 0.0:
        t = float(coeff)
        for j in range(n):
            d = d_new[j]
            dbar = d + t * p[j] * p[j]
            d_new[j] = dbar
            b[j] = p[j] * t / dbar
            t *= d / dbar
    else:
        t = sequential_sum(0.0, P * P / D)
        root = 1.0 + coeff * t
        root = 0.0 if root < 0.0 else math.sqrt(root)
        alpha = float(coeff)
        sigma = coeff / (1.0 + root)
        for j in range(n):
            d = d_new[j]
            pj = p[j] * p[j] / d
            theta = 1.0 + sigma * pj
            t -= pj
            if t < 0.0:
                t = 0.0  # rounding error
            plus = sigma * sigma * pj * t
            if j < n - 1 and plus <= _ZERO:
                plus = _ZERO
            rho = theta * theta + plus
            d_new[j] = rho * d
            if math.isnan(d_new[j]):
                raise OptimizationError(f"Cholesky update: d[{j}] is NaN")
            b[j] = alpha * p[j] / (rho * d)
            alpha /= rho
            rho = math.sqrt(rho)
            sigma *= (1.0 + rho) / (rho * (theta + rho))
            if j < n - 1 and not math.isfinite(sigma):
                raise OptimizationError(f"Cholesky update: sigma is NaN or infinite at {j}")


def _solve_lower(T: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``_solve_lower_reference``, compiled (the same bits)."""
    return solve_lower(np.asarray(T, dtype=np.float64), np.asarray(b, dtype=np.float64))


def _solve_upper_transposed(L: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``_solve_upper_transposed_reference``, compiled (the same bits)."""
    return solve_upper_transposed(np.asarray(L, dtype=np.float64), np.asarray(b, dtype=np.float64))


def _update_cholesky(L: np.ndarray, D: np.ndarray, v: np.ndarray, coeff: float) -> None:
    """``_update_cholesky_reference``, compiled (the same bits); L and D are float64 arrays updated in place."""
    status = update_cholesky(L, D, np.asarray(v, dtype=np.float64), float(coeff), _ZERO)
    if status < 0:
        raise OptimizationError(f"Cholesky update: d[{-status - 1}] is NaN")
    if status > 0:
        raise OptimizationError(f"Cholesky update: sigma is NaN or infinite at {status - 1}")


class _Search:
    """One findArgmin run's state: the objective, its gradient and the last function value."""

    def __init__(self, fun: Callable[[np.ndarray], float], grad: Callable[[np.ndarray], np.ndarray]):
        self.fun = fun
        self.grad = grad
        self.f = np.nan
        self.slope = 0.0

    def _value(self, x: np.ndarray) -> float:
        f = float(self.fun(x))
        if np.isnan(f):
            raise OptimizationError("objective function value is NaN")
        return f

    def line_search(self, xold: np.ndarray, gradient: np.ndarray, direct: np.ndarray, stpmax: float) -> np.ndarray:
        """Optimization.lnsrch without bounds; scales ``direct`` in place as Weka does."""
        fold = self.f
        alpha = np.inf
        alam2 = 0.0
        maxalam = 1.0
        total = float(np.sqrt(_dot(direct, direct)))
        if total > stpmax:
            direct *= stpmax / total
        else:
            maxalam = stpmax / total
        self.slope = _dot(gradient, direct)
        slope = self.slope
        x = xold.copy()
        if abs(slope) <= _ZERO:
            return x  # gradient and direction orthogonal: a minimum
        if slope > _ZERO:
            raise OptimizationError("g'·p positive: not a descent direction")
        test = float(np.max(np.abs(direct) / np.maximum(np.abs(x), 1.0)))
        if not test > _ZERO:
            return x  # zero direction
        alamin = _TOLX / test
        alam = min(alpha, 1.0)
        init_f = fold
        hi = lo = alam
        new_slope = 0.0
        fhi = flo = self.f
        k = 0
        while True:
            x = xold + alam * direct
            self.f = self._value(x)
            while np.isinf(self.f):  # too long a step: halve it
                alam *= 0.5
                if alam <= _EPSILON:
                    return x
                x = xold + alam * direct
                self.f = self._value(x)
                init_f = np.inf
            if self.f <= fold + _ALF * alam * slope:  # α-condition: sufficient decrease
                new_slope = _dot(self.grad(x), direct)
                if new_slope >= _BETA * slope:  # β-condition
                    return x
                if k == 0:  # first try: grow the step while the α-condition holds
                    upper = min(alpha, maxalam)
                    while not (alam >= upper or self.f > fold + _ALF * alam * slope):
                        lo, flo = alam, self.f
                        alam *= 2.0
                        if alam >= upper:
                            alam = upper
                        x = xold + alam * direct
                        self.f = self._value(x)
                        new_slope = _dot(self.grad(x), direct)
                        if new_slope >= _BETA * slope:
                            return x
                    hi, fhi = alam, self.f
                else:
                    hi, lo, flo = alam2, alam, self.f
                break
            if alam < alamin:  # no step satisfies the α-condition
                if init_f < fold:
                    alam = min(1.0, alpha)
                    x = xold + alam * direct  # Weka keeps the last objective value here
                else:
                    x = xold.copy()
                    self.f = fold
                return x
            if k == 0:  # first backtrack: quadratic interpolation
                if not np.isinf(init_f):
                    init_f = self.f
                tmplam = -0.5 * alam * slope / ((self.f - fold) / alam - slope)
            else:  # later backtracks: cubic interpolation
                rhs1 = self.f - fold - alam * slope
                rhs2 = fhi - fold - alam2 * slope
                a = (rhs1 / (alam * alam) - rhs2 / (alam2 * alam2)) / (alam - alam2)
                b = (-alam2 * rhs1 / (alam * alam) + alam * rhs2 / (alam2 * alam2)) / (alam - alam2)
                if a == 0.0:
                    tmplam = -slope / (2.0 * b)
                else:
                    disc = b * b - 3.0 * a * slope
                    if disc < 0.0:
                        disc = 0.0
                    numerator = -b + float(np.sqrt(disc))
                    if numerator >= _MAX_VALUE:
                        numerator = _MAX_VALUE
                    tmplam = numerator / (3.0 * a)
                if tmplam > 0.5 * alam:
                    tmplam = 0.5 * alam
            alam2 = alam
            fhi = self.f
            alam = max(tmplam, 0.1 * alam)
            if alam > alpha:
                raise OptimizationError(f"line search: infeasible step {alam}")
            k += 1
        # quadratic interpolation between lo and hi for the β-condition; else take lo
        ldiff = hi - lo
        while new_slope < _BETA * slope and ldiff >= alamin:
            lincr = -0.5 * new_slope * ldiff * ldiff / (fhi - flo - new_slope * ldiff)
            if lincr < 0.2 * ldiff:
                lincr = 0.2 * ldiff
            alam = lo + lincr
            if alam >= hi:
                alam = hi
                lincr = ldiff
            x = xold + alam * direct
            self.f = self._value(x)
            if self.f > fold + _ALF * alam * slope:
                ldiff = lincr
                fhi = self.f
            else:
                new_slope = _dot(self.grad(x), direct)
                if new_slope < _BETA * slope:
                    lo = alam
                    ldiff -= lincr
                    flo = self.f
        if new_slope < _BETA * slope:
            alam = lo
            x = xold + alam * direct
            self.f = flo
        return x

    def find_argmin(self, x0: np.ndarray, max_iter: int) -> tuple[np.ndarray, bool, int]:
        """Optimization.findArgmin: (x, converged, iterations)."""
        n = len(x0)
        self.f = self._value(x0)
        grad = np.asarray(self.grad(x0), dtype=np.float64)
        L = np.asfortranarray(np.eye(n))  # column-major: the updates and solves walk columns
        D = np.ones(n)
        direct = -grad
        stpmax = _STPMX * max(float(np.sqrt(_dot(grad, grad))), float(n))
        x = np.asarray(x0, dtype=np.float64).copy()
        for step in range(max_iter):
            old_x, old_grad = x, grad
            x = self.line_search(x, grad, direct, stpmax)
            delta_x = x - old_x
            finish = float(np.max(np.abs(delta_x) / np.maximum(np.abs(x), 1.0))) < _ZERO
            grad = np.asarray(self.grad(x), dtype=np.float64)
            delta_grad = grad - old_grad
            denom = _dot(delta_x, delta_grad)
            dx_sq = _dot(delta_x, delta_x)
            dg_sq = _dot(delta_grad, delta_grad)
            test = float(np.max(np.abs(grad) * np.maximum(np.abs(direct), 1.0) / max(abs(self.f), 1.0)))
            if test < _ZERO or abs(denom + 0.0) < _ZERO:
                finish = True
            if finish:
                self.f = self._value(x)
                return x, True, step + 1
            if not denom < max(_ZERO * float(np.sqrt(dx_sq)) * float(np.sqrt(dg_sq)), _ZERO):
                _update_cholesky(L, D, delta_grad, 1.0 / denom)
                _update_cholesky(L, D, old_grad, 1.0 / self.slope)
            LD = np.asfortranarray(np.tril(L * D[None, :]))
            y = _solve_lower(LD, -grad)
            if np.isnan(y).any():
                raise OptimizationError("L·direction is NaN")
            direct = _solve_upper_transposed(L, y)
            if np.isnan(direct).any():
                raise OptimizationError("direction is NaN")
        return x, False, max_iter


def weka_minimize(fun: Callable[[np.ndarray], float], grad: Callable[[np.ndarray], np.ndarray],
                  x0, max_iter: int = -1) -> MinimizeResult:
    """Minimise ``fun`` from ``x0`` along Weka 3.6's quasi-Newton path.

    ``max_iter=-1`` is what Weka's Logistic does by default (``-M -1``): run findArgmin's 200
    iterations, and while it has not converged, start it again from where it stopped (with a
    fresh inverse Hessian). A positive ``max_iter`` is one findArgmin run of that many
    iterations, keeping the last point if it has not converged (``-M k``).
    """
    search = _Search(fun, grad)
    x = np.asarray(x0, dtype=np.float64).copy()
    if max_iter == -1:
        iterations = restarts = 0
        while True:
            x, converged, used = search.find_argmin(x, 200)
            iterations += used
            if converged:
                return MinimizeResult(x, search.f, iterations, restarts)
            restarts += 1
    if max_iter < 1:
        raise ValueError(f"max_iter must be -1 or positive, got {max_iter!r}")
    x, _, used = search.find_argmin(x, max_iter)
    return MinimizeResult(x, search.f, used, 0)
