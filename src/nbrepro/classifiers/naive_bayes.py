"""Naive Bayes for nominal attributes, exactly as Weka 3.6's ``NaiveBayes``."""
from __future__ import annotations

import numpy as np

from ._nominal import NominalClassifierMixin, java_normalize

_TINY = 1e-75


class NaiveBayes(NominalClassifierMixin):
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

    def _fit_codes(self, codes: np.ndarray, y: np.ndarray) -> None:
        r = len(self.classes_)
        self.class_count_ = np.bincount(y, minlength=r).astype(np.float64)
        self.class_prior_ = (self.class_count_ + 1.0) / (len(y) + float(r))
        self.feature_prob_ = []  # per attribute: (q_i, r) table of P(x_i = v | c)
        for j, q in enumerate(self.n_values_):
            col = codes[:, j]
            known = col >= 0
            counts = np.bincount(col[known] * r + y[known], minlength=q * r).reshape(q, r).astype(np.float64)
            seen = counts.sum(axis=0)
            self.feature_prob_.append((counts + 1.0) / (seen + float(q)))

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        n = codes.shape[0]
        probs = np.repeat(self.class_prior_[None, :], n, axis=0)
        for j, table in enumerate(self.feature_prob_):
            col = codes[:, j]
            known = col >= 0
            factor = np.ones_like(probs)
            factor[known] = np.maximum(_TINY, table[col[known]])
            probs *= factor
            mx = probs.max(axis=1)
            under = (mx > 0) & (mx < _TINY)
            if under.any():
                probs[under] *= 1e75
        return java_normalize(probs)
