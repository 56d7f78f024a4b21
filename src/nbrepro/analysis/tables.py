# SPDX-License-Identifier: GPL-3.0-or-later
"""Per-paper analysis: fold results → reproduced tables beside the published ones, and tests.

Output (``results/{paper}/``):
  tables/{table}.csv          one row per cell: dataset, method, metric, mean, std,
                              published_mean, published_std, significance, published_significance
  tables/{table}_summary.csv  per method: average, mean rank (reproduced and published)
  stats/{table}_match_counts.csv  per method and metric: its cells in each class of
                              ``analysis.counts`` (exact at the printed decimals, within the
                              metric's tolerances in its unit, further off, not printed), largest gap
  stats/timings.csv           total fit and predict seconds per dataset × classifier
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths
from ..errors import ConfigError
from ..io import atomic_path, check_recorded, read_parquet
from ..metrics import Metric, metric_for, paper_metrics
from ..paper import Column, Paper, Table
from ..stats import corrected_resampled_ttest, mean_ranks, paired_ttest, weka_mean_std
from .counts import match_counts, pairwise_counts

TABLE_COLUMNS = ["dataset", "method", "metric", "mean", "std", "published_mean", "published_std",
                 "significance", "published_significance", "mean_decimals", "std_decimals"]
# a table with a column the paper did not print (``beside:``): the printed method it is shown next
# to and that method's printed mean, for the eye only (the cell counts as not printed)
BESIDE_COLUMNS = ["beside_method", "beside_mean"]


def printed_decimals(text) -> float:
    """Decimals of a number as printed: '0.1591' → 4, '8.7' → 1, '88.00' → 2, '12' → 0; NaN if none."""
    if text is None or (isinstance(text, float) and np.isnan(text)):
        return np.nan
    t = str(text).strip()
    if not t or t.lower() == "nan":
        return np.nan
    mantissa = t.lower().split("e")[0]
    return float(len(mantissa.split(".")[1])) if "." in mantissa else 0.0


def read_published(path) -> pd.DataFrame:
    """A published results table with mean and std kept as printed, to know their decimals."""
    pub = pd.read_csv(path, dtype={"mean": str, "std": str, "significance": str})
    pub["mean_decimals"] = pub["mean"].map(printed_decimals)
    pub["std_decimals"] = pub["std"].map(printed_decimals)
    pub["mean"] = pd.to_numeric(pub["mean"])
    pub["std"] = pd.to_numeric(pub["std"])
    return pub


def load_fold_results(paper: Paper, results_dir) -> pd.DataFrame:
    frames = []
    for ds in paper.datasets:
        for label in paper.classifiers:
            f = paths.per_fold_file(results_dir, "folds", ds, label)
            if f.exists():
                d = read_parquet(f)
                if "variant" not in d.columns:
                    d.insert(0, "variant", "")
                d.insert(0, "method", label)
                d.insert(0, "dataset", ds)
                frames.append(d)
    if not frames:
        return pd.DataFrame(columns=["dataset", "method", "variant", "run", "fold", "n_train", "n_test"])
    return pd.concat(frames, ignore_index=True)


T_TESTS = {"corrected_resampled_t": lambda x, y, ratio, alpha: corrected_resampled_ttest(x, y, ratio, alpha),
           "paired_t": lambda x, y, ratio, alpha: paired_ttest(x, y, alpha)}   # Weka's two paired testers


def significance_marks(folds: pd.DataFrame, metric: str, reference: str | None, alpha: float,
                       higher_is_better: bool = True, test: str = "corrected_resampled_t") -> dict:
    """A t-test (``T_TESTS``: Weka's corrected resampled one, or its plain paired one) of every
    method against the reference over the folds, per dataset: (dataset, method) → "better",
    "worse" or "" in the metric's direction (a lower RRSE is better)."""
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
            res = T_TESTS[test](gm[metric].to_numpy(), ref[metric].to_numpy(), ratio, alpha)
            direction = res.significance if higher_is_better else -res.significance
            out[(ds, m)] = {1: "better", -1: "worse", 0: ""}[direction]
    return out


def _read_predictions(path: Path, metrics: dict[str, Metric]) -> pd.DataFrame:
    """A predictions file; without its probability columns when no metric reads them (they are
    most of the file: letter's 26 classes × 30 runs × 20 000 rows), their class names kept
    (``attrs["classes"]``: written with the file; from the ``p:`` columns in older files)."""
    if any(m.reads_probabilities for m in metrics.values()):
        return read_parquet(path)
    import pyarrow.parquet as pq

    names = pq.read_schema(check_recorded(path)).names
    pred = pd.read_parquet(path, columns=[c for c in names if not c.startswith("p:")])
    if "classes" not in pred.attrs:
        pred.attrs["classes"] = [c[2:] for c in names if c.startswith("p:")]
    return pred


def dataset_level_values(paper: Paper, results_dir, metrics: dict[str, Metric], classifiers) -> dict:
    """(dataset, classifier) → {column: value} for metrics computed from all runs' predictions at once;
    each predictions file of the given classifiers is read once."""
    out = {}
    for ds in paper.datasets:
        for label in dict.fromkeys(classifiers):
            f = paths.per_fold_file(results_dir, "predictions", ds, label)
            if f.exists():
                pred = _read_predictions(f, metrics)
                if "variant" in pred.columns:
                    pred = pred[pred.variant == ""]
                out[(ds, label)] = {c: m(pred) for c, m in metrics.items()}
    return out


def _cell(folds: pd.DataFrame, col: Column, dataset_values: dict | None = None) -> tuple[float, float]:
    """Mean and sd over folds (the classifier as configured), min / max over its variants' means,
    or the one value of a dataset-level metric."""
    if dataset_values is not None:
        return float(dataset_values.get(col.value, np.nan)), np.nan
    if folds.empty:
        return np.nan, np.nan
    if col.aggregate == "mean":
        base = folds[folds.variant == ""]
        return weka_mean_std(base[col.value].to_numpy()) if len(base) else (np.nan, np.nan)
    per_variant = folds[folds.variant != ""].groupby("variant", sort=False)[col.value].mean()
    if per_variant.empty:
        return np.nan, np.nan
    return (float(per_variant.min()) if col.aggregate == "min_over_variants" else float(per_variant.max())), np.nan


def label_metric(paper: Paper, spec: Table, label: str) -> Metric:
    """The metric behind a table's printed metric label (e.g. lslwnb's 'tca' is the accuracy column,
    kdebw's 'ERROR' the error column)."""
    if spec.kind == "pairwise":
        column = spec.measures.get(label, label)
    else:
        column = next((c.value for c in spec.columns if c.metric == label), label)
    return metric_for(paper, column)


def table_metrics(paper: Paper, spec: Table) -> dict[str, Metric]:
    declared = paper_metrics(paper)
    return {c.value: metric_for(paper, c.value, declared) for c in spec.columns}


def build_table(paper: Paper, spec: Table, folds: pd.DataFrame, published: pd.DataFrame | None,
                dataset_values: dict | None = None) -> pd.DataFrame:
    columns = spec.columns
    metrics = table_metrics(paper, spec)
    alpha = paper.significance.alpha
    base = folds[folds.variant == ""] if "variant" in folds.columns else folds
    sig = {}
    for metric_col, metric in metrics.items():
        if metric_col in base.columns and metric.level == "fold":
            for (ds, clf), mark in significance_marks(base, metric_col, paper.reference, alpha,
                                                 metric.higher_is_better).items():
                sig[(ds, clf, metric_col)] = mark
    groups = {key: g for key, g in folds.groupby(["dataset", "method"], sort=False)} if len(folds) else {}
    names = paper.published_names
    pub = {}
    if published is not None:
        pub = {
            (d, m, k): (mu, sd, "" if pd.isna(s) else str(s), md, sdd)
            for d, m, k, mu, sd, s, md, sdd in published[
                ["dataset", "method", "metric", "mean", "std", "significance", "mean_decimals", "std_decimals"]
            ].itertuples(index=False)
        }
    rows = []
    missing = (np.nan, np.nan, "", np.nan, np.nan)
    beside = any(col.beside for col in columns)
    for ds in paper.datasets:
        for col in columns:
            level = metrics[col.value].level
            values = (dataset_values or {}).get((ds, col.classifier), {}) if level == "dataset" else None
            mean, std = _cell(groups.get((ds, col.classifier), pd.DataFrame()), col, values)
            mark = sig.get((ds, col.classifier, col.value), "") if col.aggregate == "mean" else ""
            if col.beside:   # a column the paper did not print: no printed cell, the other method's beside it
                printed = pub.get((names.get(ds, ds), col.beside, col.metric), missing)
                row = (ds, col.method, col.metric, mean, std, np.nan, np.nan, mark, "", printed[3], printed[4])
                rows.append((*row, col.beside, printed[0]))
                continue
            pmean, pstd, psig, mdec, sdec = pub.get((names.get(ds, ds), col.method, col.metric), missing)
            row = (ds, col.method, col.metric, mean, std, pmean, pstd, mark, psig, mdec, sdec)
            rows.append((*row, "", np.nan) if beside else row)
    return pd.DataFrame(rows, columns=TABLE_COLUMNS + (BESIDE_COLUMNS if beside else []))


def _win_tie_loss(significance: pd.Series, present: pd.Series) -> str:
    """ "w/t/l": data sets where the method is significantly better / neither / significantly worse
    than the reference, counted where it has a value; "" where it has none."""
    if not present.any():
        return ""
    w, l_ = int((significance[present] == "better").sum()), int((significance[present] == "worse").sum())
    return f"{w}/{int(present.sum()) - w - l_}/{l_}"


def rank_decimals(paper: Paper, table: str | None) -> int | None:
    """The decimals a table's means are ranked at, the same in its summary rows, its figures and the
    paper's statistics: the printed decimals the paper's statistics read (``analysis.decimals``) for
    the table they read (``analysis.table``; a paper ranks the means it printed, so equal printed
    means tie), else none (the computed means, unrounded)."""
    return paper.analysis.decimals if table is not None and table == paper.analysis.table else None


def summary(
    table: pd.DataFrame,
    published_summary: pd.DataFrame | None,
    directions: dict | None = None,
    summary_columns: dict | None = None,
    reference: str | None = None,
    markers_printed: list | None = None,
    decimals: int | None = None,
) -> pd.DataFrame:
    """Average and mean rank (1 = best in the metric's direction) per method and metric. Ranks are over
    the methods reproduced so far (so they equal the paper's only once every column is computed), of
    the means at ``decimals`` (``rank_decimals``; the averages are of the unrounded means).
    ``summary_columns`` names the published file's columns for ``average`` and ``mean_rank``.
    With a ``reference``, each other method's significant wins/ties/losses against it (``wtl``), ours
    and the printed markers' (``published_wtl``, only for ``markers_printed`` columns when given: a
    table that lost its markers has none to count), over the same data sets."""
    names = summary_column_names(summary_columns)
    rows = []
    reference_printed = reference is not None and table.loc[table.method == reference, "published_mean"].notna().any()
    for metric, tm in table.groupby("metric", sort=False):
        wide = tm.pivot(index="dataset", columns="method", values="mean")
        methods = list(dict.fromkeys(tm["method"]))
        computed = [m for m in methods if wide[m].notna().all()]
        higher = (directions or {}).get(metric, True)
        ranked = wide[computed].round(decimals) if decimals is not None else wide[computed]
        ranks = mean_ranks(ranked, higher) if len(computed) >= 1 else pd.Series(dtype=float)
        for m in methods:
            r = {
                "method": m,
                "metric": metric,
                "average": wide[m].mean() if m in computed else np.nan,
                "mean_rank_among_computed": ranks.get(m, np.nan),
                "published_average": np.nan,
                "published_mean_rank": np.nan,
            }
            if reference is not None:
                rows_m = tm[tm.method == m]
                mine = m != reference
                r["wtl"] = _win_tie_loss(rows_m["significance"], rows_m["mean"].notna()) if mine else ""
                # the printed markers are against the paper's own reference: none for a reference it
                # did not print (a user's classifier), and none for a column whose markers were lost
                printed = (mine and reference_printed and (markers_printed is None or m in markers_printed))
                r["published_wtl"] = (
                    _win_tie_loss(rows_m["published_significance"], rows_m["published_mean"].notna()) if printed else ""
                )
            if published_summary is not None:
                ps = published_summary
                if "metric" in ps.columns:
                    ps = ps[ps.metric == metric]
                ps = ps[ps.method == m]
                if len(ps):
                    p = ps.iloc[0]
                    for key in ("average", "mean_rank"):
                        col = next((c for c in names[key] if c in p.index), None)
                        r[f"published_{key}"] = p[col] if col else np.nan
            rows.append(r)
    return pd.DataFrame(rows)


def printed_datasets(paper: Paper) -> list[str]:
    """The data sets the paper's printed tables are over: a cut's (``nbrepro.variants.cut``) are those of the
    paper it was cut from."""
    made = paper.derived_from
    return list(made["datasets"]) if made.get("kind") == "cut" else list(paper.datasets)


def same_datasets_as_printed(paper: Paper) -> bool:
    """Whether a count, average or rank over this run's data sets may be set against the printed one."""
    return set(paper.datasets) == set(printed_datasets(paper))


def _same_datasets(
    summ: pd.DataFrame, table: pd.DataFrame, published: pd.DataFrame, paper: Paper, directions: dict
) -> pd.DataFrame:
    """When a config runs only some of the paper's datasets, the paper's printed averages and mean
    ranks (over all of them) are not comparable: recompute them from the printed cells over the same
    datasets, and say so in ``published_over``."""
    names = paper.published_names
    ours = {names.get(d, d) for d in paper.datasets}
    theirs = set(published.dataset)
    if not ours < theirs:
        return summ
    summ = summ.copy()
    for metric, tm in table.groupby("metric", sort=False):
        wide = tm.pivot(index="dataset", columns="method", values="published_mean")
        full = wide.dropna(axis=1, how="any")
        ranks = mean_ranks(full, directions.get(metric, True)) if full.shape[1] else pd.Series(dtype=float)
        rows = summ.metric == metric
        summ.loc[rows, "published_average"] = summ.loc[rows, "method"].map(full.mean())
        summ.loc[rows, "published_mean_rank"] = summ.loc[rows, "method"].map(ranks)
    summ["published_over"] = f"the {len(ours)} datasets run here (of the paper's {len(theirs)})"
    return summ


def table_datasets(paper: Paper, spec: Table, registry: dict | None) -> list[str]:
    """The paper's datasets, kept by the table's ``datasets:`` filter (e.g. ``{n_classes: 2}``)."""
    flt = spec.datasets
    if not flt:
        return list(paper.datasets)
    if isinstance(
        flt, list | tuple
    ):  # named: the paper's own selection (e.g. data sets where fewer classes occur than are declared)
        unknown = [d for d in flt if d not in paper.datasets]
        if unknown:
            raise ConfigError(f"paper {paper.name!r}: a table names data sets the paper does not run: {unknown}")
        return [d for d in paper.datasets if d in flt]
    if registry is None:
        raise ConfigError(f"paper {paper.name!r}: a table with a datasets filter needs the registry")
    keys = ("n_instances", "n_attributes", "n_classes", "class_attribute", "openml_id")
    unknown = [k for k in flt if k not in keys]
    if unknown:
        raise ConfigError(
            f"paper {paper.name!r}: a table's datasets filter names {unknown}, not registry "
            f"values it can filter on ({', '.join(keys)})"
        )
    kept = [d for d in paper.datasets if all(getattr(registry[paper.dataset_entry(d)], k) == v for k, v in flt.items())]
    if not kept:
        raise ConfigError(
            f"paper {paper.name!r}: a table's datasets filter {flt} matches none of the paper's data sets"
        )
    return kept


def published_summary(spec: Table, dtype=None) -> pd.DataFrame | None:
    """A table's printed summary rows (averages, mean ranks, records): ``published_summary:``, else
    the file beside its published cells named ``{stem}_summary.csv``, else none (``dtype=str``: the
    numbers as printed)."""
    if spec.published_summary:
        return pd.read_csv(spec.published_summary, dtype=dtype)
    if spec.published:
        p = Path(spec.published)
        ps = p.with_name(p.stem + "_summary.csv")
        return pd.read_csv(ps, dtype=dtype) if ps.exists() else None
    return None


def summary_column_names(summary_columns: Mapping | None) -> dict[str, list[str]]:
    """The printed summary's columns for ``average`` and ``mean_rank``, first found first (a table's
    ``summary_columns:`` names its own)."""
    names = {"average": ["average_accuracy", "average"], "mean_rank": ["mean_rank", "average_rank"]}
    for key, col in (summary_columns or {}).items():
        names[key] = [col]
    return names


def analyse_table(
    paper: Paper, name: str, results_dir: str | Path, registry: dict | None = None
) -> dict[str, pd.DataFrame]:
    """The files of one table: the long table, its summary rows and its match counts."""
    if name not in paper.tables:
        raise ConfigError(f"paper {paper.name!r} has no table {name!r} (have: {sorted(paper.tables)})")
    spec = paper.tables[name]
    if spec.kind == "pairwise":
        return pairwise_table(paper, name, results_dir, registry)
    view = paper.replaced(datasets=table_datasets(paper, spec, registry))
    folds = load_fold_results(view, results_dir)
    published = read_published(spec.published) if spec.published else None
    metrics = table_metrics(view, spec)
    dataset_level = {c: m for c, m in metrics.items() if m.level == "dataset"}
    values = (
        dataset_level_values(view, results_dir, dataset_level, [c.classifier for c in spec.columns])
        if dataset_level
        else None
    )
    table = build_table(view, spec, folds, published, values)
    labels = {c.metric: metrics[c.value] for c in spec.columns}
    pub_sum = published_summary(spec)
    directions = {k: m.higher_is_better for k, m in labels.items()}
    reference = paper.reference if paper.reference in set(table["method"]) else None
    summ = summary(table, pub_sum, directions, spec.summary_columns, reference, spec.markers_printed,
                   rank_decimals(paper, name))
    if published is not None:
        summ = _same_datasets(summ, table, published, view, directions)
    return {
        paths.table(name): table,
        paths.table_summary(name): summ,
        paths.match_counts(name): match_counts(table, name, {k: m.tolerances for k, m in labels.items()},
                                               {k: m.unit for k, m in labels.items()}),
    }


def _record_test(spec: Mapping, wins, ties, losses, prefix: str) -> dict:
    """A w/t/l record's test (the table's ``record_test``): its p-value and whether it is
    significant at α, as ``{prefix}record_p`` and ``{prefix}significant`` (NaN and "" when the
    record is not there, e.g. no printed one)."""
    from ..stats import sign_test

    if any(pd.isna(v) for v in (wins, ties, losses)) or wins + losses + ties == 0:
        return {f"{prefix}record_p": np.nan, f"{prefix}significant": ""}
    p = sign_test(wins, losses, ties, split_ties=spec.get("ties", "split") == "split").pvalue
    return {f"{prefix}record_p": p, f"{prefix}significant": "yes" if p <= spec.get("alpha", 0.05) else "no"}


def pairwise_table(paper: Paper, name: str, results_dir, registry=None) -> dict[str, pd.DataFrame]:
    """A method × method win/tie/loss matrix per metric over the datasets, beside a published one.

    Row method against column method; a win is better in the metric's direction. Ties follow
    the table's ``tie`` rule (see ``nbrepro.stats.win_tie_loss``). Output: one row per
    (measure, row method, column method) with wins, ties, losses and the published counts, and,
    with a ``record_test``, each record's p-value and significance, ours and printed."""
    from ..stats import win_tie_loss_matrix

    spec = paper.tables[name]
    view = paper.replaced(datasets=table_datasets(paper, spec, registry))
    methods = list(spec.methods)
    declared = paper_metrics(view)
    measures = {printed: metric_for(view, col, declared) for printed, col in spec.measures.items()}
    folds = load_fold_results(view, results_dir)
    base = folds[folds.variant == ""] if len(folds) else folds
    dataset_level = {m.name: m for m in measures.values() if m.level == "dataset"}
    values = dataset_level_values(view, results_dir, dataset_level, methods) if dataset_level else {}
    published = {}
    if spec.published:  # the printed lower triangle, and each pair reversed (wins ↔ losses)
        for p in pd.read_csv(spec.published).itertuples(index=False):
            published[(p.measure, p.row_method, p.col_method)] = (p.wins, p.ties, p.losses)
            published.setdefault((p.measure, p.col_method, p.row_method), (p.losses, p.ties, p.wins))
    rows, ranks = [], []
    for printed, metric in measures.items():
        col = metric.name
        if metric.level == "dataset":
            cell = {key: v.get(col, np.nan) for key, v in values.items()}
        else:
            cell = (
                {key: weka_mean_std(g.to_numpy())[0] for key, g in base.groupby(["dataset", "method"])[col]}
                if len(base) and col in base
                else {}
            )
        wide = pd.DataFrame(
            {m: [cell.get((ds, m), np.nan) for ds in view.datasets] for m in methods}, index=list(view.datasets)
        )
        wtl = win_tie_loss_matrix(wide, metric.higher_is_better, **(spec.tie or {}))
        complete = wide.dropna()
        mr = mean_ranks(complete, metric.higher_is_better) if len(complete) else pd.Series(np.nan, index=methods)
        ranks += [
            {
                "method": m,
                "metric": printed,
                "average": complete[m].mean() if len(complete) else np.nan,
                "mean_rank_among_computed": mr[m],
                "datasets": len(complete),
            }
            for m in methods
        ]
        for r in wtl.itertuples(index=False):
            pw, pt, pl = published.get((printed, r.row, r.col), (np.nan, np.nan, np.nan))
            row = {
                "measure": printed,
                "row_method": r.row,
                "col_method": r.col,
                "wins": r.wins,
                "ties": r.ties,
                "losses": r.losses,
                "datasets": r.datasets,
                "published_wins": pw,
                "published_ties": pt,
                "published_losses": pl,
            }
            if spec.record_test:
                row.update(_record_test(spec.record_test, r.wins, r.ties, r.losses, ""))
                row.update(_record_test(spec.record_test, pw, pt, pl, "published_"))
            rows.append(row)
    table = pd.DataFrame(rows)
    tol = int(spec.tolerance if spec.tolerance is not None else 3)
    comparable = same_datasets_as_printed(view)
    if not comparable:   # the printed records count the paper's data sets, not this run's
        table["published_over"] = f"the paper's {len(printed_datasets(view))} data sets (not comparable)"
    counts = pairwise_counts(table, name, tol, comparable)
    return {
        paths.table(name): table,
        paths.table_summary(name): pd.DataFrame(ranks),
        paths.match_counts(name): counts,
    }


def timings(paper: Paper, results_dir: str | Path) -> dict[str, pd.DataFrame]:
    folds = load_fold_results(paper, results_dir)
    cols = ["dataset", "method", "fit_seconds", "predict_seconds"]
    t = (
        folds.groupby(["dataset", "method"], sort=False)[cols[2:]].sum().reset_index()
        if len(folds)
        else pd.DataFrame(columns=cols)
    )
    return {paths.TIMINGS: t}


def write_outputs(outputs: dict[str, pd.DataFrame], results_dir: str | Path) -> None:
    for rel, df in outputs.items():
        with atomic_path(Path(results_dir) / rel) as tmp:
            df.to_csv(tmp, index=False, float_format="%.10g", lineterminator="\n")


def wide_table(table: pd.DataFrame, metric: str | None = None, decimals: int | None = None) -> pd.DataFrame:
    """A long reproduced table (dataset, method, metric, mean, …) as datasets × methods of means,
    the datasets in the table's order (rounded to ``decimals`` when given)."""
    t = table if metric is None else table[table.metric == metric]
    # columns in pivot's (sorted) order: the permutation bounds' random draws depend on it
    w = t.pivot(index="dataset", columns="method", values="mean").loc[list(dict.fromkeys(t.dataset))]
    return w.round(decimals) if decimals is not None else w
