"""Naive Bayes for nominal attributes, exactly as Weka 3.6's ``NaiveBayes``."""
from __future__ import annotations

import numpy as np

from ._joint import flat_index, value_offsets
from ._nominal import CountedClassifierMixin, java_normalize

_TINY = 1e-75


class NaiveBayes(CountedClassifierMixin):
    """Naive Bayes with Laplace estimates (Weka 3.6 ``weka.classifiers.bayes.NaiveBayes``).

        P(c | x) ∝ (n_c + 1)/(n + r) · ∏_i (n_{c,x_i} + 1)/(n_c + q_i)

    r = number of declared classes, q_i = number of declared values of attribute i,
    counts from the training rows with a known value. A missing or undeclared value
    leaves its attribute out. The product is formed the way Weka forms it — attribute
    by attribute in float64, each factor floored at 1e-75 and the row rescaled by 1e75
    when its largest entry drops below 1e-75 — so probabilities and ties match Weka's.

    Parameters
    ----------
    handle_unknown : {"ignore", "error"}
        A test value outside an attribute's value set is treated as missing ("ignore")
        or raises ``ValueError`` naming the attribute and value ("error").
    """

    def __init__(self, handle_unknown: str = "ignore"):
        self.handle_unknown = handle_unknown

    def _count(self, codes: np.ndarray, y: np.ndarray) -> dict:
        r = len(self.classes_)
        offsets, T = value_offsets(self.n_values_, missing_slot=True)
        idx = flat_index(codes, offsets, self.n_values_)
        value_class = np.bincount((idx * r + y[:, None]).ravel(), minlength=T * r).reshape(T, r)
        return {"value_class": value_class.astype(np.float64),
                "class": np.bincount(y, minlength=r).astype(np.float64)}

    def _fit_counts(self, counts: dict) -> None:
        r = len(self.classes_)
        self.class_count_ = counts["class"]
        self.class_prior_ = (self.class_count_ + 1.0) / (self.class_count_.sum() + float(r))
        self.offsets_, T = value_offsets(self.n_values_, missing_slot=True)
        self.feature_prob_ = []  # per attribute: (q_i, r) table of P(x_i = v | c)
        factor = np.ones((T, r))  # factors by flat index; a missing value's slot holds 1
        for j, q in enumerate(self.n_values_):
            block = counts["value_class"][self.offsets_[j]:self.offsets_[j] + q]
            prob = (block + 1.0) / (block.sum(axis=0) + float(q))
            self.feature_prob_.append(prob)
            factor[self.offsets_[j]:self.offsets_[j] + q] = prob
        self._factor = factor

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        idx = flat_index(codes, self.offsets_, self.n_values_)
        prior = np.repeat(self.class_prior_[None, :], codes.shape[0], axis=0)
        return java_normalize(weka_product(prior, (np.take(self._factor, idx[:, j], axis=0)
                                                   for j in range(codes.shape[1]))))


def weka_product(prior: np.ndarray, factors) -> np.ndarray:
    """Weka NaiveBayes's product, row-wise: prior × each attribute's factor in turn, the factor
    floored at 1e-75 and the row multiplied by 1e75 whenever its largest entry drops below 1e-75.

    ``factors``: an (rows, attributes, classes) array or an iterable of (rows, classes) arrays.
    """
    probs = prior.copy()
    columns = (factors[:, j, :] for j in range(factors.shape[1])) if isinstance(factors, np.ndarray) else factors
    for f in columns:
        probs *= np.maximum(_TINY, f)
        mx = probs.max(axis=1)
        under = (mx > 0) & (mx < _TINY)
        if under.any():
            probs[under] *= 1e75
    return probs
