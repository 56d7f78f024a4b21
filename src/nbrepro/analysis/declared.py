# SPDX-License-Identifier: GPL-3.0-or-later
"""The claims a paper's config declares (its ``claims:`` list), judged by their generic kinds
(``analysis.claim_kinds``) on the printed tables and on ours, and qualified: the bootstrap
stability of a claim that generalises over data sets, and for a significance claim its verdict
under today's tests and with each other method left out of the ranking.

A declared claim::

    - id: mean_rank                      # stable within the paper
      section: V-B                       # where the paper says it
      sentence: "LPM-BC has the lowest average rank"
      kind: rank_order                   # a key of CLAIM_KINDS, with that kind's keys
      best: LPM-BC
      metrics: [mse, accuracy]           # judged once per metric (default: the analysis metric)

What no kind fits stays a Python predicate in the paper's claims module.
"""
from __future__ import annotations

import functools
from dataclasses import replace

import pandas as pd

from .. import stats
from ..errors import ConfigError, TooFewDatasets
from ..paper import Paper
from .claim_kinds import BOUNDS, CLAIM_KINDS, ClaimKind
from .claim_records import Claim, verdict
from .context import Context
from .qualify import today, with_stability

COMMON_KEYS = ClaimKind.common
RESAMPLES = 1000


class ClaimView:
    """What a kind reads of one source: the analysis table (data sets × methods at the printed
    decimals, per metric), any reproduced table's column, the declared statistics, Table 1 and
    the significance markers; a table of the printed source holds the paper's numbers."""

    def __init__(self, ctx: Context, published: pd.Series | None):
        self.ctx, self.paper = ctx, ctx.paper
        self.decimals = ctx.paper.analysis.decimals
        self.table1 = ctx.table1
        self.published = published
        self._metric = {}

    def _at(self, metric: str | None) -> Context:
        if metric in (None, self.paper.analysis.metric):
            return self.ctx
        if metric not in self._metric:
            self._metric[metric] = self.ctx.for_metric(metric)
        return self._metric[metric]

    def wide(self, metric: str | None) -> pd.DataFrame:
        return self._at(metric).wide

    def higher(self, metric: str | None) -> bool:
        return self._at(metric).higher_is_better

    def column(self, ref, metric: str | None) -> pd.Series | None:
        """data set → a method's value at the printed decimals (None while any is missing):
        ``ref`` a method of the analysis table, or ``{table, method, metric}``."""
        if isinstance(ref, str):
            w = self.wide(metric)
            return w[ref] if ref in w and w[ref].notna().all() else None
        t = self.ctx.tables.get(ref["table"])
        if t is None:
            return None
        t = t[(t.method == ref["method"]) & (t.metric == ref["metric"])].set_index("dataset")["mean"].astype(float)
        if t.empty or t.isna().any():
            return None
        return t.round(self.decimals) if self.decimals is not None else t

    def statistic(self, sid: str):
        return self.ctx.statistics.get(sid)

    def markers(self, table: str, methods: list[str]):
        """data sets × methods: +1 where the column is marked significantly better than the
        reference, −1 worse, 0 unmarked. The printed markers a table lost (its config's
        ``markers_printed``) are missing, not unmarked."""
        from .claim_kinds import Read

        kept = self.paper.tables[table].markers_printed if table in self.paper.tables else None
        if self.ctx.source == "printed" and kept is not None and not set(methods) <= set(kept):
            return Read(None, f"the printed markers of {table} for {', '.join(methods)} were lost")
        t = self.ctx.tables.get(table)
        if t is None:
            return Read(None, f"needs {table}")
        cols = {}
        for m in methods:
            rows = t[t.method == m]
            if rows.empty or rows["mean"].isna().any() or "significance" not in rows:
                return Read(None, f"needs the {m} column of {table}")
            cols[m] = rows.set_index("dataset")["significance"].map({"better": 1, "worse": -1}).fillna(0).astype(int)
        return Read(pd.DataFrame(cols))

    def bounds(self, spec: dict) -> dict:
        """The claim's bounds, ``{published: id}`` read from the paper's text statistics."""
        out = {}
        for k in BOUNDS:
            if k in spec:
                v = spec[k]
                out[k] = float(self.published[v["published"]]) if isinstance(v, dict) else v
        return out

    def name(self, dataset: str) -> str:
        return self.paper.published_names.get(dataset, dataset)


def declared_claims(paper: Paper, ours: Context, printed: Context | None) -> list[Claim]:
    """Every claim of the config's ``claims:``, per metric, on the printed tables then on ours."""
    spec = paper.analysis
    published = None
    if spec.published:
        published = pd.read_csv(spec.published).set_index("statistic")["value"]
    out = []
    for claim in paper.claims:
        kind = CLAIM_KINDS[claim["kind"]]
        for metric in claim.get("metrics") or [claim.get("metric")]:
            for source, ctx in (("printed", printed), ("ours", ours)):
                out.append(judge(claim, kind, metric, source, ctx, published))
    return out


def judge(spec: dict, kind: ClaimKind, metric: str | None, source: str, ctx: Context | None,
          published: pd.Series | None) -> Claim:
    """One declared claim on one source and metric, qualified."""
    base = Claim(spec["id"], str(spec["section"]), spec["sentence"], source, "not checkable", "", metric or "",
                 kind=kind.name)
    if ctx is None:
        return replace(base, evidence="the paper prints no table this reads")
    if source == "printed" and spec.get("printed_lost"):
        return replace(base, evidence="not checkable from the printed tables: " + spec["printed_lost"])
    view = ClaimView(ctx, published)
    read = kind.read(spec, view, metric)
    if read.data is None:
        if source == "printed":
            return replace(base, evidence="not checkable from the printed tables: " + read.missing)
        return replace(base, verdict="not yet computable", evidence=read.missing)
    try:
        ok, evidence = kind.holds(spec, read.data, view, metric)
    except TooFewDatasets as e:   # a cut to one data set: a test over data sets has none to test
        return replace(base, verdict="not computable", evidence=f"on {len(read.data)} data set(s): {e}")
    claim = replace(base, verdict=verdict(ok, undefined="not computable"), evidence=evidence)
    data = read.data
    if kind.significance:
        higher, a = view.higher(metric), spec["method"]
        family = [(a, m) for m in data.columns if m != a]
        claim = replace(claim, **today(data, [(a, m) for m in spec["than"] if m in data], family, higher, spec["rope"],
                                       f"({metric or paper_metric(ctx)})"))
        flips = [m for m in data.columns if m != a and kind.holds(spec, data.drop(columns=m), view, metric)[0] != ok]
        claim = replace(claim, pool="the same with any one other method left out" if not flips else
                        "flips with " + ", ".join(flips) + " left out of the ranking")
    if kind.generalising(spec) and len(data) > 1:
        picks = stats.resample_rows(len(data), RESAMPLES, seed=1)
        claim = with_stability(claim, [kind.holds(spec, data.iloc[p], view, metric)[0] for p in picks])
    return claim


def paper_metric(ctx: Context) -> str:
    return ctx.paper.analysis.metric or ""


def check_declared(paper: Paper, where: str, known_methods: set[str]) -> None:
    """Each declared claim's keys, before any job: its kind's keys and no others, what its kind
    checks, and every method it names among ``known_methods``."""
    seen = set()
    for i, spec in enumerate(paper.claims):
        at = f"{where}, claims[{i}] ({spec.get('id', '?')})"
        if spec["id"] in seen:
            raise ConfigError(f"{at}: claim id {spec['id']!r} is declared twice")
        seen.add(spec["id"])
        kind = CLAIM_KINDS[spec["kind"]]
        missing = [k for k in kind.required if k not in spec]
        unknown = [k for k in spec if k not in COMMON_KEYS + kind.required + kind.optional]
        if missing or unknown:
            raise ConfigError(f"{at}: kind {kind.name!r} " + (f"needs {missing}" if missing else
                              f"does not read {unknown} (it reads: {sorted(kind.required + kind.optional)})"))
        problem = kind.check(spec, paper)
        if problem:
            raise ConfigError(f"{at}: kind {kind.name!r}: {problem}")
        measured = {m if isinstance(m, str) else next(iter(m)) for m in paper.metrics}
        asked = [spec["metric"]] if spec.get("metric") else list(spec.get("metrics") or [])
        unmeasured = [m for m in asked if m not in measured]
        if unmeasured:   # judged on a metric no table has, the claim would read "no" with no evidence
            raise ConfigError(f"{at}: {unmeasured} are not metrics of the paper (its metrics: {sorted(measured)})")
        names = _named_methods(spec)
        strange = sorted(n for n in names if n not in known_methods)
        if strange:
            raise ConfigError(f"{at}: {strange} are not methods of the paper's tables (known: {sorted(known_methods)})")
        for k in BOUNDS:
            v = spec.get(k)
            if isinstance(v, dict) and not paper.analysis.published:
                raise ConfigError(
                    f"{at}: {k}: {{published: {v['published']}}} needs analysis.published (the text statistics)"
                )
            if isinstance(v, dict) and v["published"] not in _published_ids(paper.analysis.published, at):
                raise ConfigError(f"{at}: {k}: {{published: {v['published']}}} is not a statistic of "
                                  f"{paper.analysis.published} (its 'statistic' column)")


def _published_ids(path: str, at: str) -> frozenset[str]:
    """The statistic ids of a paper's printed text statistics, which a claim's bound may name."""
    try:
        import os

        full = os.path.abspath(path)   # keyed by file and mtime: another folder's copy, or an edit, is read anew
        return _read_published_ids(full, os.stat(full).st_mtime_ns)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{at}: analysis.published {path} cannot be read: {exc}") from None


@functools.lru_cache(maxsize=16)   # one read per file, not one per claim bound
def _read_published_ids(path: str, _mtime_ns: int) -> frozenset[str]:
    return frozenset(pd.read_csv(path, usecols=["statistic"])["statistic"].astype(str))


def _named_methods(spec: dict) -> set[str]:
    """Every method a claim names, wherever its kind takes one."""
    names = set()

    def add(v):
        if isinstance(v, str):
            names.add(v)
        elif isinstance(v, dict):
            if "method" in v:
                names.add(v["method"])
        elif isinstance(v, list):
            for x in v:
                add(x)

    for key in ("method", "than", "among", "methods", "best", "worst", "order"):
        if key in spec:
            add(spec[key])
    value = spec.get("value")
    if isinstance(value, dict):
        for key in ("difference", "column", "rank_of", "among"):
            if key in value:
                add(value[key])
    return names
