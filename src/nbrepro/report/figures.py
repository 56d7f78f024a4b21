"""The report's own figure: each paper's reproduced cells against the published ones (PNG and
SVG, deterministic bytes). The figures a paper's config declares are drawn by their kinds
(``nbrepro.analysis.figures``)."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..plotting import pyplot, save


def reproduced_vs_published(table: pd.DataFrame, title: str, stem: Path) -> list[Path]:
    """One point per cell: reproduced mean against published mean, per method; the diagonal is exact."""
    plt = pyplot()
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
