# SPDX-License-Identifier: GPL-3.0-or-later
"""The bandwidth rules for many samples at once (naive Bayes needs one per attribute × class).

    h = bandwidths(samples, rule)

The closed-form rules and the statistics the others start from (R's ``var``, type-7
quantiles, the binned pair counts) are computed for all samples together on a padded
array, with the same operations in the same order as the one-sample functions.
The iterative rules (``ucv``, ``bcv``, ``ste``) run R's optimiser and root finder for all
samples in lockstep: every sample follows exactly its own scalar path (the same operations
on float64, element by element; ``tests/kde/test_kde_bandwidth.py`` checks equality with the
one-sample functions and with R), but each iteration evaluates the score of every active
sample in one vectorised pass over a padded table of its pair counts.
"""
from __future__ import annotations

import math

import numpy as np

from .. import libm
from ..errors import BandwidthError
from ..weka.estimators import KERNEL_MIN_PRECISION, numeric_precision
from ._kernels import BCV, PHI4, PHI6, UCV
from .bandwidth import RULES
from .r_numerics import (
    ALL_EQUAL,
    DBL_EPSILON,
    DBL_MAX,
    DELMAX,
    ONE_OVER_SQRT_2PI,
    SQRT_PI,
    bin_indices,
    bin_width,
    check_sample,
    r_pow,
)

_ITERATIVE = ("ucv", "bcv", "ste", "dpi")


class _Table:
    """Pair counts of several samples, padded to one width (padding counts 0: adds exactly nothing)."""

    def __init__(self, n, d, pairs):
        self.n = np.asarray(n, dtype=np.float64)
        self.d = np.asarray(d, dtype=np.float64)
        width = max((len(k) for k, _ in pairs), default=0)
        self.k = np.zeros((len(pairs), width))
        self.cnt = np.zeros((len(pairs), width))
        for i, (k, c) in enumerate(pairs):
            self.k[i, :len(k)] = k
            self.cnt[i, :len(c)] = c

    def _sums(self, kind, rows, h):
        """R's binned sum of each row at its h (compiled: ``_kernels.binned_score_sums``)."""
        from ._kernels import binned_score_sums  # numba: imported where first needed

        rows = np.asarray(rows, dtype=np.int64)
        h = np.ascontiguousarray(np.broadcast_to(np.asarray(h, dtype=np.float64), rows.shape))
        return binned_score_sums(kind, self.k, self.cnt, self.d, rows, h, DELMAX)

    def ucv(self, rows, h):
        s = self._sums(UCV, rows, h)
        n = self.n[rows]
        return (0.5 + s / n) / (n * h * SQRT_PI)

    def bcv(self, rows, h):
        s = self._sums(BCV, rows, h)
        n = self.n[rows]
        return (1.0 + s / (32.0 * n)) / (2.0 * n * h * SQRT_PI)

    def phi4(self, rows, h):
        s = self._sums(PHI4, rows, h)
        n = self.n[rows]
        s = 2.0 * s + n * 3.0
        return s / (n * (n - 1) * libm.power(h, 5.0)) * ONE_OVER_SQRT_2PI


def _finite_or_max(v):
    return np.where(np.isfinite(v), v, np.where(v == -np.inf, -DBL_MAX, DBL_MAX))


def brent_fmin_many(f, ax, bx, tol):
    """``r_numerics.brent_fmin`` for many intervals at once; ``f(rows, u)`` scores the rows' u."""
    c = (3.0 - math.sqrt(5.0)) * 0.5
    eps = math.sqrt(DBL_EPSILON)
    a, b = ax.copy(), bx.copy()
    v = a + c * (b - a)
    w, x = v.copy(), v.copy()
    d = np.zeros_like(a)
    e = np.zeros_like(a)
    rows = np.arange(len(a))
    fx = _finite_or_max(f(rows, x))
    fv, fw = fx.copy(), fx.copy()
    tol3 = tol / 3.0
    active = np.ones(len(a), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        while True:
            xm = (a + b) * 0.5
            tol1 = eps * np.abs(x) + tol3
            t2 = tol1 * 2.0
            active &= ~(np.abs(x - xm) <= t2 - (b - a) * 0.5)
            if not active.any():
                break
            i = np.flatnonzero(active)
            ai, bi, vi, wi, xi, di, ei = a[i], b[i], v[i], w[i], x[i], d[i], e[i]
            fxi, fvi, fwi, xmi, tol1i, t2i = fx[i], fv[i], fw[i], xm[i], tol1[i], t2[i]
            fit = np.abs(ei) > tol1i
            r = np.where(fit, (xi - wi) * (fxi - fvi), 0.0)
            q = np.where(fit, (xi - vi) * (fxi - fwi), 0.0)
            p = np.where(fit, (xi - vi) * q - (xi - wi) * r, 0.0)
            q = np.where(fit, (q - r) * 2.0, 0.0)
            positive = q > 0.0
            p = np.where(fit & positive, -p, p)
            q = np.where(fit & ~positive, -q, q)
            r = np.where(fit, ei, r)
            ei = np.where(fit, di, ei)
            golden = (np.abs(p) >= np.abs(q * 0.5 * r)) | (p <= q * (ai - xi)) | (p >= q * (bi - xi))
            ei = np.where(golden, np.where(xi < xmi, bi - xi, ai - xi), ei)
            para = p / q
            u_para = xi + para
            close = (u_para - ai < t2i) | (bi - u_para < t2i)
            di = np.where(golden, c * ei, np.where(close, np.where(xi >= xmi, -tol1i, tol1i), para))
            u = np.where(np.abs(di) >= tol1i, xi + di, np.where(di > 0.0, xi + tol1i, xi - tol1i))
            fu = _finite_or_max(f(i, u))
            better = fu <= fx[i]
            left = u < xi
            # fu ≤ fx: the new point becomes x
            a_new = np.where(better, np.where(left, ai, xi), np.where(left, u, ai))
            b_new = np.where(better, np.where(left, xi, bi), np.where(left, bi, u))
            second = ~better & ((fu <= fwi) | (wi == xi))
            third = ~better & ~second & ((fu <= fvi) | (vi == xi) | (vi == wi))
            v_new = np.where(better, wi, np.where(second, wi, np.where(third, u, vi)))
            fv_new = np.where(better, fwi, np.where(second, fwi, np.where(third, fu, fvi)))
            w_new = np.where(better, xi, np.where(second, u, wi))
            fw_new = np.where(better, fxi, np.where(second, fu, fwi))
            x_new = np.where(better, u, xi)
            fx_new = np.where(better, fu, fxi)
            a[i], b[i], v[i], w[i], x[i], d[i], e[i] = a_new, b_new, v_new, w_new, x_new, di, ei
            fx[i], fv[i], fw[i] = fx_new, fv_new, fw_new
    return x


def zeroin_many(f, ax, bx, fa, fb, tol, maxit=1000):
    """``r_numerics.zeroin2`` for many brackets at once; ``f(rows, x)``."""
    a, b, c, fc = ax.copy(), bx.copy(), ax.copy(), fa.copy()
    fa, fb = fa.copy(), fb.copy()
    result = np.full(len(a), np.nan)
    done = (fa == 0.0) | (fb == 0.0)
    result[fa == 0.0] = a[fa == 0.0]
    result[(fa != 0.0) & (fb == 0.0)] = b[(fa != 0.0) & (fb == 0.0)]
    active = ~done
    with np.errstate(divide="ignore", invalid="ignore"):
        for _ in range(maxit + 1):
            if not active.any():
                break
            i = np.flatnonzero(active)
            ai, bi, ci, fai, fbi, fci = a[i], b[i], c[i], fa[i], fb[i], fc[i]
            prev_step = bi - ai
            swap = np.abs(fci) < np.abs(fbi)
            ai, bi, ci = np.where(swap, bi, ai), np.where(swap, ci, bi), np.where(swap, bi, ci)
            fai, fbi, fci = np.where(swap, fbi, fai), np.where(swap, fci, fbi), np.where(swap, fbi, fci)
            tol_act = 2 * DBL_EPSILON * np.abs(bi) + tol[i] / 2
            new_step = (ci - bi) / 2
            finished = (np.abs(new_step) <= tol_act) | (fbi == 0.0)
            result[i[finished]] = bi[finished]
            active[i[finished]] = False
            a[i], b[i], c[i], fa[i], fb[i], fc[i] = ai, bi, ci, fai, fbi, fci
            keep = ~finished
            i, ai, bi, ci, fai, fbi, fci = i[keep], ai[keep], bi[keep], ci[keep], fai[keep], fbi[keep], fci[keep]
            prev_step, tol_act, new_step = prev_step[keep], tol_act[keep], new_step[keep]
            if not len(i):
                break
            interp = (np.abs(prev_step) >= tol_act) & (np.abs(fai) > np.abs(fbi))
            cb = ci - bi
            linear = ai == ci
            t1_lin = fbi / fai
            p_lin = cb * t1_lin
            q_lin = 1.0 - t1_lin
            q0 = fai / fci
            t1 = fbi / fci
            t2 = fbi / fai
            p_quad = t2 * (cb * q0 * (q0 - t1) - (bi - ai) * (t1 - 1.0))
            q_quad = (q0 - 1.0) * (t1 - 1.0) * (t2 - 1.0)
            p = np.where(linear, p_lin, p_quad)
            q = np.where(linear, q_lin, q_quad)
            q = np.where(p > 0.0, -q, q)
            p = np.where(p > 0.0, p, -p)
            accept = interp & (p < (0.75 * cb * q - np.abs(tol_act * q) / 2)) & (p < np.abs(prev_step * q / 2))
            new_step = np.where(accept, p / q, new_step)
            small = np.abs(new_step) < tol_act
            new_step = np.where(small, np.where(new_step > 0.0, tol_act, -tol_act), new_step)
            a[i], fa[i] = bi, fbi
            b[i] = bi + new_step
            fb[i] = _finite_or_max(f(i, b[i]))
            same = ((fb[i] > 0) & (fc[i] > 0)) | ((fb[i] < 0) & (fc[i] < 0))
            c[i] = np.where(same, a[i], c[i])
            fc[i] = np.where(same, fa[i], fc[i])
    result[active] = b[active]
    return result


_PAIRS_MAX = 100  # up to this many values a sample's pairs are listed; above, its bins are autocorrelated
_FFT_BLOCK = 256  # samples per block of the autocorrelation


def pair_counts_many(samples, nb: int = 1000) -> list:
    """``pair_counts`` of every sample (finite, at least two values): a list of (d, k, counts),
    or the ``BandwidthError`` a sample raises. Samples of up to nb/2 values (R bins the values
    themselves) are counted together: up to 100 values by listing their pairs (a compiled
    loop); above, by autocorrelating each sample's bin counts through an
    FFT and rounding. Larger samples (R first counts them into nb bins) are autocorrelated
    the same way. The counts are whole numbers below 2^53 and the FFT's error is far below
    ½, so the rounded counts are exact: they equal the one-sample ones."""
    out: list = [None] * len(samples)
    small, large, large_bins = [], [], []
    for i, x in enumerate(samples):
        if len(x) <= nb / 2:
            small.append(i)
            continue
        try:
            d = bin_width(x, nb)
        except BandwidthError as err:
            out[i] = err
            continue
        large.append((i, d))
        large_bins.append(np.bincount(bin_indices(x, d, nb), minlength=nb))
    for a in range(0, len(large), _FFT_BLOCK):
        block = large[a:a + _FFT_BLOCK]
        auto = _autocorrelations(np.array(large_bins[a:a + _FFT_BLOCK], dtype=np.float64), nb)
        for (i, d), counts in zip(block, auto, strict=True):
            k = np.flatnonzero(counts)
            out[i] = (d, k.astype(np.float64), counts[k].astype(np.float64))
    if not small:
        return out
    P = _Padded([samples[i] for i in small])
    with np.errstate(invalid="ignore"):
        d = P.spread() * 1.01 / nb
    def emit(rows, counts):
        from ._kernels import occupied_distances  # numba: imported where first needed

        k_all, cnt_all, bounds = occupied_distances(counts)
        width = d[rows].tolist()
        bounds = bounds.tolist()
        for r, row in enumerate(rows.tolist()):
            if not width[r] > 0:
                out[small[row]] = BandwidthError(ALL_EQUAL)
                continue
            out[small[row]] = (width[r], k_all[bounds[r]:bounds[r + 1]], cnt_all[bounds[r]:bounds[r + 1]])

    listed = np.flatnonzero(P.n <= _PAIRS_MAX)
    if len(listed):
        from ._kernels import listed_pair_counts  # numba: imported where first needed

        emit(listed, listed_pair_counts(P.values, P.n, np.where(d > 0, d, 1.0), listed, nb))
    correlated = np.flatnonzero(P.n > _PAIRS_MAX)
    if len(correlated):  # their bins (listed samples bin inside listed_pair_counts)
        with np.errstate(invalid="ignore"):
            bins = np.trunc(P.values / np.where(d > 0, d, 1.0)[:, None])
        bins = np.where(P.known, bins, np.inf)
        bins = np.where(P.known, bins - bins.min(axis=1, keepdims=True), 0).astype(np.int64)
        bins = np.minimum(bins, nb - 1)  # bins span < nb/1.01 + 1 (d is 1.01 × range / nb): a no-op guard
    for a in range(0, len(correlated), _FFT_BLOCK):
        rows = correlated[a:a + _FFT_BLOCK]
        per_bin = np.zeros((len(rows), nb))
        owner = np.broadcast_to(np.arange(len(rows))[:, None], (len(rows), bins.shape[1]))
        known = P.known[rows]
        np.add.at(per_bin, (owner[known], bins[rows][known]), 1.0)
        emit(rows, _autocorrelations(per_bin, nb))
    return out


def _autocorrelations(per_bin: np.ndarray, nb: int) -> np.ndarray:
    """(samples, nb) whole-number bin counts → the pairs k bins apart, k < nb, as int64:
    Σ_i c_i c_{i+k} for k > 0 and Σ_i c_i (c_i − 1)/2 for k = 0 (pairs within a bin)."""
    size = 1 << int(np.ceil(libm.log2(2 * nb)))  # no wrap-around for lags below nb
    spectrum = np.fft.rfft(per_bin, n=size, axis=1)
    auto = np.rint(np.fft.irfft(spectrum * np.conj(spectrum), n=size, axis=1)[:, :nb])
    auto[:, 0] = (per_bin * (per_bin - 1.0)).sum(axis=1) / 2.0
    return auto.astype(np.int64)


class _Padded:
    """Samples as the rows of one array, padded to one width, with the per-sample statistics
    the rules use, each equal to its scalar ``r_numerics`` counterpart (same operations, same
    order: padding adds exact zeros to sequential sums)."""

    def __init__(self, samples):
        self.samples = samples
        self.n = np.array([len(x) for x in samples], dtype=np.int64)
        width = int(self.n.max()) if len(samples) else 0
        self.known = np.arange(width)[None, :] < self.n[:, None]
        self.values = np.zeros((len(samples), width))
        if len(samples):
            self.values[self.known] = np.concatenate([np.asarray(x, dtype=np.float64).ravel() for x in samples])

    @staticmethod
    def _sum(A):
        """Row sums added left to right, as ``np.cumsum(row)[-1]`` adds them."""
        if A.shape[1] == 0:
            return np.zeros(A.shape[0], dtype=A.dtype)
        if A.shape[0] < 2:
            return np.cumsum(A, axis=1)[:, -1]
        return np.add.reduce(np.ascontiguousarray(A.T), axis=0)

    def mean(self):
        """``r_mean`` of every row (NaN for an empty one)."""
        xl = self.values.astype(np.longdouble)
        n = self.n.astype(np.longdouble)
        with np.errstate(invalid="ignore", divide="ignore"):
            tmp = self._sum(xl) / n
            fine = np.isfinite(tmp)
            residual = np.where(self.known, xl - tmp[:, None], 0.0)
            tmp = np.where(fine, tmp + self._sum(residual) / n, tmp)
        return tmp.astype(np.float64)

    def var(self):
        """``r_var`` of every row (NaN below two values)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            d = np.where(self.known, self.values - self.mean()[:, None], 0.0).astype(np.longdouble)
            v = (self._sum(d * d) / (self.n - 1).astype(np.longdouble)).astype(np.float64)
        return np.where(self.n >= 2, v, np.nan)

    def sorted(self):
        """Each row sorted, its padding (+inf) last."""
        return np.sort(np.where(self.known, self.values, np.inf), axis=1)

    def quantile7(self, p: float):
        """``r_quantile7(row, [p])`` of every non-empty row."""
        s = self.sorted()
        rows = np.arange(len(self.n))
        index = 1.0 + np.maximum(self.n - 1, 0).astype(np.float64) * float(p)
        lo = np.floor(index).astype(np.int64)
        hi = np.ceil(index).astype(np.int64)
        q = s[rows, np.maximum(lo - 1, 0)]
        upper = s[rows, np.maximum(hi - 1, 0)]
        h = index - lo
        with np.errstate(invalid="ignore"):
            blend = (1.0 - h) * q + h * upper
        return np.where((index > lo) & (upper != q), blend, q)

    def iqr(self):
        return self.quantile7(0.75) - self.quantile7(0.25)

    def spread(self, values=None):
        """max − min of every row (0 for an empty one), of ``values`` (same shape) if given."""
        values = self.values if values is None else values
        hi = np.where(self.known, values, -np.inf).max(axis=1, initial=-np.inf)
        lo = np.where(self.known, values, np.inf).min(axis=1, initial=np.inf)
        return np.where(self.n > 0, hi - lo, 0.0)


def _per_size(n: np.ndarray, f) -> np.ndarray:
    """f(size) of every sample size, computed once per distinct size (f a scalar C-library call)."""
    sizes, inverse = np.unique(n, return_inverse=True)
    return np.array([f(float(m)) for m in sizes])[inverse]


def _powers(n: np.ndarray, y: float) -> np.ndarray:
    """``r_pow(n, y)`` (C's pow) of every sample size."""
    return _per_size(n, lambda m: r_pow(m, y))


def _simple_rule(rule: str, P: _Padded, precisions):
    """The closed-form rules for every sample: (bandwidths, error messages), as ``bandwidth``."""
    n = P.n
    errors: list = [None] * len(n)
    if rule == "weka":
        given = [None] * len(n) if precisions is None else list(precisions)
        p = np.array([numeric_precision(np.asarray(x, dtype=np.float64)) if q is None else float(q)
                      for x, q in zip(P.samples, given, strict=True)])
        p = np.maximum(p, KERNEL_MIN_PRECISION)
        with np.errstate(invalid="ignore"):
            rounded = np.rint(P.values / p[:, None]) * p[:, None]  # weka.estimators.round_to_precision, per row
        spread = P.spread(rounded)
        with np.errstate(invalid="ignore", divide="ignore"):
            h = np.where(spread > 0, np.maximum(spread / np.sqrt(n.astype(np.float64)), p / 6.0), p / 6.0)
        for s in np.flatnonzero(n < 1):
            errors[s] = "need at least 1 data point"
        return np.where(n >= 1, h, np.nan), errors
    finite = np.all(np.isfinite(P.values), axis=1)
    for s in range(len(n)):
        if n[s] < 2:
            errors[s] = "need at least 2 data points"
        elif not finite[s]:
            errors[s] = "non-finite x in bandwidth calculation"
    ok = (n >= 2) & finite
    with np.errstate(invalid="ignore", divide="ignore"):
        if rule == "sp":
            log2 = _per_size(n, lambda m: math.log2(m) if m > 0 else math.nan)
            h = P.spread() / (2.0 * (1.0 + log2))
        else:
            sd = np.sqrt(P.var())
            fifth = _powers(n, -1 / 5)  # R writes -0.2 in bw.nrd0: the same double
            if rule == "nrd-i":
                h = 1.06 * sd * fifth
            elif rule == "nrd":
                h = 1.06 * np.minimum(sd, P.iqr() / 1.34) * fifth
            else:  # nrd0, with R's fallbacks for a zero scale
                lo = np.minimum(sd, P.iqr() / 1.34)
                first = np.abs(P.values[:, 0]) if P.values.shape[1] else np.zeros(len(n))
                lo = np.where(lo != 0, lo, np.where(sd != 0, sd, np.where(first != 0, first, 1.0)))
                h = 0.9 * lo * fifth
    return np.where(ok, h, np.nan), errors


def bandwidths(samples, rule: str, precisions=None, search_upper: float = 1.0) -> tuple[np.ndarray, list]:
    """(bandwidth per sample, error message per sample or None), each as ``bandwidth`` gives
    it. A sample the rule has no answer for gets NaN and R's message (or ours) instead of
    raising."""
    if rule not in RULES:
        raise ValueError(f"unknown bandwidth rule {rule!r}; one of {', '.join(RULES)}")
    if not search_upper > 0.1:
        raise ValueError(f"search_upper must exceed the lower end 0.1, got {search_upper!r}")
    out = np.full(len(samples), np.nan)
    errors: list = [None] * len(samples)
    if not len(samples):
        return out, errors
    if rule not in _ITERATIVE:
        return _simple_rule(rule, _Padded(samples), precisions)
    prepared = []
    checked = _checked(samples, errors)
    counted = pair_counts_many(list(checked.values()))
    for (s, x), found in zip(checked.items(), counted, strict=True):
        if isinstance(found, BandwidthError):
            errors[s] = str(found)
        else:
            d, k, cnt = found
            prepared.append((s, x, d, (k, cnt)))
    # samples with similar numbers of occupied distances together, so little of the table is padding
    widths = np.array([len(p[3][0]) for p in prepared])
    bucket = np.ceil(libm.log2(np.maximum(widths, 1))).astype(np.int64)
    for b in np.unique(bucket):
        _bandwidths_of(rule, [prepared[j] for j in np.flatnonzero(bucket == b)], out, errors, search_upper)
    return out, errors


def _checked(samples, errors) -> dict:
    """index → sample as float64 for the samples ``check_sample`` accepts; the others' messages go
    to ``errors``. Checked as one array where every sample is a float64 vector of ≥ 2 values."""
    plain = all(isinstance(x, np.ndarray) and x.dtype == np.float64 and x.ndim == 1 and len(x) >= 2 for x in samples)
    if plain and np.isfinite(np.concatenate(samples)).all():
        return dict(enumerate(samples))
    checked = {}
    for s, x in enumerate(samples):
        try:
            checked[s] = check_sample(x)
        except BandwidthError as err:
            errors[s] = str(err)
    return checked


def _bandwidths_of(rule, prepared, out, errors, search_upper=1.0):
    index = np.array([p[0] for p in prepared])
    n = np.array([len(p[1]) for p in prepared], dtype=np.float64)
    table = _Table(n, [p[2] for p in prepared], [p[3] for p in prepared])
    if rule in ("ucv", "bcv"):
        hmax = 1.144 * np.sqrt(_Padded([p[1] for p in prepared]).var()) * _powers(n.astype(np.int64), -1 / 5)
        lower, upper = 0.1 * hmax, hmax * search_upper
        ok = lower < upper
        for j in np.flatnonzero(~ok):
            errors[index[j]] = ALL_EQUAL
        score = table.ucv if rule == "ucv" else table.bcv
        rows = np.flatnonzero(ok)
        if len(rows):
            out[index[rows]] = brent_fmin_many(lambda r, h: score(rows[r], h), lower[rows], upper[rows],
                                               0.1 * lower[rows])
        return out, errors
    return _sheather_jones(rule, prepared, index, n, table, out, errors)


def _sheather_jones(rule, prepared, index, n, table, out, errors):
    P = _Padded([p[1] for p in prepared])
    scale = np.minimum(np.sqrt(P.var()), P.iqr() / 1.349)
    a = 1.24 * scale * _powers(P.n, -1 / 7)
    b = 1.23 * scale * _powers(P.n, -1 / 9)
    c1 = 1.0 / (2.0 * math.sqrt(math.pi) * n)
    rows = np.arange(len(prepared))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        td = -_phi6(table, rows, b)
    ok = np.isfinite(td) & (td > 0)
    for j in np.flatnonzero(~ok):
        errors[index[j]] = "sample is too sparse to find TD"
    rows = np.flatnonzero(ok)
    if not len(rows):
        return out, errors
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if rule == "dpi":
            h = libm.power(2.394 / (n[rows] * td[rows]), 1 / 7)
            out[index[rows]] = libm.power(c1[rows] / table.phi4(rows, h), 1 / 5)
            return out, errors
        hmax = 1.144 * scale[rows] * libm.power(n[rows], -1 / 5)
        lower, upper = 0.1 * hmax, hmax
        alph2 = 1.357 * libm.power(table.phi4(rows, a[rows]) / td[rows], 1 / 7)

        def f_sd(r, h):  # r indexes ``rows``
            return libm.power(c1[rows[r]] / table.phi4(rows[r], alph2[r] * libm.power(h, 5 / 7)), 1 / 5) - h

    good = np.isfinite(alph2)
    for j in np.flatnonzero(~good):
        errors[index[rows[j]]] = "sample is too sparse to find alph2"
    live = np.flatnonzero(good)
    itry = np.ones(len(rows), dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        pending = live.copy()
        while len(pending):
            prod = f_sd(pending, lower[pending]) * f_sd(pending, upper[pending])
            widen = prod > 0
            pending = pending[widen]
            if not len(pending):
                break
            hopeless = itry[pending] > 99
            for j in pending[hopeless]:
                errors[index[rows[j]]] = "no solution in the specified range of bandwidths"
                good[j] = False
            pending = pending[~hopeless]
            odd = itry[pending] % 2 == 1
            upper[pending[odd]] *= 1.2
            lower[pending[~odd]] /= 1.2
            itry[pending] += 1
        live = np.flatnonzero(good)
        if not len(live):
            return out, errors
        tol = 0.1 * lower  # R: tol = 0.1 * lower, forced after the widening
        f_lower = f_sd(live, lower[live])
        f_upper = f_sd(live, upper[live])
        bad = np.isnan(f_lower) | np.isnan(f_upper) | ~(np.sign(f_lower) * np.sign(f_upper) <= 0)
        for j in live[bad]:
            errors[index[rows[j]]] = "f() values at end points not of opposite sign"
        live = live[~bad]
        if len(live):
            out[index[rows[live]]] = zeroin_many(lambda r, x: f_sd(live[r], x), lower[live], upper[live],
                                                 f_lower[~bad], f_upper[~bad], tol[live])
    return out, errors


def _phi6(table, rows, h):
    s = table._sums(PHI6, rows, h)
    nn = table.n[rows]
    s = 2.0 * s - 15.0 * nn
    return s / (nn * (nn - 1) * libm.power(h, 7.0)) * ONE_OVER_SQRT_2PI
