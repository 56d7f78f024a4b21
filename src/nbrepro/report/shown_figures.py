# SPDX-License-Identifier: GPL-3.0-or-later
"""The figures a paper's report shows, and their copies beside it.

The figure jobs write figures/{paper}/ (the folder the users asked for); the report job copies the
svg of every figure its page shows into results/{paper}/figures/ and points the page there, so a
copy of results/ (the RO-Crate) opens with every image. ``shown_figures`` is the one list of them:
the report job copies it and the plan expects it (``nbrepro fingerprint``)."""
from __future__ import annotations

import shutil
from pathlib import Path

from .. import paths
from ..io import atomic_path
from ..paper import Paper


def shown_figures(paper: Paper, figures: list[str], readings: bool = False,
                  out_of_sample_ranks: bool = False) -> list[str]:
    """The names (svg stems in figures/{paper}/) of the figures the report shows, in its order: each
    compared table's reproduced-against-published plot, the paper's own ``figures`` (the stats job's),
    the readings' figure (``readings``), the ranks in and out of sample (``out_of_sample_ranks``)."""
    names = [paths.reproduced_vs_published(t) for t, spec in paper.tables.items() if spec.compared_cells]
    names += list(figures)
    names += [paths.READINGS_FIGURE] * readings + [paths.RANKS_OUT_OF_SAMPLE_FIGURE] * out_of_sample_ranks
    return names


def copy_shown(names: list[str], figures: Path, results: Path) -> dict[str, Path]:
    """Copy each named svg of ``figures`` into ``results/figures/`` (written whole or not at all):
    name → the copy, which the page links."""
    folder = Path(results) / paths.SHOWN_FIGURES
    folder.mkdir(parents=True, exist_ok=True)
    copies = {}
    for name in names:
        copy = folder / f"{name}.svg"
        with atomic_path(copy) as tmp:
            shutil.copyfile(Path(figures) / f"{name}.svg", tmp)
        copies[name] = copy
    return copies
