# SPDX-License-Identifier: GPL-3.0-or-later
"""Attribute scores of Weka 3.6's attribute evaluators, for weighting naive Bayes.

``gain_ratio_scores`` is ``weka.attributeSelection.GainRatioAttributeEval`` with its defaults:
numeric attributes discretised by Fayyad & Irani's MDL on the rows given (Weka's supervised
``Discretize``), then per attribute the gain ratio of its (value × class) contingency table,
missing values distributed over the others in proportion (``-M`` off):

    GR(A) = (H(C) − H(C | A)) / H(A)      (0 where H(A) = 0)

computed in Weka's order of sums from n ln n terms (``ContingencyTables.gainRatio``).
"""
from __future__ import annotations

import math

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

from ...weka.utils import eq
from .._nominal import encode_target


@njit(cache=True)
def n_ln_n(x: float) -> float:
    """ContingencyTables.lnFunc: x·ln x, 0 for x ≤ 0."""
    return 0.0 if x <= 0 else x * math.log(x)


def contingency_gain_ratio(counts: np.ndarray) -> float:
    """Weka's ``ContingencyTables.gainRatio`` of a (rows = attribute values) × (columns = classes) table."""
    rows, cols = counts.shape
    pre, total = 0.0, 0.0
    for j in range(cols):
        s = 0.0
        for i in range(rows):
            s += counts[i, j]
        pre += n_ln_n(s)
        total += s
    pre -= n_ln_n(total)
    post, split = 0.0, 0.0
    for i in range(rows):
        s = 0.0
        for j in range(cols):
            post += n_ln_n(counts[i, j])
            s += counts[i, j]
        split += n_ln_n(s)
    post -= split
    split -= n_ln_n(total)
    gain = pre - post
    return 0.0 if eq(split, 0.0) else gain / split


@njit(cache=True)
def spread_missing(counts: np.ndarray) -> np.ndarray:
    """A copy of a (values + missing) × (values + missing) count table with the missing row and
    column (the last ones) shared out over the known cells in proportion to their totals, as
    Weka's attribute evaluators do it (GainRatioAttributeEval, CfsSubsetEval's symmetrical
    uncertainty; ``-M`` off), in their order: the missing rows' counts, then the missing
    columns', then both missing. Unchanged when a whole row or column is missing."""
    counts = counts.copy()
    ni, nj = counts.shape
    sumi = np.zeros(ni)
    total = 0.0
    for i in range(ni):
        for j in range(nj):
            sumi[i] += counts[i, j]
            total += counts[i, j]
    sumj = np.zeros(nj)
    for j in range(nj):
        for i in range(ni):
            sumj[j] += counts[i, j]
    if not (sumi[ni - 1] < total and sumj[nj - 1] < total):
        return counts
    i_copy, j_copy, copy = sumi.copy(), sumj.copy(), counts.copy()
    total_missing = sumi[ni - 1] + sumj[nj - 1] - counts[ni - 1, nj - 1]
    if sumi[ni - 1] > 0.0:
        for j in range(nj - 1):
            if counts[ni - 1, j] > 0.0:
                for i in range(ni - 1):
                    counts[i, j] += (i_copy[i] / (total - i_copy[ni - 1])) * counts[ni - 1, j]
                counts[ni - 1, j] = 0.0
    if sumj[nj - 1] > 0.0:
        for i in range(ni - 1):
            if counts[i, nj - 1] > 0.0:
                for j in range(nj - 1):
                    counts[i, j] += (j_copy[j] / (total - j_copy[nj - 1])) * counts[i, nj - 1]
                counts[i, nj - 1] = 0.0
    if counts[ni - 1, nj - 1] > 0.0 and total_missing < total:
        for i in range(ni - 1):
            for j in range(nj - 1):
                counts[i, j] += (copy[i, j] / (total - total_missing)) * copy[ni - 1, nj - 1]
        counts[ni - 1, nj - 1] = 0.0
    return counts


def gain_ratio_scores(X, y, better_encoding: bool = True, encoder=None) -> np.ndarray:
    """Weka 3.6 ``GainRatioAttributeEval`` merit of every attribute of (X, y). The evaluator cuts
    numeric attributes with ``better_encoding``; False is the evaluator run on a copy already cut by
    Weka's ``Discretize`` with its defaults (Hall's GRW). ``encoder``: a NaiveBayes already fitted
    to (X, y), whose encoding is reused."""
    Z, ycodes, n_values, r = discretized_codes(X, y, better_encoding, encoder)
    scores = np.zeros(Z.shape[1])
    cols = np.where(ycodes < 0, r, ycodes)
    for a in range(Z.shape[1]):
        q = int(n_values[a])
        counts = np.zeros((q + 1, r + 1))
        v = Z[:, a]
        rows = np.where(np.isnan(v), q, np.nan_to_num(v, nan=0.0)).astype(np.int64)
        np.add.at(counts, (rows, cols), 1.0)
        scores[a] = contingency_gain_ratio(spread_missing(counts))
    return scores


def discretized_codes(X, y, better_encoding: bool = True, encoder=None):
    """(codes, class codes, values per attribute, classes) of (X, y) with every numeric attribute
    cut by Weka's supervised ``Discretize`` (Fayyad & Irani's MDL); ``better_encoding`` as the
    attribute evaluators set it (``-E``: the MDL's count of cut points is the number of places
    where the value changes). Codes are float, NaN where missing."""
    from ...preprocess.mdl import mdl_cut_points_columns

    nb, Z, ycodes = _encoded(X, y, encoder)
    r = len(nb.classes_)
    n_values = np.asarray(nb.n_values_).copy()
    numeric = np.flatnonzero(nb.numeric_)
    if len(numeric):
        cuts = mdl_cut_points_columns(Z[:, numeric], ycodes, r, better_encoding=better_encoding)
        Z = Z.copy()
        for j, c in zip(numeric, cuts, strict=True):
            v = Z[:, j]
            Z[:, j] = np.where(np.isnan(v), np.nan, np.searchsorted(c, v, side="left"))  # bins (a, b]
            n_values[j] = len(c) + 1
    return Z, ycodes, n_values, r


def relieff_scores(X, y, n_neighbours: int = 10, encoder=None) -> np.ndarray:
    """Weka 3.6 ``ReliefFAttributeEval`` merit of every attribute of (X, y), with its defaults:
    every row sampled in order (``-M -1``), ``n_neighbours`` nearest hits and misses per class
    (``-K 10``), equal influence (no ``-W``). Distances are sums of per-attribute differences:
    0/1 for nominal values, |a − b| on the training range for numeric ones, Weka's expected
    differences where a value is missing. Misses of class k count P(k)/(1 − P(class)) on more
    than two classes. The neighbour lists are kept as Weka keeps them (replacing the first of
    the current worst), so ties in distance pick Weka's neighbours and the sums run in its order.
    ``encoder``: a NaiveBayes already fitted to (X, y), whose encoding is reused.
    """
    from ._relieff_kernel import relieff_weights

    nb, Z, ycodes = _encoded(X, y, encoder)
    numeric = np.asarray(nb.numeric_, dtype=np.bool_)
    return relieff_weights(
        np.ascontiguousarray(Z, dtype=np.float64),
        numeric,
        np.asarray(nb.n_values_, dtype=np.float64),
        np.asarray(ycodes, dtype=np.int64),
        len(nb.classes_),
        int(n_neighbours),
    )


def _encoded(X, y, encoder=None):
    """(NaiveBayes, codes, class codes) of (X, y): Weka's value sets, class order and codes
    (float, NaN where missing), from ``encoder`` if it is already fitted to (X, y)."""
    from ..bayes import NaiveBayes

    nb = encoder if encoder is not None else NaiveBayes().fit(X, y)
    _, ycodes = encode_target(nb, y)  # the codes of nb.classes_
    return nb, nb._encode_mixed(X), ycodes
