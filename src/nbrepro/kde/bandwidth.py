# SPDX-License-Identifier: GPL-3.0-or-later
"""Bandwidths of a univariate Gaussian kernel density estimate: the nine rules of Liu et al.

    h = bandwidth(x, rule)

==========  ==================================================================  ============
rule        bandwidth                                                           as in
==========  ==================================================================  ============
``nrd-i``   1.06 σ̂ n^(-1/5) (normal reference)                                   Silverman
``nrd``     1.06 min(σ̂, IQR/1.34) n^(-1/5)                                       R ``bw.nrd``
``nrd0``    0.9 min(σ̂, IQR/1.34) n^(-1/5)                                        R ``bw.nrd0``
``sp``      range / (2 (1 + log2 n))                                              S-PLUS ≤ 5
``ucv``     minimiser of the unbiased (least-squares) CV score                   R ``bw.ucv``
``bcv``     minimiser of the biased CV score                                     R ``bw.bcv``
``ste``     Sheather–Jones, solve-the-equation                                   R ``bw.SJ(method = "ste")``
``dpi``     Sheather–Jones, direct plug-in                                       R ``bw.SJ(method = "dpi")``
``weka``    max(range/√n, precision/6) of the values rounded to the precision   Weka's ``KernelEstimator``
==========  ==================================================================  ============

The R rules are ports of R 4.2's ``bandwidths.R``/``bandwidths.c``: pairwise distances
binned into ``nb = 1000`` bins (from the values themselves for n ≤ 500, from 1000 bins of
the data above), R's ``optimize`` and ``uniroot`` with R's tolerances and interval widening,
and R's ``var`` and type-7 quantiles (``r_numerics``). They agree with R to rounding.
Where R stops with an error this raises ``BandwidthError`` with R's message.
"""
from __future__ import annotations

import math

import numpy as np

from .. import libm
from ..errors import BandwidthError
from ..weka.estimators import KERNEL_MIN_PRECISION, numeric_precision, round_to_precision
from ._kernels import BCV, PHI4, PHI6, UCV, binned_score_sums
from .r_numerics import (
    ALL_EQUAL,
    DELMAX,
    ONE_OVER_SQRT_2PI,
    SQRT_PI,
    bin_indices,
    bin_width,
    brent_fmin,
    check_sample,
    r_iqr,
    r_pow,
    r_sd,
    r_var,
    uniroot,
)

RULES = ("nrd-i", "nrd", "nrd0", "sp", "ucv", "bcv", "ste", "dpi", "weka")


# ---- R's binned pairwise distances ---------------------------------------------------
def pair_counts(x: np.ndarray, nb: int = 1000) -> tuple[float, np.ndarray, np.ndarray]:
    """R's ``bw_pair_cnts``: (bin width d, distances k, counts) with counts[t] the number of pairs
    of values whose bins are k[t] apart, for the k that have pairs (R's empty bins add
    nothing). Up to nb/2 values, each value's bin is trunc(x/d) (R's ``bw_den``); above,
    the values are first counted into nb bins from their minimum (``bw_den_binned``). The
    counts are whole numbers, so any summation order gives R's."""
    n = len(x)
    d = bin_width(x, nb)
    if n > nb / 2:
        bins = bin_indices(x, d, nb)
    else:
        bins = np.trunc(x / d).astype(np.int64)  # C's (int) cast: towards zero
        bins = bins - bins.min()
    if len(bins) <= 400:  # few values: every pair of them (each counted twice, plus n self-pairs)
        gaps = np.abs(bins[:, None] - bins[None, :]).ravel()
        both = np.bincount(gaps, minlength=nb)[:nb]
        both[0] -= len(bins)
        cnt = (both // 2).astype(np.float64)
    else:
        per_bin = np.bincount(bins)
        auto = np.correlate(per_bin, per_bin, mode="full")[len(per_bin) - 1:]  # Σ_i c_i c_{i+k}
        cnt = auto[:nb].astype(np.float64)
        cnt[0] = float(np.sum(per_bin * (per_bin - 1)) // 2)  # pairs within a bin, not with themselves
        cnt = np.concatenate((cnt, np.zeros(nb - len(cnt))))
    k = np.flatnonzero(cnt)
    return d, k.astype(np.float64), cnt[k]


def _binned_sum(kind: int, d: float, pairs, h: float) -> float:
    """R's sum over the occupied distances k (ascending) with their counts: Σ cnt · term(δ),
    δ = (k·d/h)², stopping at the first δ ≥ 1000 (``_kernels.binned_score_sums``, the code the
    many-sample path runs too, so both give the same bits)."""
    k, cnt = pairs
    return float(
        binned_score_sums(
            kind,
            np.asarray(k, dtype=np.float64)[None, :],
            np.asarray(cnt, dtype=np.float64)[None, :],
            np.array([d], dtype=np.float64),
            np.zeros(1, dtype=np.int64),
            np.array([h], dtype=np.float64),
            DELMAX,
        )[0]
    )


def ucv_score(n: int, d: float, pairs, h: float) -> float:
    s = _binned_sum(UCV, d, pairs, h)
    return float((0.5 + s / n) / (n * np.float64(h) * SQRT_PI))


def bcv_score(n: int, d: float, pairs, h: float) -> float:
    s = _binned_sum(BCV, d, pairs, h)
    return float((1.0 + s / (32.0 * n)) / (2.0 * n * np.float64(h) * SQRT_PI))


def phi4(n: int, d: float, pairs, h: float) -> float:
    """R's ``bw_phi4``: the estimate of the integral of f''² used by Sheather–Jones (SDh)."""
    s = _binned_sum(PHI4, d, pairs, h)
    s = 2.0 * s + n * 3.0
    return float(np.float64(s) / (float(n) * (n - 1) * libm.power(np.float64(h), 5.0)) * ONE_OVER_SQRT_2PI)


def phi6(n: int, d: float, pairs, h: float) -> float:
    """R's ``bw_phi6``: the estimate of the integral of the squared third derivative (TDh)."""
    s = _binned_sum(PHI6, d, pairs, h)
    s = 2.0 * s - 15.0 * n
    return float(np.float64(s) / (float(n) * (n - 1) * libm.power(np.float64(h), 7.0)) * ONE_OVER_SQRT_2PI)


# ---- the rules -----------------------------------------------------------------------
def bw_nrd0(x) -> float:
    x = check_sample(x)
    hi = r_sd(x)
    lo = min(hi, r_iqr(x) / 1.34)
    if not lo:
        lo = hi or abs(float(x[0])) or 1.0
    return 0.9 * lo * r_pow(len(x), -0.2)


def bw_nrd(x) -> float:
    x = check_sample(x)
    h = r_iqr(x) / 1.34
    return 1.06 * min(math.sqrt(r_var(x)), h) * r_pow(len(x), -1 / 5)


def bw_nrd_i(x) -> float:
    """Silverman's normal reference 1.06 σ̂ n^(-1/5), σ̂ the sample standard deviation."""
    x = check_sample(x)
    return 1.06 * r_sd(x) * r_pow(len(x), -1 / 5)


def bw_sp(x) -> float:
    """range / (2 (1 + log2 n)), the old S-PLUS default (Liu et al.'s SP)."""
    x = check_sample(x)
    return float(np.max(x) - np.min(x)) / (2.0 * (1.0 + math.log2(len(x))))


def _cv_rule(x, score, nb: int, search_upper: float = 1.0) -> float:
    x = check_sample(x)
    n = len(x)
    hmax = 1.144 * math.sqrt(r_var(x)) * r_pow(n, -1 / 5)
    lower, upper = 0.1 * hmax, hmax * search_upper
    tol = 0.1 * lower
    d, k, cnt = pair_counts(x, nb)
    if not lower < upper:
        raise BandwidthError(ALL_EQUAL)
    return brent_fmin(lambda h: score(n, d, (k, cnt), h), lower, upper, tol)


def bw_ucv(x, nb: int = 1000, search_upper: float = 1.0) -> float:
    """R's ``bw.ucv(x, nb, upper = search_upper · hmax)``, hmax = 1.144 σ̂ n^(-1/5)."""
    return _cv_rule(x, ucv_score, nb, search_upper)


def bw_bcv(x, nb: int = 1000, search_upper: float = 1.0) -> float:
    """R's ``bw.bcv(x, nb, upper = search_upper · hmax)``, hmax = 1.144 σ̂ n^(-1/5)."""
    return _cv_rule(x, bcv_score, nb, search_upper)


def bw_sj(x, method: str = "ste", nb: int = 1000) -> float:
    """R's ``bw.SJ``: Sheather & Jones (1991), ``"ste"`` (solve the equation) or ``"dpi"``."""
    x = check_sample(x)
    n = len(x)
    d, k, counts = pair_counts(x, nb)
    cnt = (k, counts)
    scale = min(r_sd(x), r_iqr(x) / 1.349)
    a = 1.24 * scale * r_pow(n, -1 / 7)
    b = 1.23 * scale * r_pow(n, -1 / 9)
    c1 = 1.0 / (2.0 * math.sqrt(math.pi) * n)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        td = -phi6(n, d, cnt, b)
    if not math.isfinite(td) or td <= 0:
        raise BandwidthError("sample is too sparse to find TD")
    if method == "dpi":
        return r_pow(c1 / phi4(n, d, cnt, r_pow(2.394 / (n * td), 1 / 7)), 1 / 5)
    if method != "ste":
        raise ValueError(f"bw_sj: method must be 'ste' or 'dpi', got {method!r}")
    hmax = 1.144 * scale * r_pow(n, -1 / 5)
    lower, upper = 0.1 * hmax, hmax
    alph2 = 1.357 * r_pow(phi4(n, d, cnt, a) / td, 1 / 7)
    if not math.isfinite(alph2):
        raise BandwidthError("sample is too sparse to find alph2")

    def f_sd(h):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return r_pow(c1 / phi4(n, d, cnt, alph2 * r_pow(h, 5 / 7)), 1 / 5) - h

    itry = 1
    while f_sd(lower) * f_sd(upper) > 0:
        if itry > 99:
            raise BandwidthError("no solution in the specified range of bandwidths")
        if itry % 2:
            upper *= 1.2
        else:
            lower /= 1.2
        itry += 1
    tol = 0.1 * lower  # R's default tol = 0.1 * lower, forced after the widening
    return uniroot(f_sd, lower, upper, tol)


def bw_weka(x, precision: float | None = None) -> float:
    """Weka 3.6's ``KernelEstimator`` standard deviation for equally weighted values: the values
    rounded to ``precision`` (default: Weka naive Bayes's, the mean gap between distinct
    values; at least 1e-6, as Weka's estimator takes), then max(range/√n, precision/6), or
    precision/6 when all are equal."""
    x = np.asarray(x, dtype=np.float64).ravel()
    if len(x) < 1:
        raise BandwidthError("need at least 1 data point")
    p = numeric_precision(x) if precision is None else float(precision)
    p = max(p, KERNEL_MIN_PRECISION)
    v = round_to_precision(x, p)
    spread = float(np.max(v) - np.min(v))
    return max(spread / math.sqrt(len(v)), p / 6.0) if spread > 0 else p / 6.0


def bandwidth(x, rule: str, precision: float | None = None, search_upper: float = 1.0) -> float:
    """The bandwidth of ``rule`` (one of ``RULES``) for the values ``x``.

    ``precision`` is used by ``"weka"`` only (see ``bw_weka``). ``search_upper`` is used by
    ``"ucv"`` and ``"bcv"`` only: the upper end of R's search, in units of R's own upper end
    hmax = 1.144 σ̂ n^(-1/5) (1, R's default; the lower end stays 0.1·hmax). Raises
    ``BandwidthError`` where the rule has no answer (R's errors, constant data, fewer than
    two values)."""
    if rule not in RULES:
        raise ValueError(f"unknown bandwidth rule {rule!r}; one of {', '.join(RULES)}")
    if not search_upper > 0.1:
        raise ValueError(f"search_upper must exceed the lower end 0.1, got {search_upper!r}")
    if rule == "weka":
        return bw_weka(x, precision)
    if rule in ("ucv", "bcv"):
        return (bw_ucv if rule == "ucv" else bw_bcv)(x, search_upper=search_upper)
    return {
        "nrd-i": bw_nrd_i,
        "nrd": bw_nrd,
        "nrd0": bw_nrd0,
        "sp": bw_sp,
        "ste": lambda v: bw_sj(v, "ste"),
        "dpi": lambda v: bw_sj(v, "dpi"),
    }[rule](x)
