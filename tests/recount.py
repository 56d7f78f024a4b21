# SPDX-License-Identifier: GPL-3.0-or-later
"""The recount of a run: every *_match_counts.csv from its table's cells, written apart from
nbrepro.analysis.counts (the rules as the pages state them, row by row), for the tests that run the
workflow and for ``tests/analysis/test_counts.py`` on any results folder."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from nbrepro.analysis import counts
from nbrepro.report.html import counts_sentence


def _recount_cells(table: pd.DataFrame, tolerances: dict) -> dict:
    """Per (method, metric): the classes counted row by row, as a reader would with the rules on the page."""
    out = {}
    for r in table.to_dict("records"):
        key = (r["method"], r["metric"])
        n = out.setdefault(key, dict.fromkeys(("cells", "printed", "exact", "within_tolerance_1",
                                               "within_tolerance_2", "further_off", "not_computed"), 0))
        n["cells"] += 1
        if pd.isna(r["published_mean"]):
            continue
        n["printed"] += 1
        if pd.isna(r["mean"]):
            n["not_computed"] += 1
            continue
        md = 2 if pd.isna(r["mean_decimals"]) else int(r["mean_decimals"])
        sd = 2 if pd.isna(r["std_decimals"]) else int(r["std_decimals"])
        mean_same = f"{r['mean']:.{md}f}" == f"{r['published_mean']:.{md}f}" or \
            round(r["mean"], md) == round(r["published_mean"], md)
        std_same = pd.isna(r["published_std"]) or (
            pd.notna(r["std"]) and round(r["std"], sd) == round(r["published_std"], sd))
        gap = abs(r["mean"] - r["published_mean"])
        first, second = tolerances[r["metric"]]
        kind = ("exact" if mean_same and std_same else "within_tolerance_1" if gap <= first
                else "within_tolerance_2" if gap <= second else "further_off")
        n[kind] += 1
    return out


def recount_run(results: Path) -> int:
    """Recount every cells table's match counts of a results folder and compare them with the files;
    the pages' totals with the recount. Returns the number of printed cells recounted."""
    seen = 0
    for counts_file in sorted(results.glob("*/stats/*_match_counts.csv")):
        written = pd.read_csv(counts_file)
        if (written["method"] == "all pairs").all():   # a w/t/l matrix: its records are recounted below
            table = pd.read_csv(counts_file.parent.parent / "tables" / counts_file.name.replace("_match_counts", ""))
            for (_, w), (measure, g) in zip(written.iterrows(), table.groupby("measure", sort=False), strict=True):
                assert w.metric == measure
                if "published_over" in table:
                    assert w.printed == 0 and w.not_comparable == g["published_wins"].notna().sum()
                    continue
                gap = np.maximum((g.wins - g.published_wins).abs(), (g.losses - g.published_losses).abs())
                printed = g["published_wins"].notna()
                assert w.printed == printed.sum() and w.exact == (gap[printed] == 0).sum(), counts_file
                seen += int(w.printed)
            continue
        table = pd.read_csv(counts_file.parent.parent / "tables" / counts_file.name.replace("_match_counts", ""))
        tolerances = {r.metric: (r.tolerance_1, r.tolerance_2) for r in written.itertuples()}
        mine = _recount_cells(table, tolerances)
        for r in written.to_dict("records"):
            n = mine[(r["method"], r["metric"])]
            for k, v in n.items():
                assert r[k] == v, (str(counts_file), r["method"], r["metric"], k, r[k], v)
            assert r["compared"] == n["printed"] - n["not_computed"]
            seen += n["printed"]
    # each report's headline and the index's row are the totals of the paper's files
    index = (results / "index.html").read_text() if (results / "index.html").is_file() else None
    for paper in sorted({p.parent.parent for p in results.glob("*/stats/*_match_counts.csv")}):
        t = counts.totals(pd.concat([pd.read_csv(f) for f in sorted((paper / "stats").glob("*_match_counts.csv"))]))
        if (paper / "report.html").is_file():
            assert counts_sentence(t) in (paper / "report.html").read_text(), paper
        if index is not None and t.printed:
            row = "".join(f"<td>{n}</td>" for n in (t.printed, t.exact, t.within_tolerance_1, t.within_tolerance_2))
            assert f"{paper.name}/report.html" in index and row in index, paper
    return seen


