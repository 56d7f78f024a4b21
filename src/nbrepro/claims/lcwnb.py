# SPDX-License-Identifier: GPL-3.0-or-later
"""Li & Li's paper-specific analysis: LCWNB* (the switching rule), the rank patterns of the three κ
with the dataset properties, and the claims of Section 4.

Everything generic (Friedman, Iman–Davenport, Quade, Wilcoxon, the [s.w./m.w./m.b./s.b.] row,
the mean-rank test, the permutation bounds, the figures) is declared in config/papers/lcwnb.yaml
and computed by nbrepro.analysis.paper_stats; this module adds only what no other paper has.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
from scipy import stats

from ..analysis import Claim, verdict
from ..stats import rank_rows

KAPPAS = ("LCWNB5", "LCWNB10", "LCWNB20")
DERIVED_COLUMNS = ("LCWNB*",)   # derived_columns' names: the config's statistics may name it


def switching_kappa(m: int, low: int = 15, high: int = 16) -> str:
    """The paper's LCWNB* rule: κ = 20 when m < 15, 10 when m is 15 or 16, 5 when m > 16."""
    return "LCWNB20" if m < low else "LCWNB10" if m <= high else "LCWNB5"


def kappa_ranks(acc: pd.DataFrame) -> pd.DataFrame:
    """Rank (1 = best, ties averaged) of each κ among the three, per data set."""
    return pd.DataFrame(rank_rows(acc[list(KAPPAS)].to_numpy(), higher_is_better=True),
                        index=acc.index, columns=list(KAPPAS))


def derived_columns(acc: pd.DataFrame, table1: pd.DataFrame) -> dict:
    """LCWNB*: per data set the κ the switching rule picks from Table 1's m."""
    if not all(k in acc and acc[k].notna().all() for k in KAPPAS):
        return {}
    m = table1.set_index("dataset")["m"]
    return {"LCWNB*": [acc.loc[ds, switching_kappa(int(m[ds]))] for ds in acc.index]}


def best_switching_rules(acc: pd.DataFrame, m: pd.Series) -> pd.DataFrame:
    """Thresholds (a, b): κ = 20 for m < a, 10 for a ≤ m ≤ b, 5 for m > b, ranked by the mean
    rank (among the three κ) of the chosen κ; the paper's rule is (15, 16)."""
    ranks = kappa_ranks(acc)
    ms = m.reindex(acc.index).to_numpy()
    values = list(range(int(min(ms)), int(max(ms)) + 2))
    rows = []
    for a in values:
        for b in values:
            if b < a - 1:
                continue
            chosen = np.where(ms < a, 0, np.where(ms <= b, 1, 2))
            picked = ranks.to_numpy()[np.arange(len(ms)), [[2, 1, 0][c] for c in chosen]]
            rows.append({"low": a, "high": b, "mean_rank": picked.mean()})
    return pd.DataFrame(rows).sort_values(["mean_rank", "low", "high"]).reset_index(drop=True)


def kappa_rank_statistics(ctx) -> list[tuple]:
    """The rank counts of Section 4 (LCWNB10 in the middle, LCWNB5 first, their pattern with m) and the
    best switching rules, on the values at the printed decimals."""
    acc = ctx.wide
    if "LCWNB*" not in acc:
        return []
    m = ctx.table1.set_index("dataset")["m"]
    rows = []

    def add(statistic, value, note=""):
        rows.append((statistic, value, note))

    ranks = kappa_ranks(acc)  # ties averaged: a tie for first gives 1.5, so it is not a rank 1
    middle = int((ranks["LCWNB10"] == 2).sum())
    add("lcwnb10_middle_count", middle, "LCWNB10 ranked exactly 2 among the three κ (ties averaged)")
    add("binom_p_lcwnb10_middle", float(stats.binom.sf(middle - 1, len(acc), 1 / 3)), "Pr(Binomial(36,1/3) ≥ count)")
    first = int((ranks["LCWNB5"] == 1).sum())
    add("lcwnb5_rank1_count", first, "LCWNB5 ranked exactly 1 among the three κ")
    add("binom_p_lcwnb5_rank1", float(stats.binom.sf(first - 1, len(acc), 1 / 3)))
    by_m = m.reindex(acc.index).sort_values(kind="stable")
    top7, bottom10 = by_m.index[-7:], by_m.index[:10]
    top_first = int((ranks.loc[top7, "LCWNB5"] == 1).sum())
    bottom_third = int((ranks.loc[bottom10, "LCWNB5"] == 3).sum())
    add("lcwnb5_rank1_largest_m", top_first, "of the 7 data sets with the largest m (Table 1's m)")
    add("lcwnb5_rank3_smallest_m", bottom_third, "of the 10 data sets with the smallest m")
    add("p_m_pattern", (1 / 3) ** top_first * float(stats.binom.sf(bottom_third - 1, 10, 1 / 3)),
        "(1/3)^count × Pr(Binomial(10,1/3) ≥ count), as the paper forms it")
    rules = best_switching_rules(acc, m)
    best = rules.iloc[0]
    add(
        "switch_best_rule",
        f"20 if m<{int(best.low)}; 10 if {int(best.low)}≤m≤{int(best.high)}; 5 if m>{int(best.high)}",
        f"mean rank among the three κ {best.mean_rank:.4f}; "
        f"{int((rules.mean_rank == best.mean_rank).sum())} rule(s) tie",
    )
    paper_rule = rules[(rules.low == 15) & (rules.high == 16)]
    if len(paper_rule):
        add(
            "switch_paper_rule_mean_rank", float(paper_rule.mean_rank.iloc[0]), "the paper's rule (15, 16) on our ranks"
        )
    return rows


READINGS = {"corrected_resampled_t": "Weka's corrected resampled t-test", "paired_t": "the plain paired t-test"}


def ttest_readings(ctx) -> list[tuple]:
    """Two readings of the paper's "paired-T-test … for each data set" (Table 2's dots, 5%): Weka's
    corrected resampled t-test (configured) and its plain paired t-test, each against LCWNB5 over
    the 10 × 10 folds; per reading, how many of the cells whose printed markers survived the scan
    it reproduces. Leaves the per-method frame in ctx.frames["ttest_readings"]."""
    from ..analysis.tables import load_fold_results, significance_marks

    table = ctx.tables.get("table2")
    if ctx.results is None or table is None:  # the printed tables: no folds to test
        ctx.frames["ttest_readings"] = pd.DataFrame(
            columns=["reading", "method", "cells", "agree", "printed_markers", "our_markers"]
        )
        return [(f"markers_agree_{r}", np.nan, "needs the per-fold results") for r in READINGS]
    kept = ctx.paper.tables["table2"].markers_printed
    cells = table[table.method.isin(kept)] if kept else table
    folds = load_fold_results(ctx.paper, ctx.results)
    base = folds[folds.variant == ""]
    alpha = ctx.paper.significance.alpha
    frame, rows = [], []
    for reading, words in READINGS.items():
        marks = significance_marks(base, "accuracy", ctx.paper.reference, alpha, True, reading)
        ours = pd.Series(
            [marks.get((r.dataset, r.method), "") for r in cells.itertuples(index=False)], index=cells.index
        )
        printed = cells.published_significance.fillna("").astype(str)
        for method, g in cells.groupby("method", sort=False):
            frame.append(
                {
                    "reading": reading,
                    "method": method,
                    "cells": len(g),
                    "agree": int((ours[g.index] == printed[g.index]).sum()),
                    "printed_markers": int((printed[g.index] != "").sum()),
                    "our_markers": int((ours[g.index] != "").sum()),
                }
            )
        rows.append(
            (
                f"markers_agree_{reading}",
                int((ours == printed).sum()),
                f"{words}: of the {len(cells)} cells whose printed markers survived ({int((printed != '').sum())} "
                f"printed markers, {int((ours != '').sum())} here)",
            )
        )
    ctx.frames["ttest_readings"] = pd.DataFrame(frame)
    return rows


def claims(ctx) -> list[Claim]:
    """The paper's claims in Section 4, each checked against our numbers."""
    stat = pd.Series(ctx.statistics, dtype=object)
    b = ctx.frames["figure2"].set_index("method")
    rows = []

    def claim(claim_id, text_, supported, evidence):
        rows.append(Claim(claim_id, "4", text_, ctx.source, verdict(supported), evidence))

    complete = len(b) == 10
    outside = [
        m
        for m in b.index
        if b.loc[m, "average"] < b.loc[m, "average_lower"] or b.loc[m, "mean_rank"] > b.loc[m, "mean_rank_upper"]
    ]
    claim(
        "nb_tan_outside_bounds",
        "NB and TAN are likely to be inferior (bars outside the 95% simultaneous bounds)",
        set(outside) == {"NB", "TAN"} if complete else None,
        "outside the bounds: " + (", ".join(outside) or "none") + f" (over the {len(b)} methods computed)",
    )
    p_mid = float(stat.get("binom_p_lcwnb10_middle", np.nan))
    claim(
        "lcwnb10_middle",
        "LCWNB10 is usually ranked second among the three κ (binomial p < 0.05)",
        p_mid < 0.05 if not np.isnan(p_mid) else None,
        f"{stat.get('lcwnb10_middle_count')} of 36, p = {p_mid:.3g}",
    )
    p_first = float(stat.get("binom_p_lcwnb5_rank1", np.nan))
    claim(
        "lcwnb5_rank1_18",
        "LCWNB5 is ranked 1 among the three κ in 18 of the 36 data sets, p = Pr(Binomial(36,1/3) ≥ 18) "
        "= 0.0283: the three behave differently",
        None if np.isnan(p_first) else int(float(stat.get("lcwnb5_rank1_count"))) == 18 and p_first < 0.05,
        f"{stat.get('lcwnb5_rank1_count')} of 36, p = {p_first:.4f}",
    )
    top7, bottom = stat.get("lcwnb5_rank1_largest_m"), stat.get("lcwnb5_rank3_smallest_m")
    claim(
        "lcwnb5_rank1_largest_m",
        "LCWNB5 is ranked 1 in the seven data sets with the largest m "
        "and ranked 3 in seven of the ten with the smallest m",
        None if top7 is None else int(float(top7)) == 7 and int(float(bottom)) >= 7,
        f"ranked 1 in {top7} of the 7 with the largest m; ranked 3 in {bottom} of the 10 with the smallest m",
    )
    reversed_ = _lcwnb20_pattern(ctx)
    claim(
        "lcwnb20_reversed",
        "a similar but reversed pattern is found for LCWNB20 (ranked 3 where m is largest, 1 where "
        "it is smallest; 'similar': as improbable by chance, p < 0.05 formed as for LCWNB5)",
        None if reversed_ is None else reversed_[2] < 0.05,
        ""
        if reversed_ is None
        else f"LCWNB20 ranked 3 in {reversed_[0]} of the 7 with the largest m, ranked 1 in "
        f"{reversed_[1]} of the 10 with the smallest m; p = {reversed_[2]:.3g}",
    )
    rule = stat.get("switch_best_rule")
    claim(
        "optimal_switching_rule",
        "the switching rule that minimises the mean rank is LCWNB20 when m < 15, LCWNB10 when "
        "m = 15 or 16, LCWNB5 when m > 16",
        None if rule is None else rule == "20 if m<15; 10 if 15≤m≤16; 5 if m>16",
        f"best rule: {rule} ({stat.get('switch_best_rule_note', '')})".replace(" ()", ""),
    )
    wl = {k[len("win_loss_") :]: v for k, v in ctx.statistics.items() if k.startswith("win_loss_")}
    dotted = sorted(m for m, v in wl.items() if str(v).endswith("•"))
    claim(
        "sign_test_nb_tan_hnb",
        "NB, TAN and HNB are worse than LCWNB5 by the sign test on [s.w./m.w./m.b./s.b.]",
        dotted == ["HNB", "NB", "TAN"],
        "dotted here: " + (", ".join(dotted) or "none"),
    )
    inferior = _nb_tan_inferior(ctx.wide)
    claim(
        "nb_tan_inferior",
        "in nonparametric tests of LCWNB5 and the seven existing methods NB and TAN are again "
        "significantly inferior to the other methods (the paper's mean-rank test, one-sided at 5%)",
        None if inferior is None else inferior[0],
        "" if inferior is None else inferior[1],
    )
    p5 = float(stat.get("mean_rank_test_p_lcwnb5", np.nan))
    claim(
        "lcwnb5_mean_rank_test",
        "LCWNB5's mean rank among LCWNB5, AODE, WAODE, HNB, LWNB, ICLNB is significantly small at 6%",
        None if np.isnan(p5) else p5 < 0.06,
        "needs ICLNB" if np.isnan(p5) else f"p = {p5:.5f}",
    )
    p_star = float(stat.get("mean_rank_test_p_lcwnbstar", np.nan))
    claim(
        "lcwnbstar_2pct",
        "the same test with LCWNB* (κ by the switching rule) against AODE, WAODE, HNB, LWNB and "
        "ICLNB: p = 0.01559, LCWNB* significantly better at 2%",
        None if np.isnan(p_star) else p_star < 0.02,
        "needs LCWNB* and ICLNB" if np.isnan(p_star) else f"p = {p_star:.5f}",
    )
    agree = {r: stat.get(f"markers_agree_{r}") for r in READINGS}
    if ctx.source == "printed":
        rows.append(
            Claim(
                "ttest_reading",
                "4",
                TTEST_SENTENCE,
                "printed",
                "not checkable",
                "the markers are the printed data; which test made them needs the folds",
            )
        )
    else:
        known = all(v is not None and not pd.isna(v) for v in agree.values())
        claim(
            "ttest_reading",
            TTEST_SENTENCE,
            agree["corrected_resampled_t"] > agree["paired_t"] if known else None,
            "; ".join(f"{READINGS[r]}: {agree[r]} cells agree" for r in READINGS) + " (stats/ttest_readings.csv)",
        )
    return _qualified(rows, ctx.wide)  # the printed Table 2 has every value too


TTEST_SENTENCE = (
    "Table 2's dots: 'a paired-T-test is conducted for each data set and each of the nine methods' at 5%, "
    "read as Weka's corrected resampled t-test (configured): it reproduces more of the printed markers "
    "than the plain paired t-test"
)


MEAN_RANK_CLAIMS = {"lcwnb5_mean_rank_test": ("LCWNB5", 0.06), "lcwnbstar_2pct": ("LCWNB*", 0.02)}
RIVALS = ["AODE", "WAODE", "HNB", "LWNB", "ICLNB"]
ROPE = 1.0  # accuracy points: differences within ±1 % are practically equivalent


def _qualified(rows: list[Claim], acc: pd.DataFrame) -> list[Claim]:
    """The two mean-rank claims (on either source) under today's tests (the method better than each rival:
    Wilcoxon–Holm over the five pairs, Bayesian signed-rank), their bootstrap stability over the
    36 data sets (the mean-rank test redone on each resample) and their verdict with each rival
    left out of the ranking."""
    from .. import stats as st
    from ..analysis.qualify import today, with_stability

    out = []
    for c in rows:
        method, level = MEAN_RANK_CLAIMS.get(c.claim_id, (None, None))
        cols = [method, *RIVALS]
        if method is None or c.verdict not in ("yes", "no") or not all(m in acc and acc[m].notna().all() for m in cols):
            out.append(c)
            continue
        pairs = [(method, m) for m in RIVALS]
        c = replace(c, **today(acc[cols], pairs, pairs, higher_is_better=True, rope=ROPE, unit="accuracy points"))
        flips = [
            m
            for m in RIVALS
            if (st.mean_rank_test(acc[cols], method, [r for r in RIVALS if r != m])[2] < level) != (c.verdict == "yes")
        ]
        c = replace(
            c,
            pool="the same with any one rival left out"
            if not flips
            else "flips with " + ", ".join(flips) + " left out of the ranking",
        )
        ranks = rank_rows(acc[cols].to_numpy(), higher_is_better=True)
        k, n = len(cols), len(acc)
        v = ((ranks - (k + 1) / 2) ** 2).sum(axis=1) / k
        picks = st.resample_rows(n, 1000, seed=1)
        observed = ranks[picks, 0].mean(axis=1)
        p = stats.norm.cdf((observed - (k + 1) / 2) / (np.sqrt(v[picks].sum(axis=1)) / n))
        out.append(with_stability(c, p < level))
    return out


EXISTING = ["NB", "TAN", "AODE", "WAODE", "HNB", "LWNB", "ICLNB"]


def _nb_tan_inferior(acc: pd.DataFrame):
    """NB and TAN each significantly inferior among LCWNB5 and the seven existing methods, by the
    paper's own mean-rank test (the one it applies next to LCWNB5), one-sided at 5%: the text names
    no test, and 'again' points back to the same kind of evidence."""
    from .. import stats as st

    cols = ["LCWNB5", *EXISTING]
    if not all(c in acc and acc[c].notna().all() for c in cols):
        return None
    ps = {}
    for low in ("NB", "TAN"):  # ranks of the lowest accuracy first: a small p means a large mean rank
        observed, _, p = st.mean_rank_test(acc[cols], low, [c for c in cols if c != low], higher_is_better=False)
        ps[low] = (len(cols) + 1 - observed, p)
    return (
        all(p < 0.05 for _, p in ps.values()),
        "; ".join(f"{m}: mean rank {r:.3f} of 8, p = {p:.3g}" for m, (r, p) in ps.items()),
    )


def _lcwnb20_pattern(ctx):
    """LCWNB20's reversed pattern: (ranked 3 among the κ in the 7 data sets with the largest m,
    ranked 1 in the 10 with the smallest, the probability of a pattern as or more extreme, formed
    as the paper forms LCWNB5's: Pr(Binomial(7,1/3) ≥ a) × Pr(Binomial(10,1/3) ≥ b))."""
    acc = ctx.wide
    if ctx.table1 is None or not all(k in acc and acc[k].notna().all() for k in KAPPAS):
        return None
    ranks = kappa_ranks(acc)
    by_m = ctx.table1.set_index("dataset")["m"].reindex(acc.index).sort_values(kind="stable")
    a = int((ranks.loc[by_m.index[-7:], "LCWNB20"] == 3).sum())
    b = int((ranks.loc[by_m.index[:10], "LCWNB20"] == 1).sum())
    return a, b, float(stats.binom.sf(a - 1, 7, 1 / 3) * stats.binom.sf(b - 1, 10, 1 / 3))
