# SPDX-License-Identifier: GPL-3.0-or-later
"""Compiled ReliefF (numba): Weka 3.6's ``ReliefFAttributeEval.buildEvaluator`` with its defaults.

Why compiled: every row is compared with every other row, attribute by attribute, O(n² m)
per fit; Hall's calibration fits it 11 times per fold. The loops follow Weka's: the same
neighbour lists, the same order of sums, so the same bits.
"""
from __future__ import annotations

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first


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


_TILE = 512  # rows per block: a block's running sums and its rows' neighbour lists stay in cache


@njit(cache=True)
def _distance_block(ZT, CT, NT, numeric, n_values, col_missing, z, start, stop, acc):
    """Weka's distance of row ``z`` to rows start..stop-1, into acc[:stop - start]: per attribute,
    ``_difference`` (written out) where it has a missing value somewhere, the plain difference elsewhere,
    summed attribute by attribute. From the attribute-major copies ``ZT``, ``CT``, ``NT``: one
    attribute's term is added to the block's rows at once, a loop the compiler vectorises."""
    L = stop - start
    for i in range(L):
        acc[i] = 0.0
    for a in range(NT.shape[0]):
        if col_missing[a]:
            # ``_difference`` term by term, as selects the compiler vectorises: where one value
            # is missing the term reads only the other
            raw = ZT[a, start:stop]
            if numeric[a]:
                norm = NT[a, start:stop]
                if np.isnan(ZT[a, z]):
                    for i in range(L):
                        d = norm[i]
                        d = 1.0 - d if d < 0.5 else d
                        acc[i] += 1.0 if np.isnan(raw[i]) else d
                else:
                    x = NT[a, z]
                    e = 1.0 - x if x < 0.5 else x
                    for i in range(L):
                        acc[i] += e if np.isnan(raw[i]) else abs(norm[i] - x)
            else:
                unknown = 1.0 - 1.0 / n_values[a]
                if np.isnan(ZT[a, z]):
                    for i in range(L):
                        acc[i] += unknown
                else:
                    c = CT[a, z]
                    codes = CT[a, start:stop]
                    for i in range(L):
                        acc[i] += unknown if np.isnan(raw[i]) else (1.0 if codes[i] != c else 0.0)
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
def _take(q, i, d, k, dist, who, stored, worst, bar):
    """Row ``i`` at distance ``d`` into neighbour list ``q`` (row z's list of class c is q =
    z·classes + c; flat arrays, list q's slots at q·k …), which the caller's test said takes it:
    Weka's lists of the k nearest, filled in the order candidates come, then the first of the
    current worst replaced by anything strictly nearer. ``bar[q]``: the distance a candidate
    must be below to be taken (+inf while the list is not full: the worst once it is)."""
    s = stored[q]
    base = q * k
    if s < k:
        dist[base + s] = d
        who[base + s] = i
        stored[q] = s + 1
    else:
        dist[base + worst[q]] = d
        who[base + worst[q]] = i
    ww = -1.0
    for j in range(stored[q]):
        if dist[base + j] > ww:
            ww = dist[base + j]
            worst[q] = j
    if stored[q] == k:
        bar[q] = dist[base + worst[q]]


@njit(cache=True, inline="always")
def _insert(q, cand, d, k, dist, who, stored, worst):
    """``_take`` without its bookkeeping while the list fills: the worst is found only once the
    list is full (no one reads it before), by a scan without branches (the first of the largest,
    as Weka's, whose scan starts from −1: distances are never negative, so starting from the first
    slot finds the same one). Returns the list's new bar: +inf while it is not full, else its worst
    distance; Weka's test "not full, or nearer than the worst" is then ``d < bar``, distances being
    finite (each attribute adds a term in [0, 1])."""
    base = q * k
    s = stored[q]
    if s < k:
        dist[base + s] = d
        who[base + s] = cand
        stored[q] = s + 1
        if s + 1 < k:
            return np.inf
    else:
        dist[base + worst[q]] = d
        who[base + worst[q]] = cand
    ww = dist[base]
    wj = 0
    for j in range(1, k):
        v = dist[base + j]
        larger = v > ww
        ww = v if larger else ww
        wj = j if larger else wj
    worst[q] = wj
    return ww


@njit(cache=True)
def _neighbours_tiled(ZT, CT, NT, numeric, n_values, col_missing, y, r, k, dist, who, stored, worst, acc):
    """Every row's neighbour lists, each pair's distance computed once: Weka's distance is
    symmetric to the bit (|a − b| = |b − a|, and a missing value's expected difference reads
    the other, known value either way). Tiles of rows × columns on and above the diagonal; a
    tile's distances are offered to its row (candidates in column order) and, above the
    diagonal, to its columns (candidate: the row). Row tiles come in order, so every row sees
    its candidates in ascending order, as Weka's scan does: the same lists, no n × n matrix.

    A list takes a candidate strictly nearer than its bar (+inf until it holds k). Bars only
    fall, so a first pass without branches picks every candidate below its bar as it stood
    before the pass (about 1 in 20), and a second offers only those, in order, against the
    bar as it stands then: the candidates Weka's scan would have tested, tested the same way."""
    n = NT.shape[1]
    ycls = np.empty(n, dtype=np.int64)  # a row's class as a list index: Java's (int) of a missing class is 0
    for i in range(n):
        ycls[i] = y[i] if y[i] >= 0 else 0
    bar = np.full((r, n), np.inf)  # list (row, class)'s bar at [class, row]: a tile's columns side by side
    picked = np.empty(_TILE, dtype=np.int64)
    bar_z = np.empty(r)
    for r0 in range(0, n, _TILE):
        r1 = min(r0 + _TILE, n)
        for c0 in range(r0, n, _TILE):
            c1 = min(c0 + _TILE, n)
            L = c1 - c0
            for z in range(r0, r1):
                _distance_block(ZT, CT, NT, numeric, n_values, col_missing, z, c0, c1, acc)
                if y[z] >= 0:  # the columns' rows as candidates for z's lists of their classes
                    for c in range(r):
                        bar_z[c] = bar[c, z]
                    m = 0
                    for i in range(L):
                        picked[m] = i
                        m += acc[i] < bar_z[ycls[c0 + i]]
                    for j in range(m):
                        i = picked[j]
                        c = ycls[c0 + i]
                        if acc[i] < bar_z[c] and c0 + i != z:
                            bar_z[c] = _insert(z * r + c, c0 + i, acc[i], k, dist, who, stored, worst)
                    for c in range(r):
                        bar[c, z] = bar_z[c]
                if c0 > r0:  # above the diagonal: z as a candidate for the columns' lists of z's class
                    cz = ycls[z]
                    bar_cz = bar[cz]
                    m = 0
                    for i in range(L):
                        picked[m] = i
                        m += acc[i] < bar_cz[c0 + i]
                    for j in range(m):
                        other = c0 + picked[j]
                        if y[other] >= 0:
                            bar_cz[other] = _insert(other * r + cz, z, acc[picked[j]], k, dist, who, stored, worst)


@njit(cache=True)
def _neighbours_row_by_row(ZT, CT, NT, C, numeric, n_values, col_missing, y, r, k, dist, who, stored, worst, bar,
                           acc):
    """The reference: row by row, each row's distances to every row (each pair twice; the
    plain mismatch count where every attribute is nominal and known), candidates in order."""
    n = NT.shape[1]
    nominal_only = not col_missing.any() and not numeric.any()
    row = np.zeros(n)
    for z in range(n):
        if y[z] < 0:
            continue
        if not nominal_only:
            for start in range(0, n, _TILE):
                stop = min(start + _TILE, n)
                _distance_block(ZT, CT, NT, numeric, n_values, col_missing, z, start, stop, acc)
                row[start:stop] = acc[: stop - start]
        for i in range(n):
            if i != z:
                d = _mismatches(C, i, z) if nominal_only else row[i]
                q = z * r + (y[i] if y[i] >= 0 else 0)
                if stored[q] < k or d < dist[q * k + worst[q]]:  # Weka's test, without ``bar``
                    _take(q, i, d, k, dist, who, stored, worst, bar)


@njit(cache=True)
def relieff_weights(Z, numeric, n_values, y, n_classes, k, tiled=True):
    """Weka's merits. ``tiled``: each pair's distance once, neighbours gathered tile by tile
    (``_neighbours_tiled``); False: the row-by-row reference, the same lists."""
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
    ZT = np.ascontiguousarray(Z.T)
    CT = np.ascontiguousarray(C.T)
    NT = np.ascontiguousarray(N.T)
    acc = np.zeros(_TILE)
    r = n_classes
    dist = np.zeros(n * r * k)  # row z's list of class c: slots (z·r + c)·k …, ``stored`` of them filled
    who = np.zeros(n * r * k, dtype=np.int64)
    stored = np.zeros(n * r, dtype=np.int64)
    worst = np.zeros(n * r, dtype=np.int64)
    if tiled:
        _neighbours_tiled(ZT, CT, NT, numeric, n_values, col_missing, y, r, k, dist, who, stored, worst, acc)
    else:
        _neighbours_row_by_row(ZT, CT, NT, C, numeric, n_values, col_missing, y, r, k, dist, who, stored, worst,
                               np.full(n * r, np.inf), acc)
    probs = np.zeros(n_classes)
    for i in range(n):
        probs[y[i] if y[i] >= 0 else 0] += 1.0  # Java's (int) of a missing class is 0
    for c in range(n_classes):
        probs[c] /= n
    weights = np.zeros(m)
    t = np.zeros(m)
    for z in range(n):
        if y[z] < 0:
            continue
        cl = y[z]
        w_norm = 1.0 - probs[cl] if n_classes > 2 else 1.0
        for step in range(r):  # the hits (z's class), then the misses of every other class in order
            c = cl if step == 0 else (step - 1 if step - 1 < cl else step)
            q = z * r + c
            share = probs[c] / w_norm
            for j in range(stored[q]):
                other = who[q * k + j]
                for a in range(m):  # _difference, without its tests where a column has no missing value
                    if col_missing[a]:
                        t[a] = _difference(numeric[a], n_values[a], Z[z, a], Z[other, a], N[z, a], N[other, a])
                    elif numeric[a]:
                        t[a] = abs(N[z, a] - N[other, a])
                    else:
                        t[a] = 1.0 if int(Z[z, a]) != int(Z[other, a]) else 0.0
                for a in range(m):
                    if step == 0:
                        weights[a] -= t[a] / stored[q]
                    elif n_classes > 2:
                        weights[a] += share * (t[a] / stored[q])
                    else:
                        weights[a] += t[a] / stored[q]
    for a in range(m):
        weights[a] *= 1.0 / n
    return weights
