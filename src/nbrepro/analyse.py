"""Per-paper analysis: fold results → reproduced tables beside the published ones, and tests.

Output (``results/{paper}/``):
  tables/{table}.csv          one row per cell: dataset, method, metric, mean, std,
                              published_mean, published_std, significance, published_significance
  tables/{table}_summary.csv  per method: average, mean rank (reproduced and published)
  stats/{table}_match_counts.csv  per method: cells, computed, exact at the printed
                              decimals, within 0.5 and 1.0 points, largest gap
  stats/timings.csv           total fit and predict seconds per dataset × classifier
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .config import ConfigError
from .io import atomic_path
from .stats import corrected_resampled_ttest, mean_ranks, weka_mean_std

TABLE_COLUMNS = ["dataset", "method", "metric", "mean", "std", "published_mean", "published_std",
                 "significance", "published_significance"]


def load_fold_results(paper: dict, results_dir: Path) -> pd.DataFrame:
    frames = []
    for ds in paper["datasets"]:
        for label in paper["classifiers"]:
            f = results_dir / "folds" / ds / f"{label}.parquet"
            if f.exists():
                d = pd.read_parquet(f)
                if "variant" not in d.columns:
                    d.insert(0, "variant", "")
                d.insert(0, "method", label)
                d.insert(0, "dataset", ds)
                frames.append(d)
    if not frames:
        return pd.DataFrame(columns=["dataset", "method", "variant", "run", "fold", "n_train", "n_test"])
    return pd.concat(frames, ignore_index=True)


def _significance(folds: pd.DataFrame, metric: str, reference: str | None, alpha: float) -> dict:
    """Corrected resampled t-test of every method against the reference, per dataset."""
    out = {}
    if not reference:
        return out
    for ds, g in folds.groupby("dataset", sort=False):
        ref = g[g.method == reference].sort_values(["run", "fold"])
        if ref.empty:
            continue
        ratio = ref.n_test.sum() / ref.n_train.sum()
        for m, gm in g.groupby("method", sort=False):
            if m == reference:
                continue
            gm = gm.sort_values(["run", "fold"])
            res = corrected_resampled_ttest(gm[metric].to_numpy(), ref[metric].to_numpy(), ratio, alpha)
            out[(ds, m)] = {1: "better", -1: "worse", 0: ""}[res.significance]
    return out


def table_columns(spec: dict) -> list[dict]:
    """A table's cells per dataset: (printed method, metric, computing classifier, fold column, aggregate)."""
    if "columns" in spec:
        return [{"value": "accuracy", "aggregate": "mean", **c} for c in spec["columns"]]
    return [{"method": m, "metric": spec["metric"], "classifier": m, "value": spec["metric"], "aggregate": "mean"}
            for m in spec["methods"]]


def _cell(folds: pd.DataFrame, col: dict) -> tuple[float, float]:
    """Mean and sd over folds (the classifier as configured), or min / max over its variants' means."""
    if folds.empty:
        return np.nan, np.nan
    if col["aggregate"] == "mean":
        base = folds[folds.variant == ""]
        return weka_mean_std(base[col["value"]].to_numpy()) if len(base) else (np.nan, np.nan)
    per_variant = folds[folds.variant != ""].groupby("variant", sort=False)[col["value"]].mean()
    if per_variant.empty:
        return np.nan, np.nan
    return (float(per_variant.min()) if col["aggregate"] == "min_over_variants" else float(per_variant.max())), np.nan


def build_table(paper: dict, spec: dict, folds: pd.DataFrame, published: pd.DataFrame | None) -> pd.DataFrame:
    columns = table_columns(spec)
    alpha = paper.get("significance", {}).get("alpha", 0.05)
    base = folds[folds.variant == ""] if "variant" in folds.columns else folds
    sig = {}
    for metric_col in {c["value"] for c in columns}:
        if metric_col in base.columns:
            for (ds, clf), mark in _significance(base, metric_col, paper.get("reference"), alpha).items():
                sig[(ds, clf, metric_col)] = mark
    groups = {key: g for key, g in folds.groupby(["dataset", "method"], sort=False)} if len(folds) else {}
    names = paper.get("published_names", {})
    pub = {}
    if published is not None:
        pub = {(d, m, k): (float(mu), float(sd), "" if pd.isna(s) else str(s))
               for d, m, k, mu, sd, s in published[["dataset", "method", "metric", "mean", "std",
                                                    "significance"]].itertuples(index=False)}
    rows = []
    for ds in paper["datasets"]:
        for col in columns:
            mean, std = _cell(groups.get((ds, col["classifier"]), pd.DataFrame()), col)
            printed = col.get("published_as", col["method"])
            pmean, pstd, psig = pub.get((names.get(ds, ds), printed, col["metric"]), (np.nan, np.nan, ""))
            mark = sig.get((ds, col["classifier"], col["value"]), "") if col["aggregate"] == "mean" else ""
            rows.append((ds, col["method"], col["metric"], mean, std, pmean, pstd, mark, psig))
    return pd.DataFrame(rows, columns=TABLE_COLUMNS)


def agreement(mean, std, published_mean, published_std) -> str:
    """How a reproduced cell compares with the printed one: 'exact' (mean and sd equal at the
    printed two decimals), 'within_0.5', 'within_1.0', 'off', or '' when either side is missing."""
    if pd.isna(mean) or pd.isna(published_mean):
        return ""
    same_std = (pd.isna(std) and pd.isna(published_std)) or (
        not pd.isna(std) and not pd.isna(published_std) and round(std, 2) == round(published_std, 2))
    if round(mean, 2) == round(published_mean, 2) and (same_std or pd.isna(published_std)):
        return "exact"
    gap = abs(mean - published_mean)
    return "within_0.5" if gap < 0.5 else "within_1.0" if gap < 1.0 else "off"



def match_counts(table: pd.DataFrame, table_name: str) -> pd.DataFrame:
    rows = []
    for (m, metric), g in table.groupby(["method", "metric"], sort=False):
        both = g.dropna(subset=["mean", "published_mean"])
        diff = (both["mean"] - both["published_mean"]).abs()
        kinds = [agreement(*r) for r in both[["mean", "std", "published_mean", "published_std"]].itertuples(index=False)]
        rows.append({"table": table_name, "method": m, "metric": metric, "cells": len(g), "computed": int(g["mean"].notna().sum()),
                     "exact_mean_and_std": kinds.count("exact"), "within_0.5": int((diff < 0.5).sum()),
                     "within_1.0": int((diff < 1.0).sum()),
                     "max_abs_diff": float(diff.max()) if len(diff) else np.nan})
    return pd.DataFrame(rows)


def summary(table: pd.DataFrame, published_summary: pd.DataFrame | None) -> pd.DataFrame:
    """Average and mean rank per method and metric. Ranks are over the methods reproduced so
    far (so they equal the paper's only once every column is computed)."""
    rows = []
    for metric, tm in table.groupby("metric", sort=False):
        wide = tm.pivot(index="dataset", columns="method", values="mean")
        methods = list(dict.fromkeys(tm["method"]))
        computed = [m for m in methods if wide[m].notna().all()]
        ranks = mean_ranks(wide[computed]) if len(computed) >= 1 else pd.Series(dtype=float)
        for m in methods:
            r = {"method": m, "metric": metric, "average": wide[m].mean() if m in computed else np.nan,
                 "mean_rank_among_computed": ranks.get(m, np.nan), "published_average": np.nan,
                 "published_mean_rank": np.nan}
            if published_summary is not None:
                ps = published_summary
                if "metric" in ps.columns:
                    ps = ps[ps.metric == metric]
                ps = ps[ps.method == m]
                if len(ps):
                    p = ps.iloc[0]
                    r["published_average"] = p.get("average_accuracy", p.get("average", np.nan))
                    r["published_mean_rank"] = p.get("mean_rank", np.nan)
            rows.append(r)
    return pd.DataFrame(rows)


def analyse_table(paper: dict, name: str, results_dir: str | Path) -> dict[str, pd.DataFrame]:
    """The files of one table: the long table, its summary rows and its match counts."""
    if name not in paper["tables"]:
        raise ConfigError(f"paper {paper['paper']!r} has no table {name!r} (have: {sorted(paper['tables'])})")
    spec = paper["tables"][name]
    folds = load_fold_results(paper, Path(results_dir))
    published = pd.read_csv(spec["published"]) if spec.get("published") else None
    table = build_table(paper, spec, folds, published)
    pub_sum = None
    if spec.get("published"):
        p = Path(spec["published"])
        ps = p.with_name(p.stem + "_summary.csv")
        pub_sum = pd.read_csv(ps) if ps.exists() else None
    return {f"tables/{name}.csv": table, f"tables/{name}_summary.csv": summary(table, pub_sum),
            f"stats/{name}_match_counts.csv": match_counts(table, name)}


def timings(paper: dict, results_dir: str | Path) -> dict[str, pd.DataFrame]:
    folds = load_fold_results(paper, Path(results_dir))
    cols = ["dataset", "method", "fit_seconds", "predict_seconds"]
    t = (folds.groupby(["dataset", "method"], sort=False)[cols[2:]].sum().reset_index()
         if len(folds) else pd.DataFrame(columns=cols))
    return {"stats/timings.csv": t}


def write_outputs(outputs: dict[str, pd.DataFrame], results_dir: str | Path) -> None:
    for rel, df in outputs.items():
        with atomic_path(Path(results_dir) / rel) as tmp:
            df.to_csv(tmp, index=False, float_format="%.10g", lineterminator="\n")
