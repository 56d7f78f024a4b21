# SPDX-License-Identifier: GPL-3.0-or-later
"""Compiled loops for the Gaussian kernel sums (numba), with their own exponential.

Why compiled, and why an own exponential: a kernel sum is one exponential per (query,
value) pair, and numpy's float64 ``exp`` on this hardware (no AVX-512) calls the C library
one element at a time, about 8 ns each, while the subtract-square-scale-sum passes around it
add another 4 ns. The loops below fuse those passes and use an exponential written as plain
IEEE arithmetic, which the compiler vectorises (``benchmarks/kde_kernel_speed.py``).

``gauss(z)`` = e^(−z) for z ≥ 0: z = n ln 2 − r with |r| ≤ ln 2 / 2 (ln 2 in two parts, so
r is exact to about 1e-26), e^r by its Taylor polynomial to degree 13 (truncation below
4e-18) in Estrin's order, and 2^(−n) built in the exponent bits. Measured against the C
library on 10⁶ arguments in [0, 800]: at most 2 ulp, and a subnormal result within one unit
of the last place (it is rounded once, from the normal value scaled by 2^512). Results above
745.13 are 0, as the C library's.

No fast-math: every sum is added in the order the loops state. The polynomial and the
reduction use fused multiply-adds written out (``_fma``, LLVM's ``llvm.fma``): IEEE 754
defines a fused multiply-add as one rounding, so it gives the same bits on every machine;
a CPU with FMA units runs it in one instruction (a third fewer operations per pair), one
without calls the C library's exact ``fma``. No other multiply and add is contracted.

Around the sums, the bookkeeping that would otherwise cost a Python step per attribute or
per sample is compiled too: distinct values per column and per sample, the scatter of the
sums to the rows, and R's pair counts for small samples (``listed_pair_counts``).
"""
from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

UCV, BCV, PHI4, PHI6 = 0, 1, 2, 3  # the score kinds of binned_score_sums

_LN2_HI = 6.93147180369123816490e-01  # ln 2 with its low 32 bits zero (fdlibm's split)
_LN2_LO = 1.90821492927058770002e-10
_INV_LN2 = 1.44269504088896338700e+00
_SHIFT = 6755399441055744.0  # 1.5 · 2^52: x + _SHIFT holds round(x) in its low bits
_SHIFT_BITS = int(np.float64(_SHIFT).view(np.int64))
_TWO_M512 = 2.0 ** -512
(_C0, _C1, _C2, _C3, _C4, _C5, _C6, _C7, _C8, _C9, _C10, _C11, _C12, _C13) = (
    1.0 / math.factorial(k) for k in range(14))


@intrinsic
def _two_to_minus(typingctx, t):
    """2^(−n) for t = _SHIFT + n, n a whole number in [−1022, 1023], from t's bits."""
    sig = types.float64(types.float64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        n_bits = builder.bitcast(args[0], i64)  # = _SHIFT_BITS + n
        exponent = builder.sub(ir.Constant(i64, 1023 + _SHIFT_BITS), n_bits)
        return builder.bitcast(builder.shl(exponent, ir.Constant(i64, 52)), ir.DoubleType())

    return sig, codegen


@intrinsic
def _fma(typingctx, a, b, c):
    """a·b + c rounded once (IEEE 754 fusedMultiplyAdd)."""
    sig = types.float64(types.float64, types.float64, types.float64)

    def codegen(context, builder, signature, args):
        return builder.fma(*args)

    return sig, codegen


@njit(inline="always")
def gauss(z):
    """e^(−z) for z ≥ 0 (see the module docstring)."""
    z = z if z < 746.0 else 746.0
    t = _fma(z, _INV_LN2, _SHIFT)
    n = t - _SHIFT
    r = _fma(n, _LN2_LO, _fma(n, _LN2_HI, -z))
    r2 = r * r
    r4 = r2 * r2
    r8 = r4 * r4
    a = _fma(r2, _fma(_C3, r, _C2), _fma(_C1, r, _C0))
    b = _fma(r2, _fma(_C7, r, _C6), _fma(_C5, r, _C4))
    c = _fma(r2, _fma(_C11, r, _C10), _fma(_C9, r, _C8))
    d = _fma(_C13, r, _C12)
    p = _fma(r8, _fma(r4, d, c), _fma(r4, b, a))
    deep = n > 1000.0  # 2^(−n) below the normal range: scale in two steps
    e = p * _two_to_minus(t - 512.0 if deep else t)
    return e * _TWO_M512 if deep else e


@njit(cache=True)
def gauss_array(z):
    out = np.empty_like(z)
    for i in range(z.shape[0]):
        out[i] = gauss(z[i])
    return out


@njit(cache=True)
def window_sums(q, lo, hi, v, w, h):
    """Σ_{lo[i] ≤ j < hi[i]} w_j e^(−½((q_i − v_j)/h_i)²) for every query i, in j order."""
    out = np.empty(q.shape[0])
    for i in range(q.shape[0]):
        acc = 0.0
        qi = q[i]
        hi_ = h[i]
        for j in range(lo[i], hi[i]):
            z = (qi - v[j]) / hi_
            acc += w[j] * gauss(0.5 * z * z)
        out[i] = acc
    return out


@njit(cache=True)
def distinct_columns(X):
    """Per column of X: its distinct non-NaN values ascending (concatenated, column t's being
    values[bounds[t]:bounds[t + 1]]) and each row's index among them (−1 where NaN)."""
    n, k = X.shape
    values = np.empty(n * k)
    bounds = np.zeros(k + 1, dtype=np.int64)
    inverse = np.full((n, k), -1, dtype=np.int64)
    rows = np.empty(n, dtype=np.int64)
    pos = 0
    for t in range(k):
        m = 0
        for i in range(n):
            if not np.isnan(X[i, t]):
                rows[m] = i
                m += 1
        known = rows[:m]
        column = np.empty(m)
        for a in range(m):
            column[a] = X[known[a], t]
        order = np.argsort(column)
        for a in range(m):
            x = column[order[a]]
            if a == 0 or x != values[pos - 1]:
                values[pos] = x
                pos += 1
            inverse[known[order[a]], t] = pos - 1 - bounds[t]
        bounds[t + 1] = pos
    return values[:pos].copy(), bounds, inverse


@njit(cache=True)
def distinct_groups(values, weights, bounds):
    """Per sample values[bounds[g]:bounds[g + 1]]: its distinct values ascending and the weight
    of each, the weights of equal values added in their original order (as ``np.bincount``)."""
    out_v = np.empty(values.shape[0])
    out_w = np.empty(values.shape[0])
    out_bounds = np.zeros(bounds.shape[0], dtype=np.int64)
    pos = 0
    for g in range(bounds.shape[0] - 1):
        a, b = bounds[g], bounds[g + 1]
        order = np.argsort(values[a:b], kind="mergesort")  # stable: equal values in their order
        for o in range(b - a):
            x = values[a + order[o]]
            if o == 0 or x != out_v[pos - 1]:
                out_v[pos] = x
                out_w[pos] = 0.0
                pos += 1
            out_w[pos - 1] += weights[a + order[o]]
        out_bounds[g + 1] = pos
    return out_v[:pos].copy(), out_w[:pos].copy(), out_bounds


@njit(cache=True)
def _whole_numbers(x, limit):
    """True when every value of x is a whole number in [−limit, limit]."""
    for i in range(x.shape[0]):  # noqa: SIM110 (numba compiles the loop; all() of a generator it does not)
        if x[i] != np.floor(x[i]) or x[i] < -limit or x[i] > limit:
            return False
    return True


@njit(cache=True)
def _all_ones(w):
    for i in range(w.shape[0]):  # noqa: SIM110 (numba compiles the loop; all() of a generator it does not)
        if w[i] != 1.0:
            return False
    return True


@njit(cache=True)
def dense_attributes(q, q_bounds, v, w, v_bounds, half_inv_h2, attributes, members, member_bounds,
                     offsets, sums, lattice_max):
    """Every (query, value) pair of whole attributes: for each sample g of attribute t,
    Σ_j w_j e^(−(q_i − v_j)² · half_inv_h2[g]) over the sample's values in their order, for
    every query i of t. Attribute ``attributes[a]`` has the queries q[q_bounds[t]:q_bounds[t + 1]]
    and the samples ``members[member_bounds[a]:member_bounds[a + 1]]``, sample g's values being
    v[v_bounds[g]:v_bounds[g + 1]]; its sums go to sums[offsets[g]:offsets[g] + query count].
    No window: every term is kept (terms beyond ~38 bandwidths are exactly 0). Where an
    attribute's queries and values are whole numbers spanning at most ``lattice_max``, every
    difference is a whole number k and e^(−k²·f) is the same float whether taken per pair or
    once per (k, sample): it is looked up in a table instead (the same bits)."""
    limit = 2.0 ** 52
    for a in range(attributes.shape[0]):
        t = attributes[a]
        qs = q[q_bounds[t]:q_bounds[t + 1]]
        n_q = qs.shape[0]
        group = members[member_bounds[a]:member_bounds[a + 1]]
        lo, hi = qs[0], qs[n_q - 1]
        whole = _whole_numbers(qs, limit)
        for g in group:
            if v_bounds[g + 1] > v_bounds[g]:
                lo = min(lo, v[v_bounds[g]])
                hi = max(hi, v[v_bounds[g + 1] - 1])
                whole = whole and _whole_numbers(v[v_bounds[g]:v_bounds[g + 1]], limit)
        acc = np.empty(n_q)
        if whole and hi - lo <= lattice_max:
            span = int(hi - lo)
            qi = np.empty(n_q, dtype=np.int64)
            for i in range(n_q):
                qi[i] = int(qs[i])
            table = np.empty(span + 1)
            for g in group:
                f = half_inv_h2[g]
                for k in range(span + 1):
                    kk = float(k)
                    table[k] = gauss(kk * kk * f)
                acc[:] = 0.0
                for j in range(v_bounds[g], v_bounds[g + 1]):
                    vj = int(v[j])
                    wj = w[j]
                    for i in range(n_q):
                        k = qi[i] - vj
                        acc[i] += wj * table[k if k >= 0 else -k]
                sums[offsets[g]:offsets[g] + n_q] = acc
        else:
            for g in group:
                f = half_inv_h2[g]
                acc[:] = 0.0
                unit = _all_ones(w[v_bounds[g]:v_bounds[g + 1]])
                for j in range(v_bounds[g], v_bounds[g + 1]):
                    vj = v[j]
                    wj = w[j]
                    if unit:  # the same sums as wj · e with wj = 1, one multiplication fewer per pair
                        for i in range(n_q):
                            d = qs[i] - vj
                            acc[i] += gauss(d * d * f)
                    else:
                        for i in range(n_q):
                            d = qs[i] - vj
                            acc[i] += wj * gauss(d * d * f)
                sums[offsets[g]:offsets[g] + n_q] = acc


@njit(cache=True)
def scatter_sums(out, sums, offsets, columns, inverse, scale):
    """out[row, g] = sums[offsets[g] + inverse[row, columns[g]]] · scale[g] where the row's
    value is known (inverse ≥ 0); other cells are left as they are."""
    for r in range(out.shape[0]):  # row by row: out and inverse are read and written in memory order
        for g in range(out.shape[1]):
            k = inverse[r, columns[g]]
            if k >= 0:
                out[r, g] = sums[offsets[g] + k] * scale[g]


@njit(cache=True)
def listed_pair_counts(values, n, d, rows, nb):
    """R's binned pair counts (``bw_pair_cnts`` for up to nb/2 values) of the samples
    values[r, :n[r]], r in ``rows``: bin = trunc(x / d[r]), and counts[·, k] the pairs whose
    bins lie k apart (k < nb). Returns (len(rows), nb) whole numbers."""
    counts = np.zeros((rows.shape[0], nb), dtype=np.int64)
    for a in range(rows.shape[0]):
        r = rows[a]
        m = n[r]
        bins = np.empty(m)
        for i in range(m):
            bins[i] = np.trunc(values[r, i] / d[r])
        low = bins.min()
        shifted = np.empty(m, dtype=np.int64)  # whole numbers below nb/1.01 + 1: exact as integers
        for i in range(m):
            shifted[i] = int(bins[i] - low)
        row = counts[a]
        for i in range(1, m):
            bi = shifted[i]
            for j in range(i):
                row[abs(bi - shifted[j])] += 1
    return counts


@njit(cache=True)
def occupied_distances(counts):
    """The nonzero entries of each row of ``counts`` (rows, nb): (k, counts[row, k]) for all
    rows concatenated, as float64, row by row and k ascending, with each row's bounds."""
    total = 0
    for a in range(counts.shape[0]):
        for k in range(counts.shape[1]):
            if counts[a, k] != 0:
                total += 1
    k_all = np.empty(total)
    cnt_all = np.empty(total)
    bounds = np.empty(counts.shape[0] + 1, dtype=np.int64)
    at = 0
    for a in range(counts.shape[0]):
        bounds[a] = at
        for k in range(counts.shape[1]):
            if counts[a, k] != 0:
                k_all[at] = k
                cnt_all[at] = counts[a, k]
                at += 1
    bounds[counts.shape[0]] = at
    return k_all, cnt_all, bounds


@njit(cache=True)
def expanded_sums(t, first_box, last_box, centre, moments):
    """Σ over boxes first_box[i]..last_box[i] of e^(−(t_i − c)²) · Σ_k moments[box, k] (t_i − c)^k,
    the polynomial by Horner's rule from the highest term, the boxes added in order."""
    terms = moments.shape[1]
    out = np.empty(t.shape[0])
    for i in range(t.shape[0]):
        total = 0.0
        for b in range(first_box[i], last_box[i] + 1):
            r = t[i] - centre[b]
            acc = moments[b, terms - 1]
            for k in range(terms - 2, -1, -1):
                acc = acc * r + moments[b, k]
            total += acc * gauss(r * r)
        out[i] = total
    return out


_SQRT_8 = math.sqrt(8.0)


@njit(cache=True, error_model="numpy")  # IEEE division: h = 0 gives inf or NaN, not an exception
def binned_score_sums(kind, k, cnt, d, rows, h, delmax):
    """R's binned sums for the bandwidth scores (bandwidths.c), row ``rows[a]`` of the padded
    tables at bandwidth h[a]: Σ_j cnt_j · term(δ_j), δ_j = (k_j·d/h)², over the occupied
    distances in ascending order, stopping at the first δ ≥ ``delmax`` (padding counts 0 and
    adds nothing). term: ucv e^(−δ/4) − √8 e^(−δ/2); bcv e^(−δ/4)(δ² − 12δ + 12); phi4
    e^(−δ/2)(δ² − 6δ + 3); phi6 e^(−δ/2)(δ³ − 15δ² + 45δ − 15). The exponential is the C
    library's, as R's."""
    out = np.empty(rows.shape[0])
    width = k.shape[1]
    for a in range(rows.shape[0]):
        r = rows[a]
        s = 0.0
        for j in range(width):
            t = k[r, j] * d[r] / h[a]
            delta = t * t
            if not delta < delmax:
                if delta >= delmax:
                    break
                continue  # NaN (0/0 at h = 0): left out, as the filter it replaces left it out
            if kind == UCV:
                term = math.exp(-delta / 4.0) - _SQRT_8 * math.exp(-delta / 2.0)
            elif kind == BCV:
                term = math.exp(-delta / 4.0) * (delta * delta - 12.0 * delta + 12.0)
            elif kind == PHI4:
                term = math.exp(-delta / 2.0) * (delta * delta - 6.0 * delta + 3.0)
            else:
                term = math.exp(-delta / 2.0) * (delta * delta * delta - 15.0 * delta * delta + 45.0 * delta - 15.0)
            s += term * cnt[r, j]
        out[a] = s
    return out
