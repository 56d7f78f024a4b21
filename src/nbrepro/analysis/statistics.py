"""The statistics a paper's config may declare (``analysis.statistics``), one registry entry each.

An entry of the config names a ``test`` (a key of ``STATISTICS``), an ``id`` and the test's own
keys; it gives rows of ``stats/text_stats.csv`` (statistic, value, note), printed beside the
paper's value. Adding a test is one function here with ``@statistic(name)`` (its docstring
is the config's documentation of it); the schema's ``test`` enum is read from this registry.

Any entry may name the ``metric`` of the analysis table it reads (default: the analysis's).
A statistic whose methods are not all computed yet gets value NaN and says so.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, NamedTuple

import numpy as np
import pandas as pd
from scipy import stats as _st

from .. import stats
from ..errors import ConfigError
from .context import Context, analysis_context


class StatisticRow(NamedTuple):
    """One row of ``stats/text_stats.csv``."""
    statistic: str
    value: object        # a number, or a text such as "[2/5/1/0]•"
    note: str = ""


@dataclass(frozen=True)
class Statistic:
    """A ``test:`` of the config: its function ``(entry, context) → rows`` and what it needs."""
    compute: Callable[[dict, Context], list[StatisticRow]]
    needs_methods: bool      # NaN with a note until every method it reads is computed on every data set
    writes_frame: bool       # also writes stats/{id}.csv (``ctx.frames[id]``)


STATISTICS: dict[str, Statistic] = {}


def statistic(name: str, needs_methods: bool = True, writes_frame: bool = False):
    """Register ``fn(entry, ctx) → rows`` as the config's ``test: name``."""
    def register(fn):
        STATISTICS[name] = Statistic(fn, needs_methods, writes_frame)
        return fn
    return register


def _id(item: dict) -> str:
    return item.get("id", item["test"])


def _methods(item: dict) -> list[str]:
    methods = item.get("methods") or [item.get("method"), *item.get("others", [])]
    return [m for m in methods if m]


def _note(item: dict, default: str) -> str:
    """The entry's own ``note:`` if it has one, else what the test says."""
    return item["note"] if "note" in item else default


def _rank_test(item, ctx):
    fn = getattr(stats, item["test"])
    kwargs = {} if fn is stats.quade else {"tie_correction": item.get("tie_correction", True)}
    p = fn(ctx.wide[item["methods"]].to_numpy(), higher_is_better=ctx.higher_is_better, **kwargs).pvalue
    return [StatisticRow(_id(item), p, item.get("note", ""))]


for _name in ("friedman", "iman_davenport", "quade"):
    # methods: [...], tie_correction (default true; not for Quade) → p-value
    statistic(_name)(_rank_test)


@statistic("nemenyi_cd")
def _nemenyi_cd(item, ctx):
    """methods, alpha (default 0.05) → Nemenyi's critical difference; the note lists the pairs that differ."""
    res = stats.nemenyi(ctx.wide[_methods(item)], item.get("alpha", 0.05), ctx.higher_is_better)
    return [StatisticRow(_id(item), res.critical_difference, _note(item, f"differing: {res.different}"))]


@statistic("bonferroni_dunn_cd")
def _bonferroni_dunn_cd(item, ctx):
    """methods, control, alpha → Bonferroni–Dunn's critical difference; the note lists the methods differing from the control."""
    res = stats.bonferroni_dunn(ctx.wide[_methods(item)], item["control"], item.get("alpha", 0.05), ctx.higher_is_better)
    return [StatisticRow(_id(item), res.critical_difference, _note(item, f"differing: {res.different}"))]


@statistic("wilcoxon")
def _wilcoxon(item, ctx):
    """methods: [a, b], alternative (default two-sided, "greater": a better) → p-value."""
    a, b = (ctx.wide[m] for m in _methods(item))
    if not ctx.higher_is_better:
        a, b = -a, -b
    return [StatisticRow(_id(item), stats.wilcoxon(a, b, item.get("alternative", "two-sided")).pvalue, item.get("note", ""))]


@statistic("sign_test")
def _sign_test(item, ctx):
    """methods: [a, b] → the sign test's p-value over wins and losses (ties split); the note is w/t/l."""
    m = _methods(item)
    w, t, l = stats.win_tie_loss(ctx.wide[m[0]], ctx.wide[m[1]], ctx.higher_is_better)
    return [StatisticRow(_id(item), stats.sign_test(w, l, t).pvalue, _note(item, f"{w}/{t}/{l}"))]


@statistic("mean_rank_test")
def _mean_rank_test(item, ctx):
    """method, others (+ mean_rank_id for the observed mean rank) → p-value of the method's mean rank among them."""
    m = _methods(item)
    observed, s, p = stats.mean_rank_test(ctx.wide, m[0], m[1:], ctx.higher_is_better)
    rows = [StatisticRow(item["mean_rank_id"], observed, "")] if item.get("mean_rank_id") else []
    return rows + [StatisticRow(_id(item), p, _note(item, f"s = {s:.5f}"))]


@statistic("binomial_tail", needs_methods=False)
def _binomial_tail(item, ctx):
    """n, k, p (default 0.5) → Pr(Binomial(n, p) ≥ k)."""
    return [StatisticRow(_id(item), float(_st.binom.sf(item["k"] - 1, item["n"], item.get("p", 0.5))), item.get("note", ""))]


@statistic("win_loss_split", needs_methods=False, writes_frame=True)
def _win_loss_split(item, ctx):
    """reference, threshold → one row per method, "[s.w./m.w./m.b./s.b.]" (also stats/{id}.csv)."""
    t = ctx.table[ctx.table.metric == ctx.paper["analysis"].get("metric", ctx.table.metric.iloc[0])]
    wl = stats.win_loss_split(t, item["reference"], ctx.higher_is_better, item.get("threshold"))
    ctx.frames[_id(item)] = wl
    return [StatisticRow(f"{_id(item)}_{r.method}", f"[{r.s_w:g}/{r.m_w:g}/{r.m_b:g}/{r.s_b:g}]"
                         f"{getattr(r, 'binomial_worse', '')}", "")
            for r in wl.itertuples(index=False)]


@statistic("paper", needs_methods=False)
def _paper_function(item, ctx):
    """function: a function of the paper's claims module, ``fn(ctx) → rows``; with ``frame: true``
    it also leaves a frame in ``ctx.frames[id]`` (stats/{id}.csv)."""
    fn = getattr(ctx.module, item["function"], None) if ctx.module else None
    if fn is None:
        raise ConfigError(f"analysis statistic {_id(item)!r}: the claims module has no function {item.get('function')!r}")
    return [StatisticRow(*row) for row in fn(ctx)]


def evaluate_statistic(item: dict, ctx: Context) -> list[StatisticRow]:
    """The rows one ``statistics:`` entry gives."""
    if item["test"] not in STATISTICS:
        raise ConfigError(f"analysis statistic {_id(item)!r}: unknown test {item['test']!r} (known: {sorted(STATISTICS)})")
    if item.get("metric") and item["metric"] != ctx.paper["analysis"].get("metric"):
        ctx = ctx.for_metric(item["metric"])
    entry = STATISTICS[item["test"]]
    methods = _methods(item)
    if entry.needs_methods and not ctx.has(methods):
        needs = "needs the " + ", ".join(methods) + " columns"
        rows = [StatisticRow(_id(item), np.nan, needs)]
        return ([StatisticRow(item["mean_rank_id"], np.nan, needs)] if item.get("mean_rank_id") else []) + rows
    return entry.compute(item, ctx)


def frame_names(paper: dict) -> list[str]:
    """The statistics of the paper that write a frame of their own: stats/{id}.csv."""
    spec = paper["analysis"]
    return [_id(s) for s in spec.get("statistics", []) if (s["test"] in STATISTICS and STATISTICS[s["test"]].writes_frame) or s.get("frame")]


def text_statistics(paper: dict, table: pd.DataFrame, table1: pd.DataFrame | None,
                    published: pd.DataFrame | None, module=None, tables: dict | None = None,
                    results=None) -> tuple[pd.DataFrame, Context]:
    """Every declared statistic, computed from the reproduced table, beside the published value."""
    ctx = analysis_context(paper, table, table1, module)
    ctx.tables = tables if tables is not None else {}
    ctx.results = Path(results) if results is not None else None
    rows = []
    for item in paper["analysis"].get("statistics", []):
        for row in evaluate_statistic(item, ctx):
            ctx.statistics[row.statistic] = row.value
            rows.append(row._asdict())
    out = pd.DataFrame(rows, columns=list(StatisticRow._fields))
    if published is not None:
        out["published"] = out["statistic"].map(published.set_index("statistic")["value"])
    return out, ctx
