# SPDX-License-Identifier: GPL-3.0-or-later
"""Li & Li's text statistics, computed by the generic statistics declared in config/papers/lcwnb.yaml
(nbrepro.analysis.paper_stats) and its claims module, from the paper's own Table 2 and Table 1.

These check our statistics code against the numbers the paper prints, using the paper's inputs."""
import pandas as pd
import pytest
from conftest import ROOT

from nbrepro.analysis.statistics import text_statistics
from nbrepro.checks import checked_paper
from nbrepro.claims import lcwnb as claims_module
from nbrepro.claims.lcwnb import switching_kappa
from nbrepro.stats import win_loss_split


def win_loss(table):
    return win_loss_split(table, "LCWNB5", threshold=23)


@pytest.fixture(scope="module")
def published():
    t2 = pd.read_csv(ROOT / "config/published/lcwnb_table2.csv").fillna({"significance": ""})
    t1 = pd.read_csv(ROOT / "config/published/lcwnb_table1.csv")
    text = pd.read_csv(ROOT / "config/published/lcwnb_text_stats.csv")
    summary = pd.read_csv(ROOT / "config/published/lcwnb_table2_summary.csv")
    return t2, t1, text, summary


def test_win_loss_row(published):
    t2, _, _, summary = published
    got = win_loss(t2).set_index("method")
    want = summary.dropna(subset=["s_w"]).set_index("method")
    # TAN, WAODE and HNB lost markers in the OCR (shared/published/README.md §4.8): the other columns are complete
    for m in ["LCWNB10", "LCWNB20", "NB", "AODE", "LWNB"]:
        assert tuple(got.loc[m, ["s_w", "m_w", "m_b", "s_b"]]) == tuple(want.loc[m, ["s_w", "m_w", "m_b", "s_b"]]), m
    # ICLNB ties LCWNB5 at the printed values on anneal (98.82) and mushroom (100.00): 0.5 each here;
    # the paper's 14 / 15 splits them otherwise (unrounded numbers, or the tie rule not applied)
    row = got.loc["ICLNB"]
    assert (row.s_w, row.s_b, row.m_w + row.m_b) == (1, 6, 29)
    assert got.loc["NB", "binomial_worse"] == "•"


def test_text_statistics(published):
    t2, t1, text, _ = published
    paper = checked_paper(ROOT / "config/papers/lcwnb.yaml")
    got, _ = text_statistics(paper, t2, t1, text, claims_module)
    got = got.set_index("statistic")
    for name, tol in [("friedman_p_kappa", 5e-5), ("iman_davenport_p_kappa", 5e-5), ("quade_p_kappa", 5e-5),
                      ("binom_p_lcwnb10_middle", 5e-9), ("binom_p_lcwnb5_rank1", 5e-5), ("p_m_pattern", 5e-9),
                      ("binom_p_mb_sb_gt_23", 5e-5), ("mean_rank_test_p_lcwnb5", 5e-6),
                      ("mean_rank_test_p_lcwnbstar", 5e-6), ("lcwnb5_mean_rank_6", 5e-5)]:
        assert abs(float(got.loc[name, "value"]) - float(got.loc[name, "published"])) < tol, name
    for name in ["lcwnb10_middle_count", "lcwnb5_rank1_count", "lcwnb5_rank1_largest_m", "lcwnb5_rank3_smallest_m"]:
        assert int(got.loc[name, "value"]) == int(got.loc[name, "published"]), name
    # the paper's rule (20 below 15, 10 at 15–16, 5 above 16) is the first of the optimal rules
    assert got.loc["switch_best_rule", "value"] == "20 if m<15; 10 if 15≤m≤16; 5 if m>16"


def test_switching_rule():
    assert [switching_kappa(m) for m in (5, 14, 15, 16, 17, 70)] == \
        ["LCWNB20", "LCWNB20", "LCWNB10", "LCWNB10", "LCWNB5", "LCWNB5"]


def test_declared_figures_draw_from_the_papers_table(published, tmp_path):
    """Figures 2 and 3 as config/papers/lcwnb.yaml declares them (generic figure kinds), on the printed Table 2."""
    from nbrepro.analysis.figures import FIGURE_KINDS

    t2, t1, _, summary = published
    paper = checked_paper(ROOT / "config/papers/lcwnb.yaml")
    for name, fig in paper.figures.items():
        spec = dict(fig, n_permutations=200)
        figure = FIGURE_KINDS[fig["kind"]].compute(paper, spec, {"table2": t2}, t1, tmp_path)
        FIGURE_KINDS[fig["kind"]].draw(figure, spec, paper, tmp_path / name)
        data = figure.frame
        assert (tmp_path / f"{name}.svg").exists()
        if name == "figure2":   # averages equal the printed Average row
            got = data.set_index("method")["average"]
            want = summary.set_index("method")["average_accuracy"]
            assert all(abs(got[m] - want[m]) < 0.006 for m in want.index if m in got.index)


def test_claims_are_judged_on_the_printed_table_by_the_same_code(published):
    """``claims_on_printed_tables``: the claims module runs on the printed Table 2 (``printed_view``)
    as on ours; on the paper's own numbers LCWNB5's mean-rank test gives the printed p = 0.05855."""
    import numpy as np

    from nbrepro.analysis.paper_stats import _printed_context, printed_view

    t2, t1, _, _ = published
    paper = checked_paper(ROOT / "config/papers/lcwnb.yaml")
    ours_missing = pd.DataFrame({"dataset": t2.dataset, "method": t2.method, "metric": t2.metric, "mean": np.nan,
                                 "std": np.nan, "published_mean": t2["mean"].astype(float),
                                 "published_std": t2["std"].astype(float), "significance": "",
                                 "published_significance": t2.significance})
    view = printed_view(ours_missing)
    assert view["mean"].equals(ours_missing.published_mean) and view["significance"].equals(t2.significance)
    ctx = _printed_context(paper, {"table2": ours_missing}, t1, claims_module)
    from nbrepro.analysis.declared import declared_claims

    declared = [c for c in declared_claims(paper, ctx, ctx) if c.source == "printed"]   # the config's claims
    got = {c.claim_id: c for c in declared + claims_module.claims(ctx)}
    assert {c.source for c in got.values()} == {"printed"}
    assert {c.kind for c in declared} == {"rank_order", "test_rejects", "in_range", "trend"}
    assert got["lcwnb5_mean_rank_test"].verdict == "yes" and got["lcwnb5_mean_rank_test"].evidence == "p = 0.05855"
    assert got["kappas_equal"].verdict == "yes" and got["nb_tan_outside_bounds"].verdict == "yes"
    held = {k for k, c in got.items() if c.verdict == "yes"}
    # every sentence of Section 4 holds on the paper's own Table 2; which t-test made its dots needs the folds
    assert set(got) - held == {"ttest_reading"} and got["ttest_reading"].verdict == "not checkable"
    assert got["lcwnbstar_2pct"].evidence == "p = 0.01559"
    # … under the paper's mean-rank test; under today's tests not, and the verdict is fragile
    star = got["lcwnb5_mean_rank_test"]
    assert (star.wilcoxon_holm, star.bayesian, star.fragile) == ("no", "no", "yes") and 0.4 < star.stability < 0.6
    assert star.pool.startswith("flips with")
