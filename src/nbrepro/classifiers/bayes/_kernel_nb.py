# SPDX-License-Identifier: GPL-3.0-or-later
"""Naive Bayes with a Gaussian kernel density per numeric attribute and class, its bandwidth
chosen by one of the rules Liu et al. compare (``nbrepro.kde.RULES``)."""
from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ...errors import BandwidthError
from ...kde import RULES
from ...kde.density import kernel_density_table
from ...kde.many import bandwidths
from ...weka.estimators import KernelEstimators, numeric_precisions, round_to_precision
from .._nominal import HANDLE_UNKNOWN, refuse_fit_params
from ._naive_bayes import NaiveBayes, nominal_codes

ESTIMATORS = ("density", "weka")


class KernelNB(NaiveBayes):
    """Naive Bayes with a Gaussian kernel density estimate for every numeric attribute and class.

        P(c | x) ∝ (n_c + 1)/(n + r) · ∏_nominal P(x_j | c) · ∏_numeric f_jc(x_j)
        f_jc(x) = 1/(n_jc h_jc) · Σ_{training rows i of class c} φ((x − x_ij)/h_jc)

    h_jc is ``bandwidth`` (a rule of ``nbrepro.kde.RULES``) applied to the class's known
    values of attribute j. Nominal attributes are counted as in Weka's NaiveBayes (Laplace),
    a missing value leaves its attribute out, and the product is formed as Weka forms it.

    Parameters
    ----------
    bandwidth : str
        The rule: ``"nrd-i"``, ``"nrd"``, ``"nrd0"``, ``"sp"``, ``"ucv"``, ``"bcv"``,
        ``"ste"``, ``"dpi"`` or ``"weka"``.
    estimator : {"density", "weka"}
        ``"density"``: f_jc above, on the raw values (summed exactly, see
        ``nbrepro.kde.density``). ``"weka"``: Weka's ``KernelEstimator`` with its standard
        deviation replaced by the rule's bandwidth: values rounded to the attribute's
        precision p_j (the mean gap between distinct training values), the rule applied to
        the rounded values and floored at p_j/6, and the factor the probability of a
        p_j-wide interval, summed by Weka's truncated walk. ``bandwidth="weka",
        estimator="weka"`` is Weka's ``NaiveBayes -K``.
    fallback : str
        The rule used where ``bandwidth`` has no answer for a class's values (fewer than two
        values, all values equal, R's "sample is too sparse"): ``"weka"`` by default, whose
        bandwidth is p_j/6 for equal values. ``None`` raises ``BandwidthError`` instead.
    search_upper : float
        For ``"ucv"`` and ``"bcv"``: the upper end of R's search in units of R's hmax =
        1.144 σ̂ n^(-1/5) (1 = R's ``bw.ucv``/``bw.bcv``); ignored by the other rules.
    handle_unknown : {"ignore", "error"}
        As for ``NaiveBayes``.

    Attributes
    ----------
    bandwidths_ : (numeric attributes, classes) array, the h_jc used
    fell_back_ : same shape, bool: where ``fallback`` supplied h_jc
    reference_bandwidths_ : the NRD-I bandwidth of the same values (NaN where it is 0 or undefined)
    bandwidth_ratios_ : ``bandwidths_ / reference_bandwidths_`` (Liu et al.'s Figure 2)

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import KernelNB
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> clf = KernelNB(bandwidth="nrd0").fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[1., 0.],
           [1., 0.]])
    """

    _parameter_constraints: dict = {
        "bandwidth": [StrOptions(set(RULES))],
        "estimator": [StrOptions(set(ESTIMATORS))],
        "fallback": [StrOptions(set(RULES)), None],
        "search_upper": [Interval(Real, 0, None, closed="neither")],
        "handle_unknown": HANDLE_UNKNOWN,
    }

    def __init__(self, *, bandwidth: str = "nrd-i", estimator: str = "density", fallback: str | None = "weka",
                 search_upper: float = 1.0, handle_unknown: str = "ignore"):
        self.bandwidth = bandwidth
        self.estimator = estimator
        self.fallback = fallback
        self.search_upper = search_upper
        self.handle_unknown = handle_unknown

    # NaiveBayes's switches, fixed: no discretisation, and the kernel is this class's own
    kernel = False
    supervised_discretization = False

    def fit(self, X, y, **params):
        refuse_fit_params(self, params)
        Z, ycodes, w = self._fit_mixed(X, y)
        r = len(self.classes_)
        self.cut_points_ = {}
        modelled = self._modelled_numeric()
        self._fit_counts(self._count(nominal_codes(Z, modelled), ycodes, w))
        columns = np.flatnonzero(modelled)
        self.numeric_columns_ = columns
        V = Z[:, columns]
        self.precisions_ = numeric_precisions(V)
        k = len(columns)
        self.bandwidths_ = np.zeros((k, r))
        self.fell_back_ = np.zeros((k, r), dtype=bool)
        self.reference_bandwidths_ = np.full((k, r), np.nan)
        keys = [(t, c) for t in range(k) for c in range(r)]
        precisions = np.repeat(self.precisions_, r).tolist()
        order = np.argsort(ycodes, kind="stable")  # each class's rows in their original order
        bounds = np.searchsorted(ycodes[order], np.arange(r + 1))
        by_class = np.ascontiguousarray(V[order].T)  # (attribute, rows by class)
        raw = []  # in keys' order: attribute-major, class-minor
        for t in range(k):
            column = by_class[t]
            pieces = [column[bounds[c]:bounds[c + 1]] for c in range(r)]
            if np.isnan(column).any():
                pieces = [x[~np.isnan(x)] for x in pieces]
            raw.extend(pieces)
        if self.estimator == "weka":
            values = [round_to_precision(x, p) for x, p in zip(raw, precisions, strict=True)]
        else:
            values = raw
        self._samples = dict(zip(keys, values, strict=True))
        # the weka rule rounds by itself (rounding twice can move a value by an ulp)
        rule_input = raw if self.bandwidth == "weka" else values
        found, problems = bandwidths(rule_input, self.bandwidth, precisions, self.search_upper)  # all at once
        # the reference is NRD-I of self._samples, which is the rule's own input for every rule but weka
        reference = (
            found.copy() if self.bandwidth == "nrd-i" else bandwidths([self._samples[key] for key in keys], "nrd-i")[0]
        )
        missing = ~((found > 0) & np.isfinite(found))
        if missing.any():
            at = np.flatnonzero(missing)
            found[at] = self._fallbacks(
                [rule_input[i] for i in at],
                [precisions[i] for i in at],
                [keys[i] for i in at],
                [problems[i] or f"bandwidth {float(found[i])!r}" for i in at],
            )
        if self.estimator == "weka":
            found = np.maximum(found, np.asarray(precisions) / 6.0)
        if k:
            self.bandwidths_ = found.reshape(k, r)
            self.fell_back_ = missing.reshape(k, r)
            self.reference_bandwidths_ = np.where(reference > 0, reference, np.nan).reshape(k, r)
        with np.errstate(invalid="ignore", divide="ignore"):
            self.bandwidth_ratios_ = self.bandwidths_ / self.reference_bandwidths_
        if self.estimator == "weka" and k:
            self.kernel_ = KernelEstimators(V, ycodes, w, r, self.precisions_)
            self.kernel_.sd = self.bandwidths_.copy()
        return self

    def _fit_counts(self, counts):
        """NaiveBayes's model of the counts; with no numeric attribute fitted yet (cross-validation's
        count path fits all-nominal data here alone: ``nbrepro.evaluation.crossval``), the kernels' state as
        ``fit`` leaves it on such data, empty, so that it can be recorded (``fit`` sets it after)."""
        super()._fit_counts(counts)
        if not hasattr(self, "bandwidths_"):
            r = len(self.classes_)
            self.cut_points_, self.numeric_columns_ = {}, np.zeros(0, dtype=np.int64)
            self.precisions_ = np.zeros(0)
            self.bandwidths_, self.fell_back_ = np.zeros((0, r)), np.zeros((0, r), dtype=bool)
            self.reference_bandwidths_ = self.bandwidth_ratios_ = np.full((0, r), np.nan)
        return self

    def _fallbacks(self, samples, precisions, keys, problems) -> np.ndarray:
        """The fallback rule's bandwidths where ``bandwidth`` has none (or ``BandwidthError`` without one)."""
        if self.fallback is None:
            raise BandwidthError(
                f"KernelNB: rule {self.bandwidth!r} on {self._where(keys[0], samples[0])}: {problems[0]}"
            )
        h, errors = bandwidths(samples, self.fallback, precisions)
        empty = np.array([len(x) == 0 for x in samples])
        h[empty] = (
            np.asarray(precisions, dtype=np.float64)[empty] / 6.0
        )  # no value: any positive width; the density is 0 anyway
        for i in np.flatnonzero(~empty & ~(np.isfinite(h) & (h > 0))):  # the fallback has no answer either
            raise BandwidthError(
                f"KernelNB: rule {self.bandwidth!r} and its fallback {self.fallback!r} on "
                f"{self._where(keys[i], samples[i])}: {problems[i]}; {errors[i] or f'bandwidth {float(h[i])!r}'}"
            )
        return h

    def _where(self, key, values) -> str:
        t, c = key
        column = self.numeric_columns_[t]
        name = self.feature_names_in_[column] if hasattr(self, "feature_names_in_") else column
        return f"attribute {name!r}, class {self.classes_[c]!r} ({len(values)} values)"

    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "bandwidths_")
        Z = self._encode_mixed(X)
        columns = self.numeric_columns_
        r = len(self.classes_)
        codes = nominal_codes(Z, self._modelled_numeric())
        F = np.ones((len(Z), 0, r))
        if len(columns):
            V = Z[:, columns]
            if self.estimator == "weka":
                F = self.kernel_.probability(V)
            else:
                groups = [
                    (t, self._samples[t, c], None, self.bandwidths_[t, c])
                    for t in range(len(columns))
                    for c in range(r)
                ]
                F = kernel_density_table(V, groups).reshape(len(V), len(columns), r)
            F[np.isnan(V)] = 1.0
        return self._proba_block(codes, columns, F)
