# SPDX-License-Identifier: GPL-3.0-or-later
"""A significance claim judged under today's tests as well as the paper's, with how stable it is.

``today(table, claims, family, ...)``: for claims of the form "a is significantly better than b"
(several pairs for "better than each of them"), the verdict under Wilcoxon signed-rank with
Holm's correction over ``family`` and under the Bayesian signed-rank test with a ROPE
(Benavoli, Corani & Mangili, JMLR 17(5), 2016; Benavoli et al., JMLR 18(77), 2017);
``with_stability`` adds a claim's bootstrap stability over the data sets.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from .. import stats
from .claim_records import Claim, verdict


def today(table: pd.DataFrame, pairs: list[tuple[str, str]], family: list[tuple[str, str]], higher_is_better: bool,
          rope: float, unit: str) -> dict:
    """The Claim fields wilcoxon_holm, bayesian, tests_evidence for "each a of ``pairs`` (a, b) is
    significantly better than its b" on ``table`` (data sets × methods)."""
    wh = stats.wilcoxon_holm(table, family, higher_is_better=higher_is_better)
    holm, bayes, words = [], [], []
    for a, b in pairs:
        key = (a, b) if (a, b) in wh.pvalue else (b, a)
        holm.append(wh.rejected[key] and wh.better[key] == (key == (a, b)))
        res = stats.bayesian_signed_rank(table[a].to_numpy(), table[b].to_numpy(), rope=rope)
        p_a, p_b = (res.p_higher, res.p_lower) if higher_is_better else (res.p_lower, res.p_higher)
        bayes.append("yes" if p_a >= 0.95 else "no" if max(p_b, res.p_rope) >= 0.95 else "undecided")
        words.append(f"{a} vs {b}: Wilcoxon p = {wh.pvalue[key]:.3g}, Holm-adjusted {wh.adjusted[key]:.3g}; "
                     f"P({a} better) = {p_a:.3f}, P(equivalent) = {res.p_rope:.3f}, P({b} better) = {p_b:.3f}")
    b_verdict = "yes" if all(v == "yes" for v in bayes) else "no" if "no" in bayes else "undecided"
    return {
        "wilcoxon_holm": verdict(all(holm)),
        "bayesian": b_verdict,
        "tests_evidence": f"Holm over {len(family)} pairs; Bayesian signed-rank, ROPE ±{rope:g} {unit}. "
        + "; ".join(words),
    }


def with_stability(claim: Claim, held) -> Claim:
    """``claim`` with the share of bootstrap resamples in which it holds (``held``: one verdict per
    resample, True, False, or None where its statistic is not computable on the resample: counted
    as not holding, and their number said in the evidence)."""
    held = list(held)
    undefined = sum(h is None for h in held)
    res = stats.stability_of(np.array([h is not None and bool(h) for h in held]), claim.verdict == "yes")
    claim = replace(claim, stability=res.fraction, fragile="yes" if res.fragile else "no")
    if undefined:
        claim = replace(claim, evidence=claim.evidence + f"; not computable on {undefined} of {len(held)} "
                        "bootstrap resamples (counted as not holding)")
    return claim
