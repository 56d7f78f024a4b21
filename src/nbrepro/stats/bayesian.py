# SPDX-License-Identifier: GPL-3.0-or-later
"""The Bayesian signed-rank test (Benavoli, Corani, Demšar & Zaffalon, JMLR 18(77), 2017) of two
methods over data sets, with a region of practical equivalence (ROPE), by ``baycomp``.

The posterior of (P(x − y < −rope), P(|x − y| ≤ rope), P(x − y > rope)) is a Dirichlet process
over the differences with a prior pseudo-observation at 0; ``baycomp.SignedRankTest`` samples it
(a fixed ``random_state``, so the same numbers every run). A direction is decided when its
posterior probability reaches ``threshold`` (0.95, the authors' choice).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class BayesianResult:
    p_lower: float       # P(x is lower than y by more than the rope)
    p_rope: float        # P(the difference is inside the rope): practically equivalent
    p_higher: float      # P(x is higher than y by more than the rope)
    rope: float
    decision: str        # "higher", "equivalent", "lower" or "undecided"


def bayesian_signed_rank(x, y, rope: float, threshold: float = 0.95, nsamples: int = 50000,
                         seed: int = 1) -> BayesianResult:
    """``x`` and ``y``: one score per data set (higher or lower better: ``decision`` names the
    direction of x − y, not which is better)."""
    from baycomp import SignedRankTest

    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1 or len(x) < 2:
        raise ValueError(f"x and y must be paired 1-D arrays of two or more values, got {x.shape} and {y.shape}")
    # baycomp's first probability is P(x > y + rope): "left" is x's side
    probs = SignedRankTest.probs(x, y, rope=rope, nsamples=nsamples, random_state=seed)
    # without a rope baycomp returns two probabilities
    p_high, p_rope, p_low = probs if len(probs) == 3 else (probs[0], 0.0, probs[1])
    probs = {"higher": float(p_high), "equivalent": float(p_rope), "lower": float(p_low)}
    best = max(probs, key=probs.get)
    return BayesianResult(probs["lower"], probs["equivalent"], probs["higher"], float(rope),
                          best if probs[best] >= threshold else "undecided")
