# SPDX-License-Identifier: GPL-3.0-or-later
"""The one derivation of the counts (nbrepro.analysis.counts), and a recount of a run's files from
the tables' cells, written apart from it (``recount_run``: also run on whole-workflow runs by the
slow tier, and on any results folder with NBREPRO_RESULTS=results)."""
from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from recount import recount_run

from nbrepro.analysis import counts
from nbrepro.errors import ConfigError
from nbrepro.metrics import make_metric
from nbrepro.paper import Paper


def _cells(rows):
    return pd.DataFrame(rows, columns=["dataset", "method", "metric", "mean", "std", "published_mean",
                                       "published_std", "mean_decimals", "std_decimals"])


def test_each_cell_is_in_one_class_and_the_classes_sum_to_the_printed_cells():
    t = _cells([
        ("a", "M", "acc", 80.004, 1.0, 80.00, 1.00, 2, 2),     # exact
        ("b", "M", "acc", 80.004, 1.3, 80.00, 1.00, 2, 2),     # the sd differs: not exact, within 0.5
        ("c", "M", "acc", 80.7, np.nan, 80.00, np.nan, 2, np.nan),   # within 1.0, not 0.5
        ("d", "M", "acc", 85.0, np.nan, 80.00, np.nan, 2, np.nan),   # further off
        ("e", "M", "acc", np.nan, np.nan, 80.00, np.nan, 2, np.nan),   # not computed
        ("f", "M", "acc", 70.0, np.nan, np.nan, np.nan, np.nan, np.nan),   # not printed
    ])
    c = counts.match_counts(t, "t2", {"acc": (0.5, 1.0)}, {"acc": "points"}).iloc[0]
    assert list(c.index) == counts.COLUMNS
    assert (c.cells, c.printed, c.compared) == (6, 5, 4)
    assert (c.exact, c.within_tolerance_1, c.within_tolerance_2, c.further_off) == (1, 1, 1, 1)
    assert (c.not_computed, c.computed_not_printed) == (1, 1) and c.max_abs_diff == pytest.approx(5.0)


def test_a_fraction_is_judged_at_fraction_tolerances():
    """Mao et al. print accuracy as a fraction: K-NBC on haberman, 0.7452 against 0.5295, is within no
    tolerance (it was counted within "0.5 points", issue 81)."""
    m = make_metric("accuracy", "accuracy", {"scale": 1})
    assert m.unit == "fraction" and m.tolerances == pytest.approx((0.005, 0.01))
    assert counts.classify(0.7452, 0.05, 0.5295, 0.05, 4, 4, m.tolerances) == counts.OFF
    assert counts.classify(0.5330, 0.05, 0.5295, 0.05, 4, 4, m.tolerances) == counts.TOL1


@pytest.mark.parametrize("params, message", [
    ({"scale": 1, "tolerances": [0.5, 1.0]}, "do not fit the unit 'fraction'"),
    ({"tolerances": [20, 30]}, "do not fit the unit 'points'"),
    ({"tolerances": [1.0, 0.5]}, "the first at most the second"),
    ({"unit": "percent"}, "unit must be one of"),
])
def test_a_tolerance_that_does_not_fit_its_unit_is_refused_in_one_line(params, message):
    with pytest.raises(ConfigError, match=message) as e:
        make_metric("accuracy", "accuracy", params, "paper 'p', metrics")
    assert "\n" not in str(e.value) and "paper 'p', metrics" in str(e.value)


def test_every_paper_states_tolerances_that_fit_its_units():
    from nbrepro.analysis.tables import label_metric
    from nbrepro.paper import read_paper

    for cfg in sorted(Path("config/papers").glob("*.yaml")):
        paper = read_paper(cfg)
        for spec in paper.tables.values():
            for label in dict.fromkeys(c.metric for c in spec.columns) if spec.kind == "cells" else ():
                m = label_metric(paper, spec, label)
                span = {"points": 100, "fraction": 1}.get(m.unit)
                if span:
                    assert max(m.tolerances) <= 0.1 * span, (cfg.name, label, m.tolerances, m.unit)


def test_a_column_the_paper_did_not_print_counts_nothing():
    """Orhan et al. print 63 cells (18 + 18 + 27); the columns beside them are ours alone."""
    from nbrepro.analysis.tables import build_table, read_published
    from nbrepro.paper import read_paper

    paper = read_paper("config/papers/lslwnb.yaml")
    printed = 0
    for spec in paper.tables.values():
        table = build_table(paper, spec, pd.DataFrame(columns=["dataset", "method", "variant"]),
                            read_published(spec.published))
        beside = table[table.beside_method != ""] if "beside_method" in table else table.iloc[:0]
        assert beside["published_mean"].isna().all() and beside["beside_mean"].notna().all()
        printed += int(table["published_mean"].notna().sum())
    assert printed == 63


def test_a_pairwise_record_over_other_data_sets_is_not_comparable():
    t = pd.DataFrame({"measure": ["E", "E"], "row_method": ["A", "B"], "col_method": ["B", "A"],
                      "wins": [3, 0], "ties": [0, 0], "losses": [0, 3], "datasets": [3, 3],
                      "published_wins": [32, 20], "published_ties": [0, 0], "published_losses": [20, 32]})
    same = counts.pairwise_counts(t, "t2", 3).iloc[0]
    assert (same.printed, same.further_off, same.not_comparable) == (2, 2, 0)
    cut = counts.pairwise_counts(t, "t2", 3, comparable=False).iloc[0]
    assert (cut.printed, cut.compared, cut.further_off, cut.not_comparable) == (0, 0, 0, 2)
    assert math.isnan(cut.max_abs_diff)


def test_the_pages_read_their_counts_from_the_one_derivation(tmp_path):
    from nbrepro.report.html import counts_sentence, index_report

    t = _cells([("a", "M", "acc", 80.0, np.nan, 80.0, np.nan, 2, np.nan),
                ("b", "M", "acc", 90.0, np.nan, 80.0, np.nan, 2, np.nan),
                ("c", "M", "acc", 90.0, np.nan, np.nan, np.nan, np.nan, np.nan)])
    c = counts.match_counts(t, "t2", {"acc": (0.5, 1.0)}, {"acc": "points"})
    sentence = counts_sentence(counts.totals(c))
    assert "Of <b>2</b> cells the paper printed, <b>1</b> reproduce exactly" in sentence
    assert "0 more lie within the metric's first tolerance, 0 more within its second, 1 further off." in sentence
    assert "1 of our cells have no printed value" in sentence
    index_report([{"name": "p", "title": "P", "counts": c}], tmp_path / "index.html")
    text = (tmp_path / "index.html").read_text()
    assert "<td>2</td><td>1</td><td>0</td><td>0</td><td>1</td><td>—</td>" in text and "M 1/2" in text


@pytest.mark.skipif(not os.environ.get("NBREPRO_RESULTS"), reason="NBREPRO_RESULTS=results names a run to recount")
def test_a_whole_run_recounts_to_its_files():
    assert recount_run(Path(os.environ["NBREPRO_RESULTS"])) > 0


def test_the_recount_reads_a_paper_as_the_analysis_writes_it(tmp_path):
    """The recount above, on the files of a table the analysis wrote (fold results made up)."""
    from nbrepro.analysis.tables import analyse_table, write_outputs

    published = tmp_path / "pub.csv"
    pd.DataFrame({"dataset": ["a", "b", "c"], "method": ["M"] * 3, "metric": ["accuracy"] * 3,
                  "mean": ["80.00", "90.00", "70.0"], "std": ["1.00", "", ""],
                  "significance": ["", "", ""]}).to_csv(published, index=False)
    paper = Paper.from_config({"paper": "p", "datasets": ["a", "b", "c", "d"],
                               "classifiers": {"M": {"estimator": "NaiveBayes"}},
                               "tables": {"t2": {"metric": "accuracy", "methods": ["M"], "published": str(published)}}})
    results = tmp_path / "results" / "p"
    for ds, acc in (("a", [79.0, 81.0]), ("b", [90.6, 90.6]), ("d", [50.0, 50.0])):
        f = results / "folds" / ds / "M.parquet"
        f.parent.mkdir(parents=True, exist_ok=True)
        pd.DataFrame({"run": [1, 1], "fold": [1, 2], "n_train": [9, 9], "n_test": [1, 1],
                      "accuracy": acc}).to_parquet(f)
    write_outputs(analyse_table(paper, "t2", results), results)
    written = pd.read_csv(results / "stats/t2_match_counts.csv").iloc[0]
    assert (written.printed, written.exact, written.within_tolerance_2, written.not_computed,
            written.computed_not_printed) == (3, 0, 1, 1, 1)
    assert recount_run(tmp_path / "results") == 3


def test_no_printed_record_against_a_reference_the_paper_did_not_print():
    """A user's classifier as the paper's reference: the printed markers are against the paper's own,
    so no printed w/t/l is shown (it read "published 0/5/0", issue 81)."""
    from nbrepro.analysis.tables import summary

    rows = []
    for ds in "abcde":
        rows.append((ds, "A", "acc", 80.0, np.nan, 81.0, np.nan, "", "", 2, np.nan))
        rows.append((ds, "Mine", "acc", 79.0, np.nan, np.nan, np.nan, "", "", np.nan, np.nan))
    from nbrepro.analysis.tables import TABLE_COLUMNS

    t = pd.DataFrame(rows, columns=TABLE_COLUMNS)
    mine = summary(t, None, reference="Mine").set_index("method")
    assert mine.loc["A", "wtl"] == "0/5/0" and mine.loc["A", "published_wtl"] == ""
    theirs = summary(t, None, reference="A").set_index("method")
    assert theirs.loc["Mine", "published_wtl"] == ""   # Mine has no printed cells: nothing to count
