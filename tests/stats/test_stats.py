# SPDX-License-Identifier: GPL-3.0-or-later
"""Statistics: hand-worked cases, and the values Li & Li quote, recomputed from their own Table 2."""
import math

import numpy as np
import pandas as pd
import pytest
from conftest import ROOT
from scipy import stats as st

from nbrepro.stats import (
    corrected_resampled_ttest,
    friedman,
    iman_davenport,
    mean_ranks,
    quade,
    rank_rows,
    weka_mean_std,
)


@pytest.fixture(scope="module")
def published_table2():
    p = pd.read_csv(ROOT / "config/published/lcwnb_table2.csv")
    return p.pivot(index="dataset", columns="method", values="mean")


def test_weka_mean_std():
    m, s = weka_mean_std([66.67, 83.33, 100, 83.33, 100])
    assert m == pytest.approx(86.666) and s == pytest.approx(np.std([66.67, 83.33, 100, 83.33, 100], ddof=1))


def test_corrected_ttest_by_hand():
    x = np.array([80.0, 82, 79, 85, 81, 83])
    y = np.array([78.0, 80, 80, 82, 79, 80])
    d = x - y
    t = d.mean() / math.sqrt((1 / 6 + 0.25) * d.var(ddof=1))
    res = corrected_resampled_ttest(x, y, 0.25)
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * st.t.sf(abs(t), 5), rel=1e-12)
    assert res.significance == (1 if res.pvalue <= 0.05 else 0)


def test_corrected_ttest_is_wider_than_plain():
    rng = np.random.default_rng(0)
    x = rng.normal(80, 3, 100)
    y = x - 0.8 + rng.normal(0, 1, 100)
    plain = st.ttest_rel(x, y).pvalue
    corr = corrected_resampled_ttest(x, y, 1 / 9).pvalue
    assert corr > plain


def test_corrected_ttest_zero_variance_as_weka():
    assert corrected_resampled_ttest([90.0] * 10, [90.0] * 10, 1 / 9).pvalue == 1.0
    res = corrected_resampled_ttest([91.0] * 10, [90.0] * 10, 1 / 9)
    assert res.pvalue == 0.0 and res.significance == 1


def test_ranks_average_ties():
    r = rank_rows(np.array([[90, 90, 80], [70, 80, 90]]))
    assert r.tolist() == [[1.5, 1.5, 3.0], [3.0, 2.0, 1.0]]


def test_friedman_textbook_matches_scipy():
    rng = np.random.default_rng(1)
    data = np.round(rng.normal(size=(12, 4)), 1)  # rounding creates ties
    ours = friedman(data)
    ref = st.friedmanchisquare(*data.T)
    assert ours.statistic == pytest.approx(ref.statistic) and ours.pvalue == pytest.approx(ref.pvalue)


def test_li_li_kappa_tests(published_table2):
    """§4: Friedman 0.2366 (tie-corrected), Iman–Davenport 0.2393, Quade 0.1449 for LCWNB5/10/20."""
    d = published_table2[["LCWNB5", "LCWNB10", "LCWNB20"]]
    assert round(friedman(d).pvalue, 4) == 0.2366
    assert round(friedman(d, tie_correction=False).pvalue, 4) == 0.2564
    assert round(iman_davenport(d).pvalue, 4) == 0.2393
    assert round(quade(d).pvalue, 4) == 0.1449


def test_li_li_mean_ranks(published_table2):
    pub = pd.read_csv(ROOT / "config/published/lcwnb_table2_summary.csv").set_index("method")["mean_rank"]
    ours = mean_ranks(published_table2).round(4)
    for m in pub.index:
        assert ours[m] == pytest.approx(pub[m], abs=1e-9), m


def test_iman_davenport_when_every_data_set_ranks_the_methods_alike():
    """χ² at its maximum n(k − 1): F is infinite and p = 0, not a division by zero (a bootstrap
    resample of a few data sets can reach it)."""
    import numpy as np

    from nbrepro.stats import iman_davenport

    data = np.array([[0.9, 0.8, 0.7], [0.95, 0.85, 0.6], [0.91, 0.9, 0.1]])
    res = iman_davenport(data, tie_correction=True)
    assert res.statistic == np.inf and res.pvalue == 0.0


def test_rank_tests_at_their_edges_as_r_and_conover():
    """Every method tied on every data set: Friedman's χ² is NaN (R's friedman.test too), and so are
    Iman–Davenport's F and p (not F = ∞, p = 0), and Quade's (A = 0: no information; R returns
    (1/k!)^(N−1) there). Every block ranking alike (A = B > 0): Quade's p is (1/k!)^(N−1) as in
    Conover (1999, p. 374) and R's quade.test (0.5 for [[1, 2], [2, 3]]), its F undefined."""
    tied = np.ones((6, 4))
    assert np.isnan(friedman(tied).statistic)
    assert np.isnan(iman_davenport(tied).statistic) and np.isnan(iman_davenport(tied).pvalue)
    q = quade(tied)
    assert np.isnan(q.statistic) and np.isnan(q.pvalue) and (q.n_datasets, q.n_methods) == (6, 4)
    q = quade(np.array([[1.0, 2.0], [2.0, 3.0]]))
    assert np.isnan(q.statistic) and q.pvalue == 0.5 and q.mean_ranks == (2.0, 1.0)
    assert quade(np.array([[1.0, 2.0, 3.0]] * 4)).pvalue == pytest.approx(6.0 ** -3)


def test_sign_test_refuses_a_half_count():
    from nbrepro.stats import sign_test

    with pytest.raises(ValueError, match="wins = 14.5 is not a whole count"):
        sign_test(14.5, 13.5)
    assert sign_test(14, 13, 3).statistic == 15.0   # an odd tie dropped, the others split


def test_a_missing_fold_is_skipped_as_weka_does_never_marked():
    """Weka's PairedTTester adds a run's pair only when both values are there. Before, one NaN fold
    made the differences' sd NaN and the test 'significant' (p = 0)."""
    from nbrepro.stats import corrected_resampled_ttest, paired_ttest

    rng = np.random.default_rng(3)
    x, y = rng.normal(0.80, 0.02, 100), rng.normal(0.80, 0.02, 100)
    x_gap = x.copy()
    x_gap[7] = np.nan
    for test in (lambda a, b: corrected_resampled_ttest(a, b, 1 / 9), paired_ttest):
        got, want = test(x_gap, y), test(np.delete(x, 7), np.delete(y, 7))
        assert (got.pvalue, got.significance) == (want.pvalue, want.significance)
        assert got.significance == 0
    empty = paired_ttest(np.full(5, np.nan), np.zeros(5))
    assert empty.pvalue == 1.0 and empty.significance == 0


def test_a_missing_cell_drops_its_data_set_from_the_rank_tests_as_r_does():
    """Friedman, Iman–Davenport and Quade drop a data set with a missing cell (R's complete
    blocks), the Wilcoxon test the pair; fewer than two complete data sets is refused. Before, the
    NaN propagated into the ranks."""
    from nbrepro.stats import wilcoxon

    rng = np.random.default_rng(5)
    table = rng.normal(size=(9, 4))
    gap = table.copy()
    gap[3, 2] = np.nan
    for test in (friedman, iman_davenport, quade):
        got, want = test(gap), test(np.delete(table, 3, axis=0))
        assert (got.statistic, got.pvalue, got.n_datasets) == (want.statistic, want.pvalue, 8)
    got, want = wilcoxon(gap[:, 2], gap[:, 0]), wilcoxon(np.delete(table[:, 2], 3), np.delete(table[:, 0], 3))
    assert got == want and got.wins + got.ties + got.losses == 8
    with pytest.raises(ValueError, match="at least 2 complete datasets"):
        friedman(np.array([[1.0, np.nan], [2.0, 3.0], [np.nan, 1.0]]))


def test_a_mean_rank_post_hoc_refuses_a_missing_cell_naming_it():
    """A critical difference is for the N data sets of the table: with a cell missing the post-hoc
    tests refuse in one line naming the cell, rather than rank fewer data sets silently."""
    from nbrepro.stats import bonferroni_dunn, holm, mean_rank_test, nemenyi, permutation_bounds

    table = pd.DataFrame({"NB": [0.8, 0.7, np.nan, 0.9], "TAN": [0.82, 0.71, 0.6, 0.88], "C": [0.7, 0.6, 0.5, 0.8]},
                         index=["iris", "vote", "zoo", "labor"])
    for call in (lambda: nemenyi(table), lambda: bonferroni_dunn(table, "NB"), lambda: holm(table, "NB"),
                 lambda: mean_rank_test(table, "NB", ["TAN", "C"]), lambda: permutation_bounds(table, 9)):
        with pytest.raises(ValueError, match=r"misses 'NB' on 'zoo' \(1 missing cells\)"):
            call()
