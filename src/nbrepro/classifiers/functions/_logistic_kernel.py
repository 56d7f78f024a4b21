# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka Logistic's whole fit compiled (numba): its penalised likelihood, its gradient and Weka's
quasi-Newton path over them (``weka.core.Optimization.findArgmin``, restarted until it converges).

Hall's calibration fits a Logistic in every fit of every column (550 fits per column and data
set), and Weka's optimiser asks for the objective and the gradient thousands of times per fit
on a few hundred rows: in numpy and Python each step was dozens of small calls, which cost
more than the arithmetic (calibrated AWNB on ecoli: 3.0 s a fit, now 0.7 s). Everything here
follows the reference in ``tests/classifiers/functions/weka_optimization_reference.py``
(the optimiser) and the numpy form of the objective kept in
``tests/classifiers/functions/test_logistic_kernel.py``, operation for operation: each linear
predictor summed over the columns in order, every sum over rows in training order, a row's
own-class gradient terms added after its probability terms (a 0 for the other classes, as
numpy added it). The tests compare the two paths bit for bit, restarts included. ``exp`` and
``log`` are the C library's, which numpy's equal (tested).
"""

from __future__ import annotations

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

from ._optimization_kernel import sequential_dot, solve_lower_scaled, solve_upper_transposed, update_cholesky


@njit(cache=True, error_model="numpy")  # IEEE arithmetic, as Java
def penalised_gradient(expo, denom, w, S, y, B, ridge):
    """Σ_i [w_i·P(c | s_i)·s_ij − w_i·s_ij·(y_i = c)], row by row (each row's probability terms,
    then its own-class terms, 0 for the other classes), + 2·ridge·β_cj for j ≥ 1."""
    k, dim = B.shape
    # numpy's form adds a 0 for the other classes' own-class terms; the sums start at +0.0 and a
    # sum is −0.0 only when both terms are, so no sum here is ever −0.0 and adding 0 changes none
    grad = np.zeros((k, dim))
    for i in range(S.shape[0]):
        for c in range(k):
            p = w[i] * (expo[c, i] / denom[i])
            for j in range(dim):
                grad[c, j] += p * S[i, j]
        c = y[i]
        if 0 <= c < k:
            for j in range(dim):
                grad[c, j] += -(w[i] * S[i, j])
    twice = 2.0 * ridge
    for c in range(k):
        for j in range(1, dim):
            grad[c, j] += twice * B[c, j]
    return grad.ravel()


# ---- Weka's quasi-Newton path: ``weka_optimization_reference._Search`` statement by statement. Python's
# ``min``/``max`` are spelled out (their NaN behaviour); a division by zero gives Java's
# infinity where the Python reference would raise.

_EPSILON = 2.220446049250313e-16
_ZERO = 1.4901161193847656e-08  # √ε, as the reference optimiser
_ALF = 1.0e-4
_BETA = 0.9
_TOLX = 1.0e-6
_STPMX = 100.0
_MAX_VALUE = np.finfo(np.float64).max

# failures, as the reference optimiser's OptimizationError messages (logistic.OPTIMIZATION_FAILURES)
NAN_OBJECTIVE, ASCENT, INFEASIBLE, CHOLESKY_D, CHOLESKY_SIGMA, NAN_LDIRECTION, NAN_DIRECTION = 1, 2, 3, 4, 5, 6, 7


@njit(cache=True)
def _pymax(a, b):
    return b if b > a else a  # Python's max(a, b)


@njit(cache=True)
def _pymin(a, b):
    return b if b < a else a  # Python's min(a, b)


@njit(cache=True, error_model="numpy")
def _shift(x, data, state):
    """Per row: the linear predictors η, their maximum, exp(η_c − max) and the denominator
    exp(−max) + Σ_c exp(η_c − max), into ``state`` = (eta, top, expo, denom, at, known); the
    line search asks for the value and the gradient at the same point ``at``, so it is kept.
    Returns the number of non-reference classes."""
    ST = data[1]
    eta, top, expo, denom, at, known = state
    dim, n = ST.shape
    k = x.shape[0] // dim
    if known[0]:
        same = True
        for i in range(x.shape[0]):
            if x[i] != at[i]:
                same = False
                break
        if same:
            return k
    for c in range(k):
        for i in range(n):
            eta[c, i] = 0.0
        for j in range(dim):
            b = x[c * dim + j]
            for i in range(n):
                eta[c, i] += b * ST[j, i]
    for i in range(n):
        t = eta[0, i]
        for c in range(1, k):
            if np.isnan(t):
                break
            v = eta[c, i]
            if np.isnan(v) or v > t:
                t = v
        top[i] = t
        d = np.exp(-top[i])
        for c in range(k):
            expo[c, i] = np.exp(eta[c, i] - t)
        for c in range(k):
            d = d + expo[c, i]
        denom[i] = d
    at[:] = x
    known[0] = True
    return k


@njit(cache=True, error_model="numpy")
def _objective(x, data, state):
    """−Σ_i w_i log P(y_i | s_i) + ridge·Σ_c Σ_{j≥1} β_cj² (η of the last, reference class = 0)."""
    _, ST, y, w, ridge = data
    k = _shift(x, data, state)
    eta, top, _, denom, _, _ = state
    total = 0.0
    for i in range(y.shape[0]):
        own = -top[i] if y[i] == k else eta[y[i], i] - top[i]
        total += -(w[i] * (own - np.log(denom[i])))
    dim = ST.shape[0]
    for c in range(k):
        for j in range(1, dim):
            total += ridge * x[c * dim + j] * x[c * dim + j]
    return total


@njit(cache=True, error_model="numpy")
def _gradient(x, data, state):
    S, ST, y, w, ridge = data
    k = _shift(x, data, state)
    _, _, expo, denom, _, _ = state
    return penalised_gradient(expo, denom, w, S, y, x.reshape(k, ST.shape[0]), ridge)


@njit(cache=True)
def _np_maximum(a, b):
    return a if (a >= b or np.isnan(a)) else b  # np.maximum: NaN wins


@njit(cache=True, error_model="numpy")
def _max_scaled(a, b):
    """np.max(|a| / np.maximum(|b|, 1)): NaN if any quotient is."""
    m = -np.inf
    for i in range(a.shape[0]):
        q = abs(a[i]) / _np_maximum(abs(b[i]), 1.0)
        if np.isnan(q) or np.isnan(m):
            m = np.nan
        elif q > m:
            m = q
    return m


@njit(cache=True, error_model="numpy")
def _line_search(xold, gradient, direct, stpmax, f, data, state):
    """Optimization.lnsrch without bounds (``_Search.line_search``). Returns (x, f, slope, status);
    scales ``direct`` in place as Weka does."""
    fold = f
    alpha = np.inf
    alam2 = 0.0
    maxalam = 1.0
    total = np.sqrt(sequential_dot(direct, direct))
    if total > stpmax:
        scale = stpmax / total
        for i in range(direct.shape[0]):
            direct[i] *= scale
    else:
        maxalam = stpmax / total
    slope = sequential_dot(gradient, direct)
    x = xold.copy()
    if abs(slope) <= _ZERO:
        return x, f, slope, 0
    if slope > _ZERO:
        return x, f, slope, ASCENT
    test = _max_scaled(direct, x)
    if not test > _ZERO:
        return x, f, slope, 0
    alamin = _TOLX / test
    alam = _pymin(alpha, 1.0)
    init_f = fold
    hi = lo = alam
    new_slope = 0.0
    fhi = flo = f
    k = 0
    while True:
        x = xold + alam * direct
        f = _objective(x, data, state)
        if np.isnan(f):
            return x, f, slope, NAN_OBJECTIVE
        while np.isinf(f):  # too long a step: halve it
            alam *= 0.5
            if alam <= _EPSILON:
                return x, f, slope, 0
            x = xold + alam * direct
            f = _objective(x, data, state)
            if np.isnan(f):
                return x, f, slope, NAN_OBJECTIVE
            init_f = np.inf
        if f <= fold + _ALF * alam * slope:  # α-condition: sufficient decrease
            new_slope = sequential_dot(_gradient(x, data, state), direct)
            if new_slope >= _BETA * slope:  # β-condition
                return x, f, slope, 0
            if k == 0:  # first try: grow the step while the α-condition holds
                upper = _pymin(alpha, maxalam)
                while not (alam >= upper or f > fold + _ALF * alam * slope):
                    lo, flo = alam, f
                    alam *= 2.0
                    if alam >= upper:
                        alam = upper
                    x = xold + alam * direct
                    f = _objective(x, data, state)
                    if np.isnan(f):
                        return x, f, slope, NAN_OBJECTIVE
                    new_slope = sequential_dot(_gradient(x, data, state), direct)
                    if new_slope >= _BETA * slope:
                        return x, f, slope, 0
                hi, fhi = alam, f
            else:
                hi, lo, flo = alam2, alam, f
            break
        if alam < alamin:  # no step satisfies the α-condition
            if init_f < fold:
                alam = _pymin(1.0, alpha)
                x = xold + alam * direct  # Weka keeps the last objective value here
            else:
                x = xold.copy()
                f = fold
            return x, f, slope, 0
        if k == 0:  # first backtrack: quadratic interpolation
            if not np.isinf(init_f):
                init_f = f
            tmplam = -0.5 * alam * slope / ((f - fold) / alam - slope)
        else:  # later backtracks: cubic interpolation
            rhs1 = f - fold - alam * slope
            rhs2 = fhi - fold - alam2 * slope
            a = (rhs1 / (alam * alam) - rhs2 / (alam2 * alam2)) / (alam - alam2)
            b = (-alam2 * rhs1 / (alam * alam) + alam * rhs2 / (alam2 * alam2)) / (alam - alam2)
            if a == 0.0:
                tmplam = -slope / (2.0 * b)
            else:
                disc = b * b - 3.0 * a * slope
                if disc < 0.0:
                    disc = 0.0
                numerator = -b + np.sqrt(disc)
                if numerator >= _MAX_VALUE:
                    numerator = _MAX_VALUE
                tmplam = numerator / (3.0 * a)
            if tmplam > 0.5 * alam:
                tmplam = 0.5 * alam
        alam2 = alam
        fhi = f
        alam = _pymax(tmplam, 0.1 * alam)
        if alam > alpha:
            return x, f, slope, INFEASIBLE
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
        f = _objective(x, data, state)
        if np.isnan(f):
            return x, f, slope, NAN_OBJECTIVE
        if f > fold + _ALF * alam * slope:
            ldiff = lincr
            fhi = f
        else:
            new_slope = sequential_dot(_gradient(x, data, state), direct)
            if new_slope < _BETA * slope:
                lo = alam
                ldiff -= lincr
                flo = f
    if new_slope < _BETA * slope:
        alam = lo
        x = xold + alam * direct
        f = flo
    return x, f, slope, 0


@njit(cache=True, error_model="numpy")
def _find_argmin(x0, max_iter, data, state):
    """Optimization.findArgmin (``_Search.find_argmin``): (x, f, converged, iterations, status)."""
    n = x0.shape[0]
    f = _objective(x0, data, state)
    if np.isnan(f):
        return x0.copy(), f, False, 0, NAN_OBJECTIVE
    grad = _gradient(x0, data, state)
    L = np.eye(n)
    D = np.ones(n)
    direct = -grad
    stpmax = _STPMX * _pymax(np.sqrt(sequential_dot(grad, grad)), float(n))
    x = x0.copy()
    for step in range(max_iter):
        old_x, old_grad = x, grad
        x, f, slope, status = _line_search(x, grad, direct, stpmax, f, data, state)
        if status:
            return x, f, False, step, status
        delta_x = x - old_x
        finish = _max_scaled(delta_x, x) < _ZERO
        grad = _gradient(x, data, state)
        delta_grad = grad - old_grad
        denom = sequential_dot(delta_x, delta_grad)
        dx_sq = sequential_dot(delta_x, delta_x)
        dg_sq = sequential_dot(delta_grad, delta_grad)
        test = -np.inf
        scale_f = _pymax(abs(f), 1.0)
        for i in range(n):
            q = abs(grad[i]) * _np_maximum(abs(direct[i]), 1.0) / scale_f
            if np.isnan(q) or np.isnan(test):
                test = np.nan
            elif q > test:
                test = q
        if test < _ZERO or abs(denom + 0.0) < _ZERO:
            finish = True
        if finish:
            f = _objective(x, data, state)
            if np.isnan(f):
                return x, f, False, step + 1, NAN_OBJECTIVE
            return x, f, True, step + 1, 0
        if not denom < _pymax(_ZERO * np.sqrt(dx_sq) * np.sqrt(dg_sq), _ZERO):
            status = update_cholesky(L, D, delta_grad, 1.0 / denom, _ZERO)
            if status == 0:
                status = update_cholesky(L, D, old_grad, 1.0 / slope, _ZERO)
            if status < 0:
                return x, f, False, step + 1, CHOLESKY_D
            if status > 0:
                return x, f, False, step + 1, CHOLESKY_SIGMA
        yv = solve_lower_scaled(L, D, -grad)
        for i in range(n):
            if np.isnan(yv[i]):
                return x, f, False, step + 1, NAN_LDIRECTION
        direct = solve_upper_transposed(L, yv)
        for i in range(n):
            if np.isnan(direct[i]):
                return x, f, False, step + 1, NAN_DIRECTION
    return x, f, False, max_iter, 0


@njit(cache=True, error_model="numpy")
def minimize_penalised_likelihood(S, ST, y, w, ridge, x0, max_iter):
    """``weka_optimization_reference.weka_minimize`` of ``_objective``: (x, f, iterations,
    restarts, status); ``max_iter`` −1 restarts findArgmin's 200 iterations until it converges."""
    k = x0.shape[0] // ST.shape[0]
    n = ST.shape[1]
    state = (
        np.empty((k, n)),
        np.empty(n),
        np.empty((k, n)),
        np.empty(n),
        np.empty(x0.shape[0]),
        np.zeros(1, dtype=np.bool_),
    )
    data = (S, ST, y, w, ridge)
    x = x0.copy()
    if max_iter == -1:
        iterations = restarts = 0
        while True:
            # an int64 like max_iter's, not Literal[int](200): one compiled _find_argmin
            x, f, converged, used, status = _find_argmin(x, np.int64(200), data, state)
            iterations += used
            if status or converged:
                return x, f, iterations, restarts, status
            restarts += 1
    x, f, converged, used, status = _find_argmin(x, max_iter, data, state)
    return x, f, used, 0, status
