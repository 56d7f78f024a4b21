# SPDX-License-Identifier: GPL-3.0-or-later
"""The sweep figure kind: a metric against one parameter of a classifier's grid."""
from __future__ import annotations

import pandas as pd

from ...plotting import finish, pyplot
from ._base import FigureData, FigureKind, figure_kind


@figure_kind
class Sweep(FigureKind):
    name = "sweep"
    data_suffix = "_data"
    required = ("table", "classifier", "x", "metric")
    optional = ("series", "x_labels", "datasets")

    def compute(self, paper, spec, tables, table1, results) -> FigureData:
        """A metric against one grid parameter, one series per value of another, per dataset.
        ``x_labels``: x as categories in grid order (their positions in the frame)."""
        table = tables[spec["table"]]
        x, series = spec["x"], spec.get("series")
        classifiers = {label: c for label, c in paper.classifiers.items() if c.grid_of == spec["classifier"]}
        ticks = spec.get("x_labels")  # a categorical axis: the grid's values of x in order, these labels
        values = list(dict.fromkeys((type(c.grid_point[x]), c.grid_point[x]) for c in classifiers.values()))
        if ticks is not None and len(ticks) != len(values):
            raise ValueError(f"sweep figure: x_labels has {len(ticks)} labels for {len(values)} values of {x!r}")
        rows = []
        for label, c in classifiers.items():
            point = dict(c.grid_point)
            if ticks is not None:  # 1 (one row) and 1.0 (all of Nm) are different grid values
                point[x] = values.index((type(point[x]), point[x]))
            sub = table[(table.method == label) & (table.metric == spec["metric"])]
            for r in sub.itertuples(index=False):
                rows.append(
                    {
                        "dataset": r.dataset,
                        "x": point[x],
                        "series": point.get(series, "") if series else "",
                        "mean": r.mean,
                        "std": r.std,
                    }
                )
        data = pd.DataFrame(rows, columns=["dataset", "x", "series", "mean", "std"])
        return FigureData(data, {"datasets": spec.get("datasets", list(dict.fromkeys(data.dataset)))})

    def draw(self, data, spec, paper, stem):
        """A metric against one grid parameter, one curve per value of another, one panel per dataset."""
        x, series, ticks = spec["x"], spec.get("series"), spec.get("x_labels")
        frame, datasets = data.frame, data.plot["datasets"]
        plt = pyplot()
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
        finish(fig, plt, stem, spec.get("title", f"{spec['metric']} against {x}"))
