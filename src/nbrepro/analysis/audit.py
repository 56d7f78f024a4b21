# SPDX-License-Identifier: GPL-3.0-or-later
"""The paper's own numbers, audited: its printed tables checked against each other, before any of ours.

Each check recomputes a printed number from other printed numbers of the same paper, with the
paper's own direction, decimals and data sets, and says whether the two agree at the printed
precision (``stats/printed_audit.csv``: check, what was printed, what it recomputes to, consistent
or not, the size of the difference):

  average     a printed average against the mean of the printed cells of its column
  mean rank   a printed mean rank against the ranks of the printed cells (among the printed methods,
              at the printed decimals)
  record      a printed w/t/l (or [s.w./m.w./m.b./s.b.]) row against the printed significance markers
  statistic   a printed statistic or p-value against the same test run on the printed table (the
              config's test; for Friedman's test also with and without the tie correction, to say
              which of the two the paper printed)
  data sets   a pairwise w/t/l record's wins + ties + losses against the number of data sets
  repeated cells  a column printed in two tables (Hall's Tables 2 and 4), cell by cell
  claim       a sentence of the text judged on the printed tables (the claims' printed verdicts):
              consistent when it holds
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..paper import Paper
from ..stats import friedman, mean_ranks
from ..stats.ranks import mean_ranks_from_records
from .tables import label_metric, printed_decimals, published_summary, summary_column_names

COLUMNS = ["check", "table", "metric", "method", "printed", "recomputed", "consistent", "difference", "note"]


def _precision(text) -> float:
    """Half a unit of the last printed digit: '0.2366' → 5e-5, '2.14e-4' → 5e-7, '83.81' → 0.005."""
    t = str(text).strip().lower()
    mantissa, _, exponent = t.partition("e")
    d = printed_decimals(mantissa)
    return 0.5 * 10.0 ** (-(0 if math.isnan(d) else d)) * (10.0 ** int(exponent) if exponent else 1.0)


def _row(check, table, metric, method, printed, recomputed, slack, note="") -> dict:
    diff = abs(float(recomputed) - float(printed)) if pd.notna(recomputed) and pd.notna(printed) else np.nan
    consistent = "" if math.isnan(diff) else "yes" if diff <= slack + 1e-12 else "no"
    return {"check": check, "table": table, "metric": metric, "method": method, "printed": printed,
            "recomputed": recomputed, "consistent": consistent, "difference": diff, "note": note}


def _cells_wide(table: pd.DataFrame, metric: str) -> tuple[pd.DataFrame, float]:
    """The printed cells of one metric as data sets × methods (only fully printed methods), and the
    coarsest rounding of a printed cell (half a unit of its last decimal)."""
    t = table[table.metric == metric]
    wide = t.pivot(index="dataset", columns="method", values="published_mean").dropna(axis=1, how="any")
    dec = t["mean_decimals"].dropna()
    return wide, (0.5 * 10.0 ** -int(dec.min()) if len(dec) else 0.0)


def _summary_checks(paper: Paper, name: str, table: pd.DataFrame) -> list[dict]:
    spec = paper.tables[name]
    summ = published_summary(spec)
    if summ is None:
        return []
    names = summary_column_names(spec.summary_columns)
    raw = published_summary(spec, dtype=str)
    rows = []
    for metric in dict.fromkeys(table.metric):
        wide, cell_slack = _cells_wide(table, metric)
        higher = label_metric(paper, spec, metric).higher_is_better
        ranked = wide.round(paper.analysis.decimals) if paper.analysis.decimals is not None else wide
        ranks = mean_ranks(ranked, higher) if wide.shape[1] else pd.Series(dtype=float)
        mine = summ if "metric" not in summ else summ[summ.metric == metric]
        text = raw if "metric" not in raw else raw[raw.metric == metric]
        for (_, r), (_, t) in zip(mine.iterrows(), text.iterrows(), strict=True):
            m = r["method"]
            if m not in wide:
                continue
            among = f"the ranks of the printed cells among the {wide.shape[1]} printed methods"
            for key, what in (("average", "the mean of its printed cells"), ("mean_rank", among)):
                col = next((c for c in names[key] if c in r.index and pd.notna(r[c])), None)
                if col is None:
                    continue
                recomputed = float(wide[m].mean()) if key == "average" else float(ranks[m])
                slack = _precision(t[col]) + (cell_slack if key == "average" else 0.0)
                rows.append(_row(key.replace("_", " "), name, metric, m, float(r[col]), recomputed, slack,
                                 f"printed {t[col]}; recomputed from {what}"))
    return rows


def _record_checks(paper: Paper, name: str, ctx) -> list[dict]:
    """[s.w./m.w./m.b./s.b.] rows of a printed summary against the win/loss split the printed markers give."""
    spec = paper.tables[name]
    summ = published_summary(spec)
    if summ is None or "s_w" not in summ or ctx is None:
        return []
    rows = []
    for item in paper.analysis.statistics:
        frame = ctx.frames.get(item.get("id", item["test"])) if item["test"] == "win_loss_split" else None
        if frame is None or name != paper.analysis.table:
            continue
        mine = frame.set_index("method")
        for r in summ.itertuples(index=False):
            if r.method not in mine.index or pd.isna(r.s_w):
                continue
            printed = f"{r.s_w:g}/{r.m_w:g}/{r.m_b:g}/{r.s_b:g}"
            if spec.markers_printed is not None and r.method not in spec.markers_printed:
                rows.append({"check": "record", "table": name, "metric": "", "method": r.method, "printed": printed,
                             "recomputed": "", "consistent": "", "difference": np.nan,
                             "note": "not checkable: the column's printed markers are lost (markers_printed)"})
                continue
            m = mine.loc[r.method]
            recomputed = f"{m.s_w:g}/{m.m_w:g}/{m.m_b:g}/{m.s_b:g}"
            diff = max(abs(float(a) - float(b)) for a, b in zip((r.s_w, r.m_w, r.m_b, r.s_b),
                                                                 (m.s_w, m.m_w, m.m_b, m.s_b), strict=True))
            rows.append({"check": "record", "table": name, "metric": "", "method": r.method, "printed": printed,
                         "recomputed": recomputed, "consistent": "yes" if diff == 0 else "no", "difference": diff,
                         "note": f"[s.w./m.w./m.b./s.b.] against {item['reference']}, from the printed markers "
                                 "and means"})
    return rows


def _statistic_checks(paper: Paper, ctx) -> list[dict]:
    """Every declared statistic the paper prints a value of, run on the printed table."""
    spec = paper.analysis
    if ctx is None or not spec.published:
        return []
    published = pd.read_csv(spec.published, dtype=str).set_index("statistic")["value"]
    rows = []
    for item in spec.statistics:
        sid = item.get("id", item["test"])
        if sid not in published.index or sid not in ctx.statistics:
            continue
        try:
            printed = float(published[sid])
        except ValueError:
            continue
        recomputed = ctx.statistics[sid]
        if not isinstance(recomputed, int | float | np.floating) or pd.isna(recomputed):
            continue
        note = f"printed {published[sid]}; {item['test']} on the printed table"
        if item["test"] == "friedman":   # which χ² the paper printed: with or without the tie correction
            c = ctx.for_metric(item["metric"]) if item.get("metric") else ctx
            x = c.wide[item["methods"]].to_numpy()
            both = {tc: friedman(x, higher_is_better=c.higher_is_better, tie_correction=tc).pvalue
                    for tc in (True, False)}
            follows = [f"{'tie-corrected' if tc else 'uncorrected'} χ²" for tc, p in both.items()
                       if abs(p - printed) <= _precision(published[sid])]
            note += (f"; tie-corrected {both[True]:.4g}, uncorrected {both[False]:.4g}: the printed value follows "
                     + (" and ".join(follows) if follows else "neither"))
        rows.append(_row("statistic", spec.table or "", item.get("metric", spec.metric or ""), sid, printed,
                         float(recomputed), _precision(published[sid]), note))
    return rows


def _pairwise_checks(paper: Paper, name: str, table: pd.DataFrame) -> list[dict]:
    """A printed w/t/l matrix: every record sums to the data sets, and the mean ranks it implies."""
    spec = paper.tables[name]
    rows = []
    n = len(paper.datasets)
    for measure, g in table.groupby("measure", sort=False):
        printed = g.dropna(subset=["published_wins"])
        # each unordered pair once (the file holds the printed lower triangle and its reverse)
        seen, pairs = set(), []
        for r in printed.itertuples(index=False):
            key = frozenset((r.row_method, r.col_method))
            if key not in seen:
                seen.add(key)
                pairs.append(r)
        totals = [int(r.published_wins + r.published_ties + r.published_losses) for r in pairs]
        off = [f"{r.row_method}–{r.col_method} {t}" for r, t in zip(pairs, totals, strict=True) if t != n]
        rows.append({"check": "data sets", "table": name, "metric": measure, "method": "all pairs",
                     "printed": f"{len(pairs)} records", "recomputed": f"{len(pairs) - len(off)} sum to {n}",
                     "consistent": "yes" if not off else "no", "difference": float(len(off)),
                     "note": "wins + ties + losses of each printed record against the paper's data sets"
                             + (f"; off: {', '.join(off)}" if off else "")})
        if pairs:
            records = pd.DataFrame({"row": [r.row_method for r in pairs], "col": [r.col_method for r in pairs],
                                    "wins": [r.published_wins for r in pairs],
                                    "ties": [r.published_ties for r in pairs],
                                    "losses": [r.published_losses for r in pairs]})
            ranks = mean_ranks_from_records(records, list(spec.methods), n)
            best = ranks.idxmin()
            rows.append({"check": "mean rank", "table": name, "metric": measure, "method": "all",
                         "printed": "", "recomputed": "; ".join(f"{m} {v:.2f}" for m, v in ranks.items()),
                         "consistent": "", "difference": np.nan,
                         "note": f"the mean ranks the printed records imply (1 + losses + ties / 2 over {n} data "
                                 f"sets, a lower {measure} better); best {best}"})
    return rows


def _repeat_checks(paper: Paper, tables: dict[str, pd.DataFrame]) -> list[dict]:
    """A column printed in two tables (the same method and metric on the same data sets): its cells equal."""
    seen: dict = {}
    rows = []
    for name, spec in paper.tables.items():
        if spec.kind == "pairwise" or not spec.published or name not in tables:
            continue
        t = tables[name].dropna(subset=["published_mean"])
        for (method, metric), g in t.groupby(["method", "metric"], sort=False):
            cells = g.set_index("dataset")["published_mean"]
            if (method, metric) in seen:
                first, before = seen[(method, metric)]
                common = cells.index.intersection(before.index)
                differ = [d for d in common if before[d] != cells[d]]
                rows.append({"check": "repeated cells", "table": f"{first} and {name}", "metric": metric,
                             "method": method, "printed": f"{len(common)} cells in both",
                             "recomputed": f"{len(common) - len(differ)} equal",
                             "consistent": "yes" if not differ else "no", "difference": float(len(differ)),
                             "note": "the same column printed in two tables"
                                     + (f"; differ on {', '.join(differ)}" if differ else "")})
            else:
                seen[(method, metric)] = (name, cells)
    return rows


def _claim_checks(claims: pd.DataFrame | None) -> list[dict]:
    """Each claim's verdict on the printed numbers: the text against its own tables."""
    if claims is None or not len(claims):
        return []
    rows = []
    for r in claims[claims.source == "printed"].to_dict("records"):
        verdict = str(r.get("verdict", ""))
        if verdict not in ("yes", "no"):
            continue
        cid = r["claim_id"] + (f" ({r['metric']})" if isinstance(r.get("metric"), str) and r["metric"] else "")
        rows.append({"check": "claim", "table": "", "metric": r.get("metric") or "", "method": cid,
                     "printed": r.get("claim", ""), "recomputed": verdict,
                     "consistent": verdict, "difference": np.nan, "note": str(r.get("evidence", ""))[:300]})
    return rows


def printed_audit(paper: Paper, printed_tables: dict[str, pd.DataFrame], ctx, claims: pd.DataFrame | None
                  ) -> pd.DataFrame:
    """Every check of the module's docstring on one paper: ``printed_tables`` are its tables over all its
    data sets (``analysis.tables``, read for their printed columns only), ``ctx`` the analysis context of
    the printed tables (``analysis.paper_stats``'s, its statistics computed), ``claims`` the claims frame."""
    rows = []
    for name, spec in paper.tables.items():
        if not spec.published or name not in printed_tables:
            continue
        table = printed_tables[name]
        rows += _pairwise_checks(paper, name, table) if spec.kind == "pairwise" else _summary_checks(paper, name, table)
        if spec.kind != "pairwise":
            rows += _record_checks(paper, name, ctx)
    rows += _repeat_checks(paper, printed_tables)
    rows += _statistic_checks(paper, ctx)
    rows += _claim_checks(claims)
    return pd.DataFrame(rows, columns=COLUMNS)


def audit_counts(audit: pd.DataFrame) -> tuple[int, int]:
    """(consistent, checked): the checks with a verdict, and how many of them hold."""
    judged = audit[audit["consistent"].isin(["yes", "no"])] if len(audit) else audit
    return int((judged["consistent"] == "yes").sum()) if len(judged) else 0, len(judged)
