"""Figures for a paper's report (PNG and SVG, deterministic bytes)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "nbrepro"  # stable element ids
    return plt


def save(fig, stem: Path) -> list[Path]:
    stem.parent.mkdir(parents=True, exist_ok=True)
    out = []
    for ext, meta in (("png", {"Software": None}), ("svg", {"Date": None, "Creator": None})):
        p = stem.with_suffix("." + ext)
        fig.savefig(p, metadata=meta, dpi=110)
        out.append(p)
    return out


def reproduced_vs_published(table: pd.DataFrame, title: str, stem: Path) -> list[Path]:
    """One point per cell: reproduced mean against published mean, per method; the diagonal is exact."""
    plt = _plt()
    both = table.dropna(subset=["mean", "published_mean"])
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.4))
    ax = axes[0]
    if len(both):
        lo = min(both["mean"].min(), both["published_mean"].min()) - 2
        hi = max(both["mean"].max(), both["published_mean"].max()) + 2
        ax.plot([lo, hi], [lo, hi], color="0.7", lw=1)
        for m, g in both.groupby("method", sort=False):
            ax.scatter(g["published_mean"], g["mean"], s=14, label=m)
        ax.legend(fontsize=8)
    ax.set_xlabel("published")
    ax.set_ylabel("reproduced")
    ax.set_title("mean per dataset")
    ax = axes[1]
    if len(both):
        for m, g in both.groupby("method", sort=False):
            ax.scatter(range(len(g)), g["mean"] - g["published_mean"], s=14, label=m)
        ax.axhline(0, color="0.7", lw=1)
        ax.set_xticks(range(len(both.dataset.unique())))
        ax.set_xticklabels(both.dataset.unique(), rotation=90, fontsize=6)
    ax.set_ylabel("reproduced − published (points)")
    ax.set_title("gap per dataset")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    paths = save(fig, stem)
    plt.close(fig)
    return paths


# ---- figures declared in a paper's config (``figures:``), one kind each ---------------------------
#
# Each kind draws from the reproduced tables (and Table 1, recorded fitted state) and returns the
# data it drew, which the paper-stats job writes as results/{paper}/stats/{figure}{data_suffix}.csv.


@dataclass(frozen=True)
class FigureKind:
    draw: Callable
    data_suffix: str | None


def _wide(tables, fig):
    from ..analyse import wide_table

    return wide_table(tables[fig["table"]], fig.get("metric"), fig.get("decimals"))


def _higher(paper, fig) -> bool:
    """Whether the figure's metric is better higher, read through its table (``x_summary`` → table ``x``)."""
    from ..analyse import label_metric

    table = paper["tables"].get(fig.get("table", "").removesuffix("_summary"), {})
    return label_metric(paper, table, fig.get("metric") or "accuracy").higher_is_better


def _finish(fig, plt, stem, title):
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    save(fig, stem)
    plt.close(fig)


def draw_permutation_bounds(paper, spec, tables, table1, results, stem):
    """Paired bars of average and mean rank, methods by their average, with simultaneous permutation bounds."""
    from ..stats import permutation_bounds

    acc = _wide(tables, spec).dropna(axis=1, how="any")  # the methods computed so far
    higher = _higher(paper, spec)
    bounds = permutation_bounds(acc, spec.get("n_permutations", 9999), spec.get("seed", 1), spec.get("level", 0.95),
                                higher_is_better=higher)
    plt = _plt()
    b = bounds.sort_values("average", ascending=not higher)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, col, label in ((axes[0], "average", f"average {spec.get('metric', '')}".strip()), (axes[1], "mean_rank", "mean rank")):
        ax.bar(range(len(b)), b[col], color="#4477aa")
        for bound in (f"{col}_lower", f"{col}_upper"):
            ax.axhline(b[bound].iloc[0], color="#cc3311", ls="--", lw=1)
        ax.set_xticks(range(len(b)), b["method"], rotation=45, ha="right")
        ax.set_ylabel(label)
        if col == "average":
            ax.set_ylim(min(b[col].min(), b[f"{col}_lower"].iloc[0]) - 1, max(b[col].max(), b[f"{col}_upper"].iloc[0]) + 1)
    level = int(round(100 * spec.get("level", 0.95)))
    _finish(fig, plt, stem, spec.get("title", f"averages and mean ranks with {level}% simultaneous bounds "
                                            f"({spec.get('n_permutations', 9999)} permutations)"))
    return bounds


def draw_ranks_against_property(paper, spec, tables, table1, results, stem):
    """Ranks of some methods (among themselves) per dataset, datasets in ascending order of a Table 1 column."""
    from ..stats import rank_rows

    methods = spec["methods"]
    acc = _wide(tables, spec)
    if not all(m in acc and acc[m].notna().all() for m in methods):
        acc = acc.reindex(columns=methods)
    ranks = rank_rows(acc[methods], higher_is_better=_higher(paper, spec))
    t1 = table1.set_index("dataset").reindex(ranks.index)
    props = spec.get("properties", ["n", "m", "r"])
    plt = _plt()
    fig, axes = plt.subplots(len(props), 1, figsize=(11, 3 * len(props)), sharey=True, squeeze=False)
    for ax, key in zip(axes[:, 0], props):
        order = t1[key].sort_values(kind="stable").index
        for method, marker in zip(methods, "os^vD<>"):
            ax.plot(range(len(order)), ranks.loc[order, method], marker=marker, ls="-", lw=0.8, label=method)
        ax.set_xticks(range(len(order)), [f"{d} ({t1.loc[d, key]})" for d in order], rotation=90, fontsize=7)
        ax.set_ylabel(f"rank (by {key})")
        ax.invert_yaxis()
    axes[0, 0].legend(ncol=len(methods), fontsize=8)
    _finish(fig, plt, stem, spec.get("title", "ranks against " + ", ".join(props)))
    return None


def draw_cd_diagram(paper, spec, tables, table1, results, stem):
    """Demšar's critical-difference diagram: methods on the mean-rank axis; Nemenyi joins the groups
    that do not differ, Bonferroni–Dunn marks the interval of ± CD around the control."""
    from ..stats import bonferroni_dunn, nemenyi

    acc = _wide(tables, spec).dropna(axis=1, how="any")
    methods = [m for m in spec.get("methods", list(acc.columns)) if m in acc]
    acc = acc[methods]
    higher = _higher(paper, spec)
    alpha = spec.get("alpha", 0.05)
    test = spec.get("test", "nemenyi")
    res = (nemenyi(acc, alpha, higher) if test == "nemenyi"
           else bonferroni_dunn(acc, spec["control"], alpha, higher))
    ranks = pd.Series(res.mean_ranks).sort_values()
    k = len(ranks)
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.28 * k))
    ax.set_xlim(0.5, k + 0.5)
    ax.set_ylim(-0.3 * k - 1, 1.5)
    ax.axhline(0, color="k", lw=1)
    for r in range(1, k + 1):
        ax.plot([r, r], [0, 0.12], color="k", lw=1)
        ax.text(r, 0.25, str(r), ha="center", fontsize=8)
    half = (k + 1) // 2
    for i, (m, r) in enumerate(ranks.items()):
        y = -0.3 * (i % half + 1) - 0.3
        x_text = 0.6 if i < half else k + 0.4
        ax.plot([r, r, x_text], [0, y, y], color="0.3", lw=0.8)
        ax.text(x_text, y, f"{m} ({r:.2f})", ha="left" if i >= half else "right", va="center", fontsize=8,
                transform=ax.transData)
    cd = res.critical_difference
    ax.plot([1, 1 + cd], [1.0, 1.0], color="#cc3311", lw=2)
    ax.text(1 + cd / 2, 1.12, f"CD = {cd:.3f}", ha="center", fontsize=8, color="#cc3311")
    if test == "nemenyi":
        values = ranks.to_numpy()
        groups = []
        for i in range(k):
            j = max(j for j in range(i, k) if values[j] - values[i] <= cd)
            if j > i and not any(g[0] <= i and j <= g[1] for g in groups):
                groups.append((i, j))
        for n, (i, j) in enumerate(groups):
            ax.plot([values[i] - 0.03, values[j] + 0.03], [-0.18 - 0.1 * n] * 2, color="k", lw=3)
    else:   # the control differs from every method whose mean rank lies outside this interval
        c = res.mean_ranks[res.control]
        ax.plot([max(0.5, c - cd), min(k + 0.5, c + cd)], [-0.18, -0.18], color="#4477aa", lw=6, alpha=0.5,
                solid_capstyle="butt")
    ax.axis("off")
    _finish(fig, plt, stem, spec.get("title", f"{'Nemenyi' if test == 'nemenyi' else 'Bonferroni–Dunn'} test, "
                                            f"α = {alpha}, N = {res.n_datasets}"))
    return pd.DataFrame({"method": ranks.index, "mean_rank": ranks.to_numpy(), "critical_difference": cd,
                         "differs": [(m in res.different) if res.control else
                                     any(m in pair for pair in res.different) for m in ranks.index]})


def draw_mean_rank_bars(paper, spec, tables, table1, results, stem):
    """Mean ranks per measure as bars, with whiskers of ± CD/2 (Nemenyi): two methods differ when
    their whiskers do not overlap."""
    from ..stats import critical_difference, mean_ranks, nemenyi_q

    panels = spec["panels"]   # list of {table, metric, title}
    plt = _plt()
    fig, axes = plt.subplots(1, len(panels), figsize=(3.2 * len(panels), 3.6), squeeze=False)
    rows = []
    alpha = spec.get("alpha", 0.05)
    for ax, panel in zip(axes[0], panels):
        table = tables[panel["table"]]
        if "mean_rank_among_computed" in table.columns:   # a summary frame
            sub = table[table.metric == panel["metric"]]
            ranks = sub.set_index("method")["mean_rank_among_computed"]
            n = int(sub["datasets"].iloc[0]) if "datasets" in sub else len(sub)
        else:
            acc = _wide(tables, panel).dropna(axis=0)
            ranks = mean_ranks(acc, _higher(paper, panel))
            n = len(acc)
        ranks = ranks.reindex(spec.get("methods", list(ranks.index)))
        k = len(ranks)
        cd = critical_difference(nemenyi_q(k, alpha), k, n) if n else np.nan
        ax.bar(range(k), ranks.to_numpy(), color="0.75")
        ax.errorbar(range(k), ranks.to_numpy(), yerr=cd / 2, fmt="none", ecolor="k", capsize=3)
        ax.set_xticks(range(k), ranks.index, rotation=60, ha="right", fontsize=8)
        ax.set_title(panel.get("title", panel["metric"]), fontsize=9)
        ax.set_ylabel("mean rank")
        rows += [{"panel": panel.get("title", panel["metric"]), "method": m, "mean_rank": r,
                  "critical_difference": cd, "datasets": n} for m, r in ranks.items()]
    _finish(fig, plt, stem, spec.get("title", f"mean ranks with Nemenyi critical differences (α = {alpha})"))
    return pd.DataFrame(rows)


def draw_sweep(paper, spec, tables, table1, results, stem):
    """A metric against one grid parameter, one curve per value of another (e.g. accuracy against the
    neighbourhood size per local model), one panel per dataset. ``x_labels``: draw x as categories
    in grid order with these tick labels."""
    table = tables[spec["table"]]
    x, series = spec["x"], spec.get("series")
    classifiers = {label: c for label, c in paper["classifiers"].items() if c.get("grid_of") == spec["classifier"]}
    ticks = spec.get("x_labels")  # a categorical axis: the grid's values of x in order, these labels
    values = list(dict.fromkeys((type(c["grid_point"][x]), c["grid_point"][x]) for c in classifiers.values()))
    if ticks is not None and len(ticks) != len(values):
        raise ValueError(f"sweep figure: x_labels has {len(ticks)} labels for {len(values)} values of {x!r}")
    rows = []
    for label, c in classifiers.items():
        point = dict(c["grid_point"])
        if ticks is not None:  # 1 (one row) and 1.0 (all of Nm) are different grid values
            point[x] = values.index((type(point[x]), point[x]))
        sub = table[(table.method == label) & (table.metric == spec["metric"])]
        for r in sub.itertuples(index=False):
            rows.append({"dataset": r.dataset, "x": point[x], "series": point.get(series, "") if series else "",
                         "mean": r.mean, "std": r.std})
    data = pd.DataFrame(rows, columns=["dataset", "x", "series", "mean", "std"])
    datasets = spec.get("datasets", list(dict.fromkeys(data.dataset)))
    plt = _plt()
    cols = min(len(datasets), 4) or 1
    nrows = max(1, -(-len(datasets) // cols))
    fig, axes = plt.subplots(nrows, cols, figsize=(3.4 * cols, 2.8 * nrows), squeeze=False)
    for ax, ds in zip(axes.ravel(), datasets):
        d = data[data.dataset == ds]
        for name, g in d.groupby("series", sort=False):
            g = g.sort_values("x")
            ax.plot(g["x"], g["mean"], marker="o", ms=3, label=str(name) or None)
        ax.set_title(ds, fontsize=9)
        ax.set_xlabel(x)
        if ticks is not None:
            ax.set_xticks(range(len(ticks)), ticks, rotation=60, fontsize=7)
        ax.set_ylabel(spec["metric"])
    if series:
        axes.ravel()[0].legend(fontsize=7)
    for ax in axes.ravel()[len(datasets):]:
        ax.axis("off")
    _finish(fig, plt, stem, spec.get("title", f"{spec['metric']} against {x}"))
    return data


def draw_density(paper, spec, tables, table1, results, stem):
    """Density of a recorded fitted value per classifier, optionally as a ratio to a reference
    classifier's value for the same (dataset, run, fold, key)."""
    from ..kde.density import kernel_density

    attribute, ref = spec["attribute"], spec.get("ratio_to")
    labels = spec.get("classifiers") or [l for l, c in paper["classifiers"].items() if attribute in c.get("record", [])]

    def load(label):
        return _recorded(results, paper, label, attribute)

    keys = ["dataset", "variant", "run", "fold", "key"]
    base = load(ref).set_index(keys)["value"] if ref else None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 4))
    rows = []
    lo, hi = spec.get("range", (0.0, 3.0))
    grid = np.linspace(lo, hi, 301)
    for label in labels:
        d = load(label)
        v = d.set_index(keys)["value"]
        if base is not None:
            v = v / base.reindex(v.index)
        v = v.to_numpy(dtype=float)
        v = v[np.isfinite(v)]
        rows.append({"classifier": label, "objects": len(v), "median": np.median(v) if len(v) else np.nan,
                     "q25": np.quantile(v, 0.25) if len(v) else np.nan, "q75": np.quantile(v, 0.75) if len(v) else np.nan})
        if len(v) > 1 and np.ptp(v) > 0:
            # scipy's gaussian_kde with Scott's factor, whose evaluate takes O(values × grid) time
            # and memory (26 s for Liu et al.'s 8 × 10⁵ ratios); the windowed sums agree to 1e-12
            h = float(np.std(v, ddof=1)) * len(v) ** -0.2
            ax.plot(grid, kernel_density(grid, v, np.ones(len(v)), h), label=label, lw=1)
    ax.set_xlabel(f"{attribute} / {ref}" if ref else attribute)
    ax.set_ylabel("density")
    ax.legend(fontsize=7)
    _finish(fig, plt, stem, spec.get("title", f"distribution of {attribute}"))
    return pd.DataFrame(rows)


def _recorded(results, paper, label, attribute):
    """A classifier's recorded ``attribute`` over the datasets: rows (dataset, variant, run, fold,
    attribute, key, value, text), empty where nothing was recorded."""
    frames = []
    for ds in paper["datasets"]:
        f = Path(results) / "fitted" / ds / f"{label}.parquet"
        if f.exists():
            d = pd.read_parquet(f)
            d = d[d.attribute == attribute]
            d.insert(0, "dataset", ds)
            frames.append(d)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["dataset", "variant", "run", "fold", "attribute", "key", "value", "text"])


def draw_recorded_profiles(paper, spec, tables, table1, results, stem):
    """Per dataset, a recorded vector (e.g. attribute weights) of several classifiers side by side:
    each entry's mean over the runs and folds, scaled to the classifier's largest entry on that
    dataset (``scale: max``, so weights on different scales share an axis) or as recorded. Returns
    the means, with each (classifier, dataset)'s Spearman correlation with the first classifier's
    profile there."""
    from scipy.stats import spearmanr

    from matplotlib.ticker import MaxNLocator

    attribute, labels = spec["attribute"], spec["classifiers"]
    means = []
    for label in labels:
        d = _recorded(results, paper, label, attribute)
        if len(d):
            d = d.assign(entry=pd.to_numeric(d.key))
            g = d.groupby(["dataset", "entry"], sort=True)["value"].mean().reset_index()
            g.insert(0, "classifier", label)
            means.append(g)
    data = pd.concat(means, ignore_index=True) if means else pd.DataFrame(
        columns=["classifier", "dataset", "entry", "value"])
    if spec.get("scale") == "max":
        top = data.groupby(["classifier", "dataset"])["value"].transform(lambda v: v.abs().max())
        data["scaled"] = np.where(top > 0, data.value / top.where(top > 0, 1.0), 0.0)
    else:
        data["scaled"] = data.value
    datasets = [ds for ds in paper["datasets"] if ds in set(data.dataset)]
    plt = _plt()
    cols = min(4, max(1, len(datasets)))
    rows_n = max(1, -(-len(datasets) // cols))
    fig, axes = plt.subplots(rows_n, cols, figsize=(3.2 * cols, 2.2 * rows_n), squeeze=False)
    names = paper.get("published_names", {})
    for ax, ds in zip(axes.ravel(), datasets):
        for label in labels:
            d = data[(data.dataset == ds) & (data.classifier == label)]
            ax.plot(d.entry + 1, d.scaled, marker="o", ms=2.5, lw=0.8, label=label)
        ax.set_title(names.get(ds, ds), fontsize=8)
        ax.tick_params(labelsize=6)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # attributes are numbered 1, 2, …
    for ax in axes.ravel()[len(datasets):]:
        ax.axis("off")
    if datasets:
        axes.ravel()[0].legend(fontsize=6)
    fig.supxlabel("attribute", fontsize=8)
    fig.supylabel(spec.get("ylabel", attribute + (" / largest" if spec.get("scale") == "max" else "")), fontsize=8)
    _finish(fig, plt, stem, spec.get("title", f"{attribute} per dataset"))
    rho = {}
    for ds in datasets:
        first = data[(data.dataset == ds) & (data.classifier == labels[0])].set_index("entry")["value"]
        for label in labels[1:]:
            other = data[(data.dataset == ds) & (data.classifier == label)].set_index("entry")["value"]
            both = pd.concat([first, other], axis=1, join="inner").dropna()
            if len(both) > 2 and both.iloc[:, 0].nunique() > 1 and both.iloc[:, 1].nunique() > 1:
                rho[(label, ds)] = spearmanr(both.iloc[:, 0], both.iloc[:, 1]).statistic
    out = data.rename(columns={"value": "mean"})
    out["spearman_with_first"] = [rho.get((c, d), np.nan) for c, d in zip(out.classifier, out.dataset)]
    return out


FIGURE_KINDS = {
    "permutation_bounds": FigureKind(draw_permutation_bounds, "_bounds"),
    "ranks_against_property": FigureKind(draw_ranks_against_property, None),
    "cd_diagram": FigureKind(draw_cd_diagram, "_ranks"),
    "mean_rank_bars": FigureKind(draw_mean_rank_bars, "_ranks"),
    "sweep": FigureKind(draw_sweep, "_data"),
    "density": FigureKind(draw_density, "_summary"),
    "recorded_profiles": FigureKind(draw_recorded_profiles, "_data"),
}
