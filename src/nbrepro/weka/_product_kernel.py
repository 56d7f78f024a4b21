# SPDX-License-Identifier: GPL-3.0-or-later
"""``weka_product`` as one compiled pass (numba), for wide tables.

numpy forms Weka's product one attribute at a time: five passes over a (rows, classes) block
per attribute, each a separate call. With hundreds of attributes (mfeat-factors: 216) those
calls cost more than the arithmetic. This loop does the same operations on each row in the
same order (floor the factor, multiply, take the row's largest entry, rescale), so it gives
the same bits as ``product.weka_product``.
"""
from __future__ import annotations

import numpy as np

from nbrepro.runtime._numba_cache import njit  # numba's, its cache locks installed first


@njit(cache=True)
def weka_product_step(probs, f, tiny, rescale):
    """One attribute of ``weka_product`` on one row, in place: probs × f (f floored at ``tiny``),
    then × ``rescale`` if the row's largest entry fell below ``tiny``."""
    mx = -np.inf
    nan = False
    for c in range(len(probs)):
        fc = f[c]
        if not fc >= tiny and not np.isnan(fc):  # np.maximum(tiny, f): NaN stays NaN
            fc = tiny
        p = probs[c] * fc
        probs[c] = p
        if np.isnan(p):
            nan = True
        elif p > mx:
            mx = p
    if not nan and mx > 0.0 and mx < tiny:
        for c in range(len(probs)):
            probs[c] *= rescale


@njit(cache=True)
def weka_product_rows(prior, factors, tiny, rescale):
    """prior (rows, classes) × factors (rows, attributes, classes) as ``weka_product``."""
    rows, attributes, classes = factors.shape
    probs = prior.copy()
    for i in range(rows):
        for j in range(attributes):
            # weka_product_step written out: a call with two row views per attribute cost more
            # than its arithmetic (the same operations in the same order)
            mx = -np.inf
            nan = False
            for c in range(classes):
                fc = factors[i, j, c]
                if not fc >= tiny and not np.isnan(fc):
                    fc = tiny
                p = probs[i, c] * fc
                probs[i, c] = p
                if np.isnan(p):
                    nan = True
                elif p > mx:
                    mx = p
            if not nan and mx > 0.0 and mx < tiny:
                for c in range(classes):
                    probs[i, c] *= rescale
    return probs
