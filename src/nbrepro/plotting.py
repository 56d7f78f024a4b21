# SPDX-License-Identifier: GPL-3.0-or-later
"""matplotlib for the report's figures, with deterministic bytes: the Agg backend, SVG ids from a
fixed salt, and no date or software version in the files (``nbrepro fingerprint`` compares them)."""
from __future__ import annotations

from pathlib import Path

from .io import atomic_path


def pyplot():
    """``matplotlib.pyplot``, imported when a figure is first drawn (a job that draws none does not pay for it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "nbrepro"  # stable element ids
    return plt


def save(fig, stem: Path) -> list[Path]:
    """``{stem}.png`` and ``{stem}.svg``, each written whole or not at all."""
    out = []
    for ext, meta in (("png", {"Software": None}), ("svg", {"Date": None, "Creator": None})):
        p = stem.with_suffix("." + ext)
        with atomic_path(p) as tmp:
            fig.savefig(tmp, format=ext, metadata=meta, dpi=110)
        out.append(p)
    return out


def finish(fig, plt, stem: Path, title: str) -> None:
    """Title, tight layout, both files, and the figure closed."""
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    save(fig, stem)
    plt.close(fig)
