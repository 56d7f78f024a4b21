# SPDX-License-Identifier: GPL-3.0-or-later
"""One rounding rule for ranks (issue 63): a table's summary rows, its figures and the paper's
statistics rank the same means, those at ``rank_decimals`` (the printed decimals the paper's
statistics read, for the table they read; unrounded otherwise)."""
import pandas as pd
from conftest import ROOT

from nbrepro.analysis.figures import FIGURE_KINDS
from nbrepro.analysis.tables import rank_decimals, summary
from nbrepro.checks import checked_paper


def _long(means: dict) -> pd.DataFrame:
    rows = [{"dataset": d, "method": m, "metric": "accuracy", "mean": v, "significance": ""}
            for d, row in means.items() for m, v in row.items()]
    return pd.DataFrame(rows)


def test_summary_ranks_at_the_decimals_given():
    # NB and GNB differ in the third decimal on two data sets: tied at two decimals
    t = _long({"a": {"NB": 80.004, "GNB": 80.001, "X": 70.0}, "b": {"NB": 70.001, "GNB": 70.004, "X": 90.0},
               "c": {"NB": 60.0, "GNB": 61.0, "X": 50.0}, "d": {"NB": 66.004, "GNB": 66.0, "X": 90.0}})
    raw = summary(t, None).set_index("method")["mean_rank_among_computed"]
    at2 = summary(t, None, decimals=2).set_index("method")["mean_rank_among_computed"]
    assert (raw["NB"], raw["GNB"]) == (2.0, 2.0)
    assert (at2["NB"], at2["GNB"]) == (2.125, 1.875)
    assert summary(t, None, decimals=2)["average"].tolist() == summary(t, None)["average"].tolist()


def test_a_figure_ranks_as_the_summary_rows():
    """Li & Li's Figure 2 with its decimals left out ranks at analysis.decimals, as Table 2's summary rows."""
    paper = checked_paper(ROOT / "config/papers/lcwnb.yaml")
    assert rank_decimals(paper, "table2") == paper.analysis.decimals == 2
    assert rank_decimals(paper, "table3") is None
    t2 = pd.read_csv(ROOT / "config/published/lcwnb_table2.csv").fillna({"significance": ""})
    t2 = t2.assign(metric="accuracy", mean=t2["mean"] + 0.003)  # unrounded means: the third decimal decides
    spec = {k: v for k, v in paper.figures["figure2"].items() if k != "decimals"} | {"n_permutations": 20}
    fig = FIGURE_KINDS["permutation_bounds"].compute(paper, spec, {"table2": t2}, None, None).frame
    rows = summary(t2, None, decimals=rank_decimals(paper, "table2")).set_index("method")
    for method, rank in fig.set_index("method")["mean_rank"].items():
        assert abs(rank - rows.loc[method, "mean_rank_among_computed"]) < 1e-12, method


def test_a_figure_ranking_otherwise_is_refused():
    paper = checked_paper(ROOT / "config/papers/lcwnb.yaml")
    entry = dict(paper.figures["figure2"], decimals=3)
    message = FIGURE_KINDS["permutation_bounds"].check(entry, paper)
    assert "analysis.decimals: 2" in message and "decimals: 3" in message
    assert FIGURE_KINDS["permutation_bounds"].check(dict(paper.figures["figure2"]), paper) is None
