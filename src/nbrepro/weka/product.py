# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka NaiveBayes's product of probabilities, which its naive-Bayes learners share (NaiveBayes,
NBTree's leaves, LWL's weighted naive Bayes): the prior times each attribute's factor in turn,
each factor floored at 1e-75, the row multiplied by 1e75 whenever its largest entry falls below
1e-75. The order of the multiplications is Weka's, so the bits are. ``_product_kernel`` does the
same steps in one compiled pass for wide tables."""
from __future__ import annotations

import numpy as np

TINY = 1e-75  # Weka's floor under a factor, and the level below which a row is rescaled by 1e75


# Rows per block of ``weka_product``: its running products hold about this many values.
_PRODUCT_VALUES = 1 << 21


def weka_product(prior: np.ndarray, factors) -> np.ndarray:
    """Weka NaiveBayes's product, row-wise: prior × each attribute's factor in turn, the factor
    floored at 1e-75 and the row multiplied by 1e75 whenever its largest entry drops below 1e-75.

    ``factors``: an (rows, attributes, classes) array or an iterable of (rows, classes) arrays.

    Every row's running products over the attributes are formed at once, in blocks of rows (the
    same multiplications in the same order, so the same bits as a loop over attributes). A row
    whose largest entry drops below 1e-75 is rescaled there and finished attribute by attribute
    (see ``_product_block``).
    """
    if not isinstance(factors, np.ndarray):
        columns = list(factors)
        factors = np.stack(columns, axis=1) if columns else np.empty((prior.shape[0], 0, prior.shape[1]))
    rows, attributes, classes = factors.shape
    if attributes == 0:
        return prior.astype(np.float64, copy=True)
    out = np.empty_like(prior, dtype=np.float64)
    block = max(1, _PRODUCT_VALUES // max(1, (attributes + 1) * classes))
    for start in range(0, rows, block):
        stop = min(rows, start + block)
        out[start:stop] = _product_block(prior[start:stop], factors[start:stop])
    return out


def _product_block(prior: np.ndarray, factors: np.ndarray) -> np.ndarray:
    """``weka_product`` of a block of rows: every row's running products at once; a row
    rescaled on the way is finished attribute by attribute from there (a row that underflows
    once tends to underflow again, and the loop costs no more than the attributes left)."""
    rows, attributes, classes = factors.shape
    # (attributes, classes, rows): each attribute's step is one contiguous slab, and the largest
    # entry over the classes an elementwise maximum of slabs, not a reduction per row
    running = np.empty((attributes, classes, rows))
    np.maximum(TINY, factors.transpose(1, 2, 0), out=running)
    running[0] *= prior.T
    if rows * classes < 64:
        np.multiply.accumulate(running, axis=0, out=running)
    else:  # numpy's accumulate walks each row and class down the attributes; slab by slab is faster
        for j in range(1, attributes):
            np.multiply(running[j - 1], running[j], out=running[j])
    mx = running.max(axis=1)
    under = (mx > 0) & (mx < TINY)
    rescaled = under.any(axis=0)
    probs = running[-1].T.copy()
    if not rescaled.any():
        return probs
    late = np.flatnonzero(rescaled)
    at = np.argmax(under[:, late], axis=0)  # the first attribute where the row's largest entry fell below 1e-75
    part = running[at, :, late] * 1e75
    for j in range(int(at.min()) + 1, attributes):
        started = at < j  # rows whose product has reached attribute j
        part[started] *= np.maximum(TINY, factors[late[started], j])
        low = part.max(axis=1)
        low = started & (low > 0) & (low < TINY)
        part[low] *= 1e75
    probs[late] = part
    return probs
