# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka's ``NormalEstimator`` evaluated compiled (numba): P(x | c) for every (row, attribute,
class) in one loop.

Why compiled: on letter (26 classes, 16 attributes) a prediction made eight temporaries of shape
(rows, attributes, classes) around Φ. The loop does numpy's operations in numpy's order,
P(x | c) = Φ((x̃ − μ + p/2)/σ) − Φ((x̃ − μ − p/2)/σ) with x̃ = rint(x/p)·p, and Φ is the compiled
Cephes ``ndtr`` of ``_kernel_walk`` (equal to scipy's, tested): the same bits.

The fit's class-wise sums (``class_sums``): numpy's ``(v * w_c).sum(axis=0)`` over the
F-contiguous column selection the estimator gets sums each column pairwise (numpy's
``pairwise_sum``: leaves of at most 128 values added in eight lanes, halves split at a multiple of
eight), other classes' rows adding v·0 = ±0. This pass walks the same tree once for all classes,
each value added to its own class's lane: the same sums, up to the sign of an exact zero, which
changes no probability. (A row-order loop, as numpy adds a C-contiguous array, parted from it in
the last bits on diabetes and iris.) numpy's other-class terms are NaN where v² overflows: the
caller keeps numpy's path there, and for any other layout.
"""
from __future__ import annotations

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

from ._kernel_walk import normal_interval


@njit(cache=True)
def _leaf(v, w, y, j, lo, m, r, out):
    """One leaf of numpy's pairwise sum (m ≤ 128 values from row lo) for every class at once:
    out[0], out[1], out[2] = Σw, Σwv, Σwv² per class."""
    body = 0 if m < 8 else m - m % 8  # numpy adds fewer than eight values one by one, from -0.0
    if m < 8:
        out[:, :] = -0.0
    else:
        acc = np.zeros((3, r, 8))
        for t in range(body):
            i = lo + t
            c = y[i]
            x = v[i, j]
            lane = t % 8
            acc[0, c, lane] += w[i, j]
            acc[1, c, lane] += x * w[i, j]
            acc[2, c, lane] += x * x * w[i, j]
        for q in range(3):
            for c in range(r):
                a = acc[q, c]
                out[q, c] = ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]))
    for i in range(lo + body, lo + m):
        c = y[i]
        x = v[i, j]
        out[0, c] += w[i, j]
        out[1, c] += x * w[i, j]
        out[2, c] += x * x * w[i, j]


@njit(cache=True)
def class_sums(v, w, y, n_classes):
    """(Σw, Σwv, Σwv²) per (attribute, class), each column in numpy's pairwise order (see the
    module); the tree walked with explicit stacks, since numba does not cache recursion safely."""
    n, k = v.shape
    r = n_classes
    W = np.zeros((k, r))
    S = np.zeros((k, r))
    SS = np.zeros((k, r))
    frame_lo = np.empty(64, dtype=np.int64)
    frame_m = np.empty(64, dtype=np.int64)
    frame_stage = np.empty(64, dtype=np.int64)
    results = np.empty((64, 3, r))
    for j in range(k):
        rp = 0
        frame_lo[0], frame_m[0], frame_stage[0] = 0, n, 0
        sp = 1
        while sp > 0:
            top = sp - 1
            lo, m, stage = frame_lo[top], frame_m[top], frame_stage[top]
            if m <= 128:
                _leaf(v, w, y, j, lo, m, r, results[rp])
                rp += 1
                sp -= 1
                continue
            half = m // 2
            half -= half % 8
            if stage == 0:
                frame_stage[top] = 1
                frame_lo[sp], frame_m[sp], frame_stage[sp] = lo, half, 0
                sp += 1
            elif stage == 1:
                frame_stage[top] = 2
                frame_lo[sp], frame_m[sp], frame_stage[sp] = lo + half, m - half, 0
                sp += 1
            else:
                for q in range(3):
                    for c in range(r):
                        results[rp - 2, q, c] = results[rp - 2, q, c] + results[rp - 1, q, c]
                rp -= 1
                sp -= 1
        for c in range(r):
            W[j, c] = results[0, 0, c]
            S[j, c] = results[0, 1, c]
            SS[j, c] = results[0, 2, c]
    return W, S, SS


@njit(cache=True)
def gap_sums(S):
    """Per row of S (each sorted ascending, NaN last): the sum of its positive gaps between
    neighbours, added left to right (``np.cumsum``'s order; the zero gaps it adds change no bit),
    and their number: Weka's ``NormalEstimator`` precision is the one over the other."""
    k, n = S.shape
    total = np.zeros(k)
    count = np.zeros(k, dtype=np.int64)
    for j in range(k):
        s = 0.0
        m = 0
        for i in range(1, n):
            g = S[j, i] - S[j, i - 1]
            if g > 0:  # NaN compares False
                s += g
                m += 1
        total[j] = s
        count[j] = m
    return total, count


_SHARE_FROM_CLASSES = 4   # classes from which a value's probabilities are computed once per distinct value


@njit(cache=True)
def interval_probabilities(x, precision, mean, sd):
    """(rows, attributes, classes): Φ((x̃ − μ + p/2)/σ) − Φ((x̃ − μ − p/2)/σ), x̃ = rint(x/p)·p,
    for x of shape (rows, attributes), p per attribute, μ and σ per (attribute, class).

    With many classes each distinct value of an attribute is evaluated once and copied to its
    other rows (the rows visited in sorted order): the same value gives the same bits, and data
    sets of integer or few-decimal attributes repeat values heavily (letter: 16 values over 2 000
    test rows, 26 classes: a tenth of the Φ calls, 24 → 11 ms per fold). With few classes the
    sort costs about what it saves (waveform, 3 classes: 6.0 → 7.1 ms; adult, 2: even), so each
    row is evaluated."""
    n, k = x.shape
    r = mean.shape[1]
    out = np.empty((n, k, r))
    share = r >= _SHARE_FROM_CLASSES
    for j in range(k):
        p = precision[j]
        h = p / 2.0
        order = np.argsort(x[:, j], kind="mergesort") if share else np.arange(n)
        last = -1
        for t in range(n):
            i = order[t]
            if share and last >= 0 and x[i, j] == x[last, j]:
                for c in range(r):
                    out[i, j, c] = out[last, j, c]
                continue
            xt = np.rint(x[i, j] / p) * p
            for c in range(r):
                out[i, j, c] = normal_interval(xt - mean[j, c], h, sd[j, c])
            last = i
    return out
