# SPDX-License-Identifier: GPL-3.0-or-later
"""Gaussian kernel density sums, many query points against one weighted sample.

    f(x) = 1/(W h) · Σ_i w_i φ((x − v_i)/h),   W = Σ_i w_i

Only the sample values within 9 bandwidths beyond a query's nearest value are visited:
every term left out is below e^(−40.5) ≈ 2.6e-18 of the largest one, so the sum is exact to
n·2.6e-18 relative. Queries and sample values are first reduced to their distinct values.

Where a query's window holds many values (a wide bandwidth over many distinct values,
adult's fnlwgt for instance), the values are grouped into boxes half a scaled bandwidth
wide and each box is summed through a Taylor expansion about its centre c (the fast Gauss
transform of Greengard & Strain, with s = (x − v)/(√2 h)):

    e^{−(t−u)²} = e^{−(t−c)²} · e^{−(u−c)²} · Σ_k (2(t−c))^k (u−c)^k / k!

The box moments Σ_i w_i e^{−(u_i−c)²} (u_i−c)^k 2^k/k! are computed once; a query then costs
one exponential and a degree-39 polynomial per box instead of one exponential per value. It
is used only for queries within 2 scaled bandwidths of the sample, where |2(t−c)(u−c)| ≤ 4.4
and 40 terms leave a truncation error below 1e-18 and a rounding error below 1e-12 relative
(measured against the direct sum in the tests). Other queries are summed directly.
"""
from __future__ import annotations

import math

import numpy as np

from .. import libm

_REACH = 9.0  # bandwidths beyond the nearest sample value
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_BOX = 0.5  # box width in units of √2·h
_TERMS = 40  # Taylor terms per box
_NEAR = 2.0  # queries within this many √2·h of the sample may use the expansion
_EXPAND_MIN = 2  # values per touched box above which the expansion is cheaper than the direct sum
_BATCH_GROUP_MAX = 1 << 20  # window terms above which a sample is summed on its own
_DENSE_MAX = 1 << 23  # queries × values of one attribute up to which every pair is computed densely
_LATTICE_MAX = 1 << 20  # widest range of whole-number values looked up in a table of exp(k²·factor)


def kernel_density(x: np.ndarray, values: np.ndarray, weights: np.ndarray, h: float) -> np.ndarray:
    """f(x) for every query in ``x`` (NaN stays NaN). ``values``: the sample (any order),
    ``weights``: one per value; ``h`` > 0."""
    x = np.asarray(x, dtype=np.float64)
    out = np.full(x.shape, np.nan)
    known = ~np.isnan(x)
    if not known.any():
        return out
    if not h > 0:
        raise ValueError(f"kernel_density: the bandwidth must be positive, got {h!r}")
    v, inverse = np.unique(np.asarray(values, dtype=np.float64), return_inverse=True)
    w = np.bincount(inverse, weights=np.asarray(weights, dtype=np.float64), minlength=len(v))
    total = float(w.sum())
    if total <= 0 or not len(v):
        out[known] = 0.0
        return out
    q, q_inverse = np.unique(x[known], return_inverse=True)
    out[known] = (_window_sums(q, v, w, h) * (_INV_SQRT_2PI / (total * h)))[q_inverse]
    return out


def _window_sums(q: np.ndarray, v: np.ndarray, w: np.ndarray, h: float) -> np.ndarray:
    """Σ over each query's window of w·exp(−½((q − v)/h)²) for distinct ascending queries ``q``
    and a distinct ascending sample ``v``: expanded where that pays, else directly."""
    lo, hi, nearest = _windows(q, v, h)
    sums = np.zeros(len(q))
    scale = 1.0 / (math.sqrt(2.0) * h)
    near = nearest * scale <= _NEAR
    span = (2.0 * (_NEAR + _REACH / math.sqrt(2.0))) / _BOX  # boxes a near query's window can touch
    expand = near & ((hi - lo) > _EXPAND_MIN * span)  # the expansion pays off
    if expand.any():
        sums[expand] = _expanded_sums(q[expand], lo[expand], hi[expand], v, w, scale)
    direct = ~expand
    if direct.any():
        sums[direct] = _direct_sums(q[direct], lo[direct], hi[direct], v, w, h)
    return sums


def _windows(q: np.ndarray, v: np.ndarray, h: float):
    """Each query's window [lo, hi) of sample values: within 9 bandwidths beyond its nearest
    value; and that nearest distance."""
    pos = np.searchsorted(v, q)
    left = np.where(pos > 0, q - v[np.maximum(pos - 1, 0)], np.inf)
    right = np.where(pos < len(v), v[np.minimum(pos, len(v) - 1)] - q, np.inf)
    nearest = np.minimum(left, right)
    reach = nearest + _REACH * h
    return np.searchsorted(v, q - reach, side="left"), np.searchsorted(v, q + reach, side="right"), nearest


def kernel_density_table(X: np.ndarray, groups) -> np.ndarray:
    """``kernel_density`` for many samples at once: ``groups`` is a list of (column of X,
    values, weights or None for unit weights, h); the result is (rows of X, groups), NaN where X is missing.

    Each column's queries and each sample's values are first reduced to distinct values.
    An attribute whose queries × values are few enough (``_DENSE_MAX``) has every pair of all
    its samples summed in one compiled pass over all such attributes; the other samples are
    summed over their windows, small ones batched together, a sample whose windows hold many
    values on its own (where the expansions may pay). The sums reach the rows in one pass."""
    from ._kernels import dense_attributes, distinct_columns, scatter_sums

    X = np.asarray(X, dtype=np.float64)
    out = np.full((X.shape[0], len(groups)), np.nan)
    if not groups:
        return out
    for g, (_, _, _, h) in enumerate(groups):
        if not h > 0:
            raise ValueError(f"kernel_density_table: group {g}: the bandwidth must be positive, got {h!r}")
    columns = np.array([g[0] for g in groups], dtype=np.int64)
    h = np.array([float(g[3]) for g in groups])
    q, q_bounds, inverse = distinct_columns(np.ascontiguousarray(X))
    v, w, v_bounds, totals = _distinct_values(groups)
    n_v = np.diff(v_bounds)
    n_q = np.diff(q_bounds)[columns]
    offsets = np.concatenate(([0], np.cumsum(n_q))).astype(np.int64)
    sums = np.zeros(int(offsets[-1]))
    live = (totals > 0) & (n_v > 0) & (n_q > 0)
    with np.errstate(divide="ignore"):
        scale = np.where(live, _INV_SQRT_2PI / (totals * h), 0.0)  # no value or no weight: density 0
    pairs = np.bincount(columns[live], weights=(n_q * n_v)[live], minlength=X.shape[1])
    dense_column = (pairs > 0) & (pairs <= _DENSE_MAX)
    dense = live & dense_column[columns]
    if dense.any():
        members = np.flatnonzero(dense)
        members = members[np.argsort(columns[members], kind="stable")]  # by attribute, in group order
        attributes, first = np.unique(columns[members], return_index=True)
        dense_attributes(q, q_bounds, v, w, v_bounds, 0.5 / (h * h), attributes, members,
                         np.append(first, len(members)).astype(np.int64), offsets, sums, float(_LATTICE_MAX))
    batch = []
    for g in np.flatnonzero(live & ~dense):
        t = columns[g]
        qs, vs, ws = q[q_bounds[t]:q_bounds[t + 1]], v[v_bounds[g]:v_bounds[g + 1]], w[v_bounds[g]:v_bounds[g + 1]]
        lo, hi, _ = _windows(qs, vs, h[g])
        if int((hi - lo).sum()) > _BATCH_GROUP_MAX:  # a large sample: on its own, where expansions may pay
            sums[offsets[g]:offsets[g + 1]] = _window_sums(qs, vs, ws, h[g])
        else:
            batch.append((g, qs, lo + v_bounds[g], hi + v_bounds[g]))
    if batch:
        stitched = _direct_sums(np.concatenate([b[1] for b in batch]), np.concatenate([b[2] for b in batch]),
                                np.concatenate([b[3] for b in batch]), v, w,
                                np.concatenate([np.full(len(b[1]), h[b[0]]) for b in batch]))
        sums[np.concatenate([np.arange(offsets[b[0]], offsets[b[0] + 1]) for b in batch])] = stitched
    scatter_sums(out, sums, offsets, columns, inverse, scale)
    return out


def _distinct_values(groups):
    """Every sample's distinct values ascending and their summed weights (as ``np.unique``
    and ``np.bincount`` give them: the weights of equal values are added in their original
    order), concatenated with bounds, and each sample's total weight."""
    from ._kernels import distinct_groups

    sizes = np.array([np.size(g[1]) for g in groups], dtype=np.int64)
    raw_v = np.concatenate([np.asarray(g[1], dtype=np.float64).ravel() for g in groups])
    if all(g[2] is None for g in groups):
        raw_w = np.ones(int(sizes.sum()))
    else:
        raw_w = np.concatenate([np.ones(size) if g[2] is None else np.asarray(g[2], dtype=np.float64).ravel()
                                for g, size in zip(groups, sizes, strict=True)])
    if np.isnan(raw_v).any():
        bad = int(np.repeat(np.arange(len(groups)), sizes)[np.isnan(raw_v)][0])
        raise ValueError(f"kernel_density_table: group {bad}: the sample holds NaN")
    v, w, bounds = distinct_groups(raw_v, raw_w, np.concatenate(([0], np.cumsum(sizes))).astype(np.int64))
    owner = np.repeat(np.arange(len(groups)), np.diff(bounds))
    if np.all(w == np.floor(w)) and w.sum() < 2.0 ** 53:
        totals = np.bincount(owner, weights=w, minlength=len(groups))  # whole numbers: exact in any order
    else:
        totals = np.array([float(w[bounds[g]:bounds[g + 1]].sum()) for g in range(len(groups))])
    return v, w, bounds, totals


def _direct_sums(q, lo, hi, v, w, h) -> np.ndarray:
    """Σ over each query's window of w·exp(−½((q − v)/h)²), the window's values in order
    (``h`` a number or one per query; compiled: ``_kernels.window_sums``)."""
    from ._kernels import window_sums

    h = np.ascontiguousarray(np.broadcast_to(np.asarray(h, dtype=np.float64), np.shape(q)))
    return window_sums(np.asarray(q, dtype=np.float64), np.asarray(lo, dtype=np.int64),
                       np.asarray(hi, dtype=np.int64), v, w, h)


def _expanded_sums(q, lo, hi, v, w, scale) -> np.ndarray:
    """The same sums through per-box Taylor expansions (see the module docstring); the
    moments here, the (query, box) polynomials compiled (``_kernels.expanded_sums``)."""
    from ._kernels import expanded_sums  # numba: imported where first needed

    u = v * scale
    t = q * scale
    origin = u[0]
    box_of = np.floor((u - origin) / _BOX).astype(np.int64)
    n_boxes = int(box_of[-1]) + 1
    centre = origin + (np.arange(n_boxes) + 0.5) * _BOX
    d = u - centre[box_of]
    weight = w * libm.exp(-d * d)
    moments = np.zeros((n_boxes, _TERMS))
    power = weight.copy()
    for k in range(_TERMS):  # Σ w e^{−d²} (2d)^k / k!
        moments[:, k] = np.bincount(box_of, weights=power, minlength=n_boxes)
        power = power * (2.0 * d) / (k + 1)
    return expanded_sums(t, box_of[lo], box_of[hi - 1], centre, moments)
