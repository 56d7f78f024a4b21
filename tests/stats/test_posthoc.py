# SPDX-License-Identifier: GPL-3.0-or-later
"""Post-hoc statistics, w/t/l records and metrics' directions: hand-worked values and the papers' own numbers."""
import math

import numpy as np
import pandas as pd
import pytest
from conftest import ROOT

from nbrepro.stats import (
    bonferroni_dunn,
    bonferroni_dunn_q,
    critical_difference,
    friedman,
    holm,
    nemenyi,
    nemenyi_q,
    sign_test,
    wilcoxon,
    win_tie_loss,
    win_tie_loss_matrix,
)


def test_critical_values_equal_demsar_table5():
    # Demšar (2006) Table 5: Nemenyi q_0.05 for k = 2..10, Bonferroni–Dunn for k = 2..8
    # (his values are truncated or rounded, so they agree with the exact quantiles to 0.001)
    assert np.allclose([nemenyi_q(k) for k in range(2, 11)],
                       [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164], atol=1.001e-3)
    assert np.allclose([bonferroni_dunn_q(k) for k in range(2, 9)],
                       [1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690], atol=1.001e-3)
    # Demšar prints 2.724 for k = 9; the exact quantile z(1 − 0.05/16) is 2.734
    assert round(bonferroni_dunn_q(9), 3) == 2.734
    # his worked example: k = 4 methods over N = 14 datasets, CD = 1.25 (Nemenyi)
    assert round(critical_difference(nemenyi_q(4), 4, 14), 2) == 1.25


def _toy():
    # 6 datasets × 3 methods; A always best, C always worst
    return pd.DataFrame({"A": [9, 8, 9, 7, 9, 8], "B": [5, 6, 5, 6, 5, 6], "C": [1, 2, 1, 2, 3, 1]}, dtype=float)


def test_nemenyi_and_bonferroni_dunn_by_hand():
    t = _toy()
    res = nemenyi(t)
    assert res.mean_ranks == {"A": 1.0, "B": 2.0, "C": 3.0}
    cd = nemenyi_q(3) * math.sqrt(3 * 4 / 36)  # 2.343 · 0.577 = 1.353
    assert res.critical_difference == pytest.approx(cd)
    assert res.different == [("A", "C")]          # |1 − 3| > 1.353; |1 − 2| and |2 − 3| are not
    bd = bonferroni_dunn(t, control="A")
    assert bd.different == ["C"] and bd.critical_difference == pytest.approx(2.241 * math.sqrt(1 / 3), abs=1e-3)
    # lower is better: the ranks turn round
    assert nemenyi(t, higher_is_better=False).mean_ranks == {"A": 3.0, "B": 2.0, "C": 1.0}


def test_holm_by_hand():
    t = _toy()
    res = holm(t, control="A")
    se = math.sqrt(3 * 4 / 36)
    assert res.z == pytest.approx({"B": 1 / se, "C": 2 / se})
    # p_C = 2Φ(−3.46) = 0.00053 ≤ 0.05/2; p_B = 2Φ(−1.73) = 0.083 > 0.05/1
    assert res.rejected == {"B": False, "C": True}


def test_sign_test_and_wilcoxon():
    assert sign_test(4, 1).pvalue == pytest.approx(0.375)
    # ties split evenly: 4 wins, 2 ties, 1 loss → 5 vs 2, p = 0.453
    assert sign_test(4, 1, ties=2).pvalue == pytest.approx(0.453125)
    w = wilcoxon([3, 4, 5, 6, 7], [1, 1, 1, 1, 1])
    assert (w.wins, w.ties, w.losses) == (5, 0, 0) and w.pvalue == pytest.approx(0.0625)


def test_win_tie_loss_rules():
    a, b = [1.0, 2.0, 3.004, 4.0], [1.0, 3.0, 3.0, 3.0]
    assert win_tie_loss(a, b) == (2, 1, 1)
    assert win_tie_loss(a, b, decimals=2) == (1, 2, 1)          # 3.004 and 3.0 tie at two decimals
    assert win_tie_loss(a, b, higher_is_better=False) == (1, 1, 2)
    m = win_tie_loss_matrix(pd.DataFrame({"X": a, "Y": b, "Z": [0.0] * 4}))
    assert m.to_dict("records")[0] == {"row": "Y", "col": "X", "wins": 1, "ties": 1, "losses": 2, "datasets": 4}
    assert len(m) == 3


def test_mao_friedman_p_values_and_ranks_from_their_table2():
    """Mao et al. print p = 2.14e-4 (MSE) and 3.86e-8 (ACC), and LPM-BC's average ranks 2.28 and 1.84:
    recomputed from their own Table II with the statistic without tie correction."""
    t = pd.read_csv(ROOT / "config/published/lpmbc_table2.csv")
    for metric, higher, p, rank in (("mse", False, 2.14e-4, 2.28), ("accuracy", True, 3.86e-8, 1.84)):
        wide = t[t.metric == metric].pivot(index="dataset", columns="method", values="mean")
        res = friedman(wide, higher_is_better=higher, tie_correction=False)
        assert float(f"{res.pvalue:.3g}") == p
        ranks = dict(zip(wide.columns, res.mean_ranks, strict=True))
        assert round(ranks["LPM-BC"], 2) == rank
        printed = pd.read_csv(ROOT / "config/published/lpmbc_table2_summary.csv")
        printed = printed[printed.metric == metric].set_index("method")["average_rank"]
        assert all(abs(ranks[m] - printed[m]) < 0.006 for m in printed.index)
        # with the tie correction the MSE p-value would be printed 2.09e-4: the paper did not correct
    mse = t[t.metric == "mse"].pivot(index="dataset", columns="method", values="mean")
    assert (
        float(f"{friedman(mse, False).pvalue:.3g}")
        == 2.09e-4
    )


def test_metric_directions_and_definitions():
    from nbrepro.metrics import make_metric

    y = np.array([0, 1, 1, -1])
    p = np.array([[0.8, 0.2], [0.4, 0.6], [0.7, 0.3], [0.5, 0.5]])
    acc, mse, rrse, auc = (make_metric(n, n) for n in ("accuracy", "mse", "rrse", "auc"))
    assert acc.higher_is_better and not mse.higher_is_better and not rrse.higher_is_better and auc.higher_is_better
    assert acc(y, p, [1, 2]) == pytest.approx(200 / 3)
    # half Brier: row 1: (0.2² + 0.2²)/2 = 0.04, row 2: 0.16, row 3: 0.49 → mean 0.23
    assert mse(y, p, [1, 2]) == pytest.approx(0.23)
    assert make_metric("mse", "mse", {"definition": "true_class"})(y, p, [1, 2]) == pytest.approx(
        (0.04 + 0.16 + 0.49) / 3
    )
    # Weka's RRSE baseline: Laplace prior (1+1)/(3+2) = 0.4, (2+1)/5 = 0.6
    num = 0.08 + 0.32 + 0.98
    den = (0.6**2 * 2) + (0.4**2 * 2) * 2
    assert rrse(y, p, [1, 2]) == pytest.approx(100 * math.sqrt(num / den))
    # AUC of class 0: scores 0.8 (pos) vs 0.4, 0.7 (neg) → 1.0
    assert auc(y, p, [1, 2]) == pytest.approx(100.0)


def test_kohavi_wolpert_bias_variance_sum_to_error():
    from nbrepro.metrics import kw_bias2, kw_variance

    pred = pd.DataFrame(
        {
            "row": [0, 0, 0, 0, 1, 1, 1, 1],
            "y": [0] * 4 + [1] * 4,
            "y_pred": [0, 0, 1, 1, 1, 1, 1, 0],
            "p:a": 0.0,
            "p:b": 0.0,
        }
    )
    # row 0: P̂ = (½, ½): bias² = ½(¼ + ¼) = ¼, var = ½(1 − ½) = ¼; row 1: P̂ = (¼, ¾): bias² = 1/16, var = 3/16
    assert kw_bias2(pred) == pytest.approx(100 * (0.25 + 1 / 16) / 2)
    assert kw_variance(pred) == pytest.approx(100 * (0.25 + 3 / 16) / 2)
    assert kw_bias2(pred) + kw_variance(pred) == pytest.approx(100 * 3 / 8)  # the error rate
