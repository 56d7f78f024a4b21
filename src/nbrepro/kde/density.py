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

_REACH = 9.0  # bandwidths beyond the nearest sample value
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_BOX = 0.5  # box width in units of √2·h
_TERMS = 40  # Taylor terms per box
_NEAR = 2.0  # queries within this many √2·h of the sample may use the expansion
_PAIRS = 1 << 16  # (query, box) pairs evaluated at once
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
    pos = np.searchsorted(v, q)
    left = np.where(pos > 0, q - v[np.maximum(pos - 1, 0)], np.inf)
    right = np.where(pos < len(v), v[np.minimum(pos, len(v) - 1)] - q, np.inf)
    nearest = np.minimum(left, right)
    reach = nearest + _REACH * h
    lo = np.searchsorted(v, q - reach, side="left")
    hi = np.searchsorted(v, q + reach, side="right")
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
    out[known] = (sums * (_INV_SQRT_2PI / (total * h)))[q_inverse]
    return out


def kernel_density_table(X: np.ndarray, groups) -> np.ndarray:
    """``kernel_density`` for many samples at once: ``groups`` is a list of (column of X,
    values, weights, h); the result is (rows of X, groups), NaN where X is missing. Small
    samples are summed together in one pass (no per-sample overhead); a sample whose
    windows hold many values goes through ``kernel_density`` (and its expansions)."""
    X = np.asarray(X, dtype=np.float64)
    out = np.full((X.shape[0], len(groups)), np.nan)
    queries = {}
    for t in {g[0] for g in groups}:
        known = ~np.isnan(X[:, t])
        q, inverse = np.unique(X[known, t], return_inverse=True)
        queries[t] = (known, q, inverse)
    batch_q, batch_h, batch_lo, batch_hi, values, weights, owners, scales = [], [], [], [], [], [], [], []
    offset = 0
    for g, (_, _, _, h) in enumerate(groups):
        if not h > 0:
            raise ValueError(f"kernel_density_table: group {g}: the bandwidth must be positive, got {h!r}")
    samples = _distinct_values(groups)
    dense = set()
    by_attribute = {}
    for g, (t, _, _, _) in enumerate(groups):
        by_attribute.setdefault(t, []).append(g)
    for t, members in by_attribute.items():
        known, q, inverse = queries[t]
        live = [g for g in members if samples[g][3] > 0 and len(samples[g][0])]
        if not len(q) or not live or len(q) * sum(len(samples[g][0]) for g in live) > _DENSE_MAX:
            continue
        sums = _dense_attribute_sums(q, [samples[g] for g in live])
        for k, g in enumerate(live):
            v, w, h, total = samples[g]
            out[known, g] = (sums[:, k] * (_INV_SQRT_2PI / (total * h)))[inverse]
        dense.update(members)
    for g, (t, raw, raw_w, h) in enumerate(groups):
        known, q, inverse = queries[t]
        if not len(q):
            continue
        v, w, h, total = samples[g]
        if total <= 0 or not len(v):
            out[known, g] = 0.0
            continue
        if g in dense:
            continue
        pos = np.searchsorted(v, q)
        left = np.where(pos > 0, q - v[np.maximum(pos - 1, 0)], np.inf)
        right = np.where(pos < len(v), v[np.minimum(pos, len(v) - 1)] - q, np.inf)
        reach = np.minimum(left, right) + _REACH * h
        lo = np.searchsorted(v, q - reach, side="left")
        hi = np.searchsorted(v, q + reach, side="right")
        if int((hi - lo).sum()) > _BATCH_GROUP_MAX:  # a large sample: on its own, where expansions may pay
            out[:, g] = kernel_density(X[:, t], raw, raw_w, h)
            continue
        batch_q.append(q)
        batch_h.append(np.full(len(q), h))
        batch_lo.append(lo + offset)
        batch_hi.append(hi + offset)
        values.append(v)
        weights.append(w)
        owners.append((g, known, inverse, len(q)))
        scales.append(_INV_SQRT_2PI / (total * h))
        offset += len(v)
    if owners:
        sums = _direct_sums(np.concatenate(batch_q), np.concatenate(batch_lo), np.concatenate(batch_hi),
                            np.concatenate(values), np.concatenate(weights), np.concatenate(batch_h))
        start = 0
        for (g, known, inverse, n_q), scale in zip(owners, scales):
            out[known, g] = (sums[start:start + n_q] * scale)[inverse]
            start += n_q
    return out


def _distinct_values(groups) -> dict:
    """group → (distinct values ascending, summed weight of each, h, total weight), for all
    groups in one sort (as ``np.unique`` and ``np.bincount`` per group would give them: the
    weights of equal values are added in their original order)."""
    sizes = np.array([len(g[1]) for g in groups], dtype=np.int64)
    values = np.concatenate([np.asarray(g[1], dtype=np.float64).ravel() for g in groups]) if len(groups) else np.empty(0)
    weights = np.concatenate([np.asarray(g[2], dtype=np.float64).ravel() for g in groups]) if len(groups) else np.empty(0)
    owner = np.repeat(np.arange(len(groups)), sizes)
    order = np.lexsort((values, owner))  # stable: equal values keep their order
    v, o, w = values[order], owner[order], weights[order]
    new = np.ones(len(v), dtype=bool)
    new[1:] = (v[1:] != v[:-1]) | (o[1:] != o[:-1])
    first = np.flatnonzero(new)
    summed = np.bincount(np.cumsum(new) - 1, weights=w, minlength=len(first))
    distinct, distinct_owner = v[first], o[first]
    bounds = np.searchsorted(distinct_owner, np.arange(len(groups) + 1))
    out = {}
    for g, (_, _, _, h) in enumerate(groups):
        dv, dw = distinct[bounds[g]:bounds[g + 1]], summed[bounds[g]:bounds[g + 1]]
        out[g] = (dv, dw, float(h), float(dw.sum()))
    return out


def _dense_attribute_sums(q: np.ndarray, samples: list) -> np.ndarray:
    """Every query of one attribute against every value of its samples (one per class), in
    one compiled pass (``_kernels.dense_sums``). No window: every term is kept (terms beyond
    ~38 bandwidths are exactly 0). Returns (queries, samples) sums of w·exp(−½((q − v)/h)²)."""
    from ._kernels import dense_sums, gauss_array, table_sums  # numba: imported where first needed

    v_all = np.concatenate([s[0] for s in samples])
    w_all = np.concatenate([s[1] for s in samples])
    half_inv_h2 = np.array([0.5 / (s[2] * s[2]) for s in samples])
    bounds = np.concatenate(([0], np.cumsum([len(s[0]) for s in samples]))).astype(np.int64)
    unit = bool(np.all(w_all == 1.0))
    lattice = _integer_lattice(q, v_all)
    if lattice is None:
        return dense_sums(q, v_all, w_all, half_inv_h2, bounds, unit)
    # whole-number values: every difference is an integer k, and e^(−k²·f) is the same float
    # whether taken per pair or once per (k, sample) — look it up instead
    span, qi, vi = lattice
    k2 = np.arange(span + 1, dtype=np.float64) ** 2
    table = np.concatenate([gauss_array(k2 * f) for f in half_inv_h2])
    return table_sums(qi, vi, w_all, table, span, bounds, unit)


def _integer_lattice(q: np.ndarray, v: np.ndarray):
    """(largest |q − v|, q and v as int64) when every value is a whole number of modest size."""
    lo = min(float(q.min()), float(v.min()))
    hi = max(float(q.max()), float(v.max()))
    if hi - lo > _LATTICE_MAX or not (np.all(q == np.round(q)) and np.all(v == np.round(v))):
        return None
    if max(abs(lo), abs(hi)) > 2.0 ** 52:
        return None
    return int(hi - lo), q.astype(np.int64), v.astype(np.int64)


def _ragged_blocks(first: np.ndarray, counts: np.ndarray, budget: int):
    """Walk ragged ranges [first[i], first[i] + counts[i]) in blocks of about ``budget`` items:
    yields (slice of the ranges, owner range of each item within the block, item index)."""
    ends = np.cumsum(counts)
    if not len(ends) or ends[-1] == 0:
        return
    cuts = np.unique(np.searchsorted(ends, np.arange(budget, int(ends[-1]) + budget, budget), side="left") + 1)
    starts = np.concatenate(([0], cuts[cuts < len(counts)]))
    for start, stop in zip(starts, np.append(starts[1:], len(counts))):
        n = counts[start:stop]
        owner = np.repeat(np.arange(stop - start), n)
        offset = np.repeat(first[start:stop] - np.concatenate(([0], np.cumsum(n)[:-1])), n)
        yield slice(start, stop), owner, offset + np.arange(int(n.sum()))


def _direct_sums(q, lo, hi, v, w, h) -> np.ndarray:
    """Σ over each query's window of w·exp(−½((q − v)/h)²), the window's values in order
    (``h`` a number or one per query; compiled: ``_kernels.window_sums``)."""
    from ._kernels import window_sums

    h = np.ascontiguousarray(np.broadcast_to(np.asarray(h, dtype=np.float64), np.shape(q)))
    return window_sums(np.asarray(q, dtype=np.float64), np.asarray(lo, dtype=np.int64),
                       np.asarray(hi, dtype=np.int64), v, w, h)


def _expanded_sums(q, lo, hi, v, w, scale) -> np.ndarray:
    """The same sums through per-box Taylor expansions (see the module docstring)."""
    u = v * scale
    t = q * scale
    origin = u[0]
    box_of = np.floor((u - origin) / _BOX).astype(np.int64)
    n_boxes = int(box_of[-1]) + 1
    centre = origin + (np.arange(n_boxes) + 0.5) * _BOX
    d = u - centre[box_of]
    weight = w * np.exp(-d * d)
    moments = np.zeros((n_boxes, _TERMS))
    power = weight.copy()
    for k in range(_TERMS):  # Σ w e^{−d²} (2d)^k / k!
        moments[:, k] = np.bincount(box_of, weights=power, minlength=n_boxes)
        power = power * (2.0 * d) / (k + 1)
    first_box = box_of[lo]
    last_box = box_of[hi - 1]
    n_pairs = last_box - first_box + 1
    sums = np.zeros(len(q))
    for block, owner, box in _ragged_blocks(first_box, n_pairs, _PAIRS):
        r = t[block][owner] - centre[box]
        m = moments[box]
        acc = m[:, _TERMS - 1].copy()
        for k in range(_TERMS - 2, -1, -1):  # Horner in (t − c)
            acc = acc * r + m[:, k]
        sums[block] = np.bincount(owner, weights=acc * np.exp(-r * r), minlength=block.stop - block.start)
    return sums
