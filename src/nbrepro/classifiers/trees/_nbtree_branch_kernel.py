# SPDX-License-Identifier: GPL-3.0-or-later
"""One NBTree candidate branch's estimated errors in one compiled call (numba).

NBTree scores every branch of every candidate split of every node; the steps (cut points,
codes, Weka's shuffle and stratification, the cross-validated naive Bayes) are compiled one by
one, and between them Python's calls cost about as much as a small branch's arithmetic. Here
they run in one call, the same kernels in the same order.

Its own module because the cut search (``preprocess._mdl_kernel``) imports ``classifiers``:
``nbtree`` imports this where it first needs it.
"""
from __future__ import annotations

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first

from ...preprocess._mdl_kernel import fayyad_irani_cuts, fayyad_irani_cuts_presorted, weighted_discretize_cuts
from ...weka._random_kernel import shuffled_stratified_order
from ._nbtree_kernel import encode_with_cuts, naive_bayes_cv_errors


@njit(cache=True)
def branch_cv_errors(Z, y_all, rows, w, numeric, numeric_columns, nominal_values, n_classes, state,
                     presorted_values, presorted_orders, member, xlnx, use_presorted, n_folds, tiny, rescale):
    """One candidate branch's estimated errors in one call (``NBTree._branch_errors``): the
    branch's rows (``rows`` of ``Z``, weights ``w``) discretised afresh (Fayyad–Irani cuts: from
    the node's presorted columns when every weight is 1 and they are given, else by sorting,
    in Weka's order of sums when a weight is fractional), encoded, shuffled and stratified by
    the split's ``java.util.Random`` (``state``), then ``naive_bayes_cv_errors``. The same
    kernels as the step-by-step path, in the same order: the same bits. (errors, new state)."""
    n = rows.shape[0]
    m = Z.shape[1]
    Zb = np.empty((n, m))
    yb = np.empty(n, dtype=np.int64)
    unit = True
    whole = True
    for t in range(n):
        i = rows[t]
        Zb[t, :] = Z[i, :]
        yb[t] = y_all[i]
        if w[t] != 1.0:
            unit = False
        if w[t] != np.round(w[t]):
            whole = False
    # np.bool_(False): a bool, as mdl.py passes from Python; a bare False is Literal[bool], which
    # numba compiles the whole MDL kernel again for
    if unit and use_presorted:
        for t in range(n):
            member[rows[t]] = True
        cuts, counts = fayyad_irani_cuts_presorted(presorted_values, y_all, n_classes, np.bool_(False),
                                                   presorted_orders, member, xlnx)
        for t in range(n):
            member[rows[t]] = False
    elif unit:
        Xn = np.empty((n, numeric_columns.shape[0]))
        for k in range(numeric_columns.shape[0]):
            Xn[:, k] = Zb[:, numeric_columns[k]]
        cuts, counts = fayyad_irani_cuts(Xn, yb, n_classes, np.bool_(False))
    else:
        cuts, counts = weighted_discretize_cuts(Zb, yb, w, numeric_columns, n_classes, not whole, xlnx)
    n_values = nominal_values.copy()
    offsets = np.zeros(m + 1, dtype=np.int64)
    n_cuts = np.zeros(m, dtype=np.int64)
    for k in range(numeric_columns.shape[0]):
        n_cuts[numeric_columns[k]] = counts[k]
    for j in range(m):
        offsets[j + 1] = offsets[j] + n_cuts[j]
        if numeric[j]:
            n_values[j] = n_cuts[j] + 1
    codes = encode_with_cuts(Zb, numeric, cuts, offsets)
    order, state = shuffled_stratified_order(yb, n_folds, state)
    errors = naive_bayes_cv_errors(codes[order], yb[order], w[order], n_values, n_classes, n_folds, tiny, rescale)
    return errors, state
