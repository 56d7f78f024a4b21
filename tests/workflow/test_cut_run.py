# SPDX-License-Identifier: GPL-3.0-or-later
"""End to end: a tiny paper with a scikit-learn classifier beside nbrepro's NaiveBayes, cut to two
of its three data sets by ``--config datasets=[…]`` (nbrepro.variants.cut), and the one-line refusals."""
import pandas as pd
import pytest
from test_pipeline import TINY, _project, _snakemake

pytestmark = [pytest.mark.slow]

PAPER = {**TINY,
         "classifiers": {"NB": {"estimator": "NaiveBayes"},
                         "GNB": {"estimator": "sklearn.naive_bayes.GaussianNB", "params": {"var_smoothing": 1e-9}}},
         "tables": {"table2": {"metric": "accuracy", "methods": ["NB", "GNB"],
                               "published": "config/published/lcwnb_table2.csv"}},
         "analysis": {"table": "table2"},
         "claims": [{"id": "nb_zoo", "section": "1", "sentence": "NB is above 90 % on zoo", "kind": "in_range",
                     "value": {"column": "NB"}, "datasets": ["zoo"], "above": 90}]}


def test_a_cut_paper_with_a_scikit_learn_classifier(tmp_path):
    proj = _project(tmp_path, PAPER)
    _snakemake(proj, "datasets=[labor,iris]")
    assert not (proj / "results/tiny").exists()   # the cut runs in place of the paper, under its own name
    table = pd.read_csv(proj / "results/tiny_cut/tables/table2.csv")
    assert sorted(set(table.dataset)) == ["iris", "labor"] and set(table.method) == {"NB", "GNB"}
    assert table["mean"].notna().all() and (table["mean"] > 50).all()   # GaussianNB on the one-hot columns
    # the printed verdict on zoo is judged on the full printed table; ours needs zoo in the run
    claims = pd.read_csv(proj / "results/tiny_cut/stats/claims.csv").set_index("source")
    assert claims.loc["printed", "verdict"] == "yes"
    assert claims.loc["ours", "verdict"] != "yes" and "zoo" in claims.loc["ours", "evidence"]
    report = (proj / "results/tiny_cut/report.html").read_text()
    assert "A cut of the paper" in report and "printed verdicts are judged on the paper's full printed tables" in report
    assert "sklearn.naive_bayes.GaussianNB(var_smoothing=1e-09)" in report


def test_a_cut_is_refused_in_one_line_before_any_job(tmp_path):
    proj = _project(tmp_path, PAPER)
    for config, message in ((["datasets=[nope]"], "['nope'] are data sets of none of the papers"),
                            (["datasets=[labor]", "out_of_sample=true"], "datasets= and out_of_sample= together")):
        res = _snakemake(proj, *config, "-n", check=False)
        assert res.returncode != 0 and "rule fetch" not in res.stdout
        assert message in res.stdout + res.stderr
