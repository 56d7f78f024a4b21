"""The numbers of each figure kind a paper's config may declare (``figures:``); drawing them is
``nbrepro.report.figures``'s.

Each kind computes, from the reproduced tables (and Table 1, the recorded fitted state), a
``FigureData``: the frame the paper-stats job writes as ``stats/{figure}{data_suffix}.csv``
(when the kind has a suffix) and what the drawing needs beyond it. Adding a kind is one
function here and one drawing function in ``report.figures`` (a test checks both registries
name the same kinds); the schema's ``kind`` enum is read from ``FIGURE_KINDS``.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths, stats
from ..io import read_parquet
from ..kde.density import kernel_density
from ..plugin import Plugin
from ..spec import Table
from .tables import label_metric, wide_table


@dataclass
class FigureData:
    frame: pd.DataFrame | None                  # written as stats/{figure}{data_suffix}.csv
    plot: dict = field(default_factory=dict)    # what the drawing needs beyond the frame


class FigureKind(Plugin):
    """One kind of figure (``name``: the config's ``kind:``): its keys (``nbrepro.plugin``),
    ``compute(paper, spec, tables, table1, results) → FigureData`` and the suffix of its data file
    (None: it writes none); ``report.figures.DRAW`` draws it."""

    common = ("kind", "title")
    types = {"title": str, "table": str, "metric": str, "decimals": int, "methods": list, "n_permutations": int,
             "seed": int, "level": float, "properties": list, "alpha": float, "test": str, "control": str,
             "panels": list, "classifier": str, "x": str, "series": str, "x_labels": list, "datasets": list,
             "attribute": str, "classifiers": list, "ratio_to": str, "range": list, "scale": str, "ylabel": str}

    def __init__(self, name: str, compute: Callable[..., FigureData], data_suffix: str | None,
                 required: tuple[str, ...] = (), optional: tuple[str, ...] = ()):
        self.name, self.compute, self.data_suffix = name, compute, data_suffix
        self.required, self.optional = required, optional

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
        from .claims import known_methods

        known = known_methods(paper)
        named = list(entry.get("methods") or []) + ([entry["control"]] if "control" in entry else [])
        strange = [m for m in named if m not in known]
        if strange:
            return f"{strange} are not methods of the paper's tables (known: {sorted(known)})"
        return None


def _wide(tables, fig):
    return wide_table(tables[fig["table"]], fig.get("metric"), fig.get("decimals"))


def higher_is_better(paper, fig) -> bool:
    """Whether the figure's metric is better higher, read through its table (``x_summary`` → table ``x``)."""
    table = paper.tables.get(fig.get("table", "").removesuffix("_summary")) or Table.build({})
    return label_metric(paper, table, fig.get("metric") or "accuracy").higher_is_better


def permutation_bounds(paper, spec, tables, table1, results) -> FigureData:
    """Average and mean rank per method with simultaneous permutation bounds."""
    acc = _wide(tables, spec).dropna(axis=1, how="any")  # the methods computed so far
    higher = higher_is_better(paper, spec)
    bounds = stats.permutation_bounds(acc, spec.get("n_permutations", 9999), spec.get("seed", 1),
                                      spec.get("level", 0.95), higher_is_better=higher)
    return FigureData(bounds, {"higher": higher})


def ranks_against_property(paper, spec, tables, table1, results) -> FigureData:
    """Ranks of some methods (among themselves) per dataset, with the Table 1 columns to order them by."""
    methods = spec["methods"]
    acc = _wide(tables, spec)
    if not all(m in acc and acc[m].notna().all() for m in methods):
        acc = acc.reindex(columns=methods)
    ranks = stats.rank_rows(acc[methods], higher_is_better=higher_is_better(paper, spec))
    return FigureData(None, {"ranks": ranks, "table1": table1.set_index("dataset").reindex(ranks.index)})


def cd_diagram(paper, spec, tables, table1, results) -> FigureData:
    """Demšar's critical difference: Nemenyi over all pairs, or Bonferroni–Dunn against a control."""
    acc = _wide(tables, spec).dropna(axis=1, how="any")
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
                (m in res.different) if res.control else any(m in pair for pair in res.different) for m in ranks.index
            ],
        }
    )
    return FigureData(frame, {"result": res, "ranks": ranks, "test": test, "alpha": alpha})


def mean_rank_bars(paper, spec, tables, table1, results) -> FigureData:
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
            acc = _wide(tables, panel).dropna(axis=0)
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


def sweep(paper, spec, tables, table1, results) -> FigureData:
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


def recorded(results, paper, label, attribute) -> pd.DataFrame:
    """A classifier's recorded ``attribute`` over the datasets: rows (dataset, variant, run, fold,
    attribute, key, value, text), empty where nothing was recorded."""
    frames = []
    for ds in paper.datasets:
        f = Path(results) / paths.per_fold("fitted", ds, label)
        if f.exists():
            d = read_parquet(f)
            d = d[d.attribute == attribute]
            d.insert(0, "dataset", ds)
            frames.append(d)
    return (
        pd.concat(frames, ignore_index=True)
        if frames
        else pd.DataFrame(columns=["dataset", "variant", "run", "fold", "attribute", "key", "value", "text"])
    )


def density(paper, spec, tables, table1, results) -> FigureData:
    """Density of a recorded fitted value per classifier, optionally as a ratio to a reference
    classifier's value for the same (dataset, run, fold, key); the frame summarises each."""
    attribute, ref = spec["attribute"], spec.get("ratio_to")
    labels = spec.get("classifiers") or [label for label, c in paper.classifiers.items() if attribute in c.record]
    keys = ["dataset", "variant", "run", "fold", "key"]
    base = recorded(results, paper, ref, attribute).set_index(keys)["value"] if ref else None
    rows, curves = [], {}
    lo, hi = spec.get("range", (0.0, 3.0))
    grid = np.linspace(lo, hi, 301)
    for label in labels:
        v = recorded(results, paper, label, attribute).set_index(keys)["value"]
        if base is not None:
            v = v / base.reindex(v.index)
        v = v.to_numpy(dtype=float)
        v = v[np.isfinite(v)]
        rows.append(
            {
                "classifier": label,
                "objects": len(v),
                "median": np.median(v) if len(v) else np.nan,
                "q25": np.quantile(v, 0.25) if len(v) else np.nan,
                "q75": np.quantile(v, 0.75) if len(v) else np.nan,
            }
        )
        if len(v) > 1 and np.ptp(v) > 0:
            # scipy's gaussian_kde with Scott's factor, whose evaluate takes O(values × grid) time
            # and memory (26 s for Liu et al.'s 8 × 10⁵ ratios); the windowed sums agree to 1e-12
            h = float(np.std(v, ddof=1)) * len(v) ** -0.2
            curves[label] = kernel_density(grid, v, np.ones(len(v)), h)
    return FigureData(
        pd.DataFrame(rows), {"grid": grid, "curves": curves, "xlabel": f"{attribute} / {ref}" if ref else attribute}
    )


def recorded_profiles(paper, spec, tables, table1, results) -> FigureData:
    """Per dataset, a recorded vector (e.g. attribute weights) of several classifiers: each entry's
    mean over the runs and folds, scaled to the classifier's largest entry on that dataset
    (``scale: max``) or as recorded, with each (classifier, dataset)'s Spearman correlation with
    the first classifier's profile there."""
    from scipy.stats import spearmanr

    attribute, labels = spec["attribute"], spec["classifiers"]
    means = []
    for label in labels:
        d = recorded(results, paper, label, attribute)
        if len(d):
            d = d.assign(entry=pd.to_numeric(d.key))
            g = d.groupby(["dataset", "entry"], sort=True)["value"].mean().reset_index()
            g.insert(0, "classifier", label)
            means.append(g)
    data = (
        pd.concat(means, ignore_index=True)
        if means
        else pd.DataFrame(columns=["classifier", "dataset", "entry", "value"])
    )
    if spec.get("scale") == "max":
        top = data.groupby(["classifier", "dataset"])["value"].transform(lambda v: v.abs().max())
        data["scaled"] = np.where(top > 0, data.value / top.where(top > 0, 1.0), 0.0)
    else:
        data["scaled"] = data.value
    datasets = [ds for ds in paper.datasets if ds in set(data.dataset)]
    rho = {}
    for ds in datasets:
        first = data[(data.dataset == ds) & (data.classifier == labels[0])].set_index("entry")["value"]
        for label in labels[1:]:
            other = data[(data.dataset == ds) & (data.classifier == label)].set_index("entry")["value"]
            both = pd.concat([first, other], axis=1, join="inner").dropna()
            if len(both) > 2 and both.iloc[:, 0].nunique() > 1 and both.iloc[:, 1].nunique() > 1:
                rho[(label, ds)] = spearmanr(both.iloc[:, 0], both.iloc[:, 1]).statistic
    out = data.rename(columns={"value": "mean"})
    out["spearman_with_first"] = [rho.get((c, d), np.nan) for c, d in zip(out.classifier, out.dataset, strict=True)]
    return FigureData(out, {"data": data, "datasets": datasets})


_SHOWN = ("table", "metric", "decimals")  # which table's numbers a figure shows, at which decimals
FIGURE_KINDS = {
    kind.name: kind
    for kind in (
        FigureKind(
            "permutation_bounds",
            permutation_bounds,
            "_bounds",
            ("table",),
            _SHOWN + ("n_permutations", "seed", "level"),
        ),
        FigureKind(
            "ranks_against_property", ranks_against_property, None, ("table", "methods"), _SHOWN + ("properties",)
        ),
        FigureKind("cd_diagram", cd_diagram, "_ranks", ("table",), _SHOWN + ("methods", "alpha", "test", "control")),
        FigureKind("mean_rank_bars", mean_rank_bars, "_ranks", ("panels",), ("methods", "alpha")),
        FigureKind("sweep", sweep, "_data", ("table", "classifier", "x", "metric"), ("series", "x_labels", "datasets")),
        FigureKind("density", density, "_summary", ("attribute",), ("classifiers", "ratio_to", "range")),
        FigureKind("recorded_profiles", recorded_profiles, "_data", ("attribute", "classifiers"), ("scale", "ylabel")),
    )
}
