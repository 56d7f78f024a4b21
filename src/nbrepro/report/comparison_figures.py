# SPDX-License-Identifier: GPL-3.0-or-later
"""The report's own figures: each paper's reproduced cells against the published ones, and its
methods' mean ranks on its own data sets beside the out-of-sample pool's (PNG and SVG,
deterministic bytes). The figures a paper's config declares are drawn by their kinds
(``nbrepro.analysis.figures``)."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..plotting import pyplot, save


def _padded(lo: float, hi: float) -> tuple[float, float]:
    """An axis range around [lo, hi] with a margin of 5 % of its width, whatever the unit (a fraction's
    axis is not padded by 2 points)."""
    pad = 0.05 * (hi - lo) if hi > lo else max(abs(hi), 1.0) * 0.05
    return lo - pad, hi + pad


def reproduced_vs_published(table: pd.DataFrame, title: str, stem: Path) -> list[Path]:
    """One point per cell: reproduced mean against published mean, per method; the diagonal is exact.
    Axes fit the values in the metric's own unit; one legend below both panels, off the data."""
    plt = pyplot()
    both = table.dropna(subset=["mean", "published_mean"])
    groups = list(both.groupby(["method", "metric"], sort=False))
    several = both["metric"].nunique() > 1
    rows = -(-len(groups) // 4)   # the legend's rows, four entries a row
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.4 + 0.22 * rows))
    ax = axes[0]
    markers = "osD^vP*X"
    metrics = list(dict.fromkeys(both["metric"]))
    if len(both):
        lo, hi = _padded(min(both["mean"].min(), both["published_mean"].min()),
                         max(both["mean"].max(), both["published_mean"].max()))
        ax.plot([lo, hi], [lo, hi], color="0.7", lw=1)
        for (m, metric), g in groups:
            ax.scatter(g["published_mean"], g["mean"], s=14, marker=markers[metrics.index(metric) % len(markers)],
                       label=f"{m} ({metric})" if several else m)
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
    ax.set_xlabel("published")
    ax.set_ylabel("reproduced")
    ax.set_title("mean per data set (in the metric's unit)")
    ax = axes[1]
    if len(both):
        # each point above its own data set's label; a table of several metrics (Orhan et al.'s Tables
        # 3–4) gives each method and metric a marker and a small offset
        datasets = list(dict.fromkeys(both.dataset))
        where = {d: i for i, d in enumerate(datasets)}
        width = 0.6 / max(1, len(groups))
        for n, ((_, metric), g) in enumerate(groups):
            x = [where[d] + (n - (len(groups) - 1) / 2) * width for d in g.dataset]
            ax.scatter(x, g["mean"] - g["published_mean"], s=14, marker=markers[metrics.index(metric) % len(markers)])
        ax.axhline(0, color="0.7", lw=1)
        ax.set_xticks(range(len(datasets)))
        ax.set_xticklabels(datasets, rotation=90, fontsize=6)
    ax.set_ylabel("reproduced − published (the metric's unit)")
    ax.set_title("gap per data set")
    fig.suptitle(title, fontsize=10)
    if groups:
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=min(4, len(groups)), fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.05 * rows + 0.02 if groups else 0, 1, 1))
    paths = save(fig, stem)
    plt.close(fig)
    return paths


def rank_shift_figure(ranks: pd.DataFrame, title: str, stem: Path) -> list[Path]:
    """Per metric, each method's mean rank on the paper's data sets (left) joined to its mean rank
    on the pool (right), rank 1 at the top; a bar on each side is that side's Nemenyi critical
    difference (two methods further apart than it differ at α)."""
    plt = pyplot()
    metrics = list(dict.fromkeys(ranks["metric"]))
    size = (4.2 * len(metrics) + 1.5, 0.32 * ranks["method"].nunique() + 2.4)
    fig, axes = plt.subplots(1, len(metrics), figsize=size, squeeze=False)
    for ax, metric in zip(axes[0], metrics, strict=True):
        g = ranks[ranks["metric"] == metric]
        k = len(g)
        for r in g.itertuples():
            ax.plot([0, 1], [r.in_sample_rank, r.out_of_sample_rank], marker="o", ms=4, lw=1.2)
        for x, column, align in ((-0.04, "in_sample_rank", "right"), (1.04, "out_of_sample_rank", "left")):
            shown = g.dropna(subset=[column]).sort_values(column, kind="stable")
            for r, y in zip(shown.itertuples(), _spread(shown[column].tolist(), 0.055 * k), strict=True):
                rank = getattr(r, column)
                text = f"{r.method} {rank:.2f}" if align == "right" else f"{rank:.2f} {r.method}"
                ax.text(x, y, text, ha=align, va="center", fontsize=7)
        first = g.iloc[0]
        for x, cd in ((-0.8, first.in_sample_cd), (1.8, first.out_of_sample_cd)):
            if pd.notna(cd):
                ax.plot([x, x], [1, 1 + cd], color="#cc3311", lw=3)
                ax.text(x, 0.85, "CD", ha="center", fontsize=7, color="#cc3311")
        ax.set_xlim(-0.9, 1.9)
        ax.set_ylim(k + 0.5, 0.5)
        ax.set_xticks([0, 1])
        ax.set_xticklabels([f"paper's data sets\n(N = {int(first.in_sample_datasets)})",
                            f"out of sample\n(N = {int(first.out_of_sample_datasets)})"], fontsize=8)
        ax.set_yticks([])
        for side in ("top", "right", "left"):
            ax.spines[side].set_visible(False)
        ax.set_title(f"{metric}: mean rank (red: Nemenyi's critical difference)", fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    paths = save(fig, stem)
    plt.close(fig)
    return paths


def _spread(values: list[float], gap: float) -> list[float]:
    """Label heights for sorted ``values``: each at least ``gap`` below the one before, pushed as
    little as possible (labels of tied ranks would print over each other)."""
    out = []
    for v in values:
        out.append(v if not out or v - out[-1] >= gap else out[-1] + gap)
    return out
