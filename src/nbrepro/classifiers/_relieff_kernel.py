"""Compiled ReliefF (numba): Weka 3.6's ``ReliefFAttributeEval.buildEvaluator`` with its defaults.

Why compiled: every row is compared with every other row, attribute by attribute, O(n² m)
per fit; Hall's calibration fits it 11 times per fold. The loops follow Weka's: the same
neighbour lists, the same order of sums, so the same bits.
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _difference(is_numeric, n_values, a, b, na, nb_):
    """Weka's ``difference``: a, b the raw values (NaN: missing), na, nb_ their normalised values."""
    a_missing = np.isnan(a)
    b_missing = np.isnan(b)
    if not is_numeric:
        if a_missing or b_missing:
            return 1.0 - 1.0 / n_values
        return 1.0 if int(a) != int(b) else 0.0
    if a_missing or b_missing:
        if a_missing and b_missing:
            return 1.0
        d = nb_ if a_missing else na
        if d < 0.5:
            d = 1.0 - d
        return d
    return abs(na - nb_)


@njit(cache=True)
def _mismatches(C, i, z):
    """Nominal attributes, no value missing: the distance is the count of unequal codes (a
    whole number, so the same bits in any order of summation)."""
    count = 0
    for a in range(C.shape[1]):
        count += C[i, a] != C[z, a]
    return float(count)


_TILE = 512  # rows per block: a block's running sums, and a tile of the distance matrix, stay in cache
_MATRIX_ROWS = 6000  # up to this many rows (a 288 MB matrix) each distance is computed once per pair


@njit(cache=True)
def _distance_block(ZT, CT, NT, numeric, n_values, col_missing, z, start, stop, acc):
    """Weka's distance of row ``z`` to rows start..stop-1, into acc[:stop - start]: per attribute,
    ``_difference`` where it has a missing value somewhere, the plain difference elsewhere,
    summed attribute by attribute. From the attribute-major copies ``ZT``, ``CT``, ``NT``: one
    attribute's term is added to the block's rows at once, a loop the compiler vectorises."""
    L = stop - start
    for i in range(L):
        acc[i] = 0.0
    for a in range(NT.shape[0]):
        if col_missing[a]:
            x, y = ZT[a, z], NT[a, z]
            raw = ZT[a, start:stop]
            norm = NT[a, start:stop]
            for i in range(L):
                acc[i] += _difference(numeric[a], n_values[a], raw[i], x, norm[i], y)
        elif numeric[a]:
            x = NT[a, z]
            norm = NT[a, start:stop]
            for i in range(L):
                acc[i] += abs(norm[i] - x)
        else:
            c = CT[a, z]
            codes = CT[a, start:stop]
            for i in range(L):
                acc[i] += 1.0 if codes[i] != c else 0.0


@njit(cache=True)
def _distances(ZT, CT, NT, numeric, n_values, col_missing, z, out, acc):
    """``_distance_block`` of row ``z`` to every row."""
    n = NT.shape[1]
    for start in range(0, n, _TILE):
        stop = min(start + _TILE, n)
        _distance_block(ZT, CT, NT, numeric, n_values, col_missing, z, start, stop, acc)
        out[start:stop] = acc[: stop - start]


@njit(cache=True)
def _distance_matrix(ZT, CT, NT, numeric, n_values, col_missing, acc):
    """Every pair's distance once: Weka's distance is symmetric to the bit (|a − b| = |b − a|,
    and a missing value's expected difference reads the other, known value either way), so each
    tile above the diagonal is computed once and written to both halves."""
    n = NT.shape[1]
    D = np.empty((n, n))
    for r0 in range(0, n, _TILE):
        r1 = min(r0 + _TILE, n)
        for c0 in range(r0, n, _TILE):
            c1 = min(c0 + _TILE, n)
            for z in range(r0, r1):
                _distance_block(ZT, CT, NT, numeric, n_values, col_missing, z, c0, c1, acc)
                for i in range(c1 - c0):
                    D[z, c0 + i] = acc[i]
                if c0 > r0:
                    for i in range(c1 - c0):
                        D[c0 + i, z] = acc[i]
    return D


@njit(cache=True)
def relieff_weights(Z, numeric, n_values, y, n_classes, k, matrix_rows=_MATRIX_ROWS):
    """``matrix_rows``: up to this many rows, every distance is computed once per pair, into an
    n × n matrix (8·n² bytes); above it, twice, row by row."""
    n, m = Z.shape
    # the training range of each numeric attribute (Weka's updateMinMax) and the normalised values
    lo = np.full(m, np.nan)
    hi = np.full(m, np.nan)
    for i in range(n):
        for a in range(m):
            v = Z[i, a]
            if numeric[a] and not np.isnan(v):
                if np.isnan(lo[a]):
                    lo[a] = v
                    hi[a] = v
                elif v < lo[a]:
                    lo[a] = v
                elif v > hi[a]:
                    hi[a] = v
    N = np.zeros((n, m))
    for a in range(m):
        if numeric[a] and not np.isnan(lo[a]) and not abs(hi[a] - lo[a]) < 1e-6:
            for i in range(n):
                N[i, a] = (Z[i, a] - lo[a]) / (hi[a] - lo[a])
    # an attribute without missing values needs neither NaN tests nor Weka's expected differences
    col_missing = np.zeros(m, dtype=np.bool_)
    C = np.zeros((n, m), dtype=np.int32)
    for i in range(n):
        for a in range(m):
            if np.isnan(Z[i, a]):
                col_missing[a] = True
            elif not numeric[a]:
                C[i, a] = np.int32(Z[i, a])
    nominal_only = not col_missing.any() and not numeric.any()
    ZT = np.ascontiguousarray(Z.T)
    CT = np.ascontiguousarray(C.T)
    NT = np.ascontiguousarray(N.T)
    acc = np.zeros(_TILE)
    matrix = not nominal_only and n <= matrix_rows
    D = _distance_matrix(ZT, CT, NT, numeric, n_values, col_missing, acc) if matrix else np.zeros((0, 0))
    row = np.zeros(n)
    probs = np.zeros(n_classes)
    for i in range(n):
        probs[y[i] if y[i] >= 0 else 0] += 1.0  # Java's (int) of a missing class is 0
    for c in range(n_classes):
        probs[c] /= n
    weights = np.zeros(m)
    dist = np.zeros((n_classes, k))
    who = np.zeros((n_classes, k), dtype=np.int64)
    stored = np.zeros(n_classes, dtype=np.int64)
    worst = np.zeros(n_classes, dtype=np.int64)
    for z in range(n):
        if y[z] < 0:
            continue
        stored[:] = 0
        worst[:] = 0
        if matrix:
            row = D[z]
        elif not nominal_only:
            _distances(ZT, CT, NT, numeric, n_values, col_missing, z, row, acc)
        for i in range(n):
            if i == z:
                continue
            d = _mismatches(C, i, z) if nominal_only else row[i]
            cl = y[i] if y[i] >= 0 else 0
            if stored[cl] < k:
                dist[cl, stored[cl]] = d
                who[cl, stored[cl]] = i
                stored[cl] += 1
            elif d < dist[cl, worst[cl]]:
                dist[cl, worst[cl]] = d
                who[cl, worst[cl]] = i
            else:
                continue
            ww = -1.0
            for j in range(stored[cl]):
                if dist[cl, j] > ww:
                    ww = dist[cl, j]
                    worst[cl] = j
        cl = y[z]
        w_norm = 1.0 - probs[cl] if n_classes > 2 else 1.0
        for j in range(stored[cl]):
            other = who[cl, j]
            for a in range(m):
                t = _difference(numeric[a], n_values[a], Z[z, a], Z[other, a], N[z, a], N[other, a])
                t /= stored[cl]
                weights[a] -= t
        for c in range(n_classes):
            if c == cl:
                continue
            for j in range(stored[c]):
                other = who[c, j]
                for a in range(m):
                    t = _difference(numeric[a], n_values[a], Z[z, a], Z[other, a], N[z, a], N[other, a])
                    t /= stored[c]
                    if n_classes > 2:
                        weights[a] += (probs[c] / w_norm) * t
                    else:
                        weights[a] += t
    for a in range(m):
        weights[a] *= 1.0 / n
    return weights
