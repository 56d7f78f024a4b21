# SPDX-License-Identifier: GPL-3.0-or-later
"""What every figure kind shares: ``FigureData``, the ``FigureKind`` plug-in (its keys, its check,
``compute`` and ``draw``), the registry ``FIGURE_KINDS`` and the helpers the kinds read tables with."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ...paper import Plugin, Table
from ..tables import label_metric, rank_decimals, wide_table


@dataclass
class FigureData:
    frame: pd.DataFrame | None                  # written as stats/{figure}{data_suffix}.csv
    plot: dict = field(default_factory=dict)    # what the drawing needs beyond the frame


class FigureKind(Plugin):
    """One kind of figure (``name``: the config's ``kind:``), its numbers and its drawing in one class:
    its keys (``nbrepro.paper.plugin``), ``compute(paper, spec, tables, table1, results) → FigureData``
    (run by the paper-stats job), ``draw(data, spec, paper, stem)`` (writes ``{stem}.png`` and
    ``.svg``) and ``data_suffix``, the suffix of its data file ``stats/{figure}{data_suffix}.csv``
    (None: it writes none)."""

    data_suffix: str | None = None
    common = ("kind", "title")
    types = {"title": str, "table": str, "metric": str, "decimals": int, "methods": list, "n_permutations": int,
             "seed": int, "level": float, "properties": list, "alpha": float, "test": str, "control": str,
             "panels": list, "classifier": str, "x": str, "series": str, "x_labels": list, "datasets": list,
             "attribute": str, "classifiers": list, "ratio_to": str, "range": list, "scale": str, "ylabel": str}

    def compute(self, paper, spec: dict, tables: dict, table1: pd.DataFrame, results: Path) -> FigureData:
        raise NotImplementedError

    def draw(self, data: FigureData, spec: dict, paper, stem: Path) -> None:
        raise NotImplementedError

    def check(self, entry, paper):
        """Its tables are the paper's (or their ``_summary`` rows), its methods and classifiers the paper's."""
        readable = {f for t in paper.tables for f in (t, f"{t}_summary")}
        panels = [p for p in entry.get("panels") or [] if isinstance(p, dict)]
        tables = [t for t in [entry.get("table")] + [p.get("table") for p in panels] if t is not None]
        unknown = sorted({t for t in tables if t not in readable})
        if unknown:
            return f"table(s) {unknown} are not among the paper's tables ({sorted(paper.tables)}) " \
                   "or their _summary rows"
        for i, panel in enumerate(panels):
            extra = sorted(set(panel) - {"table", "metric", "title"})
            if extra or "metric" not in panel:
                return f"panels[{i}]: " + (f"has no key {extra[0]!r} (its keys: metric, table, title)" if extra
                                           else "needs 'metric'")
        labels = set(paper.classifiers)
        grids = {c.grid_of for c in paper.classifiers.values()}
        named = list(entry.get("classifiers") or []) + [entry[k] for k in ("ratio_to",) if k in entry]
        strange = [c for c in named if c not in labels]
        if "classifier" in entry and entry["classifier"] not in grids | labels:
            strange.append(entry["classifier"])
        if strange:
            return f"{strange} name no classifier of the paper (have: {sorted(labels)})"
        from ..claim_records import known_methods

        known = known_methods(paper)
        named = list(entry.get("methods") or []) + ([entry["control"]] if "control" in entry else [])
        strange = [m for m in named if m not in known]
        if strange:
            return f"{strange} are not methods of the paper's tables (known: {sorted(known)})"
        ranked = rank_decimals(paper, entry.get("table"))
        if "decimals" in entry and ranked is not None and entry["decimals"] != ranked:
            return (f"decimals: {entry['decimals']} ranks table {entry['table']!r} otherwise than the paper's tables "
                    f"and statistics (analysis.decimals: {ranked}); leave it out or make it {ranked}")
        return None


def draw_note(title: str, note: str, stem: Path) -> None:
    """A figure that could not be computed (a cut to one data set): its title and why, in its place."""
    from ...plotting import pyplot, save

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6, 1.6))
    ax.axis("off")
    ax.text(0.5, 0.5, note, ha="center", va="center", fontsize=9, wrap=True)
    fig.suptitle(title, fontsize=10)
    save(fig, stem)
    plt.close(fig)


FIGURE_KINDS: dict[str, FigureKind] = {}


def figure_kind(cls):
    """Register a ``FigureKind`` class under its ``name`` (the config's ``kind:``)."""
    FIGURE_KINDS[cls.name] = cls()
    return cls


SHOWN = ("metric", "decimals")  # which of its table's metrics a figure shows, at which decimals


def wide(tables, fig, paper):
    """The figure's table as data sets × methods, of its metric, at its decimals (by default the
    decimals the paper's tables rank it at: ``rank_decimals``)."""
    decimals = fig.get("decimals", rank_decimals(paper, fig.get("table")))
    return wide_table(tables[fig["table"]], fig.get("metric"), decimals)


def higher_is_better(paper, fig) -> bool:
    """Whether the figure's metric is better higher, read through its table (``x_summary`` → table ``x``)."""
    table = paper.tables.get(fig.get("table", "").removesuffix("_summary")) or Table.build({})
    return label_metric(paper, table, fig.get("metric") or "accuracy").higher_is_better
