"""Liu et al.'s claims (Sections 3.2 and 4), each checked against the reproduced tables.

Everything generic (the w/t/l matrices, mean ranks with Nemenyi whiskers, the bandwidth-ratio
densities) is declared in config/papers/kdebw.yaml; this module only states the paper's
sentences as tests on those numbers.
"""
from __future__ import annotations


from .. import stats
from ..analysis import Claim, verdict
from ..analysis.tables import wide_table

SCHEMES = ["DIS", "NRD-I", "NRD", "NRD0", "SP", "UCV", "BCV", "STE", "DPI", "WEKA"]
SOPHISTICATED = ["UCV", "BCV", "STE", "DPI"]
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


def claims(ctx) -> list[Claim]:
    rows = []

    def claim(claim_id, section, text, supported, evidence):
        rows.append(Claim(claim_id, section, text, "ours", verdict(supported), evidence))

    walls = {name: _wide(ctx, name) for name in MEASURES}
    # Friedman on each measure
    ps = {}
    for name, w in walls.items():
        if _complete(w):
            ps[name] = stats.friedman(w.to_numpy(), higher_is_better=False).pvalue
    claim("friedman", "3.2", "the Friedman test rejects equal performance of the ten schemes at 0.05 for error, bias and "
          "variance", all(p < 0.05 for p in ps.values()) if len(ps) == 3 else None,
          ", ".join(f"{k}: p = {v:.3g}" for k, v in ps.items()) + f" (N = {len(walls['error']) if walls['error'] is not None else 0})")

    post = {name: stats.nemenyi(w, 0.05, higher_is_better=False) for name, w in walls.items() if _complete(w)}
    err = post.get("error")

    def significant(a, b):  # a significantly better (lower rank) than b on error
        if err is None:
            return None
        ra, rb = err.mean_ranks[a], err.mean_ranks[b]
        return rb - ra > err.critical_difference

    def ranks_text(res, names):
        return ", ".join(f"{m} {res.mean_ranks[m]:.2f}" for m in names) + f"; CD = {res.critical_difference:.2f}"

    for worse, better in (("BCV", "SP"), ("BCV", "WEKA"), ("UCV", "SP")):
        record = _record(ctx, worse, better)
        claim(f"{worse.lower()}_worse_than_{better.lower()}", "3.2", f"{worse} is statistically significantly worse than {better} on error (Nemenyi, 0.05); "
              f"w/t/l {worse} vs {better} printed {'/'.join(map(str, QUOTED_RECORDS[(worse, better)]))}",
              significant(better, worse), (ranks_text(err, [worse, better]) if err else "") +
              (f"; ours {record}" if record else ""))
    for other in ("DIS", "UCV", "BCV"):
        claim(f"sp_better_than_{other.lower()}", "3.2", f"SP is statistically significantly better than {other} on error", significant("SP", other),
              ranks_text(err, ["SP", other]) if err else "")
    if err is not None:
        beat_dis = [m for m in SCHEMES if m != "DIS" and significant(m, "DIS")]
        claim("sp_only_better_than_dis", "3.2/4", "SP is the only scheme statistically significantly better than DIS on error",
              beat_dis == ["SP"], "significantly better than DIS here: " + (", ".join(beat_dis) or "none"))
    else:
        claim("sp_only_better_than_dis", "3.2/4", "SP is the only scheme statistically significantly better than DIS on error", None, "")
    # bias / variance profiles
    bias, var = post.get("bias"), post.get("variance")
    if bias is not None and var is not None:
        middle = (len(SCHEMES) + 1) / 2
        b_ucv, v_ucv = bias.mean_ranks["UCV"], var.mean_ranks["UCV"]
        b_bcv, v_bcv = bias.mean_ranks["BCV"], var.mean_ranks["BCV"]
        worst_var = max(var.mean_ranks, key=var.mean_ranks.get)
        worst_bias = max(bias.mean_ranks, key=bias.mean_ranks.get)
        claim("ucv_low_bias_high_variance", "3.2", "UCV has low bias but high variance", b_ucv < middle and worst_var == "UCV",
              f"UCV bias rank {b_ucv:.2f} (middle {middle}), variance rank {v_ucv:.2f}; highest variance rank: {worst_var}")
        claim("bcv_low_variance_high_bias", "3.2", "BCV has low variance but high bias", v_bcv < middle and worst_bias == "BCV",
              f"BCV variance rank {v_bcv:.2f}, bias rank {b_bcv:.2f}; highest bias rank: {worst_bias}")
    else:
        claim("ucv_low_bias_high_variance", "3.2", "UCV has low bias but high variance", None, "")
        claim("bcv_low_variance_high_bias", "3.2", "BCV has low variance but high bias", None, "")
    # training time
    ft = ctx.frames.get("figure1")
    if ft is not None and len(ft):
        t = ft[ft.panel == "training time"].set_index("method")["mean_rank"]
        slowest = list(t.sort_values(ascending=False).index[:4])
        claim("sophisticated_slower", "3.2", "the four sophisticated schemes (UCV, BCV, STE, DPI) cost far more training time than the others",
              set(slowest) == set(SOPHISTICATED) if len(t) == len(SCHEMES) else None,
              "slowest four by mean rank: " + ", ".join(f"{m} {t[m]:.2f}" for m in slowest))
    # Figure 2
    f2 = ctx.frames.get("figure2")
    if f2 is not None and len(f2):
        med = f2.set_index("classifier")["median"]
        largest = list(med.sort_values(ascending=False).index[:2])
        claim("bcv_weka_larger_bandwidths", "3.2", "the bandwidths of BCV and WEKA are larger than the others' (Figure 2)",
              set(largest) == {"BCV", "WEKA"}, "median ratio to NRD-I: " + ", ".join(f"{m} {v:.2f}" for m, v in med.items()))
        small = [m for m in ("NRD0", "SP", "STE", "DPI") if m in med]
        claim("smaller_bandwidths_than_nrd_i", "3.2", "NRD0, SP, STE and DPI tend to have smaller bandwidths than NRD-I",
              all(med[m] < 1 for m in small) if len(small) == 4 else None,
              ", ".join(f"{m} {med[m]:.2f}" for m in small))
    return rows


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
