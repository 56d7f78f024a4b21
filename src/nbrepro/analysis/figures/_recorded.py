# SPDX-License-Identifier: GPL-3.0-or-later
"""Figure kinds over what classifiers recorded while fitting (``record:``): a value's density, and
per data set the recorded vectors side by side."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ... import paths
from ...io import read_parquet
from ...kde.density import kernel_density
from ...plotting import finish, pyplot
from ._base import FigureData, FigureKind, figure_kind


def recorded(results, paper, label, attribute) -> pd.DataFrame:
    """A classifier's recorded ``attribute`` over the datasets: rows (dataset, variant, run, fold,
    attribute, key, value, text), empty where nothing was recorded."""
    frames = []
    for ds in paper.datasets:
        f = paths.per_fold_file(results, "fitted", ds, label)
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


@figure_kind
class Density(FigureKind):
    name = "density"
    data_suffix = "_summary"
    required = ("attribute",)
    optional = ("classifiers", "ratio_to", "range")

    def compute(self, paper, spec, tables, table1, results) -> FigureData:
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

    def draw(self, data, spec, paper, stem):
        """One density curve per classifier on the grid."""
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(7, 4))
        for label, curve in data.plot["curves"].items():
            ax.plot(data.plot["grid"], curve, label=label, lw=1)
        ax.set_xlabel(data.plot["xlabel"])
        ax.set_ylabel("density")
        ax.legend(fontsize=7)
        finish(fig, plt, stem, spec.get("title", f"distribution of {spec['attribute']}"))


@figure_kind
class RecordedProfiles(FigureKind):
    name = "recorded_profiles"
    data_suffix = "_data"
    required = ("attribute", "classifiers")
    optional = ("scale", "ylabel")

    def compute(self, paper, spec, tables, table1, results) -> FigureData:
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

    def draw(self, data, spec, paper, stem):
        """Per dataset, the classifiers' recorded vectors side by side (entries numbered from 1)."""
        from matplotlib.ticker import MaxNLocator

        attribute, labels = spec["attribute"], spec["classifiers"]
        frame, datasets = data.plot["data"], data.plot["datasets"]
        plt = pyplot()
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
        finish(fig, plt, stem, spec.get("title", f"{attribute} per dataset"))
