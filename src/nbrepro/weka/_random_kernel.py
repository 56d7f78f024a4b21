# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka's randomize, stratify and resample, compiled (numba): ``java.util.Random``'s generator
driving a backward Fisher–Yates shuffle, ``Instances.stratify``, and the draws of
``Instances.resampleWithWeights``.

Every Weka fold shuffles its rows, Bagging shuffles its bags, and NBTree randomizes and
stratifies the rows of every branch of every candidate split: in Python the loop per row was
the cost. ``random.java_shuffle`` and ``protocols.weka_cv`` call these; the generator's
state goes in and comes out, so the stream continues exactly as ``JavaRandom``'s would.
"""
from __future__ import annotations

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first


@njit(cache=True)
def shuffled_indices(n, state):
    """The permutation ``Instances.randomize`` gives rows 0..n−1 (``nextInt`` with its rejection
    loop, inlined), and the generator's new state."""
    items = np.arange(n)
    mult = np.uint64(0x5DEECE66D)
    add = np.uint64(0xB)
    mask = np.uint64((1 << 48) - 1)
    shift = np.uint64(17)
    s = np.uint64(state)
    limit = 1 << 31
    for j in range(n - 1, 0, -1):
        bound = j + 1
        s = (s * mult + add) & mask
        r = np.int64(s >> shift)
        if bound & j == 0:  # a power of two
            k = (bound * r) >> 31
        else:
            k = r % bound
            while r - k + j >= limit:
                s = (s * mult + add) & mask
                r = np.int64(s >> shift)
                k = r % bound
        tmp = items[j]
        items[j] = items[k]
        items[k] = tmp
    return items, np.int64(s)


@njit(cache=True)
def alias_draws(Q, A, state):
    """The rows of one ``Instances.resampleWithWeights`` bag: len(Q) draws, each
    ``n·nextDouble()`` looked up in Walker's alias table (Q, A), and the generator's new state."""
    n = Q.shape[0]
    mult = np.uint64(0x5DEECE66D)
    add = np.uint64(0xB)
    mask = np.uint64((1 << 48) - 1)
    s = np.uint64(state)
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        s = (s * mult + add) & mask
        high = np.int64(s >> np.uint64(22))
        s = (s * mult + add) & mask
        low = np.int64(s >> np.uint64(21))
        u = ((high << 27) + low) / 9007199254740992.0  # nextDouble: 53 bits over 2^53, exact
        r = n * u
        k = np.int64(r)
        out[i] = k if r < Q[k] else A[k]
    return out, np.int64(s)


@njit(cache=True)
def stratified(items, y, n_folds):
    """``Instances.stratify(n_folds)`` of ``items`` (row numbers into ``y``, class codes, a
    missing class one code): rows grouped by class with Weka's selection swaps, then dealt
    out fold by fold."""
    items = items.copy()
    n = items.shape[0]
    index = 1
    while index < n:
        seed_class = y[items[index - 1]]
        for j in range(index, n):
            if y[items[j]] == seed_class:
                tmp = items[index]
                items[index] = items[j]
                items[j] = tmp
                index += 1
        index += 1
    out = np.empty(n, dtype=items.dtype)
    t = 0
    for start in range(n_folds):
        for i in range(start, n, n_folds):
            out[t] = items[i]
            t += 1
    return out


@njit(cache=True)
def shuffled_stratified_order(y, n_folds, state):
    """Rows 0..n−1 randomized then stratified, as NBTree's ``crossValidate`` orders a branch;
    (order, the generator's new state)."""
    items, s = shuffled_indices(y.shape[0], state)
    return stratified(items, y, n_folds), s


@njit(cache=True)
def alias_table(weights):
    """Walker's alias table (Q, A) of ``Instances.resampleWithWeights``, Weka 3.6's arithmetic in
    its order: the weights normalised by their running sum (``Utils.normalize``), scaled by n,
    split into small and large, then each small one's deficit taken from the current large one.
    Q is returned as q + i (the form ``alias_draws`` compares n·u with)."""
    n = weights.shape[0]
    total = 0.0
    for i in range(n):
        total += weights[i]
    Q = np.empty(n)
    for i in range(n):
        Q[i] = n * (weights[i] / total)
    A = np.zeros(n, dtype=np.int64)
    W = np.zeros(n, dtype=np.int64)
    small, large = -1, n
    for i in range(n):
        if Q[i] < 1.0:
            small += 1
            W[small] = i
        else:
            large -= 1
            W[large] = i
    if small > -1 and large < n:
        for i in range(n - 1):
            k, j = W[i], W[large]
            A[k] = j
            Q[j] += Q[k] - 1.0
            if Q[j] < 1.0:
                large += 1
            if large >= n:
                break
    for i in range(n):
        Q[i] += i
    return Q, A
