# SPDX-License-Identifier: GPL-3.0-or-later
"""Compiled local densities of LPM-BC (numba): LGA and LCA for many neighbourhood sizes at once.

Why compiled: the inner cross-validation scores every neighbourhood size k of the grid, and the
kernel model (LCA) needs, per query, class, attribute and k, a sum over the k neighbours with
two error functions each (the kernel's mass inside the cube). In numpy that is a (queries, k,
attributes) temporary per k; on the image data set it cost about 25 s per outer fold. Here the
neighbours are read once per query in distance order: the Gaussian's moments and the kernel's
numerator are running sums over that order (each k reads them off), and only the mass is summed
anew per k. A neighbour deep inside the cube (more than 6·√2·h from both faces) contributes
exactly 1 to the mass (erf is 1.0 in double precision beyond 5.93), so only the neighbours near
the faces need the error function. All sums run in the neighbours' order: the same bits on
every machine.
"""
from __future__ import annotations

import math

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

from ._fast_erf import erf as _erf

_SQRT2 = math.sqrt(2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
_ERF_ONE = 6.0  # erf(z) == 1.0 exactly for z ≥ 5.93


@njit(cache=True)
def local_log_densities(Q, T, order, counts, radius, h, flat, want_gauss, want_kernel):
    """For every query a and column s: Σ_d log f_d over the neighbourhood of the first
    counts[a, s] rows of T in order[a] (counts non-decreasing along s), in the cube of
    half-width radius[a, s] around Q[a]. Returns (gauss, kernel), each (queries, columns); 0
    where the count is 0. An attribute whose spread (σ of the neighbours for LGA, h[d] for
    LCA) is at most flat·r counts as uniform, −log 2r."""
    q, D = Q.shape
    S = counts.shape[1]
    gauss = np.zeros((q, S))
    kernel = np.zeros((q, S))
    P = np.empty((D, order.shape[1]))
    for a in range(q):
        kmax = counts[a, S - 1]
        for j in range(kmax):
            row = order[a, j]
            for d in range(D):
                P[d, j] = T[row, d]
        for d in range(D):
            x = Q[a, d]
            hd = h[d]
            # running sums over the neighbours in distance order
            total = 0.0  # Σ x_i (LGA's mean)
            top = -np.inf  # LCA numerator: log Σ exp(e_i) as (top, scaled)
            scaled = 0.0
            i = 0
            for s in range(S):
                k = counts[a, s]
                if k == 0:
                    continue
                while i < k:
                    v = P[d, i]
                    total += v
                    if want_kernel and hd > 0.0:
                        g = (x - v) / hd
                        e = -0.5 * g * g
                        if e > top:
                            scaled = scaled * math.exp(top - e) + 1.0
                            top = e
                        else:
                            scaled += math.exp(e - top)
                    i += 1
                r = radius[a, s]
                uniform = -math.log(2.0 * r)
                if want_gauss:
                    mu = total / k
                    ss = 0.0
                    for j in range(k):
                        t = P[d, j] - mu
                        ss += t * t
                    sd = math.sqrt(ss / k)
                    if sd <= flat * r:
                        gauss[a, s] += uniform
                    else:
                        z = (x - mu) / sd
                        scale = _SQRT2 * sd
                        # x − r ≤ μ ≤ x + r: the two erf terms have opposite signs, no cancellation
                        mass = 0.5 * (_erf((x + r - mu) / scale) - _erf((x - r - mu) / scale))
                        gauss[a, s] += -0.5 * z * z - math.log(sd) - _LOG_SQRT_2PI - math.log(mass)
                if want_kernel:
                    if hd <= flat * r:
                        kernel[a, s] += uniform
                    else:
                        inv = 1.0 / (_SQRT2 * hd)
                        mass = 0.0
                        for j in range(k):
                            gap = x - P[d, j]  # |gap| ≤ r: every neighbour lies in the cube
                            mass += _erf((gap + r) * inv) - _erf((gap - r) * inv)
                        mass *= 0.5
                        kernel[a, s] += top + math.log(scaled) - math.log(hd) - _LOG_SQRT_2PI - math.log(mass)
    return gauss, kernel
