# SPDX-License-Identifier: GPL-3.0-or-later
"""The statistics a paper's config may declare (``analysis.statistics``), one registry entry each.

An entry of the config names a ``test`` (a key of ``STATISTICS``), an ``id`` and the test's own
keys; it gives rows of ``stats/text_stats.csv`` (statistic, value, note), printed beside the
paper's value. Adding a test is one ``Statistic`` class here under ``@statistic``: its ``name``,
its keys (``required``, ``optional``, ``types``: ``nbrepro.paper.plugin``), ``compute`` (its docstring
is the config's documentation of it); the schema's ``test`` enum is read from this registry, and
``nbrepro.checks`` checks every entry's keys and the methods it names before any job.

Any entry may name the ``metric`` of the analysis table it reads (default: the analysis's).
A statistic whose methods are not all computed yet gets value NaN and says so.
"""
from __future__ import annotations

from pathlib import Path
from typing import ClassVar, NamedTuple

import numpy as np
import pandas as pd

from .. import paths, stats
from ..errors import ConfigError
from ..paper import Paper, Plugin
from .context import Context, analysis_context


class StatisticRow(NamedTuple):
    """One row of ``stats/text_stats.csv``."""
    statistic: str
    value: object        # a number, or a text such as "[2/5/1/0]•"
    note: str = ""


class Statistic(Plugin):
    """A ``test:`` of the config (``name``): ``compute(entry, context) → rows``; its keys are
    declared as every plug-in's (``nbrepro.paper.plugin``). ``needs_methods``: NaN with a note until
    every method it reads is computed on every data set; ``writes_frame``: also writes
    stats/{id}.csv (``ctx.frames[id]``)."""

    common = ("id", "test", "metric", "note", "caption")
    types = {"id": str, "metric": str, "note": str, "caption": str, "methods": list, "method": str, "others": list,
             "alpha": float, "control": str, "tie_correction": bool, "alternative": str, "mean_rank_id": str,
             "n": int, "k": int, "p": float, "reference": str, "threshold": float, "function": str, "frame": bool}
    needs_methods: ClassVar[bool] = True
    writes_frame: ClassVar[bool] = False
    pair: ClassVar[bool] = False      # reads exactly two methods, a against b

    def compute(self, item: dict, ctx: Context) -> list[StatisticRow]:
        raise NotImplementedError

    def check(self, entry, paper):
        methods = _methods(entry)
        if self.needs_methods and not methods:
            return "needs methods (or method and others)"
        if self.pair and len(methods) != 2:
            return f"compares two methods, a against b; got {methods}"
        named = methods + ([entry["control"]] if "control" in entry else [])
        if "control" in entry and entry["control"] not in methods:
            return f"control {entry['control']!r} is not among its methods {methods}"
        from .claim_records import known_methods

        known = known_methods(paper)
        strange = [m for m in named if m not in known]
        if strange:
            return f"{strange} are not methods of the paper's tables (known: {sorted(known)})"
        return None


STATISTICS: dict[str, Statistic] = {}


def statistic(cls):
    """Register a ``Statistic`` class under its ``name`` (the config's ``test:``)."""
    STATISTICS[cls.name] = cls()
    return cls


def _id(item: dict) -> str:
    return item.get("id", item["test"])


def _methods(item: dict) -> list[str]:
    methods = item.get("methods") or [item.get("method"), *item.get("others", [])]
    return [m for m in methods if m]


def _note(item: dict, default: str) -> str:
    """The entry's own ``note:`` if it has one, else what the test says."""
    return item.get("note", default)


class _RankTest(Statistic):
    """methods: [...], tie_correction (default true; not for Quade) → p-value."""
    required = ("methods",)
    optional = ("tie_correction",)

    def compute(self, item, ctx):
        fn = getattr(stats, item["test"])
        kwargs = {} if fn is stats.quade else {"tie_correction": item.get("tie_correction", True)}
        p = fn(ctx.wide[item["methods"]].to_numpy(), higher_is_better=ctx.higher_is_better, **kwargs).pvalue
        return [StatisticRow(_id(item), p, item.get("note", ""))]


@statistic
class Friedman(_RankTest):
    name = "friedman"


@statistic
class ImanDavenport(_RankTest):
    name = "iman_davenport"


@statistic
class Quade(_RankTest):
    name = "quade"
    optional = ()


@statistic
class NemenyiCD(Statistic):
    """methods, alpha (default 0.05) → Nemenyi's critical difference; the note lists the pairs that differ."""
    name = "nemenyi_cd"
    optional = ("methods", "method", "others", "alpha")

    def compute(self, item, ctx):
        res = stats.nemenyi(ctx.wide[_methods(item)], item.get("alpha", 0.05), ctx.higher_is_better)
        return [StatisticRow(_id(item), res.critical_difference, _note(item, f"differing: {res.different}"))]


@statistic
class BonferroniDunnCD(Statistic):
    """methods, control, alpha → Bonferroni–Dunn's critical difference.

    The note lists the methods differing from the control."""

    name = "bonferroni_dunn_cd"
    required = ("control",)
    optional = ("methods", "method", "others", "alpha")

    def compute(self, item, ctx):
        res = stats.bonferroni_dunn(
            ctx.wide[_methods(item)], item["control"], item.get("alpha", 0.05), ctx.higher_is_better
        )
        return [StatisticRow(_id(item), res.critical_difference, _note(item, f"differing: {res.different}"))]


@statistic
class Wilcoxon(Statistic):
    """methods: [a, b], alternative (default two-sided, "greater": a better) → p-value."""

    name = "wilcoxon"
    required = ("methods",)
    optional = ("alternative",)
    pair = True

    def check(self, entry, paper):
        if entry.get("alternative", "two-sided") not in ("two-sided", "greater", "less"):
            return f"alternative must be two-sided, greater or less, got {entry['alternative']!r}"
        return super().check(entry, paper)

    def compute(self, item, ctx):
        a, b = (ctx.wide[m] for m in _methods(item))
        if not ctx.higher_is_better:
            a, b = -a, -b
        p = stats.wilcoxon(a, b, item.get("alternative", "two-sided")).pvalue
        return [StatisticRow(_id(item), p, item.get("note", ""))]


@statistic
class SignTest(Statistic):
    """methods: [a, b] → the sign test's p-value over wins and losses (ties split); the note is w/t/l."""

    name = "sign_test"
    required = ("methods",)
    pair = True

    def compute(self, item, ctx):
        m = _methods(item)
        w, t, lost = stats.win_tie_loss(ctx.wide[m[0]], ctx.wide[m[1]], ctx.higher_is_better)
        return [StatisticRow(_id(item), stats.sign_test(w, lost, t).pvalue, _note(item, f"{w}/{t}/{lost}"))]


@statistic
class MeanRankTest(Statistic):
    """method, others (+ mean_rank_id for the observed mean rank) → p-value of the method's mean rank among them."""

    name = "mean_rank_test"
    required = ("method", "others")
    optional = ("mean_rank_id",)

    def compute(self, item, ctx):
        m = _methods(item)
        observed, s, p = stats.mean_rank_test(ctx.wide, m[0], m[1:], ctx.higher_is_better)
        rows = [StatisticRow(item["mean_rank_id"], observed, "")] if item.get("mean_rank_id") else []
        return rows + [StatisticRow(_id(item), p, _note(item, f"s = {s:.5f}"))]


@statistic
class BinomialTail(Statistic):
    """n, k, p (default 0.5) → Pr(Binomial(n, p) ≥ k)."""

    name = "binomial_tail"
    required = ("n", "k")
    optional = ("p",)
    needs_methods = False

    def compute(self, item, ctx):
        from scipy import stats as _st

        p = float(_st.binom.sf(item["k"] - 1, item["n"], item.get("p", 0.5)))
        return [StatisticRow(_id(item), p, item.get("note", ""))]


@statistic
class WinLossSplit(Statistic):
    """reference, threshold → one row per method, "[s.w./m.w./m.b./s.b.]" (also stats/{id}.csv)."""

    name = "win_loss_split"
    required = ("reference",)
    optional = ("threshold",)
    needs_methods = False
    writes_frame = True

    def check(self, entry, paper):
        from .claim_records import known_methods

        known = known_methods(paper)
        return (
            None
            if entry["reference"] in known
            else f"reference {entry['reference']!r} is not a method of the paper's tables (known: {sorted(known)})"
        )

    def compute(self, item, ctx):
        t = ctx.table[ctx.table.metric == (ctx.paper.analysis.metric or ctx.table.metric.iloc[0])]
        wl = stats.win_loss_split(t, item["reference"], ctx.higher_is_better, item.get("threshold"))
        ctx.frames[_id(item)] = wl
        return [
            StatisticRow(
                f"{_id(item)}_{r.method}",
                f"[{r.s_w:g}/{r.m_w:g}/{r.m_b:g}/{r.s_b:g}]{getattr(r, 'binomial_worse', '')}",
                "",
            )
            for r in wl.itertuples(index=False)
        ]


@statistic
class PaperFunction(Statistic):
    """function: a function of the paper's claims module, ``fn(ctx) → rows``; with ``frame: true``
    it also leaves a frame in ``ctx.frames[id]`` (stats/{id}.csv)."""

    name = "paper"
    required = ("function",)
    optional = ("frame",)
    needs_methods = False

    def check(self, entry, paper):
        module = paper.analysis.claims_module
        if not module:
            return "needs analysis.claims_module (the module whose function it calls)"
        from .claim_records import claims_module

        if not callable(getattr(claims_module(module), entry["function"], None)):
            return f"the claims module nbrepro.claims.{module} has no function {entry['function']!r}"
        return None

    def compute(self, item, ctx):
        fn = getattr(ctx.module, item["function"], None) if ctx.module else None
        if fn is None:
            raise ConfigError(
                f"analysis statistic {_id(item)!r}: the claims module has no function {item.get('function')!r}"
            )
        return [StatisticRow(*row) for row in fn(ctx)]


def evaluate_statistic(item: dict, ctx: Context) -> list[StatisticRow]:
    """The rows one ``statistics:`` entry gives."""
    if item["test"] not in STATISTICS:
        raise ConfigError(
            f"analysis statistic {_id(item)!r}: unknown test {item['test']!r} (known: {sorted(STATISTICS)})"
        )
    if item.get("metric") and item["metric"] != ctx.paper.analysis.metric:
        ctx = ctx.for_metric(item["metric"])
    entry = STATISTICS[item["test"]]
    methods = _methods(item)
    needs = None
    if entry.needs_methods and not ctx.has(methods):
        needs = "needs the " + ", ".join(methods) + " columns"
    elif entry.needs_methods and len(ctx.wide) < 2:   # a cut to one data set: a test over data sets has none
        needs = f"not computable: a test over data sets needs at least 2, this run has {len(ctx.wide)}"
    if needs:
        rows = [StatisticRow(_id(item), np.nan, needs)]
        return ([StatisticRow(item["mean_rank_id"], np.nan, needs)] if item.get("mean_rank_id") else []) + rows
    return entry.compute(item, ctx)


def frame_names(paper: Paper) -> list[str]:
    """The statistics of the paper that write a frame of their own: stats/{id}.csv."""
    return [
        _id(s)
        for s in paper.analysis.statistics
        if (s["test"] in STATISTICS and STATISTICS[s["test"]].writes_frame) or s.get("frame")
    ]


def text_statistics(
    paper: Paper,
    table: pd.DataFrame,
    table1: pd.DataFrame | None,
    published: pd.DataFrame | None,
    module=None,
    tables: dict | None = None,
    results=None,
) -> tuple[pd.DataFrame, Context]:
    """Every declared statistic, computed from the reproduced table, beside the published value."""
    ctx = analysis_context(paper, table, table1, module)
    ctx.tables = tables if tables is not None else {}
    # a path, or a reading's paths.RunFolder (its untouched classifiers' files in the run it patches)
    ctx.results = results if results is None or isinstance(results, paths.RunFolder) else Path(results)
    rows = []
    for item in paper.analysis.statistics:
        for row in evaluate_statistic(item, ctx):
            ctx.statistics[row.statistic] = row.value
            rows.append(row._asdict())
    out = pd.DataFrame(rows, columns=list(StatisticRow._fields))
    if published is not None:
        out["published"] = out["statistic"].map(published.set_index("statistic")["value"])
        from .tables import printed_datasets, same_datasets_as_printed

        if not same_datasets_as_printed(paper):   # a cut: the printed statistics are over the paper's data sets
            out["published_over"] = [
                f"the paper's {len(printed_datasets(paper))} data sets: not comparable" if pd.notna(v) else ""
                for v in out["published"]]
    return out, ctx
