# SPDX-License-Identifier: GPL-3.0-or-later
"""Locally weighted naive Bayes (Frank, Hall & Pfahringer 2003) as Weka 3.6's ``LWL`` with ``NaiveBayes``."""
from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import StrOptions

from ... import libm
from ...weka.estimators import NormalEstimators, numeric_precisions, weighted_normal_probability, weka_training_order
from ...weka.product import weka_product
from .._mixed import MixedInputMixin, is_numeric_dtype
from .._nominal import HANDLE_UNKNOWN, java_normalize, refuse_fit_params
from ._base import BLOCK_VALUES, LazyNominalMixin

KERNELS = ("linear", "epanechnikov", "tricube", "inverse", "gauss", "constant")


def _kernel(name: str, u: np.ndarray) -> np.ndarray:
    """Weka LWL's kernels of the distance over the bandwidth."""
    return {"linear": lambda d: 1.0001 - d,
            "epanechnikov": lambda d: 0.75 * (1.0001 - d * d),
            "tricube": lambda d: libm.power(1.0001 - libm.power(d, 3.0), 3.0),  # numpy's d ** 3 is pow
            "constant": lambda d: np.ones_like(d),
            "inverse": lambda d: 1.0 / (1.0 + d),
            "gauss": lambda d: libm.exp(-d * d)}[name](u)


class LocallyWeightedNB(MixedInputMixin, LazyNominalMixin):
    """Naive Bayes fitted to the k nearest training rows, weighted by a kernel of their distance
    (Weka 3.6 ``weka.classifiers.lazy.LWL -K k -U kernel -W weka.classifiers.bayes.NaiveBayes``).

        P(c | x) ∝ P̂_w(c) ∏_i P̂_w(x_i | c),  P̂_w from Laplace counts of the weighted neighbours

    Distance: Weka's EuclideanDistance on nominal attributes, sqrt(number of attributes that
    differ; a missing value differs). The neighbours are the k nearest plus every row tied
    with the k-th; bandwidth = the k-th distance; weight = kernel(distance / bandwidth)
    (linear: 1.0001 − d; all rows weigh the same when the bandwidth is 0), then rescaled so
    the weights sum to the number of neighbours. With the inverse or Gaussian kernel, or
    ``k <= 0``, every training row is a neighbour.

    Numeric attributes (numeric columns of a DataFrame): the distance is Weka's normalised
    Euclidean distance — each numeric difference divided by the attribute's range over the
    training rows and, as Weka's LWL updates the range with every test row it sees, the test
    rows up to and including this one; a missing value differs by 1 from a missing value and
    by max(v', 1 − v') (v' the other value, normalised) from a known one — and the naive Bayes
    fitted to the neighbours is Weka's, with its NormalEstimator (precision from the
    neighbours' values) for numeric attributes.

    Parameters
    ----------
    k : int
        Number of neighbours (Weka ``-K``; Frank et al. use 50). ``k <= 0``: all rows.
    kernel : str
        One of linear (Weka's default), epanechnikov, tricube, inverse, gauss, constant.

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    n_features_in_ : int
        The number of attributes seen in ``fit``.
    feature_names_in_ : ndarray
        The attribute names, when ``fit`` was given a DataFrame.
    categories_ : list
        Per attribute, its declared values in code order (None for a numeric one).
    n_values_ : ndarray
        Per attribute, its number of declared values (0 for a numeric one).

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import LocallyWeightedNB
    >>> X = pd.DataFrame({
    ...     "outlook": pd.Categorical(["sunny", "sunny", "rain", "rain", "overcast", "overcast", "sunny", "rain"]),
    ...     "windy": pd.Categorical(["no", "yes", "no", "yes", "no", "yes", "no", "yes"])})
    >>> y = pd.Series(["no", "no", "yes", "no", "yes", "yes", "no", "yes"])
    >>> clf = LocallyWeightedNB(k=4).fit(X, y)
    >>> clf.predict(X).tolist()
    ['no', 'no', 'yes', 'yes', 'yes', 'yes', 'no', 'yes']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.959, 0.041],
           [0.966, 0.034]])
    """

    # a DataFrame with a numeric column is mixed input (Weka's distances); a bare array is nominal values
    array_columns = "nominal"
    no_sample_weight = "Weka 3.6's LWL takes instance weights, nbrepro's LocallyWeightedNB not yet"

    _parameter_constraints: dict = {
        "k": [Integral],
        "kernel": [StrOptions(set(KERNELS))],
        "handle_unknown": HANDLE_UNKNOWN,
    }

    def __init__(self, *, k: int = 50, kernel: str = "linear", handle_unknown: str = "ignore"):
        self.k = k
        self.kernel = kernel
        self.handle_unknown = handle_unknown

    def _kernel_weights(self, dist: np.ndarray):
        """(neighbour mask, kernel weight — 0 outside the neighbours) for (test × training) distances:
        the k nearest and every row tied with the k-th; bandwidth = the k-th smallest distance."""
        n = dist.shape[1]
        k = n if self._all_rows(n) else int(self.k)
        kth = np.partition(dist, k - 1, axis=1)[:, k - 1:k]
        neighbour = dist <= kth
        return neighbour, self._bandwidth_weights(dist, kth, neighbour)

    def _bandwidth_weights(self, dist, kth, neighbour) -> np.ndarray:
        """The kernel of distance / bandwidth (1 where the bandwidth is 0), 0 outside the neighbours."""
        with np.errstate(divide="ignore", invalid="ignore"):
            u = np.where(kth > 0, dist / kth, 1.0)
        return np.where(neighbour, _kernel(self.kernel, u), 0.0)

    def _all_rows(self, n: int) -> bool:
        return self.k <= 0 or self.k >= n or self.kernel in ("inverse", "gauss")

    def _level_weights(self, hist: np.ndarray) -> np.ndarray:
        """Nominal data: a row's distance is sqrt(attributes that differ; a missing value
        differs), so its weight is that of the number of attributes it shares, s."""
        n, m = len(self._y), hist.shape[1] - 1
        nearest = self._nearest_level(hist, n if self._all_rows(n) else int(self.k))
        shares = np.arange(m + 1)[None, :]
        dist = np.sqrt(np.float64(m) - shares)
        kth = np.sqrt(np.float64(m) - nearest)  # the bandwidth: the k-th distance
        neighbour = shares >= nearest
        w = self._bandwidth_weights(dist, kth, neighbour)
        count = np.where(neighbour, hist, 0).sum(axis=1)
        return w * (count / (hist * w).sum(axis=1))[:, None]  # total weight = number of neighbours

    # a frame without a numeric column goes to the nominal plumbing (LazyNominalMixin), which reads a DataFrame
    accepts_encoded_frame = False

    # ---- numeric and mixed data ---------------------------------------------------------
    def fit(self, X, y, **params):
        refuse_fit_params(self, params)
        if not (hasattr(X, "dtypes") and any(is_numeric_dtype(t) for t in X.dtypes)):
            self._mixed = False
            return super().fit(X, y)
        self._mixed = True
        Z, ycodes, _ = self._fit_mixed(X, y)
        self._Z, self._y = Z, ycodes
        num = self.numeric_
        with np.errstate(invalid="ignore"):
            self._lo = np.where(num, np.nanmin(np.where(num[None, :], Z, np.nan), axis=0, initial=np.inf), np.nan)
            self._hi = np.where(num, np.nanmax(np.where(num[None, :], Z, np.nan), axis=0, initial=-np.inf), np.nan)
        return self

    def predict_proba(self, X) -> np.ndarray:
        if not getattr(self, "_mixed", False):
            return super().predict_proba(X)
        T = self._encode_mixed(X)
        num = self.numeric_
        # Weka's LWL widens the distance's ranges with every test row, this one included
        lo = np.minimum.accumulate(np.vstack([self._lo[None, :], np.where(np.isnan(T), np.inf, T)]), axis=0)[1:]
        hi = np.maximum.accumulate(np.vstack([self._hi[None, :], np.where(np.isnan(T), -np.inf, T)]), axis=0)[1:]
        out = np.empty((len(T), len(self.classes_)))
        block = max(1, BLOCK_VALUES // max(len(self._y) * max(len(num), 1), 1))
        for start in range(0, len(T), block):
            sl = slice(start, start + block)
            out[sl] = self._mixed_block(T[sl], lo[sl], hi[sl])
        return out

    def _distances(self, T, lo, hi) -> np.ndarray:
        """Weka's EuclideanDistance between each test row and each training row."""
        Z = self._Z
        d2 = np.zeros((len(T), len(Z)))
        for j in range(Z.shape[1]):
            a, b = T[:, j][:, None], Z[:, j][None, :]
            ma, mb = np.isnan(a), np.isnan(b)
            if self.numeric_[j]:
                width = (hi[:, j] - lo[:, j])[:, None]
                flat = ~np.isfinite(lo[:, j])[:, None] | (width == 0)
                with np.errstate(invalid="ignore", divide="ignore"):
                    na = np.where(flat, 0.0, (a - lo[:, j][:, None]) / width)
                    nb = np.where(flat, 0.0, (b - lo[:, j][:, None]) / width)
                one = np.where(ma, nb, na)  # the known side when exactly one is missing
                one = np.where(one < 0.5, 1.0 - one, one)
                diff = np.where(ma & mb, 1.0, np.where(ma | mb, one, na - nb))
            else:
                diff = np.where(ma | mb | (a != b), 1.0, 0.0)
            d2 = d2 + diff * diff
        return np.sqrt(d2)

    def _mixed_block(self, T, lo, hi) -> np.ndarray:
        dist = self._distances(T, lo, hi)
        r = len(self.classes_)
        neighbour, w = self._kernel_weights(dist)
        count = neighbour.sum(axis=1).astype(np.float64)
        w = w * count[:, None] / w.sum(axis=1, keepdims=True)  # Weka: weight · Σ old / Σ new
        # the neighbours of each row, gathered: (rows, K)
        K = int(neighbour.sum(axis=1).max())
        idx = np.argsort(~neighbour, axis=1, kind="stable")[:, :K]
        valid = np.take_along_axis(neighbour, idx, axis=1)
        wk = np.where(valid, np.take_along_axis(w, idx, axis=1), 0.0)
        yk = self._y[idx]
        class_w = np.stack([np.where(yk == c, wk, 0.0).sum(axis=1) for c in range(r)], axis=1)
        prior = (class_w + 1.0) / (class_w.sum(axis=1, keepdims=True) + r)
        factors = np.ones((len(T), len(self.numeric_), r))
        sensitive = np.zeros(len(T), dtype=bool)
        for j in range(len(self.numeric_)):
            t = T[:, j]
            known = ~np.isnan(t)
            vals = np.where(valid, self._Z[idx, j], np.nan)
            if self.numeric_[j]:
                if known.any():
                    f, bad = weighted_normal_probability(t[known], vals[known], yk[known], wk[known], r)
                    factors[known, j] = f
                    sensitive[np.flatnonzero(known)[bad]] = True
            else:
                q = int(self.n_values_[j])
                seen = ~np.isnan(vals)
                counts = np.stack([np.where(seen & (yk == c), wk, 0.0).sum(axis=1) for c in range(r)], axis=1)
                at = np.stack([np.where(seen & (yk == c) & (vals == t[:, None]), wk, 0.0).sum(axis=1)
                               for c in range(r)], axis=1)
                factors[known, j] = ((at + 1.0) / (counts + q))[known]
        for b in np.flatnonzero(sensitive):
            # Weka's NaiveBayes adds the neighbours in the order its sorts by attribute leave them;
            # where the sums cancel badly that order shows, so follow it (neighbours in row order)
            rows = idx[b][valid[b]]
            Zb, yb, wb = self._Z[rows], self._y[rows], wk[b][valid[b]]
            order = weka_training_order(Zb, self.numeric_)
            num = np.flatnonzero(self.numeric_)
            # every numeric attribute at once: each column's sums are its own, so the same bits
            est = NormalEstimators(Zb[order][:, num], yb[order], wb[order], r, numeric_precisions(Zb[:, num]),
                                   sequential=True)
            with np.errstate(invalid="ignore"):
                p = est.probability(T[b:b + 1, num])[0]
            known = ~np.isnan(T[b, num])
            factors[b, num[known]] = p[known]
        return java_normalize(weka_product(prior, factors))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False  # a plain array is nominal data, where NaN is refused as before
        return tags
