# SPDX-License-Identifier: GPL-3.0-or-later
"""Post-hoc comparisons of k methods over N datasets (Demšar 2006), and pairwise records.

Critical differences of mean ranks, computed exactly with scipy (never from a printed table):

  Nemenyi (all pairs):        CD = q_α √(k(k+1)/(6N)),  q_α = studentized range quantile(1−α; k, ∞)/√2
  Bonferroni–Dunn (vs one):   CD = z_{1−α/(2(k−1))} √(k(k+1)/(6N))

(Demšar's Table 5 prints 2.724 for Bonferroni–Dunn at k = 9, α = .05; the exact value is 2.734.)
Holm against a control: z_i = (R_i − R_0)/√(k(k+1)/(6N)), two-sided p, step-down at α/(k−i).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats as _st

from .nonparametric import checked_ranks
from .ranks import rank_rows


def refuse_missing(data) -> None:
    """A post-hoc test on mean ranks is refused, not run on fewer data sets, when a cell is missing:
    its critical difference is for the N data sets the table claims (one line naming the cell)."""
    x = np.asarray(data, dtype=np.float64)
    if x.ndim == 2 and np.isnan(x).any():
        i, j = map(int, np.argwhere(np.isnan(x))[0])
        row = data.index[i] if isinstance(data, pd.DataFrame) else i
        col = data.columns[j] if isinstance(data, pd.DataFrame) else j
        raise ValueError(f"the (datasets × methods) table misses {col!r} on {row!r} "
                         f"({int(np.isnan(x).sum())} missing cells): a mean-rank test needs every cell")


def _mean_ranks(data, higher_is_better: bool) -> tuple[np.ndarray, int, int, list]:
    names = list(data.columns) if isinstance(data, pd.DataFrame) else list(range(np.shape(data)[1]))
    refuse_missing(data)
    r = checked_ranks(data, higher_is_better)   # the Friedman family's shape check and ranks
    return r.mean(axis=0), r.shape[0], r.shape[1], names


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """q_α of the Nemenyi test: the studentized range quantile over √2 (Demšar's Table 5(a))."""
    return float(_st.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2))


def bonferroni_dunn_q(k: int, alpha: float = 0.05) -> float:
    """q_α of the Bonferroni–Dunn test: the two-sided normal quantile at α/(k−1) (Demšar's Table 5(b))."""
    return float(_st.norm.ppf(1 - alpha / (2 * (k - 1))))


def critical_difference(q: float, k: int, n: int) -> float:
    return float(q * math.sqrt(k * (k + 1) / (6.0 * n)))


@dataclass(frozen=True)
class PostHocResult:
    test: str
    critical_difference: float
    q: float
    alpha: float
    mean_ranks: dict            # method → mean rank (1 = best)
    n_datasets: int
    different: list = field(default_factory=list)   # pairs (a, b), or methods differing from the control
    control: str | None = None


def nemenyi(data, alpha: float = 0.05, higher_is_better: bool = True) -> PostHocResult:
    """All pairs whose mean ranks differ by more than the critical difference."""
    ranks, n, k, names = _mean_ranks(data, higher_is_better)
    q = nemenyi_q(k, alpha)
    cd = critical_difference(q, k, n)
    pairs = [(names[i], names[j]) for i in range(k) for j in range(i + 1, k) if abs(ranks[i] - ranks[j]) > cd]
    return PostHocResult("nemenyi", cd, q, alpha, dict(zip(names, map(float, ranks), strict=True)), n, pairs)


def bonferroni_dunn(data, control, alpha: float = 0.05, higher_is_better: bool = True) -> PostHocResult:
    """The methods whose mean rank differs from the control's by more than the critical difference."""
    ranks, n, k, names = _mean_ranks(data, higher_is_better)
    if control not in names:
        raise ValueError(f"control {control!r} is not among the methods {names}")
    q = bonferroni_dunn_q(k, alpha)
    cd = critical_difference(q, k, n)
    c = names.index(control)
    diff = [names[i] for i in range(k) if i != c and abs(ranks[i] - ranks[c]) > cd]
    return PostHocResult(
        "bonferroni_dunn", cd, q, alpha, dict(zip(names, map(float, ranks), strict=True)), n, diff, control
    )


@dataclass(frozen=True)
class HolmResult:
    control: str
    z: dict
    pvalue: dict
    rejected: dict  # method → True when it differs from the control at α (Holm's step-down)
    alpha: float


def holm(data, control, alpha: float = 0.05, higher_is_better: bool = True) -> HolmResult:
    ranks, n, k, names = _mean_ranks(data, higher_is_better)
    c = names.index(control)
    se = math.sqrt(k * (k + 1) / (6.0 * n))
    others = [i for i in range(k) if i != c]
    z = {names[i]: float((ranks[i] - ranks[c]) / se) for i in others}
    p = {m: float(2 * _st.norm.sf(abs(v))) for m, v in z.items()}
    order = sorted(p, key=lambda m: (p[m], names.index(m)))
    rejected, still = {}, True
    for i, m in enumerate(order):
        still = still and p[m] <= alpha / (len(order) - i)
        rejected[m] = still
    return HolmResult(control, z, p, {m: rejected[m] for m in z}, alpha)


@dataclass(frozen=True)
class PairedTestResult:
    statistic: float
    pvalue: float
    wins: float
    ties: float
    losses: float


def wilcoxon(x, y, alternative: str = "two-sided", zero_method: str = "wilcox") -> PairedTestResult:
    """Wilcoxon signed-rank test of x against y over datasets (scipy), with the raw w/t/l.

    scipy's convention: the exact null distribution when there are fewer than 50 non-zero
    differences and no ties among them, else the normal approximation, never a continuity
    correction (Demšar 2006; R's wilcox.test applies one by default). A data set missing either
    value is dropped, as R's paired wilcox.test drops it."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    both = ~(np.isnan(x) | np.isnan(y))
    x, y = x[both], y[both]
    res = _st.wilcoxon(x, y, alternative=alternative, zero_method=zero_method)
    d = x - y
    return PairedTestResult(
        float(res.statistic), float(res.pvalue), float((d > 0).sum()), float((d == 0).sum()), float((d < 0).sum())
    )


def sign_test(
    wins: float, losses: float, ties: float = 0.0, split_ties: bool = True, alternative: str = "two-sided"
) -> PairedTestResult:
    """Sign test on a w/t/l record (Demšar §3.1.3): ties split evenly between wins and losses
    (an odd one dropped) when ``split_ties``, else dropped; exact binomial p. The counts are whole
    numbers of data sets: a half count (a record whose ties were split already) is refused, not
    truncated."""
    for name, count in (("wins", wins), ("losses", losses), ("ties", ties)):
        if float(count) != math.floor(float(count)) or float(count) < 0:
            raise ValueError(f"sign_test: {name} = {count} is not a whole count of data sets")
    won, lost = float(wins), float(losses)
    if split_ties:
        half = math.floor(ties / 2)
        won, lost = won + half, lost + half
    n = int(won + lost)
    p = float(_st.binomtest(int(won), n, 0.5, alternative=alternative).pvalue) if n else 1.0
    return PairedTestResult(float(won), p, float(wins), float(ties), float(losses))


def win_tie_loss(
    a, b, higher_is_better: bool = True, decimals: int | None = None, tolerance: float = 0.0
) -> tuple[int, int, int]:
    """Datasets on which a beats, ties with and loses to b. A tie: equal after rounding to
    ``decimals`` (when given), or ``|a − b| ≤ tolerance``."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if decimals is not None:
        a, b = np.round(a, decimals), np.round(b, decimals)
    d = a - b if higher_is_better else b - a
    tie = np.abs(d) <= tolerance
    return int(((d > 0) & ~tie).sum()), int(tie.sum()), int(((d < 0) & ~tie).sum())


def win_tie_loss_matrix(
    table: pd.DataFrame, higher_is_better: bool = True, decimals: int | None = None, tolerance: float = 0.0
) -> pd.DataFrame:
    """Every ordered pair of methods (columns): row method's wins, ties, losses against the column
    method, over the datasets (rows) where both have a value."""
    rows = []
    for i, r in enumerate(table.columns):
        for c in table.columns[:i]:
            both = table[[r, c]].dropna()
            w, t, lost = win_tie_loss(both[r], both[c], higher_is_better, decimals, tolerance)
            rows.append({"row": r, "col": c, "wins": w, "ties": t, "losses": lost, "datasets": len(both)})
    return pd.DataFrame(rows, columns=["row", "col", "wins", "ties", "losses", "datasets"])


def permutation_bounds(
    table: pd.DataFrame, n_permutations: int = 9999, seed: int = 1, level: float = 0.95, higher_is_better: bool = True
) -> pd.DataFrame:
    """Average and mean rank per method, with simultaneous bounds under equal performance.

    Under the null hypothesis the methods are exchangeable within a dataset, so each
    permutation shuffles every row of the (datasets × methods) table. The simultaneous
    bounds are the (1−level)/2 quantile of the smallest and the (1+level)/2 quantile of the
    largest statistic over methods: all methods fall inside both with probability ``level``.
    """
    refuse_missing(table)
    values = table.to_numpy(dtype=float)
    ranks = rank_rows(values, higher_is_better=higher_is_better)
    rng = np.random.default_rng(seed)
    n, k = values.shape
    lo_avg, hi_avg, lo_rank, hi_rank = [], [], [], []
    for _ in range(n_permutations):
        perm = rng.permuted(np.tile(np.arange(k), (n, 1)), axis=1)
        avg = np.take_along_axis(values, perm, axis=1).mean(axis=0)
        mr = np.take_along_axis(ranks, perm, axis=1).mean(axis=0)
        lo_avg.append(avg.min()), hi_avg.append(avg.max()), lo_rank.append(mr.min()), hi_rank.append(mr.max())
    a = (1 - level) / 2
    return pd.DataFrame(
        {
            "method": table.columns,
            "average": values.mean(axis=0),
            "mean_rank": ranks.mean(axis=0),
            "average_lower": np.quantile(lo_avg, a),
            "average_upper": np.quantile(hi_avg, 1 - a),
            "mean_rank_lower": np.quantile(lo_rank, a),
            "mean_rank_upper": np.quantile(hi_rank, 1 - a),
        }
    )


def mean_rank_test(
    table: pd.DataFrame, method: str, others: list[str], higher_is_better: bool = True
) -> tuple[float, float, float]:
    """Gaussian test of one method's mean rank among k methods (ties averaged).

    Under equal performance the mean rank is ≈ N((k+1)/2, s²) with
    s = sqrt(Σ_j v_j)/N, v_j = Σ_i (rank(i, j) − (k+1)/2)² / k. Returns (mean rank, s, one-sided p).
    """
    cols = [method] + list(others)
    refuse_missing(table[cols])
    ranks = rank_rows(table[cols].to_numpy(), higher_is_better=higher_is_better)
    k, n = len(cols), len(table)
    centre = (k + 1) / 2
    v = ((ranks - centre) ** 2).sum(axis=1) / k
    s = np.sqrt(v.sum()) / n
    observed = ranks[:, 0].mean()
    return float(observed), float(s), float(_st.norm.cdf((observed - centre) / s))


def win_loss_split(
    table: pd.DataFrame, reference: str, higher_is_better: bool = True, threshold: int | None = None
) -> pd.DataFrame:
    """How the reference fares against each other method: [s.w./m.w./m.b./s.b.].

    ``table`` is the long reproduced table (dataset, method, mean, significance of each method
    against the reference). s.w.: the method is significantly better; m.w.: better, not
    significantly; m.b.: worse, not significantly; s.b.: significantly worse. An exact tie counts
    ½ in m.w. and ½ in m.b. ``binomial_worse`` marks m.b. + s.b. ≥ ``threshold``, and
    ``p_at_least_threshold`` = Pr(Binomial(N, ½) ≥ threshold).
    """
    ref = table[table.method == reference].set_index("dataset")["mean"]
    rows = []
    for m, g in table[table.method != reference].groupby("method", sort=False):
        g = g.set_index("dataset")
        if g["mean"].isna().any() or ref.reindex(g.index).isna().any():
            continue
        diff = ref.reindex(g.index) - g["mean"]
        if not higher_is_better:
            diff = -diff
        sig = g["significance"].fillna("")
        sw = float((sig == "better").sum())
        sb = float((sig == "worse").sum())
        rest = sig == ""
        tie = rest & (diff.round(10) == 0)
        mw = float((rest & (diff < 0) & ~tie).sum()) + 0.5 * tie.sum()
        mb = float((rest & (diff > 0) & ~tie).sum()) + 0.5 * tie.sum()
        row = {"method": m, "s_w": sw, "m_w": mw, "m_b": mb, "s_b": sb}
        if threshold is not None:
            row["binomial_worse"] = "•" if mb + sb >= threshold else ""
            row["p_at_least_threshold"] = float(_st.binom.sf(threshold - 1, len(g), 0.5))
        rows.append(row)
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class WilcoxonHolmResult:
    pvalue: dict  # (a, b) → Wilcoxon signed-rank p of a against b over the data sets (two-sided)
    adjusted: dict  # (a, b) → Holm-adjusted p over the family (statsmodels' multipletests)
    rejected: dict  # (a, b) → True when a and b differ at α after Holm
    better: dict  # (a, b) → True when a is better than b (the median difference)
    alpha: float


def wilcoxon_holm(
    table: pd.DataFrame, pairs: list[tuple[str, str]], alpha: float = 0.05, higher_is_better: bool = True
) -> WilcoxonHolmResult:
    """A Wilcoxon signed-rank test per pair of methods (columns of ``table``, data sets as rows),
    the family's p-values adjusted by Holm's step-down: the replacement Benavoli, Corani &
    Mangili (JMLR 17(5), 2016) give for mean-rank post-hoc tests, whose verdict on a pair depends
    on the other methods ranked with it. ``pairs``: the family (every pair the claims compare,
    all pairs for a Nemenyi family, the control against each other for Bonferroni–Dunn's)."""
    from statsmodels.stats.multitest import multipletests

    p, better = {}, {}
    for a, b in pairs:
        d = table[a].to_numpy(float) - table[b].to_numpy(float)
        d = d[~np.isnan(d)]   # the data sets where both have a value, as ``wilcoxon``
        p[(a, b)] = wilcoxon(table[a], table[b]).pvalue if np.any(d) else 1.0
        better[(a, b)] = bool(np.median(d) != 0 and (np.median(d) > 0) == higher_is_better)
    reject, adjusted, _, _ = multipletests([p[ab] for ab in pairs], alpha=alpha, method="holm")
    return WilcoxonHolmResult(
        p,
        dict(zip(pairs, map(float, adjusted), strict=True)),
        dict(zip(pairs, map(bool, reject), strict=True)),
        better,
        alpha,
    )
