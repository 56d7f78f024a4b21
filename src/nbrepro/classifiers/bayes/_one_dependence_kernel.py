# SPDX-License-Identifier: GPL-3.0-or-later
"""Compiled prediction for the one-dependence classifiers (numba): AODE's and WAODE's weighted
sums of one-dependence products, and HNB's hidden-parent mixtures.

Why compiled: numpy forms these with one gather of a (rows, attributes, classes) block per
attribute, d² gathers per row in all, and the arrays they fill outgrow the cache; this loop reads
each pair's row of the table once, in place. The products and sums run in the same order as
the numpy versions they replace (attributes first to last), and a factor of exactly 1 or a term
of exactly 0, which numpy multiplied or added, is skipped, which changes no bit: the results
are the same to the last bit (tested against the numpy forms).
"""
from __future__ import annotations

import math

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first


@njit(cache=True)
def weighted_one_dependence_sums(index, weights, first, ratio, n_total):
    """total[i, c] = Σ_p weights[i, p] · first[x_p, c] · ∏_{a ≠ p} ratio[x_p·n_total + x_a, c],
    parents p and children a first to last; a parent of weight 0 adds nothing.

    ``index``: (rows, d) flat value indices x; ``first``: (values, classes); ``ratio``: the
    (value pair, classes) table. Parent by parent, the rows are visited grouped by the parent's
    value, so that the block of ``ratio`` that value reads stays in cache; each row's sum still
    runs over its parents first to last."""
    n, d = index.shape
    r = first.shape[1]
    total = np.zeros((n, r))
    acc = np.empty(r)
    for p in range(d):
        for i in np.argsort(index[:, p]):
            wt = weights[i, p]
            if wt == 0.0:
                continue
            u = index[i, p]
            for c in range(r):
                acc[c] = first[u, c]
            base = u * n_total
            for a in range(d):
                if a == p:
                    continue
                row = base + index[i, a]
                for c in range(r):
                    acc[c] *= ratio[row, c]
            for c in range(r):
                total[i, c] += wt * acc[c]
    return total


_ROWS = 256  # HNB's rows per block: their mixtures, (rows, d, classes), stay small


@njit(cache=True)
def hidden_parent_products(index, known, W, term, alone, prior, n_total):
    """HNB: prior[c] · ∏_s factor[s, c] over the known children s, first to last, where
    factor[s, c] = Σ_{p ≠ s known} term[x_p·n_total + x_s, c] / Σ_{p ≠ s known} W[s, p]
    (sums over p first to last), or alone[x_s, c] when that weight sum is not positive.

    Parent by parent, a block's rows are visited grouped by the parent's value, so that the
    block of ``term`` that value reads stays in cache; each sum still runs over p first to last."""
    n, d = index.shape
    r = prior.shape[0]
    out = np.empty((n, r))
    for start in range(0, n, _ROWS):
        stop = min(start + _ROWS, n)
        mix = np.zeros((stop - start, d, r))
        weight_sum = np.zeros((stop - start, d))
        for p in range(d):
            for k in np.argsort(index[start:stop, p]):
                i = start + k
                if not known[i, p]:
                    continue
                base = index[i, p] * n_total
                for s in range(d):
                    if s == p or not known[i, s]:
                        continue
                    weight_sum[k, s] += W[s, p]
                    row = base + index[i, s]
                    for c in range(r):
                        mix[k, s, c] += term[row, c]
        for k in range(stop - start):
            i = start + k
            for c in range(r):
                out[i, c] = prior[c]
            for s in range(d):
                if not known[i, s]:
                    continue
                if weight_sum[k, s] > 0:
                    for c in range(r):
                        out[i, c] *= mix[k, s, c] / weight_sum[k, s]
                else:
                    for c in range(r):
                        out[i, c] *= alone[index[i, s], c]
    return out


@njit(cache=True)
def _pair_terms(joint, class_count, offsets, n_values, n, parent, child, log2, terms):
    """terms[c, u, v] of I(X_child; X_parent | C) for parent value u and child value v."""
    for u in range(n_values[parent]):
        a = offsets[parent] + u
        for v in range(n_values[child]):
            b = offsets[child] + v
            for c in range(joint.shape[2]):
                pp = joint[a, b, c] / n
                x = pp * (class_count[c] / n)
                y = (joint[a, a, c] / n) * (joint[b, b, c] / n)
                if x >= 1e-6 and y >= 1e-6:
                    terms[c, u, v] = pp * (math.log(x / y) / log2)
                else:
                    terms[c, u, v] = pp * 0.0


@njit(cache=True)
def conditional_mutual_information(joint, class_count, offsets, n_values, n):
    """HNB's W[s, p] = I(X_s; X_p | C) in bits: Σ over class, parent value u, child value v (first
    to last, Weka's order) of P(c,u,v) · log2(P(c,u,v)·P(c) / (P(c,u)·P(c,v))), a term 0 where
    either product is below 1e-6; the diagonal 0. ``joint``: (values, values, classes) counts.

    The terms of (s, p) are those of (p, s) with u and v swapped (the counts are symmetric, the
    products commute), so each pair's logs are taken once and summed in both orders; counts
    that are not symmetric get their own terms."""
    d = n_values.shape[0]
    r = joint.shape[2]
    log2 = math.log(2.0)
    q = n_values.max()
    terms = np.empty((r, q, q))
    other = np.empty((r, q, q))
    W = np.zeros((d, d))
    for s in range(d):
        for p in range(s + 1, d):
            _pair_terms(joint, class_count, offsets, n_values, n, p, s, log2, terms)  # parent p, child s
            acc = 0.0
            for c in range(r):
                for u in range(n_values[p]):
                    for v in range(n_values[s]):
                        acc += terms[c, u, v]
            W[s, p] = acc
            symmetric = True
            for u in range(n_values[p]):
                for v in range(n_values[s]):
                    for c in range(r):
                        if joint[offsets[p] + u, offsets[s] + v, c] != joint[offsets[s] + v, offsets[p] + u, c]:
                            symmetric = False
            if not symmetric:
                _pair_terms(joint, class_count, offsets, n_values, n, s, p, log2, other)  # parent s, child p
            acc = 0.0
            for c in range(r):
                for u in range(n_values[s]):
                    for v in range(n_values[p]):
                        acc += terms[c, v, u] if symmetric else other[c, u, v]
            W[p, s] = acc
    return W


@njit(cache=True)
def hidden_parent_terms(joint, W, owner, inverse_q, missing_slot):
    """HNB's table term[u·T + v, c] = W[child of v, parent of u] · (n(c, u, v) + 1/q_v) / (n(c, u) + 1),
    0 for a missing parent value u (the numpy expression's operations, element by element)."""
    T = joint.shape[0]
    r = joint.shape[2]
    term = np.empty((T * T, r))
    for u in range(T):
        for v in range(T):
            row = u * T + v
            if missing_slot[u]:
                for c in range(r):
                    term[row, c] = 0.0
                continue
            w = W[owner[v], owner[u]]
            for c in range(r):
                term[row, c] = (w * (joint[u, v, c] + inverse_q[v])) / (joint[u, u, c] + 1.0)
    return term
