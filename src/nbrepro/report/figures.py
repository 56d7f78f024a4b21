"""Figures for a paper's report (PNG and SVG, deterministic bytes): drawing only; the numbers
of each figure kind are computed by ``nbrepro.analysis.figures``."""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd

from ..io import atomic_path


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "nbrepro"  # stable element ids
    return plt


def save(fig, stem: Path) -> list[Path]:
    out = []
    for ext, meta in (("png", {"Software": None}), ("svg", {"Date": None, "Creator": None})):
        p = stem.with_suffix("." + ext)
        with atomic_path(p) as tmp:
            fig.savefig(tmp, format=ext, metadata=meta, dpi=110)
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


# ---- figures declared in a paper's config (``figures:``), one drawing per kind --------------------
#
# Each draws the FigureData that nbrepro.analysis.figures computed for the figure (its kind of the
# same name) and writes {stem}.png and {stem}.svg.


def _finish(fig, plt, stem, title):
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    save(fig, stem)
    plt.close(fig)


def draw_permutation_bounds(data, spec, paper, stem):
    """Paired bars of average and mean rank, methods by their average, with simultaneous permutation bounds."""
    bounds, higher = data.frame, data.plot["higher"]
    plt = _plt()
    b = bounds.sort_values("average", ascending=not higher)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, col, label in (
        (axes[0], "average", f"average {spec.get('metric', '')}".strip()),
        (axes[1], "mean_rank", "mean rank"),
    ):
        ax.bar(range(len(b)), b[col], color="#4477aa")
        for bound in (f"{col}_lower", f"{col}_upper"):
            ax.axhline(b[bound].iloc[0], color="#cc3311", ls="--", lw=1)
        ax.set_xticks(range(len(b)), b["method"], rotation=45, ha="right")
        ax.set_ylabel(label)
        if col == "average":
            ax.set_ylim(
                min(b[col].min(), b[f"{col}_lower"].iloc[0]) - 1, max(b[col].max(), b[f"{col}_upper"].iloc[0]) + 1
            )
    level = int(round(100 * spec.get("level", 0.95)))
    _finish(
        fig,
        plt,
        stem,
        spec.get(
            "title",
            f"averages and mean ranks with {level}% simultaneous bounds "
            f"({spec.get('n_permutations', 9999)} permutations)",
        ),
    )


def draw_ranks_against_property(data, spec, paper, stem):
    """Ranks per dataset, datasets in ascending order of a Table 1 column, one panel per column."""
    methods, ranks, t1 = spec["methods"], data.plot["ranks"], data.plot["table1"]
    props = spec.get("properties", ["n", "m", "r"])
    plt = _plt()
    fig, axes = plt.subplots(len(props), 1, figsize=(11, 3 * len(props)), sharey=True, squeeze=False)
    for ax, key in zip(axes[:, 0], props, strict=True):
        order = t1[key].sort_values(kind="stable").index
        for method, marker in zip(methods, itertools.cycle("os^vD<>")):  # more methods than markers: repeated
            ax.plot(range(len(order)), ranks.loc[order, method], marker=marker, ls="-", lw=0.8, label=method)
        ax.set_xticks(range(len(order)), [f"{d} ({t1.loc[d, key]})" for d in order], rotation=90, fontsize=7)
        ax.set_ylabel(f"rank (by {key})")
        ax.invert_yaxis()
    axes[0, 0].legend(ncol=len(methods), fontsize=8)
    _finish(fig, plt, stem, spec.get("title", "ranks against " + ", ".join(props)))


def draw_cd_diagram(data, spec, paper, stem):
    """Demšar's critical-difference diagram: methods on the mean-rank axis; Nemenyi joins the groups
    that do not differ, Bonferroni–Dunn marks the interval of ± CD around the control."""
    res, ranks, test, alpha = data.plot["result"], data.plot["ranks"], data.plot["test"], data.plot["alpha"]
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
        ax.text(
            x_text,
            y,
            f"{m} ({r:.2f})",
            ha="left" if i >= half else "right",
            va="center",
            fontsize=8,
            transform=ax.transData,
        )
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
    else:  # the control differs from every method whose mean rank lies outside this interval
        c = res.mean_ranks[res.control]
        ax.plot(
            [max(0.5, c - cd), min(k + 0.5, c + cd)],
            [-0.18, -0.18],
            color="#4477aa",
            lw=6,
            alpha=0.5,
            solid_capstyle="butt",
        )
    ax.axis("off")
    _finish(
        fig,
        plt,
        stem,
        spec.get(
            "title", f"{'Nemenyi' if test == 'nemenyi' else 'Bonferroni–Dunn'} test, α = {alpha}, N = {res.n_datasets}"
        ),
    )


def draw_mean_rank_bars(data, spec, paper, stem):
    """Mean ranks per measure as bars, with whiskers of ± CD/2 (Nemenyi): two methods differ when
    their whiskers do not overlap."""
    panels = spec["panels"]
    plt = _plt()
    fig, axes = plt.subplots(1, len(panels), figsize=(3.2 * len(panels), 3.6), squeeze=False)
    for ax, panel in zip(axes[0], panels, strict=True):
        title = panel.get("title", panel["metric"])
        rows = data.frame[data.frame.panel == title]
        k, cd = len(rows), rows["critical_difference"].iloc[0] if len(rows) else np.nan
        ax.bar(range(k), rows["mean_rank"].to_numpy(), color="0.75")
        ax.errorbar(range(k), rows["mean_rank"].to_numpy(), yerr=cd / 2, fmt="none", ecolor="k", capsize=3)
        ax.set_xticks(range(k), rows["method"], rotation=60, ha="right", fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.set_ylabel("mean rank")
    _finish(
        fig, plt, stem, spec.get("title", f"mean ranks with Nemenyi critical differences (α = {data.plot['alpha']})")
    )


def draw_sweep(data, spec, paper, stem):
    """A metric against one grid parameter, one curve per value of another, one panel per dataset."""
    x, series, ticks = spec["x"], spec.get("series"), spec.get("x_labels")
    frame, datasets = data.frame, data.plot["datasets"]
    plt = _plt()
    cols = min(len(datasets), 4) or 1
    nrows = max(1, -(-len(datasets) // cols))
    fig, axes = plt.subplots(nrows, cols, figsize=(3.4 * cols, 2.8 * nrows), squeeze=False)
    for ax, ds in zip(axes.ravel(), datasets, strict=False):  # a grid's last row may have spare axes
        d = frame[frame.dataset == ds]
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
    for ax in axes.ravel()[len(datasets) :]:
        ax.axis("off")
    _finish(fig, plt, stem, spec.get("title", f"{spec['metric']} against {x}"))


def draw_density(data, spec, paper, stem):
    """One density curve per classifier on the grid."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 4))
    for label, curve in data.plot["curves"].items():
        ax.plot(data.plot["grid"], curve, label=label, lw=1)
    ax.set_xlabel(data.plot["xlabel"])
    ax.set_ylabel("density")
    ax.legend(fontsize=7)
    _finish(fig, plt, stem, spec.get("title", f"distribution of {spec['attribute']}"))


def draw_recorded_profiles(data, spec, paper, stem):
    """Per dataset, the classifiers' recorded vectors side by side (entries numbered from 1)."""
    from matplotlib.ticker import MaxNLocator

    attribute, labels = spec["attribute"], spec["classifiers"]
    frame, datasets = data.plot["data"], data.plot["datasets"]
    plt = _plt()
    cols = min(4, max(1, len(datasets)))
    rows_n = max(1, -(-len(datasets) // cols))
    fig, axes = plt.subplots(rows_n, cols, figsize=(3.2 * cols, 2.2 * rows_n), squeeze=False)
    names = paper.published_names
    for ax, ds in zip(axes.ravel(), datasets, strict=False):  # a grid's last row may have spare axes
        for label in labels:
            d = frame[(frame.dataset == ds) & (frame.classifier == label)]
            ax.plot(d.entry + 1, d.scaled, marker="o", ms=2.5, lw=0.8, label=label)
        ax.set_title(names.get(ds, ds), fontsize=8)
        ax.tick_params(labelsize=6)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # attributes are numbered 1, 2, …
    for ax in axes.ravel()[len(datasets) :]:
        ax.axis("off")
    if datasets:
        axes.ravel()[0].legend(fontsize=6)
    fig.supxlabel("attribute", fontsize=8)
    fig.supylabel(spec.get("ylabel", attribute + (" / largest" if spec.get("scale") == "max" else "")), fontsize=8)
    _finish(fig, plt, stem, spec.get("title", f"{attribute} per dataset"))


DRAW = {
    "permutation_bounds": draw_permutation_bounds,
    "ranks_against_property": draw_ranks_against_property,
    "cd_diagram": draw_cd_diagram,
    "mean_rank_bars": draw_mean_rank_bars,
    "sweep": draw_sweep,
    "density": draw_density,
    "recorded_profiles": draw_recorded_profiles,
}
