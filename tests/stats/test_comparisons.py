# SPDX-License-Identifier: GPL-3.0-or-later
"""The statistics the claims are judged under besides the papers' own: Weka's plain paired t-test,
Wilcoxon signed-rank with Holm, the Bayesian signed-rank test, bootstrap stability."""
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from nbrepro.stats import (
    bayesian_signed_rank,
    bootstrap_stability,
    corrected_resampled_ttest,
    leave_one_method_out,
    paired_ttest,
    wilcoxon_holm,
)


def test_plain_paired_ttest_by_hand_and_as_scipy():
    x, y = np.array([1.0, 2, 3, 4]), np.array([0.0, 0, 0, 1])
    # d = 1, 2, 3, 3: mean 2.25, s² = 2.75 / 3, t = 2.25 · √4 / s
    t = 2.25 * 2 / math.sqrt(2.75 / 3)
    res = paired_ttest(x, y)
    assert res.statistic == pytest.approx(t, rel=1e-15)
    ref = st.ttest_rel(x, y)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-13) and res.pvalue == pytest.approx(
        ref.pvalue, rel=1e-12
    )
    assert res.significance == 1 and res.pvalue < 0.05
    # the corrected test with no test/train term is the same test
    assert corrected_resampled_ttest(x, y, 0.0).pvalue == pytest.approx(res.pvalue, rel=1e-12)
    # the correction only widens: 10-fold CV's 1/9 ratio turns this into no difference
    assert corrected_resampled_ttest(x, y, 1 / 9).pvalue > res.pvalue


def test_plain_paired_ttest_as_weka_when_the_differences_do_not_vary():
    assert paired_ttest([1, 2, 3], [1, 2, 3]).pvalue == 1.0  # all equal: p = 1
    same = paired_ttest([2, 3, 4], [1, 2, 3])  # constant difference: p = 0
    assert same.pvalue == 0.0 and same.significance == 1


def test_wilcoxon_holm_by_hand():
    rng = np.random.default_rng(3)
    base = rng.uniform(0.6, 0.9, 20)
    table = pd.DataFrame({"A": base + 0.03, "B": base, "C": base + rng.normal(0.0, 0.02, 20), "D": base + 0.029})
    pairs = [("A", m) for m in "BCD"]
    res = wilcoxon_holm(table, pairs)
    raw = {("A", m): st.wilcoxon(table["A"], table[m]).pvalue for m in "BCD"}
    assert res.pvalue == pytest.approx(raw)
    # Holm by hand: the i-th smallest p times (m − i + 1), made monotone, capped at 1
    order = sorted(raw, key=raw.get)
    adjusted, running = {}, 0.0
    for i, ab in enumerate(order):
        running = max(running, min(1.0, (3 - i) * raw[ab]))
        adjusted[ab] = running
    assert res.adjusted == pytest.approx(adjusted)
    assert res.rejected == {ab: adjusted[ab] <= 0.05 for ab in pairs}
    assert res.rejected[("A", "B")] and res.better[("A", "B")]
    assert res.better == {("A", m): bool(np.median(table["A"] - table[m]) > 0) for m in "BCD"}
    lower = wilcoxon_holm(-table, pairs, higher_is_better=False)  # errors: lower is better
    assert lower.better == res.better and lower.adjusted == pytest.approx(res.adjusted)


def test_bayesian_signed_rank_is_baycomps_and_decides_by_the_rope():
    from baycomp import SignedRankTest

    rng = np.random.default_rng(0)
    x = rng.uniform(0.7, 0.9, 30)
    y = x - 0.02 + rng.normal(0, 0.005, 30)
    res = bayesian_signed_rank(x, y, rope=0.01, nsamples=5000, seed=7)
    ref = SignedRankTest.probs(x, y, rope=0.01, nsamples=5000, random_state=7)
    assert (res.p_higher, res.p_rope, res.p_lower) == tuple(map(float, ref))
    assert res.decision == "higher" and res.p_higher + res.p_rope + res.p_lower == pytest.approx(1)
    swapped = bayesian_signed_rank(y, x, rope=0.01, nsamples=5000, seed=7)
    assert swapped.decision == "lower" and swapped.p_lower == pytest.approx(res.p_higher, abs=0.02)
    # differences well inside a wide rope: practically equivalent
    assert bayesian_signed_rank(x, y, rope=0.1, nsamples=5000).decision == "equivalent"
    # no rope: two outcomes
    none = bayesian_signed_rank(x, y, rope=0.0, nsamples=5000)
    assert none.p_rope == 0.0 and none.decision == "higher"


def test_bootstrap_stability_by_hand():
    table = pd.DataFrame({"a": [1.0, -1.0]})
    # "the mean of a is positive": a resample of the two rows has it only when both draws are row 0
    res = bootstrap_stability(table, lambda t: t["a"].mean() > 0, resamples=4000, seed=1)
    assert res.fraction == pytest.approx(0.25, abs=0.02)
    assert res.fragile  # it fails on the table, and the failure holds in only ~75 % of resamples
    always = bootstrap_stability(table, lambda t: len(t) == 2, resamples=100)
    assert always.fraction == 1.0 and not always.fragile
    # a fixed seed: the same fraction every time
    assert bootstrap_stability(table, lambda t: t["a"].mean() > 0, resamples=500, seed=2) == bootstrap_stability(
        table, lambda t: t["a"].mean() > 0, resamples=500, seed=2
    )


def test_leave_one_method_out():
    table = pd.DataFrame({"A": [1, 2], "B": [0, 1], "C": [5, 5]})
    out = leave_one_method_out(table, lambda t: t.mean().idxmax() == "A", keep=["A", "B"])
    assert out == {"C": True}


def test_mean_ranks_from_the_pairwise_records_are_the_tables_mean_ranks():
    from nbrepro.stats import mean_ranks, mean_ranks_from_records, win_tie_loss_matrix

    rng = np.random.default_rng(5)
    table = pd.DataFrame(rng.integers(0, 6, size=(40, 5)).astype(float), columns=list("ABCDE"))  # many ties
    for higher in (True, False):
        wtl = win_tie_loss_matrix(table, higher)
        half = wtl[[list("ABCDE").index(r) > list("ABCDE").index(c) for r, c in zip(wtl.row, wtl.col, strict=True)]]
        got = mean_ranks_from_records(half, list("ABCDE"), len(table))
        assert got.to_dict() == pytest.approx(mean_ranks(table, higher).to_dict(), abs=1e-12)
    # by hand: two methods, 3 data sets, A wins 1, ties 1, loses 1 → both rank 1.5
    rec = pd.DataFrame({"row": ["A"], "col": ["B"], "wins": [1], "ties": [1], "losses": [1]})
    assert mean_ranks_from_records(rec, ["A", "B"], 3).tolist() == [1.5, 1.5]


def test_friedman_from_mean_ranks_is_the_untied_friedman():
    from nbrepro.stats import friedman, friedman_from_mean_ranks, mean_ranks

    rng = np.random.default_rng(9)
    table = pd.DataFrame(rng.normal(size=(30, 6)) + np.arange(6) * 0.3)  # continuous: no ties
    full = friedman(table.to_numpy(), tie_correction=False)
    got = friedman_from_mean_ranks(mean_ranks(table).to_numpy(), len(table))
    assert got.statistic == pytest.approx(full.statistic, rel=1e-12) and got.pvalue == pytest.approx(full.pvalue)
    assert got.statistic == pytest.approx(st.friedmanchisquare(*table.to_numpy().T).statistic, rel=1e-12)
