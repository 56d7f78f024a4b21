# SPDX-License-Identifier: GPL-3.0-or-later
"""Liu et al.'s claims (Sections 3.2 and 4), each checked against the reproduced tables.

Everything generic (the w/t/l matrices, mean ranks with Nemenyi whiskers, the bandwidth-ratio
densities) is declared in config/papers/kdebw.yaml; this module only states the paper's
sentences as tests on those numbers.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from .. import stats
from ..analysis import Claim, verdict
from ..analysis.qualify import today, with_stability
from ..analysis.tables import wide_table

SCHEMES = ["DIS", "NRD-I", "NRD", "NRD0", "SP", "UCV", "BCV", "STE", "DPI", "WEKA"]
SOPHISTICATED = ["UCV", "BCV", "STE", "DPI"]
SIMPLE = ["NRD-I", "NRD", "NRD0", "SP", "WEKA"]
MEASURES = {"error": ("error", "error"), "bias": ("bias", "kw_bias2"), "variance": ("variance", "kw_variance")}
# the w/t/l records the text quotes, (row, column): (wins, ties, losses) on error
QUOTED_RECORDS = {("BCV", "SP"): (15, 1, 36), ("BCV", "WEKA"): (11, 0, 41), ("UCV", "SP"): (18, 0, 36)}


def _wide(ctx, name):
    table, metric = MEASURES[name]
    t = ctx.tables.get(table)
    if t is None:
        return None
    w = wide_table(t, metric)
    return w[[m for m in SCHEMES if m in w]].dropna()


def _complete(w) -> bool:
    return w is not None and list(w.columns) == SCHEMES and len(w) > 1


@dataclass(frozen=True)
class _Ranks:
    """One source's mean ranks on a measure, with the Friedman p and Nemenyi's critical difference."""
    mean_ranks: dict
    friedman_p: float
    cd: float
    n: int


def _ours(ctx) -> dict[str, _Ranks]:
    out = {}
    for name in MEASURES:
        w = _wide(ctx, name)
        if _complete(w):
            post = stats.nemenyi(w, 0.05, higher_is_better=False)
            out[name] = _Ranks(post.mean_ranks, stats.friedman(w.to_numpy(), higher_is_better=False).pvalue,
                               post.critical_difference, len(w))
    return out


def _printed(ctx) -> dict[str, _Ranks]:
    """The printed Table 2 determines every scheme's mean rank on each measure (a rank is 1 + the
    schemes better + half the ties), so the rank claims can be judged on the paper's own numbers;
    Friedman's χ² from them has no tie correction (the printed ties are 0–3 per pair)."""
    spec = ctx.paper.tables.get("table2")
    if spec is None or not spec.published:
        return {}
    pub = pd.read_csv(spec.published).rename(columns={"row_method": "row", "col_method": "col"})
    k = len(SCHEMES)
    out = {}
    for name in MEASURES:
        recs = pub[pub.measure == name.upper()]
        if len(recs) == k * (k - 1) // 2:
            n = int(recs[["wins", "ties", "losses"]].iloc[0].sum())   # the paper's data sets, whatever this run reads
            cd = stats.critical_difference(stats.nemenyi_q(k), k, n)
            mr = stats.mean_ranks_from_records(recs, SCHEMES, n)
            out[name] = _Ranks(mr.to_dict(), stats.friedman_from_mean_ranks(mr.to_numpy(), n).pvalue, cd, n)
    return out


def _rank_claims(source: str, ranks: dict[str, _Ranks], ctx) -> list[Claim]:
    rows = []

    def claim(claim_id, section, text, supported, evidence):
        rows.append(Claim(claim_id, section, text, source, verdict(supported), evidence))

    ps = {name: r.friedman_p for name, r in ranks.items()}
    claim(
        "friedman",
        "3.2",
        "the Friedman test rejects equal performance of the ten schemes at 0.05 for error, bias and variance",
        all(p < 0.05 for p in ps.values()) if len(ps) == 3 else None,
        ", ".join(f"{k}: p = {v:.3g}" for k, v in ps.items())
        + (
            f" (N = {ranks['error'].n}{'; from the printed w/t/l, no tie correction' if source == 'printed' else ''})"
            if "error" in ranks
            else ""
        ),
    )
    err = ranks.get("error")

    def significant(a, b):  # a significantly better (lower rank) than b on error
        if err is None:
            return None
        return err.mean_ranks[b] - err.mean_ranks[a] > err.cd

    def ranks_text(names):  # the difference to three decimals: some sit within 0.01 of the CD
        if not err:
            return ""
        a, b = names
        return (
            f"{a} {err.mean_ranks[a]:.2f}, {b} {err.mean_ranks[b]:.2f} (difference "
            f"{abs(err.mean_ranks[a] - err.mean_ranks[b]):.3f}); CD = {err.cd:.3f}"
        )

    for worse, better in (("BCV", "SP"), ("BCV", "WEKA"), ("UCV", "SP")):
        record = _record(ctx, worse, better) if source == "ours" else ""
        claim(
            f"{worse.lower()}_worse_than_{better.lower()}",
            "3.2",
            f"{worse} is statistically significantly worse than {better} on error (Nemenyi, 0.05); "
            f"w/t/l {worse} vs {better} printed {'/'.join(map(str, QUOTED_RECORDS[(worse, better)]))}",
            significant(better, worse),
            ranks_text([worse, better]) + (f"; ours {record}" if record else ""),
        )
    for other in ("DIS", "UCV", "BCV"):
        claim(
            f"sp_better_than_{other.lower()}",
            "3.2",
            f"SP is statistically significantly better than {other} on error",
            significant("SP", other),
            ranks_text(["SP", other]),
        )
    beat_dis = [m for m in SCHEMES if m != "DIS" and significant(m, "DIS")] if err else []
    claim(
        "sp_only_better_than_dis",
        "3.2/4",
        "SP is the only scheme statistically significantly better than DIS on error",
        beat_dis == ["SP"] if err else None,
        ("significantly better than DIS here: " + (", ".join(beat_dis) or "none")) if err else "",
    )
    if err is not None:
        worst = max(err.mean_ranks, key=err.mean_ranks.get)
        claim(
            "bcv_poorest",
            "3.2",
            "the poorest performer was BCV (the largest mean rank on error)",
            worst == "BCV",
            "largest error mean rank: "
            + ", ".join(
                f"{m} {err.mean_ranks[m]:.2f}" for m in sorted(err.mean_ranks, key=err.mean_ranks.get, reverse=True)[:3]
            ),
        )
        better = [(a, b) for a in SOPHISTICATED for b in SIMPLE if significant(a, b)]
        claim(
            "sophisticated_no_better",
            "3.2",
            "the more sophisticated schemes (UCV, BCV, STE, DPI) do not yield improved "
            "performance over the simpler ones (NRD-I, NRD, NRD0, SP, WEKA): none significantly better on error",
            not better,
            "sophisticated significantly better than simple: "
            + (", ".join(f"{a} > {b}" for a, b in better) or "none")
            + f"; best sophisticated rank {min(err.mean_ranks[m] for m in SOPHISTICATED):.2f}, best simple "
            f"{min(err.mean_ranks[m] for m in SIMPLE):.2f}",
        )
    else:
        claim("bcv_poorest", "3.2", "the poorest performer was BCV (the largest mean rank on error)", None, "")
        claim(
            "sophisticated_no_better",
            "3.2",
            "the more sophisticated schemes (UCV, BCV, STE, DPI) do not yield improved "
            "performance over the simpler ones (NRD-I, NRD, NRD0, SP, WEKA): none significantly better on error",
            None,
            "",
        )
    bias, var = ranks.get("bias"), ranks.get("variance")
    if bias is not None and var is not None:

        def place(r, m):  # 1 = the lowest mean rank of the ten
            return sorted(r.mean_ranks, key=r.mean_ranks.get).index(m) + 1

        sp_b, sp_v = place(bias, "SP"), place(var, "SP")
        claim(
            "sp_bias_variance_middle",
            "3.2",
            "neither SP's bias nor its variance was particularly high or low (not "
            "among the two lowest or two highest mean ranks of the ten)",
            3 <= sp_b <= 8 and 3 <= sp_v <= 8,
            f"SP bias rank {bias.mean_ranks['SP']:.2f} ({sp_b} of 10), "
            f"variance rank {var.mean_ranks['SP']:.2f} ({sp_v} of 10)",
        )
        # "relatively", and "By contrast, BCV and WEKA …": the two groups against each other (every bias
        # mean rank of the smaller bandwidths below every one of the larger, every variance rank above);
        # the other reading, against the middle rank of the ten, is kept in the evidence
        middle = (len(SCHEMES) + 1) / 2
        small, large = ["NRD0", "SP", "STE", "DPI"], ["BCV", "WEKA"]
        apart = (max(bias.mean_ranks[m] for m in small) < min(bias.mean_ranks[m] for m in large)
                 and min(var.mean_ranks[m] for m in small) > max(var.mean_ranks[m] for m in large))

        def against_middle(ok):
            return f"; against the middle rank {middle} instead of each other: {'holds' if ok else 'fails'}"

        claim(
            "small_bandwidths_low_bias_high_variance",
            "4",
            "NRD0, SP, STE and DPI (smaller bandwidths) have a relatively small bias and large variance (against "
            "BCV and WEKA: each bias mean rank below theirs, each variance mean rank above)",
            apart,
            ", ".join(f"{m} bias {bias.mean_ranks[m]:.2f} variance {var.mean_ranks[m]:.2f}" for m in small + large)
            + against_middle(all(bias.mean_ranks[m] < middle < var.mean_ranks[m] for m in small)),
        )
        claim(
            "large_bandwidths_high_bias_low_variance",
            "4",
            "BCV and WEKA (larger bandwidths) have a relatively high bias and low variance (against NRD0, SP, "
            "STE and DPI: each bias mean rank above theirs, each variance mean rank below)",
            apart,
            ", ".join(f"{m} bias {bias.mean_ranks[m]:.2f} variance {var.mean_ranks[m]:.2f}" for m in large + small)
            + against_middle(all(var.mean_ranks[m] < middle < bias.mean_ranks[m] for m in large)),
        )
        middle = (len(SCHEMES) + 1) / 2
        b_ucv, v_ucv = bias.mean_ranks["UCV"], var.mean_ranks["UCV"]
        b_bcv, v_bcv = bias.mean_ranks["BCV"], var.mean_ranks["BCV"]
        worst_var = max(var.mean_ranks, key=var.mean_ranks.get)
        worst_bias = max(bias.mean_ranks, key=bias.mean_ranks.get)
        claim(
            "ucv_low_bias_high_variance",
            "3.2",
            "UCV has low bias but high variance",
            b_ucv < middle and worst_var == "UCV",
            f"UCV bias rank {b_ucv:.2f} (middle {middle}), variance rank {v_ucv:.2f}; "
            f"highest variance rank: {worst_var}",
        )
        claim(
            "bcv_low_variance_high_bias",
            "3.2",
            "BCV has low variance but high bias",
            v_bcv < middle and worst_bias == "BCV",
            f"BCV variance rank {v_bcv:.2f}, bias rank {b_bcv:.2f}; highest bias rank: {worst_bias}",
        )
    else:
        for cid, text in (
            ("sp_bias_variance_middle", "neither SP's bias nor its variance was particularly high or low"),
            (
                "small_bandwidths_low_bias_high_variance",
                "NRD0, SP, STE and DPI have a relatively small bias and large variance",
            ),
            ("large_bandwidths_high_bias_low_variance", "BCV and WEKA have a relatively high bias and low variance"),
            ("ucv_low_bias_high_variance", "UCV has low bias but high variance"),
            ("bcv_low_variance_high_bias", "BCV has low variance but high bias"),
        ):
            claim(cid, "3.2", text, None, "")
    return rows


# the claims read from figures whose numbers the paper does not print
FIGURE_ONLY = {
    "sophisticated_slower": (
        "3.2",
        "the four sophisticated schemes (UCV, BCV, STE, DPI) cost far more training time than the others",
        "Figure 1's training-time bars are drawn, not printed as numbers",
    ),
    "bcv_weka_larger_bandwidths": (
        "3.2",
        "the bandwidths of BCV and WEKA are statistically larger than the others' "
        "(Figure 2; a one-sided sign test over the data sets, Holm over the 12 pairs)",
        "Figure 2 is a density plot; no bandwidth is printed",
    ),
    "smaller_bandwidths_than_nrd_i": (
        "3.2",
        "NRD0, SP, STE and DPI tend to have smaller bandwidths than NRD-I",
        "Figure 2 is a density plot; no bandwidth is printed",
    ),
    "preferable_range": (
        "5",
        "bandwidths within 0.5 to 1.5 times the NRD-I bandwidth are preferable (the three schemes "
        "with the lowest error mean rank have median ratios in that range)",
        "Figure 2 is a density plot; no bandwidth is printed",
    ),
}


# the pairwise claims on error: claim id → (the scheme said to be significantly better, the other)
PAIRS = {
    "bcv_worse_than_sp": ("SP", "BCV"),
    "bcv_worse_than_weka": ("WEKA", "BCV"),
    "ucv_worse_than_sp": ("SP", "UCV"),
    "sp_better_than_dis": ("SP", "DIS"),
    "sp_better_than_ucv": ("SP", "UCV"),
    "sp_better_than_bcv": ("SP", "BCV"),
}
ROPE = 1.0  # error points: differences within ±1 % are practically equivalent (Bayesian signed-rank)
RESAMPLES = 1000  # bootstrap resamples of the 52 data sets, seed 1


def _nemenyi_better(ranks: np.ndarray, a: int, b: int, cd: float) -> np.ndarray:
    """Per row of mean ranks (resamples × schemes): a significantly better than b."""
    return ranks[..., b] - ranks[..., a] > cd


def _qualified(rows: list[Claim], ctx) -> list[Claim]:
    """Our pairwise significance claims also under Wilcoxon–Holm and the Bayesian signed-rank test,
    with their bootstrap stability over the data sets and their verdict with each other scheme
    left out of the Nemenyi ranking; the printed table (w/t/l counts only) allows neither."""
    w = _wide(ctx, "error")
    if not _complete(w):
        return rows
    r = stats.rank_rows(w.to_numpy(), higher_is_better=False)
    n, k = r.shape
    cd = stats.critical_difference(stats.nemenyi_q(k), k, n)
    picks = stats.resample_rows(n, RESAMPLES, seed=1)
    boot = r[picks].mean(axis=1)  # resamples × schemes
    family = [(a, b) for i, a in enumerate(SCHEMES) for b in SCHEMES[i + 1 :]]  # the Nemenyi family: all 45 pairs
    out = []
    for c in rows:
        if c.source != "ours" or c.claim_id not in PAIRS and c.claim_id not in ("sp_only_better_than_dis", "friedman"):
            out.append(c)
            continue
        if c.claim_id == "friedman":
            walls = {name: _wide(ctx, name) for name in MEASURES}
            if not all(_complete(x) for x in walls.values()):
                out.append(c)
                continue
            held = np.ones(RESAMPLES, bool)
            for x in walls.values():
                xs = x.to_numpy()
                held &= np.array([stats.friedman(xs[p], higher_is_better=False).pvalue < 0.05 for p in picks])
            out.append(with_stability(c, held))
            continue
        if c.claim_id == "sp_only_better_than_dis":
            dis = SCHEMES.index("DIS")
            beats = np.stack([_nemenyi_better(boot, SCHEMES.index(m), dis, cd) for m in SCHEMES if m != "DIS"], axis=1)
            only_sp = beats[:, SCHEMES.index("SP") - 1] & (beats.sum(axis=1) == 1)
            out.append(with_stability(c, only_sp))
            continue
        a, b = PAIRS[c.claim_id]
        flips = [
            m for m in SCHEMES if m not in (a, b) and _pool_verdict(w.drop(columns=m), a, b) != (c.verdict == "yes")
        ]
        c = replace(
            c,
            **today(w, [(a, b)], family, higher_is_better=False, rope=ROPE, unit="error points"),
            pool=(
                "the same with any one other scheme left out"
                if not flips
                else "flips with " + ", ".join(flips) + " left out of the ranking"
            ),
        )
        out.append(with_stability(c, _nemenyi_better(boot, SCHEMES.index(a), SCHEMES.index(b), cd)))
    return out


def _larger_bandwidths(ctx) -> tuple[bool, str] | None:
    """'The bandwidth of BCV and WEKA is statistically larger than others': per data set, each
    scheme's median bandwidth / NRD-I bandwidth over its (attribute, class, trial, fold) objects;
    BCV's and WEKA's against each of the other six by a one-sided sign test over the data sets
    (ties left out), Holm's correction over the 12 comparisons. None while a scheme is missing."""
    from scipy.stats import binomtest
    from statsmodels.stats.multitest import multipletests

    from ..analysis.figures import recorded

    schemes = [m for m in SCHEMES if m not in ("DIS", "NRD-I")]
    medians = {}
    for m in schemes:
        r = recorded(ctx.results, ctx.paper, m, "bandwidth_ratios_")
        r = r[np.isfinite(r["value"].astype(float))]
        if r.empty:
            return None
        medians[m] = r.groupby("dataset")["value"].median()
    table = pd.DataFrame(medians).dropna()
    pairs = [(a, b) for a in ("BCV", "WEKA") for b in schemes if b not in ("BCV", "WEKA")]
    ps, words = [], []
    for a, b in pairs:
        wins, losses = int((table[a] > table[b]).sum()), int((table[a] < table[b]).sum())
        ps.append(binomtest(wins, wins + losses, 0.5, alternative="greater").pvalue if wins + losses else 1.0)
        words.append(f"{a} > {b} on {wins} of {wins + losses}")
    reject, adjusted, _, _ = multipletests(ps, alpha=0.05, method="holm")
    worst = int(np.argmax(adjusted))
    return bool(reject.all()), (
        f"sign tests over {len(table)} data sets: "
        + ", ".join(words)
        + f"; largest Holm-adjusted p {adjusted[worst]:.3g} ({words[worst]})"
    )


def _pool_verdict(w: pd.DataFrame, a: str, b: str) -> bool:
    post = stats.nemenyi(w, 0.05, higher_is_better=False)
    return post.mean_ranks[b] - post.mean_ranks[a] > post.critical_difference


def claims(ctx) -> list[Claim]:
    rows = _rank_claims("printed", _printed(ctx), ctx) + _qualified(_rank_claims("ours", _ours(ctx), ctx), ctx)
    for claim_id, (section, text, why) in FIGURE_ONLY.items():
        rows.append(Claim(claim_id, section, text, "printed", "not checkable", why))

    def claim(claim_id, supported, evidence):
        section, text, _ = FIGURE_ONLY[claim_id]
        rows.append(Claim(claim_id, section, text, "ours", verdict(supported), evidence))

    # training time
    ft = ctx.frames.get("figure1")
    if ft is not None and len(ft):
        t = ft[ft.panel == "training time"].set_index("method")["mean_rank"]
        slowest = list(t.sort_values(ascending=False).index[:4])
        claim(
            "sophisticated_slower",
            set(slowest) == set(SOPHISTICATED) if len(t) == len(SCHEMES) else None,
            "slowest four by mean rank: " + ", ".join(f"{m} {t[m]:.2f}" for m in slowest),
        )
    # Figure 2
    f2 = ctx.frames.get("figure2")
    if f2 is not None and len(f2):
        med = f2.set_index("classifier")["median"]
        largest = list(med.sort_values(ascending=False).index[:2])
        test = _larger_bandwidths(ctx) if ctx.results is not None else None
        claim(
            "bcv_weka_larger_bandwidths",
            set(largest) == {"BCV", "WEKA"} and (test is None or test[0]),
            "median ratio to NRD-I: "
            + ", ".join(f"{m} {v:.2f}" for m, v in med.items())
            + ("" if test is None else "; " + test[1]),
        )
        small = [m for m in ("NRD0", "SP", "STE", "DPI") if m in med]
        claim(
            "smaller_bandwidths_than_nrd_i",
            all(med[m] < 1 for m in small) if len(small) == 4 else None,
            ", ".join(f"{m} {med[m]:.2f}" for m in small),
        )
        err = _ours(ctx).get("error")
        if err is not None:
            med = med.reindex(SCHEMES).fillna(1.0)  # NRD-I is its own standard (ratio 1); DIS has no bandwidth
            best = [m for m in sorted(err.mean_ranks, key=err.mean_ranks.get) if m != "DIS"][:3]
            claim(
                "preferable_range",
                all(0.5 <= med[m] <= 1.5 for m in best),
                "lowest error mean ranks: "
                + ", ".join(f"{m} {err.mean_ranks[m]:.2f} (median ratio {med[m]:.2f})" for m in best),
            )
    order = list(dict.fromkeys(c.claim_id for c in rows))  # each claim's two verdicts together, printed first
    return sorted(rows, key=lambda c: (order.index(c.claim_id), c.source != "printed"))


def _record(ctx, a, b) -> str:
    t = ctx.tables.get("table2")
    if t is None:
        return ""
    r = t[(t.measure == "ERROR") & (t.row_method == a) & (t.col_method == b)]
    if len(r):
        r = r.iloc[0]
        return f"{int(r.wins)}/{int(r.ties)}/{int(r.losses)}"
    r = t[(t.measure == "ERROR") & (t.row_method == b) & (t.col_method == a)]
    if len(r):
        r = r.iloc[0]
        return f"{int(r.losses)}/{int(r.ties)}/{int(r.wins)}"
    return ""
