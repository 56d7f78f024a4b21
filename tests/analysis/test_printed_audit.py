# SPDX-License-Identifier: GPL-3.0-or-later
"""The paper's own numbers audited (nbrepro.analysis.audit): the findings the printed tables give,
from the printed tables alone (no run: ours are left empty)."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from nbrepro import paths
from nbrepro.analysis.audit import audit_counts, printed_audit
from nbrepro.analysis.claim_records import claims_module
from nbrepro.analysis.paper_stats import _printed_context, printed_table1
from nbrepro.analysis.tables import analyse_table
from nbrepro.paper import read_paper


def _audit(name: str, tmp_path: Path) -> pd.DataFrame:
    paper = read_paper(f"config/papers/{name}.yaml")
    tables = {}
    for t in paper.tables:
        table = analyse_table(paper, t, tmp_path / name)[paths.table(t)]
        tables[t] = table.fillna({c: "" for c in ("significance", "published_significance") if c in table})
    module = claims_module(paper.analysis.claims_module) if paper.analysis.claims_module else None
    ctx = _printed_context(paper, tables, printed_table1(paper, None), module, figures=False)
    return printed_audit(paper, tables, ctx, None).set_index(["check", "method"])


def test_li_and_li_p_values_recompute_from_their_table_2(tmp_path):
    a = _audit("lcwnb", tmp_path)
    for sid, printed in (("friedman_p_kappa", 0.2366), ("iman_davenport_p_kappa", 0.2393), ("quade_p_kappa", 0.1449),
                         ("mean_rank_test_p_lcwnb5", 0.05855), ("mean_rank_test_p_lcwnbstar", 0.01559)):
        row = a.loc[("statistic", sid)]
        assert row.printed == printed and row.consistent == "yes", sid
    # every printed average and mean rank of Table 2 is the printed cells'
    assert (a.loc["average"].consistent == "yes").all() and len(a.loc["average"]) == 10
    assert (a.loc["mean rank"].consistent == "yes").all()
    # ICLNB's printed [s.w./m.w./m.b./s.b.] 1/14/15/6 is one data set off its printed markers and means
    iclnb = a.loc[("record", "ICLNB")]
    assert (iclnb.printed, iclnb.recomputed, iclnb.consistent) == ("1/14/15/6", "1/15/14/6", "no")
    assert a.loc[("record", "TAN")].consistent == ""   # its markers were lost in the scan: not checkable


def test_mao_et_al_friedman_p_values_follow_the_uncorrected_chi_square(tmp_path):
    a = _audit("lpmbc", tmp_path)
    for sid in ("friedman_p_mse", "friedman_p_acc"):
        row = a.loc[("statistic", sid)]
        assert row.consistent == "yes" and "the printed value follows uncorrected χ²" in row.note, row.note
    assert a.loc[("mean rank", "LPM-BC")].shape[0] == 2 and (a.loc["mean rank"].consistent == "yes").all()


def test_liu_et_al_records_count_the_52_data_sets_and_give_the_mean_ranks(tmp_path):
    a = _audit("kdebw", tmp_path).reset_index()
    sums = a[a.check == "data sets"]
    assert len(sums) == 3 and (sums.consistent == "yes").all() and (sums.recomputed == "45 sum to 52").all()
    ranks = a[(a.check == "mean rank") & (a.metric == "ERROR")].iloc[0]
    assert "SP 4.11" in ranks.recomputed and "DIS 5.98" in ranks.recomputed and "best SP" in ranks.note


@pytest.mark.parametrize("name", ["lcwnb", "lslwnb", "lpmbc", "kdebw", "awnb"])
def test_every_paper_is_audited(name, tmp_path):
    ok, n = audit_counts(_audit(name, tmp_path).reset_index())
    assert n > 0 and ok <= n
