"""A paper's statistics, figures and claims, declared in its config and computed by generic code.

The paper config's ``analysis:`` names the reproduced table they read, the printed decimals
(values are rounded to them before ranks and counts, as a reader of the paper would), a
Table 1 built from the raw files, a list of ``statistics:`` and the ``claims`` module; its
``figures:`` map names to figure kinds (``nbrepro.report.figures.FIGURE_KINDS``).

Each statistic entry has an ``id`` and a ``test``:

  friedman | iman_davenport | quade   methods: [...], tie_correction (default true)  → p-value

Any entry may name the ``metric`` of the analysis table it reads (default: the analysis's).
  nemenyi_cd | bonferroni_dunn_cd     methods, control                              → critical difference
  wilcoxon                            methods: [a, b], alternative                   → p-value
  sign_test                           methods: [a, b]                                → p-value
  mean_rank_test                      method, others (+ ``mean_rank_id`` for the observed mean rank)
  binomial_tail                       n, k, p: Pr(Binomial(n, p) ≥ k)
  win_loss_split                      reference, threshold → one row per method, "[s.w./m.w./m.b./s.b.]"
                                      (also written as stats/{id}.csv)
  paper                               function: a function of the claims module; with ``frame: true``
                                      it also leaves a frame in ``ctx.frames[id]`` (stats/{id}.csv)

A statistic whose methods are not all computed yet gets value NaN and says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as _st

from ..errors import ConfigError
from ..data.fetch import load_dataset
from ..analyse import label_metric, wide_table
from .. import stats

TABLE_STATS = ("win_loss_split",)


@dataclass
class Context:
    paper: dict
    table: pd.DataFrame                 # the long reproduced table the analysis reads
    wide: pd.DataFrame                  # dataset × method means at the printed decimals (+ derived columns)
    table1: pd.DataFrame | None
    higher_is_better: bool = True
    statistics: dict = field(default_factory=dict)   # id → value, as computed so far
    frames: dict = field(default_factory=dict)       # stats file name → frame (win/loss rows, figure data)
    tables: dict = field(default_factory=dict)       # every reproduced table of the paper, by name
    results: Path | None = None                      # results/{paper}: the per-fold files, for paper functions


def dataset_table(paper: dict, raw_dir: str | Path, registry: dict, count_class: bool = True,
                  after_steps: bool = False) -> pd.DataFrame:
    """Table 1 from the raw files: rows n, attributes m (counting the class when ``count_class``),
    declared classes r and the classes that occur (r_present), numeric and nominal attributes
    (the class not counted), and the percentage of missing attribute values, after the paper's
    row filters and per-dataset steps and before the common preprocessing (``experiment.paper_rows``),
    or, with ``after_steps``, after the common steps too (a dataset-scope paper whose Table 1
    counts what its classifiers saw)."""
    from ..experiment import paper_rows
    from ..preprocess.pipeline import apply_steps, build_steps

    rows = []
    for ds in paper["datasets"]:
        X, y = paper_rows(paper, ds, *load_dataset(registry[ds], Path(raw_dir) / f"{ds}.arff"))
        if after_steps and paper["preprocessing"]["scope"] == "dataset":
            X = apply_steps(build_steps(paper["preprocessing"]["steps"]), X, y=y)[0]
        numeric = sum(not isinstance(t, pd.CategoricalDtype) for t in X.dtypes)
        rows.append({"dataset": ds, "n": len(X), "m": X.shape[1] + int(count_class), "r": len(y.cat.categories),
                     "m_numeric": numeric, "m_nominal": X.shape[1] - numeric,
                     "r_present": int(y.dropna().nunique()),
                     "pct_missing": 100.0 * float(X.isna().to_numpy().sum()) / X.size if X.size else 0.0})
    return pd.DataFrame(rows)


def _have(ctx: Context, methods) -> bool:
    return all(m in ctx.wide and ctx.wide[m].notna().all() for m in methods)


def _needs(methods) -> str:
    return "needs the " + ", ".join(methods) + " columns"


def _rank_test(fn, ctx, item):
    data = ctx.wide[item["methods"]].to_numpy()
    kwargs = {} if fn is stats.quade else {"tie_correction": item.get("tie_correction", True)}
    return fn(data, higher_is_better=ctx.higher_is_better, **kwargs).pvalue


def _for_metric(ctx: Context, metric: str) -> Context:
    """The context of the same table read on another of its metrics (a statistic's ``metric:``)."""
    spec = ctx.paper["analysis"]
    wide = wide_table(ctx.table, metric, spec.get("decimals"))
    higher = label_metric(ctx.paper, ctx.paper["tables"][spec["table"]], metric).higher_is_better
    return Context(ctx.paper, ctx.table, wide, ctx.table1, higher, ctx.statistics, ctx.frames, ctx.tables, ctx.results)


def evaluate_statistic(item: dict, ctx: Context, module) -> list[tuple]:
    """The rows (statistic, value, note) one ``statistics:`` entry gives."""
    if item.get("metric") and item["metric"] != ctx.paper["analysis"].get("metric"):
        ctx = _for_metric(ctx, item["metric"])
    test, sid, note = item["test"], item.get("id", item["test"]), item.get("note", "")
    explicit_note = "note" in item
    if test == "paper":
        fn = getattr(module, item["function"], None) if module else None
        if fn is None:
            raise ConfigError(f"analysis statistic {sid!r}: the claims module has no function {item.get('function')!r}")
        return list(fn(ctx))
    methods = item.get("methods") or [item.get("method"), *item.get("others", [])]
    methods = [m for m in methods if m]
    if test in ("friedman", "iman_davenport", "quade", "nemenyi_cd", "bonferroni_dunn_cd", "wilcoxon", "sign_test",
                "mean_rank_test") and not _have(ctx, methods):
        rows = [(sid, np.nan, _needs(methods))]
        return ([(item["mean_rank_id"], np.nan, _needs(methods))] if item.get("mean_rank_id") else []) + rows
    if test in ("friedman", "iman_davenport", "quade"):
        return [(sid, _rank_test(getattr(stats, test), ctx, item), note)]
    if test in ("nemenyi_cd", "bonferroni_dunn_cd"):
        data = ctx.wide[methods]
        alpha = item.get("alpha", 0.05)
        res = (stats.nemenyi(data, alpha, ctx.higher_is_better) if test == "nemenyi_cd"
               else stats.bonferroni_dunn(data, item["control"], alpha, ctx.higher_is_better))
        return [(sid, res.critical_difference, note if explicit_note else f"differing: {res.different}")]
    if test == "wilcoxon":
        a, b = (ctx.wide[m] for m in methods)
        if not ctx.higher_is_better:
            a, b = -a, -b
        return [(sid, stats.wilcoxon(a, b, item.get("alternative", "two-sided")).pvalue, note)]
    if test == "sign_test":
        w, t, l = stats.win_tie_loss(ctx.wide[methods[0]], ctx.wide[methods[1]], ctx.higher_is_better)
        return [(sid, stats.sign_test(w, l, t).pvalue, note if explicit_note else f"{w}/{t}/{l}")]
    if test == "mean_rank_test":
        observed, s, p = stats.mean_rank_test(ctx.wide, methods[0], methods[1:], ctx.higher_is_better)
        rows = [(item["mean_rank_id"], observed, "")] if item.get("mean_rank_id") else []
        return rows + [(sid, p, note if explicit_note else f"s = {s:.5f}")]
    if test == "binomial_tail":
        return [(sid, float(_st.binom.sf(item["k"] - 1, item["n"], item.get("p", 0.5))), note)]
    if test == "win_loss_split":
        t = ctx.table[ctx.table.metric == ctx.paper["analysis"].get("metric", ctx.table.metric.iloc[0])]
        wl = stats.win_loss_split(t, item["reference"], ctx.higher_is_better, item.get("threshold"))
        ctx.frames[sid] = wl
        return [(f"{sid}_{r.method}", f"[{r.s_w:g}/{r.m_w:g}/{r.m_b:g}/{r.s_b:g}]{getattr(r, 'binomial_worse', '')}", "")
                for r in wl.itertuples(index=False)]
    raise ConfigError(f"analysis statistic {sid!r}: unknown test {test!r}")


def analysis_context(paper: dict, table: pd.DataFrame, table1: pd.DataFrame | None, module=None) -> Context:
    spec = paper["analysis"]
    metric = spec.get("metric")
    wide = wide_table(table, metric, spec.get("decimals"))
    higher = label_metric(paper, paper["tables"][spec["table"]], metric or "accuracy").higher_is_better
    if module is not None and hasattr(module, "derived_columns") and table1 is not None:
        for name, col in module.derived_columns(wide, table1).items():
            wide[name] = col
    return Context(paper, table, wide, table1, higher)


def text_statistics(paper: dict, table: pd.DataFrame, table1: pd.DataFrame | None,
                    published: pd.DataFrame | None, module=None, tables: dict | None = None,
                    results: Path | None = None) -> tuple[pd.DataFrame, Context]:
    """Every declared statistic, computed from the reproduced table, beside the published value."""
    ctx = analysis_context(paper, table, table1, module)
    ctx.tables = tables if tables is not None else {}
    ctx.results = Path(results) if results is not None else None
    rows = []
    for item in paper["analysis"].get("statistics", []):
        for statistic, value, note in evaluate_statistic(item, ctx, module):
            ctx.statistics[statistic] = value
            rows.append({"statistic": statistic, "value": value, "note": note})
    out = pd.DataFrame(rows, columns=["statistic", "value", "note"])
    if published is not None:
        out["published"] = out["statistic"].map(published.set_index("statistic")["value"])
    return out, ctx


def output_files(paper: dict) -> tuple[list[str], list[str]]:
    """(stats CSV names, figure names) the paper-stats job writes: results/{paper}/stats/{name}.csv and
    figures/{paper}/{figure}.png|svg. Derived from the config alone, for the Snakemake rules."""
    from ..report.figures import FIGURE_KINDS

    names = []
    spec = paper.get("analysis") or {}
    if spec.get("dataset_table") is not None:
        names.append("table1")
    if spec.get("statistics"):
        names.append("text_stats")
    names += [s["id"] for s in spec.get("statistics", []) if s["test"] in TABLE_STATS or s.get("frame")]
    for name, fig in (paper.get("figures") or {}).items():
        if fig["kind"] not in FIGURE_KINDS:
            raise ConfigError(f"paper {paper['paper']!r}, figure {name!r}: unknown kind {fig['kind']!r} "
                              f"(known: {sorted(FIGURE_KINDS)})")
        suffix = FIGURE_KINDS[fig["kind"]].data_suffix
        if suffix:
            names.append(f"{name}{suffix}")
    if spec.get("claims"):
        names.append("claims")
    return names, list(paper.get("figures") or {})


def run(paper: dict, results: Path, raw_dir: Path, registry: dict, figures_dir: Path,
        tables: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """Compute every declared statistic, figure and claim; return the stats frames to write."""
    from ..claims import claims_module
    from ..report.figures import FIGURE_KINDS

    spec = paper.get("analysis") or {}
    module = claims_module(spec["claims"]) if spec.get("claims") else None
    outputs = {}
    table1 = None
    if spec.get("dataset_table") is not None:
        dt = spec["dataset_table"] or {}
        table1 = dataset_table(paper, raw_dir, registry, dt.get("count_class", True), dt.get("after_steps", False))
        if dt.get("published"):
            pub = pd.read_csv(dt["published"]).set_index("dataset")
            pub = pub.rename(columns={theirs: ours for ours, theirs in (dt.get("columns") or {}).items()})
            printed = table1["dataset"].map(lambda d: paper.get("published_names", {}).get(d, d))
            for col in ("n", "m", "r", "m_numeric", "m_nominal", "r_present", "pct_missing"):
                if col in pub:
                    table1[f"published_{col}"] = printed.map(pub[col])
        outputs["stats/table1.csv"] = table1
    ctx = None
    if spec.get("table"):
        published = pd.read_csv(spec["published"]) if spec.get("published") else None
        text, ctx = text_statistics(paper, tables[spec["table"]], table1, published, module, tables, results)
        if spec.get("statistics"):
            outputs["stats/text_stats.csv"] = text
        for sid, frame in ctx.frames.items():
            outputs[f"stats/{sid}.csv"] = frame
    for name, fig in (paper.get("figures") or {}).items():
        kind = FIGURE_KINDS[fig["kind"]]
        data = kind.draw(paper, fig, tables, table1, results, Path(figures_dir) / name)
        if kind.data_suffix:
            outputs[f"stats/{name}{kind.data_suffix}.csv"] = data
        if ctx is not None:
            ctx.frames[name] = data
    if module is not None and spec.get("claims"):
        outputs["stats/claims.csv"] = module.claims(ctx)
    return outputs
