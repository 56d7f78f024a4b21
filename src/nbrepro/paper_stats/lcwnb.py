"""Li & Li's statistics: Table 1, LCWNB*, the win/loss row of Table 2 and every number in Section 4's text.

Each function takes our reproduced results (never the published ones) and returns a small
frame; ``text_statistics`` puts each statistic beside the published value.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ..stats import friedman, iman_davenport, quade, rank_rows

KAPPAS = ("LCWNB5", "LCWNB10", "LCWNB20")


def switching_kappa(m: int, low: int = 15, high: int = 16) -> str:
    """The paper's LCWNB* rule: κ = 20 when m < 15, 10 when m is 15 or 16, 5 when m > 16."""
    return "LCWNB20" if m < low else "LCWNB10" if m <= high else "LCWNB5"


def wide(table: pd.DataFrame, metric: str = "accuracy") -> pd.DataFrame:
    t = table[table.metric == metric]
    return t.pivot(index="dataset", columns="method", values="mean").loc[list(dict.fromkeys(t.dataset))]


def kappa_ranks(acc: pd.DataFrame) -> pd.DataFrame:
    """Rank (1 = best, ties averaged) of each κ among the three, per data set."""
    return pd.DataFrame(rank_rows(acc[list(KAPPAS)].to_numpy(), higher_is_better=True),
                        index=acc.index, columns=list(KAPPAS))


def win_loss(table: pd.DataFrame, reference: str = "LCWNB5", threshold: int = 23) -> pd.DataFrame:
    """Table 2's [s.w./m.w./m.b./s.b.] row: how the reference fares against each method.

    s.w.: the method is significantly better (∘); m.w.: better, not significantly; m.b.:
    worse, not significantly; s.b.: significantly worse (•). An exact tie counts 0.5 in
    m.w. and 0.5 in m.b. ``binomial_worse`` marks m.b. + s.b. ≥ ``threshold``: the paper
    prints "> 23" but its p-value 0.0662 is Pr(Binomial(36, 0.5) ≥ 23) and it dots HNB,
    which has exactly 23 — so ≥ is what it applied.
    """
    t = table[table.metric == "accuracy"]
    ref = t[t.method == reference].set_index("dataset")["mean"]
    rows = []
    for m, g in t[t.method != reference].groupby("method", sort=False):
        g = g.set_index("dataset")
        if g["mean"].isna().any() or ref.reindex(g.index).isna().any():
            continue
        diff = ref.reindex(g.index) - g["mean"]
        sig = g["significance"].fillna("")
        sw = float((sig == "better").sum())
        sb = float((sig == "worse").sum())
        rest = sig == ""
        tie = rest & (diff.round(10) == 0)
        mw = float((rest & (diff < 0) & ~tie).sum()) + 0.5 * tie.sum()
        mb = float((rest & (diff > 0) & ~tie).sum()) + 0.5 * tie.sum()
        p = float(stats.binom.sf(threshold - 1, len(g), 0.5))
        rows.append({"method": m, "s_w": sw, "m_w": mw, "m_b": mb, "s_b": sb,
                     "binomial_worse": "•" if mb + sb >= threshold else "", "p_at_least_threshold": p})
    return pd.DataFrame(rows)


def mean_rank_test(acc: pd.DataFrame, method: str, others: list[str]) -> tuple[float, float, float]:
    """Li & Li's Gaussian test of one method's mean rank among k methods (ties averaged).

    Under equal performance the mean rank is ≈ N((k+1)/2, s²) with
    s = sqrt(Σ_j v_j)/N, v_j = Σ_i (rank(i, j) − (k+1)/2)² / k. Returns (mean rank, s, one-sided p).
    """
    cols = [method] + list(others)
    ranks = rank_rows(acc[cols].to_numpy(), higher_is_better=True)
    k, n = len(cols), len(acc)
    centre = (k + 1) / 2
    v = ((ranks - centre) ** 2).sum(axis=1) / k
    s = np.sqrt(v.sum()) / n
    observed = ranks[:, 0].mean()
    return float(observed), float(s), float(stats.norm.cdf((observed - centre) / s))


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


def text_statistics(table: pd.DataFrame, table1: pd.DataFrame, published: pd.DataFrame | None) -> pd.DataFrame:
    """Every statistic of Section 4 we can compute, with the published value beside it."""
    acc = wide(table).round(2)  # ranks and counts on the printed two decimals, as the paper's own
    m = table1.set_index("dataset")["m"]
    if all(k in acc and acc[k].notna().all() for k in KAPPAS):
        acc["LCWNB*"] = [acc.loc[ds, switching_kappa(int(m[ds]))] for ds in acc.index]
    rows = []

    def add(statistic, value, note=""):
        rows.append({"statistic": statistic, "value": value, "note": note})

    have_kappas = "LCWNB*" in acc
    if have_kappas:
        data = acc[list(KAPPAS)].to_numpy()
        add("friedman_p_kappa", friedman(data).pvalue, "tie-corrected chi-square")
        add("iman_davenport_p_kappa", iman_davenport(data).pvalue)
        add("quade_p_kappa", quade(data).pvalue)
        for other in ("LCWNB10", "LCWNB20"):
            w = stats.wilcoxon(acc["LCWNB5"], acc[other], alternative="greater", zero_method="wilcox")
            add(f"wilcoxon_p_lcwnb5_gt_{other.lower()}", float(w.pvalue), "one-sided; not printed ('the same conclusion')")
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
        add("switch_best_rule", f"20 if m<{int(best.low)}; 10 if {int(best.low)}≤m≤{int(best.high)}; 5 if m>{int(best.high)}",
            f"mean rank among the three κ {best.mean_rank:.4f}; {int((rules.mean_rank == best.mean_rank).sum())} rule(s) tie")
        paper_rule = rules[(rules.low == 15) & (rules.high == 16)]
        if len(paper_rule):
            add("switch_paper_rule_mean_rank", float(paper_rule.mean_rank.iloc[0]), "the paper's rule (15, 16) on our ranks")
    wl = win_loss(table)
    for r in wl.itertuples(index=False):
        add(f"win_loss_{r.method}", f"[{r.s_w:g}/{r.m_w:g}/{r.m_b:g}/{r.s_b:g}]{r.binomial_worse}")
    add("binom_p_mb_sb_gt_23", float(stats.binom.sf(22, 36, 0.5)),
        "Pr(Binomial(36,0.5) ≥ 23): the paper prints '> 23' with this value")
    six = ["AODE", "WAODE", "HNB", "LWNB", "ICLNB"]
    if all(c in acc and acc[c].notna().all() for c in ["LCWNB5", *six]):
        observed, s, p = mean_rank_test(acc, "LCWNB5", six)
        add("lcwnb5_mean_rank_6", observed)
        add("mean_rank_test_p_lcwnb5", p, f"s = {s:.5f}")
    else:
        add("mean_rank_test_p_lcwnb5", np.nan, "needs the LWNB and ICLNB columns")
    if "LCWNB*" in acc and all(c in acc and acc[c].notna().all() for c in ["LCWNB*", *six]):
        add("mean_rank_test_p_lcwnbstar", mean_rank_test(acc, "LCWNB*", six)[2])
    else:
        add("mean_rank_test_p_lcwnbstar", np.nan, "needs the LWNB and ICLNB columns")
    out = pd.DataFrame(rows)
    if published is not None:
        pub = published.set_index("statistic")["value"]
        out["published"] = out["statistic"].map(pub)
    return out


def permutation_bounds(acc: pd.DataFrame, n_permutations: int = 9999, seed: int = 1,
                       level: float = 0.95) -> pd.DataFrame:
    """Average accuracy and mean rank per method, with simultaneous bounds under equal performance.

    Under the null hypothesis the methods are exchangeable within a data set, so each
    permutation shuffles every row of the (data sets × methods) table. The simultaneous
    bounds are the (1−level)/2 quantile of the smallest and the (1+level)/2 quantile of the
    largest statistic over methods: all methods fall inside both with probability ``level``.
    """
    values = acc.to_numpy(dtype=float)
    ranks = rank_rows(values, higher_is_better=True)
    rng = np.random.default_rng(seed)
    n, k = values.shape
    lo_avg, hi_avg, lo_rank, hi_rank = [], [], [], []
    for _ in range(n_permutations):
        perm = rng.permuted(np.tile(np.arange(k), (n, 1)), axis=1)
        avg = np.take_along_axis(values, perm, axis=1).mean(axis=0)
        mr = np.take_along_axis(ranks, perm, axis=1).mean(axis=0)
        lo_avg.append(avg.min()), hi_avg.append(avg.max()), lo_rank.append(mr.min()), hi_rank.append(mr.max())
    a = (1 - level) / 2
    return pd.DataFrame({"method": acc.columns, "average": values.mean(axis=0), "mean_rank": ranks.mean(axis=0),
                         "average_lower": np.quantile(lo_avg, a), "average_upper": np.quantile(hi_avg, 1 - a),
                         "mean_rank_lower": np.quantile(lo_rank, a), "mean_rank_upper": np.quantile(hi_rank, 1 - a)})


def figure2(bounds: pd.DataFrame, stem):
    """Paired bars of average accuracy and mean rank, methods by descending average, with the bounds."""
    from ..report.figures import _plt, save

    plt = _plt()
    b = bounds.sort_values("average", ascending=False)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, col, label in ((axes[0], "average", "average accuracy (%)"), (axes[1], "mean_rank", "mean rank")):
        ax.bar(range(len(b)), b[col], color="#4477aa")
        for bound in (f"{col}_lower", f"{col}_upper"):
            ax.axhline(b[bound].iloc[0], color="#cc3311", ls="--", lw=1)
        ax.set_xticks(range(len(b)), b["method"], rotation=45, ha="right")
        ax.set_ylabel(label)
        if col == "average":
            ax.set_ylim(min(b[col].min(), b[f"{col}_lower"].iloc[0]) - 1, max(b[col].max(), b[f"{col}_upper"].iloc[0]) + 1)
    fig.suptitle("Figure 2: averages and mean ranks with 95% simultaneous bounds (9 999 permutations)")
    fig.tight_layout()
    out = save(fig, stem)
    plt.close(fig)
    return out


def figure3(acc: pd.DataFrame, table1: pd.DataFrame, stem):
    """Ranks of LCWNB5/10/20 with the data sets in ascending order of n, m and r."""
    from ..report.figures import _plt, save

    plt = _plt()
    ranks = kappa_ranks(acc.round(2))
    t1 = table1.set_index("dataset").reindex(ranks.index)
    fig, axes = plt.subplots(3, 1, figsize=(11, 9), sharey=True)
    for ax, key in zip(axes, ("n", "m", "r")):
        order = t1[key].sort_values(kind="stable").index
        for kappa, marker in zip(KAPPAS, ("o", "s", "^")):
            ax.plot(range(len(order)), ranks.loc[order, kappa], marker=marker, ls="-", lw=0.8, label=kappa)
        ax.set_xticks(range(len(order)), [f"{d} ({t1.loc[d, key]})" for d in order], rotation=90, fontsize=7)
        ax.set_ylabel(f"rank (by {key})")
        ax.invert_yaxis()
    axes[0].legend(ncol=3, fontsize=8)
    fig.suptitle("Figure 3: ranks of the three κ against n, m and r")
    fig.tight_layout()
    out = save(fig, stem)
    plt.close(fig)
    return out


def claims(table: pd.DataFrame, text: pd.DataFrame, bounds: pd.DataFrame) -> pd.DataFrame:
    """The paper's claims in Section 4, each checked against our numbers."""
    stat = text.set_index("statistic")["value"]
    b = bounds.set_index("method")
    rows = []

    def claim(text_, supported, evidence):
        rows.append({"claim": text_, "supported": ("yes" if supported else "no") if supported is not None
                     else "not yet computable", "evidence": evidence})

    order = b["average"].sort_values(ascending=False)
    ranks = b["mean_rank"].sort_values()
    complete = len(b) == 10
    top = list(order.index[:3])
    claim("LCWNB5 and LCWNB10 perform well in both measures; they are the best two with WAODE the third best",
          (top == ["LCWNB5", "LCWNB10", "WAODE"] or set(top[:2]) == {"LCWNB5", "LCWNB10"} and top[2] == "WAODE")
          if complete else None,
          "by average: " + ", ".join(f"{m} {v:.2f}" for m, v in order.items())
          + "; by mean rank: " + ", ".join(f"{m} {v:.3f}" for m, v in ranks.items()))
    outside = [m for m in b.index if b.loc[m, "average"] < b.loc[m, "average_lower"]
               or b.loc[m, "mean_rank"] > b.loc[m, "mean_rank_upper"]]
    claim("NB and TAN are likely to be inferior (bars outside the 95% simultaneous bounds)",
          set(outside) == {"NB", "TAN"} if complete else None,
          "outside the bounds: " + (", ".join(outside) or "none") + f" (over the {len(b)} methods computed)")
    ps = [float(stat.get(k, np.nan)) for k in ("friedman_p_kappa", "iman_davenport_p_kappa", "quade_p_kappa")]
    claim("the three κ are of equal performance at 5% (Friedman, Iman–Davenport, Quade)",
          all(p > 0.05 for p in ps) if not any(np.isnan(ps)) else None, "p = " + ", ".join(f"{p:.4f}" for p in ps))
    p_mid = float(stat.get("binom_p_lcwnb10_middle", np.nan))
    claim("LCWNB10 is usually ranked second among the three κ (binomial p < 0.05)", p_mid < 0.05 if not np.isnan(p_mid) else None,
          f"{stat.get('lcwnb10_middle_count')} of 36, p = {p_mid:.3g}")
    top7 = stat.get("lcwnb5_rank1_largest_m")
    claim("LCWNB5 is ranked 1 in the seven data sets with the largest m", None if top7 is None else int(float(top7)) == 7,
          f"{top7} of 7; ranked 3 in {stat.get('lcwnb5_rank3_smallest_m')} of the 10 with the smallest m")
    wl = {r.statistic[len("win_loss_"):]: r.value for r in text.itertuples() if r.statistic.startswith("win_loss_")}
    dotted = sorted(m for m, v in wl.items() if str(v).endswith("•"))
    claim("NB, TAN and HNB are worse than LCWNB5 by the sign test on [s.w./m.w./m.b./s.b.]",
          dotted == ["HNB", "NB", "TAN"], "dotted here: " + (", ".join(dotted) or "none"))
    p5 = float(stat.get("mean_rank_test_p_lcwnb5", np.nan))
    claim("LCWNB5's mean rank among LCWNB5, AODE, WAODE, HNB, LWNB, ICLNB is significantly small at 6%",
          None if np.isnan(p5) else p5 < 0.06, "needs ICLNB" if np.isnan(p5) else f"p = {p5:.5f}")
    return pd.DataFrame(rows)
