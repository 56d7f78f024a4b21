# SPDX-License-Identifier: GPL-3.0-or-later
"""The pieces of R 4.2 that R's bandwidth selectors are built from, ported so that the
bandwidths equal R's: ``var``/``sd`` (two-pass mean and sums in long double, ``cov.c``),
``quantile(type = 7)``, ``optimize`` (Brent's ``fmin``, ``optimize.c``) and ``uniroot``
(``R_zeroin2``, ``zeroin.c``).

Why not scipy: ``scipy.optimize.minimize_scalar(method="bounded")`` is also Brent's method
but starts and stops differently, and R's selectors stop at a loose tolerance (a tenth of
the lower end of the search interval), so a different optimiser returns a visibly different
bandwidth. Only R's own iteration gives R's number.
"""
from __future__ import annotations

import math
import sys

import numpy as np

from ..errors import BandwidthError

DBL_EPSILON = sys.float_info.epsilon
DBL_MAX = sys.float_info.max


def r_mean(x: np.ndarray) -> float:
    """R's two-pass mean: the long-double sum over n, corrected by the mean residual."""
    xl = np.asarray(x, dtype=np.longdouble)
    n = np.longdouble(len(xl))
    tmp = np.cumsum(xl)[-1] / n
    if np.isfinite(tmp):
        tmp = tmp + np.cumsum(xl - tmp)[-1] / n
    return float(tmp)


def r_var(x: np.ndarray) -> float:
    """R's ``var(x)`` of a vector: Σ (x − mean)² in long double over n − 1."""
    x = np.asarray(x, dtype=np.float64)
    if len(x) < 2:
        return math.nan
    d = (x - r_mean(x)).astype(np.longdouble)
    return float(np.cumsum(d * d)[-1] / np.longdouble(len(x) - 1))


def r_sd(x: np.ndarray) -> float:
    return math.sqrt(r_var(x))


def r_quantile7(x: np.ndarray, probs) -> np.ndarray:
    """R's ``quantile(x, probs, type = 7)``: linear interpolation between order statistics."""
    s = np.sort(np.asarray(x, dtype=np.float64))
    n = len(s)
    out = []
    for p in probs:
        index = 1.0 + max(n - 1, 0) * float(p)
        lo, hi = math.floor(index), math.ceil(index)
        q = s[lo - 1]
        if index > lo and s[hi - 1] != q:
            h = index - lo
            q = (1.0 - h) * q + h * s[hi - 1]
        out.append(float(q))
    return np.asarray(out)


def r_iqr(x: np.ndarray) -> float:
    q = r_quantile7(x, (0.25, 0.75))
    return float(q[1] - q[0])


def _finite_or_max(v: float) -> float:
    """What R's optimize/uniroot do with a non-finite function value: ±DBL_MAX (with a warning)."""
    if math.isfinite(v):
        return v
    return -DBL_MAX if v == -math.inf else DBL_MAX


def brent_fmin(f, ax: float, bx: float, tol: float) -> float:
    """R's ``optimize(f, c(ax, bx), tol = tol)$minimum``: Brent's golden-section and parabolic
    search (``Brent_fmin``), operation for operation."""
    if not (math.isfinite(ax) and math.isfinite(bx)):
        raise ValueError("optimize: invalid interval")
    if ax >= bx:
        raise ValueError("optimize: 'xmin' not less than 'xmax'")
    if not (math.isfinite(tol) and tol > 0.0):
        raise ValueError("optimize: invalid 'tol' value")
    c = (3.0 - math.sqrt(5.0)) * 0.5
    eps = math.sqrt(DBL_EPSILON)
    a, b = ax, bx
    v = a + c * (b - a)
    w = x = v
    d = e = 0.0
    fx = _finite_or_max(f(x))
    fv = fw = fx
    tol3 = tol / 3.0
    while True:
        xm = (a + b) * 0.5
        tol1 = eps * abs(x) + tol3
        t2 = tol1 * 2.0
        if abs(x - xm) <= t2 - (b - a) * 0.5:
            break
        p = q = r = 0.0
        if abs(e) > tol1:  # fit a parabola
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = (q - r) * 2.0
            if q > 0.0:
                p = -p
            else:
                q = -q
            r = e
            e = d
        if abs(p) >= abs(q * 0.5 * r) or p <= q * (a - x) or p >= q * (b - x):  # golden section
            e = (b - x) if x < xm else (a - x)
            d = c * e
        else:  # parabolic interpolation
            d = p / q
            u = x + d
            if u - a < t2 or b - u < t2:  # not too close to the ends
                d = tol1
                if x >= xm:
                    d = -d
        if abs(d) >= tol1:
            u = x + d
        elif d > 0.0:
            u = x + tol1
        else:
            u = x - tol1
        fu = _finite_or_max(f(u))
        if fu <= fx:
            if u < x:
                b = x
            else:
                a = x
            v, w, x = w, x, u
            fv, fw, fx = fw, fx, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fw or w == x:
                v, fv = w, fw
                w, fw = u, fu
            elif fu <= fv or v == x or v == w:  # noqa: SIM109 (R's fmin compares ==; `in` would match a NaN by identity)
                v, fv = u, fu
    return x


def zeroin2(f, ax: float, bx: float, fa: float, fb: float, tol: float, maxit: int = 1000) -> float:
    """R's ``R_zeroin2`` (Brent's root finder, with f(ax) and f(bx) given): the root."""
    a, b, c, fc = ax, bx, ax, fa
    if fa == 0.0:
        return a
    if fb == 0.0:
        return b
    for _ in range(maxit + 1):
        prev_step = b - a
        if abs(fc) < abs(fb):  # b must be the best approximation
            a, b, c = b, c, b
            fa, fb, fc = fb, fc, fb
        tol_act = 2 * DBL_EPSILON * abs(b) + tol / 2
        new_step = (c - b) / 2
        if abs(new_step) <= tol_act or fb == 0.0:
            return b
        if abs(prev_step) >= tol_act and abs(fa) > abs(fb):  # try interpolation
            cb = c - b
            if a == c:  # linear
                t1 = fb / fa
                p = cb * t1
                q = 1.0 - t1
            else:  # inverse quadratic
                q = fa / fc
                t1 = fb / fc
                t2 = fb / fa
                p = t2 * (cb * q * (q - t1) - (b - a) * (t1 - 1.0))
                q = (q - 1.0) * (t1 - 1.0) * (t2 - 1.0)
            if p > 0.0:
                q = -q
            else:
                p = -p
            if p < (0.75 * cb * q - abs(tol_act * q) / 2) and p < abs(prev_step * q / 2):
                new_step = p / q
        if abs(new_step) < tol_act:
            new_step = tol_act if new_step > 0.0 else -tol_act
        a, fa = b, fb
        b += new_step
        fb = _finite_or_max(f(b))
        if (fb > 0 and fc > 0) or (fb < 0 and fc < 0):
            c, fc = a, fa
    return b


def uniroot(f, lower: float, upper: float, tol: float, maxiter: int = 1000) -> float:
    """R's ``uniroot(f, c(lower, upper), tol = tol)$root`` without interval extension."""
    if not lower < upper:
        raise ValueError("uniroot: lower < upper is not fulfilled")
    f_lower, f_upper = f(lower), f(upper)
    if math.isnan(f_lower) or math.isnan(f_upper):
        raise ValueError("uniroot: f() is NA at an end point")
    if not np.sign(f_lower) * np.sign(f_upper) <= 0:
        raise ValueError("uniroot: f() values at end points not of opposite sign")
    return zeroin2(f, lower, upper, f_lower, f_upper, tol, maxiter)


# ---- shared by the one-sample rules (bandwidth.py) and the many-sample ones (many.py)
DELMAX = 1000.0  # R: kernel terms beyond sqrt(1000) standard deviations are cut off
SQRT_PI = 1.772453850905516027298167483341
ONE_OVER_SQRT_2PI = 0.398942280401432677939946059934

ALL_EQUAL = "all values are equal: no bandwidth (R: 'xmin' not less than 'xmax')"


def check_sample(x) -> np.ndarray:
    """The values as a flat float64 array, or R's error for fewer than 2 or a non-finite one."""
    x = np.asarray(x, dtype=np.float64).ravel()
    if len(x) < 2:
        raise BandwidthError("need at least 2 data points")
    if not np.all(np.isfinite(x)):
        raise BandwidthError("non-finite x in bandwidth calculation")
    return x


def bin_width(x: np.ndarray, nb: int) -> float:
    """R's d = 1.01 · range / nb (``BandwidthError`` for equal values)."""
    d = (float(np.max(x)) - float(np.min(x))) * 1.01 / nb
    if d == 0.0:
        raise BandwidthError(ALL_EQUAL)
    return d


def bin_indices(x: np.ndarray, d: float, nb: int) -> np.ndarray:
    """R's ``bw_den_binned`` for more than nb/2 values: each value's bin in 0..nb−1 (values
    R's tabulate(xx, nb) would drop are left out)."""
    xx = np.trunc(np.abs(x) / d) * np.sign(x)
    xx = (xx - np.min(xx) + 1).astype(np.int64)
    return xx[(xx >= 1) & (xx <= nb)] - 1


def r_pow(x: float, y: float) -> float:
    """R's x^y for doubles (C's pow; NaN for a negative base and fractional power)."""
    if y == 2.0:
        return x * x
    try:
        return math.pow(x, y)
    except (ValueError, OverflowError):
        return math.nan if x < 0 else math.inf
