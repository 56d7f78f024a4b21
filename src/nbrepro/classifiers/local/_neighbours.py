# SPDX-License-Identifier: GPL-3.0-or-later
"""Nearest training rows of each query, per class or over all classes, in bounded blocks.

The local classifiers of Mao et al. (LPM-BC, LD-kNN, CAP, voting kNN) all start from the same
thing: for every query, the training rows sorted by distance. Sorting once and reading any
neighbourhood size off the sorted order lets an inner cross-validation score every k from one
sort (``LPMBC.path_proba``). Ties in distance keep the training rows' order (a stable sort), so
the neighbourhoods do not depend on the machine.
"""
from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval, RealNotInt

METRICS = ("chebyshev", "euclidean")
# a neighbourhood size: a count of at least 1, or a fraction in (0, 1] of the smallest class
NEIGHBOURHOOD_SIZE = [Interval(Integral, 1, None, closed="left"), Interval(RealNotInt, 0, 1, closed="right")]
_BLOCK_ELEMENTS = 1 << 22  # queries × rows × attributes held at once (32 MB of float64)


def numeric_matrix(estimator, X, fitting: bool, y=None) -> np.ndarray:
    """X as a float64 matrix of numeric attributes (a DataFrame's Categorical columns are an
    error: these classifiers measure distances). scikit-learn's ``validate_data`` checks the
    rest (2-D, no infinity, not sparse, not empty, the fitted number and names of columns, as many
    rows as ``y``)."""
    import pandas as pd
    from sklearn.utils.validation import validate_data

    if isinstance(X, pd.DataFrame):
        nominal = [str(c) for c in X.columns if X[c].dtype.kind not in "fiub"]
        if nominal:
            raise ValueError(f"{type(estimator).__name__}: numeric attributes only; nominal: {', '.join(nominal)}")
    if y is not None:
        from sklearn.utils import check_consistent_length

        check_consistent_length(X, y)
    A = np.asarray(validate_data(estimator, X, reset=fitting, dtype=np.float64, ensure_all_finite="allow-nan"),
                   dtype=np.float64)
    if np.isnan(A).any():
        raise ValueError(f"{type(estimator).__name__}: X has missing values (NaN); replace them first")
    return A


def distances(Q: np.ndarray, T: np.ndarray, metric: str) -> np.ndarray:
    """(queries, rows) distances: Chebyshev by one compiled pass, Euclidean in blocks of queries
    (summed in attribute order by ``einsum``, not by BLAS: the same bits on every machine)."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, got {metric!r}")
    out = np.empty((len(Q), len(T)))
    if metric == "chebyshev":
        from ._neighbour_kernel import chebyshev_rows  # numba: imported where first needed

        chebyshev_rows(np.ascontiguousarray(Q, dtype=np.float64), np.ascontiguousarray(T.T, dtype=np.float64), out)
        return out
    step = max(1, _BLOCK_ELEMENTS // max(1, T.shape[0] * max(1, T.shape[1])))
    for a in range(0, len(Q), step):
        diff = np.abs(Q[a:a + step, None, :] - T[None, :, :])
        out[a:a + step] = np.sqrt(np.einsum("qnd,qnd->qn", diff, diff, optimize=False))
    return out


def sorted_neighbours(Q: np.ndarray, T: np.ndarray, metric: str, limit: int | None = None):
    """(order, sorted distances): each query's training rows nearest first, ties in row order;
    only the first ``limit`` columns if given. Queries go in blocks of at most 32 MB of
    distances; each query's nearest rows are selected before they are sorted
    (``_neighbour_kernel.stable_nearest``: the first ``limit`` of a stable sort of all)."""
    from ._neighbour_kernel import stable_nearest  # numba: imported where first needed

    n = len(T)
    limit = n if limit is None else min(int(limit), n)
    order = np.empty((len(Q), limit), dtype=np.int64)
    dist = np.empty((len(Q), limit))
    if not len(Q) or not limit:
        return order, dist
    step = max(1, (_BLOCK_ELEMENTS // 8) // max(1, n))
    for a in range(0, len(Q), step):
        stable_nearest(distances(Q[a:a + step], T, metric), limit, order[a:a + step], dist[a:a + step])
    return order, dist


def resolve_size(k, smallest_class: int) -> int:
    """A neighbourhood size: an int is a count; a float in (0, 1] a fraction of ``smallest_class``,
    rounded half up, at least 1."""
    if isinstance(k, (bool, np.bool_)):
        raise ValueError(f"neighbourhood size must be an int or a float fraction, got {k!r}")
    if isinstance(k, (int, np.integer)):
        if k < 1:
            raise ValueError(f"neighbourhood size must be at least 1, got {k!r}")
        return int(k)
    k = float(k)
    if not 0.0 < k <= 1.0:
        raise ValueError(f"a fractional neighbourhood size must lie in (0, 1], got {k!r}")
    return max(1, int(np.floor(k * smallest_class + 0.5)))
