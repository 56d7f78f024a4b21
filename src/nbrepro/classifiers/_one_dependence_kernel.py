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
from numba import njit


@njit(cache=True)
def weighted_one_dependence_sums(index, weights, first, ratio, n_total):
    """total[i, c] = Σ_p weights[i, p] · first[x_p, c] · ∏_{a ≠ p} ratio[x_p·n_total + x_a, c],
    parents p and children a first to last; a parent of weight 0 adds nothing.

    ``index``: (rows, d) flat value indices x; ``first``: (values, classes); ``ratio``: the
    (value pair, classes) table."""
    n, d = index.shape
    r = first.shape[1]
    total = np.zeros((n, r))
    acc = np.empty(r)
    for i in range(n):
        for p in range(d):
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


@njit(cache=True)
def hidden_parent_products(index, known, W, term, alone, prior, n_total):
    """HNB: prior[c] · ∏_s factor[s, c] over the known children s, first to last, where
    factor[s, c] = Σ_{p ≠ s known} term[x_p·n_total + x_s, c] / Σ_{p ≠ s known} W[s, p]
    (sums over p first to last), or alone[x_s, c] when that weight sum is not positive.

    The parent is the outer loop, so that one parent's row block of ``term`` serves every child."""
    n, d = index.shape
    r = prior.shape[0]
    out = np.empty((n, r))
    mix = np.empty((d, r))
    weight_sum = np.empty(d)
    for i in range(n):
        mix[:, :] = 0.0
        weight_sum[:] = 0.0
        for p in range(d):
            if not known[i, p]:
                continue
            base = index[i, p] * n_total
            for s in range(d):
                if s == p or not known[i, s]:
                    continue
                weight_sum[s] += W[s, p]
                row = base + index[i, s]
                for c in range(r):
                    mix[s, c] += term[row, c]
        for c in range(r):
            out[i, c] = prior[c]
        for s in range(d):
            if not known[i, s]:
                continue
            if weight_sum[s] > 0:
                for c in range(r):
                    out[i, c] *= mix[s, c] / weight_sum[s]
            else:
                for c in range(r):
                    out[i, c] *= alone[index[i, s], c]
    return out


@njit(cache=True)
def conditional_mutual_information(joint, class_count, offsets, n_values, n):
    """HNB's W[s, p] = I(X_s; X_p | C) in bits: Σ over class, parent value u, child value v (first
    to last, Weka's order) of P(c,u,v) · log2(P(c,u,v)·P(c) / (P(c,u)·P(c,v))), a term 0 where
    either product is below 1e-6; the diagonal 0. ``joint``: (values, values, classes) counts."""
    d = n_values.shape[0]
    r = joint.shape[2]
    log2 = math.log(2.0)
    q = n_values.max()
    terms = np.empty((r, q, q))  # one pair's terms, filled in the table's order, summed in Weka's
    W = np.zeros((d, d))
    for s in range(d):
        for p in range(d):
            if p == s:
                continue
            for u in range(n_values[p]):
                a = offsets[p] + u
                for v in range(n_values[s]):
                    b = offsets[s] + v
                    for c in range(r):
                        pp = joint[a, b, c] / n
                        x = pp * (class_count[c] / n)
                        y = (joint[a, a, c] / n) * (joint[b, b, c] / n)
                        if x >= 1e-6 and y >= 1e-6:
                            terms[c, u, v] = pp * (math.log(x / y) / log2)
                        else:
                            terms[c, u, v] = pp * 0.0
            acc = 0.0
            for c in range(r):
                for u in range(n_values[p]):
                    for v in range(n_values[s]):
                        acc += terms[c, u, v]
            W[s, p] = acc
    return W
