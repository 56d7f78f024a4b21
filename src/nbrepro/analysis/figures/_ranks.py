# SPDX-License-Identifier: GPL-3.0-or-later
"""Figure kinds over methods' ranks and averages: permutation bounds, ranks against a data-set
property, Demšar's critical-difference diagram and mean-rank bars."""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from ... import stats
from ...plotting import finish, pyplot
from ._base import SHOWN, FigureData, FigureKind, figure_kind, higher_is_better, wide


@figure_kind
class PermutationBounds(FigureKind):
    name = "permutation_bounds"
    data_suffix = "_bounds"
    required = ("table",)
    optional = SHOWN + ("n_permutations", "seed", "level")

    def compute(self, paper, spec, tables, table1, results) -> FigureData:
        """Average and mean rank per method with simultaneous permutation bounds."""
        acc = wide(tables, spec, paper).dropna(axis=1, how="any")  # the methods computed so far
        higher = higher_is_better(paper, spec)
        bounds = stats.permutation_bounds(acc, spec.get("n_permutations", 9999), spec.get("seed", 1),
                                          spec.get("level", 0.95), higher_is_better=higher)
        return FigureData(bounds, {"higher": higher})

    def draw(self, data, spec, paper, stem):
        """Paired bars of average and mean rank, methods by their average, with simultaneous permutation bounds."""
        bounds, higher = data.frame, data.plot["higher"]
        plt = pyplot()
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
        default = (f"averages and mean ranks with {level}% simultaneous bounds "
                   f"({spec.get('n_permutations', 9999)} permutations)")
        finish(fig, plt, stem, spec.get("title", default))


@figure_kind
class RanksAgainstProperty(FigureKind):
    name = "ranks_against_property"
    data_suffix = None
    required = ("table", "methods")
    optional = SHOWN + ("properties",)

    def compute(self, paper, spec, tables, table1, results) -> FigureData:
        """Ranks of some methods (among themselves) per dataset, with the Table 1 columns to order them by."""
        methods = spec["methods"]
        acc = wide(tables, spec, paper)
        if not all(m in acc and acc[m].notna().all() for m in methods):
            acc = acc.reindex(columns=methods)
        ranks = stats.rank_rows(acc[methods], higher_is_better=higher_is_better(paper, spec))
        return FigureData(None, {"ranks": ranks, "table1": table1.set_index("dataset").reindex(ranks.index)})

    def draw(self, data, spec, paper, stem):
        """Ranks per dataset, datasets in ascending order of a Table 1 column, one panel per column."""
        methods, ranks, t1 = spec["methods"], data.plot["ranks"], data.plot["table1"]
        props = spec.get("properties", ["n", "m", "r"])
        plt = pyplot()
        fig, axes = plt.subplots(len(props), 1, figsize=(11, 3 * len(props)), sharey=True, squeeze=False)
        for ax, key in zip(axes[:, 0], props, strict=True):
            order = t1[key].sort_values(kind="stable").index
            for method, marker in zip(methods, itertools.cycle("os^vD<>")):  # more methods than markers: repeated
                ax.plot(range(len(order)), ranks.loc[order, method], marker=marker, ls="-", lw=0.8, label=method)
            ax.set_xticks(range(len(order)), [f"{d} ({t1.loc[d, key]})" for d in order], rotation=90, fontsize=7)
            ax.set_ylabel(f"rank (by {key})")
            ax.invert_yaxis()
        axes[0, 0].legend(ncol=len(methods), fontsize=8)
        finish(fig, plt, stem, spec.get("title", "ranks against " + ", ".join(props)))


@figure_kind
class CdDiagram(FigureKind):
    name = "cd_diagram"
    data_suffix = "_ranks"
    required = ("table",)
    optional = SHOWN + ("methods", "alpha", "test", "control")

    def compute(self, paper, spec, tables, table1, results) -> FigureData:
        """Demšar's critical difference: Nemenyi over all pairs, or Bonferroni–Dunn against a control."""
        acc = wide(tables, spec, paper).dropna(axis=1, how="any")
        methods = [m for m in spec.get("methods", list(acc.columns)) if m in acc]
        acc = acc[methods]
        higher = higher_is_better(paper, spec)
        alpha = spec.get("alpha", 0.05)
        test = spec.get("test", "nemenyi")
        res = (stats.nemenyi(acc, alpha, higher) if test == "nemenyi"
               else stats.bonferroni_dunn(acc, spec["control"], alpha, higher))
        ranks = pd.Series(res.mean_ranks).sort_values()
        frame = pd.DataFrame(
            {
                "method": ranks.index,
                "mean_rank": ranks.to_numpy(),
                "critical_difference": res.critical_difference,
                "differs": [
                    (m in res.different) if res.control else any(m in pair for pair in res.different)
                    for m in ranks.index
                ],
            }
        )
        return FigureData(frame, {"result": res, "ranks": ranks, "test": test, "alpha": alpha})

    def draw(self, data, spec, paper, stem):
        """Demšar's critical-difference diagram: methods on the mean-rank axis; Nemenyi joins the groups
        that do not differ, Bonferroni–Dunn marks the interval of ± CD around the control."""
        res, ranks, test, alpha = data.plot["result"], data.plot["ranks"], data.plot["test"], data.plot["alpha"]
        k = len(ranks)
        plt = pyplot()
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
        default = f"{'Nemenyi' if test == 'nemenyi' else 'Bonferroni–Dunn'} test, α = {alpha}, N = {res.n_datasets}"
        finish(fig, plt, stem, spec.get("title", default))


@figure_kind
class MeanRankBars(FigureKind):
    name = "mean_rank_bars"
    data_suffix = "_ranks"
    required = ("panels",)
    optional = ("methods", "alpha")

    def compute(self, paper, spec, tables, table1, results) -> FigureData:
        """Mean ranks per measure (one panel each) with Nemenyi's critical difference."""
        alpha = spec.get("alpha", 0.05)
        rows = []
        for panel in spec["panels"]:  # list of {table, metric, title}
            table = tables[panel["table"]]
            if "mean_rank_among_computed" in table.columns:  # a summary frame
                sub = table[table.metric == panel["metric"]]
                ranks = sub.set_index("method")["mean_rank_among_computed"]
                n = int(sub["datasets"].iloc[0]) if "datasets" in sub else len(sub)
            else:
                acc = wide(tables, panel, paper).dropna(axis=0)
                ranks = stats.mean_ranks(acc, higher_is_better(paper, panel))
                n = len(acc)
            ranks = ranks.reindex(spec.get("methods", list(ranks.index)))
            k = len(ranks)
            cd = stats.critical_difference(stats.nemenyi_q(k, alpha), k, n) if n else np.nan
            rows += [
                {
                    "panel": panel.get("title", panel["metric"]),
                    "method": m,
                    "mean_rank": r,
                    "critical_difference": cd,
                    "datasets": n,
                }
                for m, r in ranks.items()
            ]
        return FigureData(pd.DataFrame(rows), {"alpha": alpha})

    def draw(self, data, spec, paper, stem):
        """Mean ranks per measure as bars, with whiskers of ± CD/2 (Nemenyi): two methods differ when
        their whiskers do not overlap."""
        panels = spec["panels"]
        plt = pyplot()
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
        finish(
            fig,
            plt,
            stem,
            spec.get("title", f"mean ranks with Nemenyi critical differences (α = {data.plot['alpha']})"),
        )
