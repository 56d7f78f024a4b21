# SPDX-License-Identifier: GPL-3.0-or-later
"""Langley & Sage's selective Bayesian classifier: forward selection wrapped around naive Bayes.

    S₀ = ∅;  S_{t+1} = S_t ∪ {last argbest_a score(NB_{S_t ∪ {a}})}  while that score ≥ score(NB_{S_t})

The score is the naive Bayes's accuracy on its own training rows (Langley & Sage; Hall's
Table 4) or its AUC there (Hall's Table 5). The final model is Weka 3.6's NaiveBayes on the
selected attributes. Every candidate is scored from one fit: each attribute's log factors
for every training row are computed once, and a subset's scores are their running sums.
"""
from __future__ import annotations

import numpy as np
from sklearn.utils._param_validation import StrOptions

from ... import libm
from ...metrics import accuracy, auc
from .._nominal import encode_target
from ._base import WeightedNaiveBayes

_FLOOR = 1e-75  # Weka's factor floor: a zero probability stays finite in log space


class SelectiveNB(WeightedNaiveBayes):
    """Naive Bayes on the attributes a forward selection keeps (Langley & Sage 1994).

        P(c | x) ∝ P(c) ∏_{i ∈ S} P(x_i | c)

    S grows one attribute at a time, the one that gives the best training-set score (the last
    in column order on a tie), and stops when the best addition would lower the score: Weka
    3.6's ``GreedyStepwise -C`` (conservative forward search) over ``ClassifierSubsetEval``
    with NaiveBayes evaluated on the training data, whose scan keeps a candidate scoring at
    least the best so far. This reproduces Hall's SB cells to the printed decimals.

    Parameters
    ----------
    metric : {"accuracy", "auc"}
        The training-set score: accuracy, or the area under the ROC of the first class (Hall's
        Table 5 "modified ... to optimize AUC"; on more than two classes, the class-weighted mean
        of the one-vs-rest AUCs).

    Attributes
    ----------
    selected_ : ndarray of bool (n_features,)
    weights_ : the same as 0/1 floats
    naive_bayes_, classes_

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import SelectiveNB
    >>> X = pd.DataFrame({
    ...     "outlook": pd.Categorical(["sunny", "sunny", "rain", "rain", "overcast", "overcast", "sunny", "rain"]),
    ...     "windy": pd.Categorical(["no", "yes", "no", "yes", "no", "yes", "no", "yes"])})
    >>> y = pd.Series(["no", "no", "yes", "no", "yes", "yes", "no", "yes"])
    >>> clf = SelectiveNB().fit(X, y)
    >>> clf.predict(X).tolist()
    ['no', 'no', 'yes', 'yes', 'yes', 'yes', 'no', 'yes']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.8, 0.2],
           [0.8, 0.2]])
    """

    _parameter_constraints: dict = {
        "metric": [StrOptions({"accuracy", "auc"})],
    }

    def __init__(self, *, metric: str = "accuracy"):
        self.metric = metric

    def _weights(self, X, y) -> np.ndarray:
        nb = self.naive_bayes_
        m = nb.n_features_in_
        _, codes = encode_target(nb, y)  # the codes of nb.classes_
        known = codes >= 0
        truth = codes[known]
        # each attribute's log factors on the training rows, from one fit
        logs = libm.log(np.maximum(_FLOOR, nb.attribute_factors(X)[known]))
        logs = [np.ascontiguousarray(logs[:, i]) for i in range(m)]
        base = np.repeat(libm.log(nb.class_prior_)[None, :], len(truth), axis=0)
        selected = np.zeros(m, dtype=bool)
        current = self._score(base, truth)
        from ._selective_kernel import MAX_CLASSES, correct_with, first_class_auc_with  # numba: where first needed

        truth = np.ascontiguousarray(truth, dtype=np.int64)
        fast = self.metric == "accuracy" and len(nb.classes_) <= MAX_CLASSES and len(truth)
        fast_auc = self.metric == "auc" and len(nb.classes_) == 2 and len(truth)
        while not selected.all():
            candidates = np.flatnonzero(~selected)
            if fast:  # the same counts, compiled (_selective_kernel); float(100 · count / n) as accuracy
                scores = [float(100.0 * correct_with(base, logs[a], truth) / len(truth)) for a in candidates]
            elif fast_auc:  # the same AUC, compiled; where it is NaN numpy's path decides
                scores = [float(first_class_auc_with(base, logs[a], truth)) for a in candidates]
                scores = [s if not np.isnan(s) else self._score(base + logs[a], truth)
                          for s, a in zip(scores, candidates, strict=True)]
            else:
                scores = [self._score(base + logs[a], truth) for a in candidates]
            best = len(scores) - 1 - int(np.argmax(scores[::-1]))  # the last best, as GreedyStepwise -C
            if scores[best] < current:
                break
            a = int(candidates[best])
            selected[a] = True
            base = base + logs[a]
            current = scores[best]
        self.selected_ = selected
        return selected.astype(np.float64)

    def _score(self, log_scores: np.ndarray, truth: np.ndarray) -> float:
        P = libm.exp(log_scores - log_scores.max(axis=1, keepdims=True))
        P /= P.sum(axis=1, keepdims=True)
        if self.metric == "accuracy":
            return accuracy(truth, P)
        value = auc(truth, P) if P.shape[1] == 2 else auc(truth, P, average="weighted")
        return -np.inf if np.isnan(value) else value
