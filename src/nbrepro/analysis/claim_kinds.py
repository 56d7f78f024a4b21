# SPDX-License-Identifier: GPL-3.0-or-later
"""The generic kinds of claim a paper's config declares (its ``claims:`` list), one plug-in each.

A declared claim names its ``kind`` (a key of ``CLAIM_KINDS``) and that kind's keys. A kind
reads what it needs from a ``ClaimView`` (the reproduced tables, or the printed ones: the same
code judges both) as one frame with a row per data set (``read``), and says whether the
sentence holds on such a frame (``holds``). Because ``holds`` takes the rows, the engine
(``analysis.declared``) judges 1 000 bootstrap resamples of the data sets with it as well, for
kinds whose sentence generalises over data sets (``generalises``); a count or a difference on
named data sets describes those data sets, and resampling them changes it by construction.

Adding a kind is one class here with ``@claim_kind``; ``tests/analysis/test_claim_kinds.py``
runs every kind through the same conformance checks.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import pandas as pd
from scipy import stats as _st

from .. import stats
from ..paper import Plugin

CLAIM_KINDS: dict[str, ClaimKind] = {}


def claim_kind(cls):
    """Register a kind under its ``name`` (the config's ``kind:``)."""
    CLAIM_KINDS[cls.name] = cls()
    return cls


@dataclass(frozen=True)
class Read:
    """What a kind read for one claim: rows = data sets, or None and what is missing."""
    data: pd.DataFrame | None
    missing: str = ""


BOUNDS = ("above", "below", "at_least", "at_most", "equals")


class ClaimKind(Plugin):
    """One generic kind of claim, a plug-in (``nbrepro.paper.plugin``): the config keys it reads
    (``required`` among them) beside every claim's ``common`` ones."""
    # printed_lost: what of the printed table this claim reads was lost in transcription (why its printed
    # verdict is "not checkable", not a contradiction of the paper by its own table)
    common = ("id", "section", "sentence", "kind", "metric", "metrics", "note", "printed_lost")
    generalises: ClassVar[bool] = True     # a statement about data sets in general: bootstrap stability applies
    significance: ClassVar[bool] = False   # "A significantly better than B": judged under today's tests too

    def check(self, spec: dict, paper: dict | None = None) -> str | None:
        """What is wrong with the claim's keys beyond their names (None: nothing)."""
        return None

    def generalising(self, spec: dict) -> bool:
        """Whether this claim generalises over data sets (its bootstrap stability is computed)."""
        return self.generalises

    def read(self, spec: dict, view, metric: str | None) -> Read:
        raise NotImplementedError

    def holds(self, spec: dict, data: pd.DataFrame, view, metric: str | None) -> tuple[bool | None, str]:
        """(whether the sentence holds on these rows, the numbers it rests on); None where the
        statistic it rests on is undefined on these rows (a NaN p-value: every method tied), so
        the verdict is "not computable", neither yes nor no."""
        raise NotImplementedError


# ---------------------------------------------------------------------------- shared readers

def _pool(spec: dict, view, metric) -> Read:
    """The data sets × methods frame of ``among`` (default: every method of the analysis table)."""
    wide = view.wide(metric)
    methods = spec.get("among") or [m for m in wide.columns]
    missing = [m for m in methods if m not in wide or wide[m].isna().any()]
    if missing:
        return Read(None, "needs " + ", ".join(missing) + " on every data set")
    return Read(wide[methods])


def _in_bounds(value: float, spec: dict) -> bool:
    tests = {"above": lambda b: value > b, "below": lambda b: value < b, "at_least": lambda b: value >= b,
             "at_most": lambda b: value <= b, "equals": lambda b: value == b}
    return all(tests[k](float(spec[k])) for k in BOUNDS if k in spec)


def _bounds_text(spec: dict) -> str:
    words = {"above": ">", "below": "<", "at_least": "≥", "at_most": "≤", "equals": "="}
    return " and ".join(f"{words[k]} {spec[k]:g}" for k in BOUNDS if k in spec)


def _check_bounds(spec: dict) -> str | None:
    if not any(k in spec for k in BOUNDS):
        return f"needs one of {list(BOUNDS)}"
    bad = [k for k in BOUNDS if k in spec and not isinstance(spec[k], (int, float))
           and not (isinstance(spec[k], dict) and set(spec[k]) == {"published"})]
    return f"{bad[0]} must be a number or {{published: statistic id}}, got {spec[bad[0]]!r}" if bad else None


# ---------------------------------------------------------------------------- the kinds

@claim_kind
class RankOrder(ClaimKind):
    """The methods in this order, best first, by mean rank over the data sets (``by: mean_rank``,
    rank 1 the best on a data set, ties averaged) or by the average value (``by: average``), or
    both (a list): ``best: A``, ``worst: A``, or ``order: [A, [B, C], D]`` (a list inside is a
    group in any order). Each place is strict: the group ahead is better than every method after."""
    name = "rank_order"
    optional = ("best", "worst", "order", "among", "by")

    def check(self, spec, paper=None):
        if sum(k in spec for k in ("best", "worst", "order")) != 1:
            return "needs exactly one of best, worst, order"
        if any(b not in ("mean_rank", "average") for b in _by(spec)):
            return f"by must be mean_rank or average (or both), got {spec['by']!r}"
        return None

    def read(self, spec, view, metric):
        return _pool(spec, view, metric)

    def holds(self, spec, data, view, metric):
        higher = view.higher(metric)
        groups = [[g] if isinstance(g, str) else list(g)
                  for g in (spec.get("order") or [spec.get("best") or spec.get("worst")])]
        ok, words = True, []
        for by in _by(spec):
            if by == "mean_rank":
                score = pd.Series(stats.mean_ranks(data, higher), index=data.columns)   # lower is better
            else:
                score = data.mean() * (-1 if higher else 1)                              # lower is better
            if "worst" in spec:
                score = -score
            rest = list(score.index)
            for g in groups:
                rest = [m for m in rest if m not in g]
                ok &= bool(all(m in score for m in g) and (not rest or score[g].max() < score[rest].min()))
            shown = (-score if "worst" in spec else score)
            shown = shown if by == "mean_rank" else shown * (-1 if higher else 1)
            order = shown.sort_values(ascending=by == "mean_rank" or not higher)
            digits = 3 if by == "mean_rank" else (view.decimals if view.decimals is not None else 4)
            words.append(f"by {by.replace('_', ' ')}: " + ", ".join(f"{m} {v:.{digits}f}" for m, v in order.items()))
        return ok, "; ".join(words)


def _by(spec) -> list[str]:
    by = spec.get("by", "mean_rank")
    return [by] if isinstance(by, str) else list(by)


@claim_kind
class SignificantlyBetter(ClaimKind):
    """``method`` is significantly better than each of ``than`` under the paper's ``test``:
    ``bonferroni_dunn`` (against ``method`` as the control) or ``nemenyi``, at ``alpha``, by mean
    ranks among ``among`` (default: every method); with ``exactly: true`` and no other method.
    Judged under today's tests too: Wilcoxon signed-rank with Holm over ``method`` against each
    other method, and the Bayesian signed-rank test with a ROPE of ±``rope`` (the metric's unit);
    its verdict with each other method left out of the ranking (``pool``)."""
    name = "significantly_better"
    required = ("method", "than", "test", "rope")
    optional = ("among", "alpha", "exactly")
    significance = True
    TESTS = ("bonferroni_dunn", "nemenyi")

    def check(self, spec, paper=None):
        if spec["test"] not in self.TESTS:
            return f"test must be one of {list(self.TESTS)}, got {spec['test']!r}"
        if spec["method"] in spec["than"]:
            return f"{spec['method']!r} is among 'than'"
        among = spec.get("among")
        if among is not None and not {spec["method"], *spec["than"]} <= set(among):
            return f"'among' must hold {spec['method']!r} and every method of 'than'"
        return None

    def read(self, spec, view, metric):
        return _pool(spec, view, metric)

    def beaten(self, spec, data: pd.DataFrame, higher: bool) -> tuple[set, float]:
        """(the methods of ``data`` significantly worse than ``method`` under the paper's test, its CD)."""
        a, alpha = spec["method"], spec.get("alpha", 0.05)
        if spec["test"] == "bonferroni_dunn":
            res = stats.bonferroni_dunn(data, a, alpha, higher)
            different = res.different
        else:
            res = stats.nemenyi(data, alpha, higher)
            different = [y if x == a else x for x, y in res.different if a in (x, y)]
        return {m for m in different if res.mean_ranks[m] > res.mean_ranks[a]}, res.critical_difference

    def holds(self, spec, data, view, metric):
        beaten, cd = self.beaten(spec, data, view.higher(metric))
        wanted = set(spec["than"]) & set(data.columns)
        ok = beaten == wanted if spec.get("exactly") else wanted <= beaten
        return ok, f"CD = {cd:.3f}; {spec['method']} significantly better than: {', '.join(sorted(beaten)) or 'none'}"


@claim_kind
class Count(ClaimKind):
    """A count over the data sets: ``of: best`` (the data sets on which ``method`` is best among
    ``among``, ties counting for each), with ``most: true`` (more than any other method) or bounds;
    ``of: markers`` (the significance markers of ``methods`` in ``table``, from the column's side:
    ``direction`` better, worse, either or each_way; ``combine`` sum, each (every column's count)
    or any (data sets on which any column is marked)), against bounds (``equals: {published: id}``
    reads the number the paper's text states). With ``balance: true`` (markers, direction better or
    worse) it says the direction, not the number: the columns are marked that way on more data sets
    than the other way (each column with ``combine: each``) — what a pair of counts such as "lower
    on 12, higher on 2" says of data sets in general, so it generalises and is asked out of sample."""
    name = "count"
    required = ("of",)
    optional = ("method", "among", "most", "table", "methods", "direction", "combine", "balance") + BOUNDS
    generalises = False

    def generalising(self, spec) -> bool:
        return bool(spec.get("balance"))

    def check(self, spec, paper=None):
        if spec["of"] == "best":
            if "method" not in spec:
                return "of: best needs method"
            return None if spec.get("most") else _check_bounds(spec)
        if spec["of"] == "markers":
            if not spec.get("table") or not spec.get("methods"):
                return "of: markers needs table and methods"
            if spec.get("direction", "either") not in ("better", "worse", "either", "each_way"):
                return f"direction must be better, worse, either or each_way, got {spec['direction']!r}"
            if spec.get("combine", "sum") not in ("sum", "each", "any"):
                return f"combine must be sum, each or any, got {spec['combine']!r}"
            if spec.get("balance"):
                if spec.get("direction") not in ("better", "worse") or spec.get("combine", "sum") == "any":
                    return "balance: true needs direction better or worse and combine sum or each"
                return f"balance: true takes no bound, got {[k for k in BOUNDS if k in spec]}" \
                    if any(k in spec for k in BOUNDS) else None
            return _check_bounds(spec)
        return f"of must be best or markers, got {spec['of']!r}"

    def read(self, spec, view, metric):
        if spec["of"] == "best":
            return _pool(spec, view, metric)
        return view.markers(spec["table"], spec["methods"])

    def holds(self, spec, data, view, metric):
        if spec["of"] == "best":
            w = data * (1 if view.higher(metric) else -1)
            counts = w.eq(w.max(axis=1), axis=0).sum()
            mine, others = int(counts[spec["method"]]), counts.drop(spec["method"])
            ok = (not spec.get("most") or bool((others < mine).all())) and _in_bounds(mine, view.bounds(spec))
            return ok, (f"{spec['method']} best on {mine}; next {others.idxmax()} {int(others.max())} "
                        f"(ties count for each)")
        better, worse = (data == 1).sum(), (data == -1).sum()
        direction, combine = spec.get("direction", "either"), spec.get("combine", "sum")
        if spec.get("balance"):
            this, other = (better, worse) if direction == "better" else (worse, better)
            that = "worse" if direction == "better" else "better"
            if combine == "each":
                ok = bool((this > other).all())
                counted = ", ".join(f"{m} {int(this[m])}/{int(other[m])}" for m in this.index)
            else:
                ok = int(this.sum()) > int(other.sum())
                counted = f"{int(this.sum())}/{int(other.sum())}"
            return ok, (f"marked {direction}/{that} in {spec['table']}: {counted}; the claim: more often {direction} "
                        f"than {that}")
        bounds = view.bounds(spec)
        if direction == "each_way":
            value = [int(better.sum()), int(worse.sum())]
        elif combine == "any":
            marked = (data == 1) if direction == "better" else (data == -1) if direction == "worse" else (data != 0)
            value = int(marked.any(axis=1).sum())
        else:
            per = better if direction == "better" else worse if direction == "worse" else better + worse
            value = [int(v) for v in per] if combine == "each" else int(per.sum())
        values = value if isinstance(value, list) else [value]
        ok = all(_in_bounds(v, bounds) for v in values)
        return ok, f"counted {value} in {spec['table']} ({direction}{'' if combine == 'sum' else ', ' + combine}); " \
                   f"the claim: {_bounds_text(bounds)}"


RANK_TESTS = ("friedman", "iman_davenport", "quade")


@claim_kind
class TestRejects(ClaimKind):
    """The rank ``test`` (friedman, iman_davenport, quade; or a list, each judged) over ``methods``
    rejects equal performance at ``alpha`` (``reject: false``: the sentence says it does not)."""
    name = "test_rejects"
    required = ("test", "methods")
    optional = ("alpha", "reject", "tie_correction")

    def check(self, spec, paper=None):
        tests = [spec["test"]] if isinstance(spec["test"], str) else spec["test"]
        bad = [t for t in tests if t not in RANK_TESTS]
        return f"test must be among {list(RANK_TESTS)}, got {bad}" if bad else None

    def read(self, spec, view, metric):
        return _pool({"among": spec["methods"]}, view, metric)

    def holds(self, spec, data, view, metric):
        tests = [spec["test"]] if isinstance(spec["test"], str) else spec["test"]
        alpha, reject = spec.get("alpha", 0.05), spec.get("reject", True)
        ps = []
        for t in tests:
            fn = getattr(stats, t)
            kw = {} if t == "quade" else {"tie_correction": spec.get("tie_correction", True)}
            ps.append(float(fn(data.to_numpy(), higher_is_better=view.higher(metric), **kw).pvalue))
        # a p that is NaN (every method tied, no evidence either way) supports neither verdict
        ok = None if any(math.isnan(p) for p in ps) else all((p < alpha) == reject for p in ps)
        said = "; ".join(f"{t.replace('_', '–')} p = {p:.3g}" for t, p in zip(tests, ps, strict=True))
        return ok, said + f" (α = {alpha:g})"


@claim_kind
class InRange(ClaimKind):
    """A value within bounds (``above``, ``below``, ``at_least``, ``at_most``, ``equals``):
    ``value: {difference: [A, B]}`` (A − B per data set, at the printed decimals; a column is a
    method of the analysis table or ``{table, method, metric}``), ``{column: A}``, or
    ``{statistic: id}`` / ``{statistics: [ids]}`` (declared statistics, each within). Per data set:
    on every one of ``datasets`` (a list, or ``{except: [...]}``: all but those; default all), or
    on their mean with ``aggregate: mean``."""

    name = "in_range"
    required = ("value",)
    optional = ("datasets", "aggregate") + BOUNDS

    def check(self, spec, paper=None):
        value = spec["value"]
        if not isinstance(value, dict) or len(set(value) & {"difference", "column", "statistic", "statistics"}) != 1:
            return "value must be one of {difference: [A, B]}, {column: A}, {statistic: id}, {statistics: [ids]}"
        if "difference" in value and len(value["difference"]) != 2:
            return "difference needs two columns"
        if spec.get("aggregate", "each") not in ("each", "mean"):
            return f"aggregate must be each or mean, got {spec['aggregate']!r}"
        return _check_bounds(spec)

    def generalising(self, spec) -> bool:
        # a mean over (all but a few of) the data sets generalises; a difference on named ones describes them
        return (
            spec.get("aggregate") == "mean"
            and not isinstance(spec.get("datasets"), list)
            and not any(k in spec["value"] for k in ("statistic", "statistics"))
        )

    def read(self, spec, view, metric):
        value = spec["value"]
        if "statistic" in value or "statistics" in value:
            ids = [value["statistic"]] if "statistic" in value else value["statistics"]
            vals = {i: view.statistic(i) for i in ids}
            missing = [i for i, v in vals.items() if v is None or pd.isna(v)]
            return (
                Read(None, "needs the statistic(s) " + ", ".join(missing))
                if missing
                else Read(pd.DataFrame([vals], index=["statistic"]))
            )
        cols = value.get("difference") or [value["column"]]
        series = [view.column(c, metric) for c in cols]
        if any(s is None for s in series):
            return Read(
                None, "needs " + ", ".join(_ref_name(c) for c, s in zip(cols, series, strict=True) if s is None)
            )
        y = series[0] - series[1] if len(series) == 2 else series[0]
        y = y.round(view.decimals) if view.decimals is not None else y
        names = _datasets(spec.get("datasets"), list(y.index))
        if names is None:
            return Read(None, "needs the data sets " + ", ".join(spec["datasets"]) + " in the run")
        frame = pd.DataFrame({"value": y[names]})
        if len(series) == 2:  # the two columns too, for the evidence
            frame["a"], frame["b"] = series[0][names], series[1][names]
        return Read(frame)

    def holds(self, spec, data, view, metric):
        bounds = view.bounds(spec)
        if "value" not in data:  # statistics: one row, one column each
            vals = data.iloc[0]
            ok = None if any(math.isnan(float(v)) for v in vals) else all(_in_bounds(float(v), bounds) for v in vals)
            return ok, ", ".join(
                f"{k} = {float(v):.4g}" for k, v in vals.items()
            ) + f" (the claim: {_bounds_text(bounds)})"
        y = data["value"]
        what = " − ".join(_ref_name(c) for c in spec["value"].get("difference") or [spec["value"]["column"]])
        digits = view.decimals if view.decimals is not None else 4
        if spec.get("aggregate") == "mean":
            m = float(y.mean())
            means = ""
            if "a" in data:
                a, b = spec["value"]["difference"]
                means = f"{_ref_name(a)} {data['a'].mean():.{digits}f}, {_ref_name(b)} {data['b'].mean():.{digits}f}; "
            return _in_bounds(m, bounds), (
                f"averages over {len(y)} data sets: {means}{what} {m:+.{digits}f} (the claim: {_bounds_text(bounds)})"
            )
        ok = all(_in_bounds(float(v), bounds) for v in y)
        return ok, f"{what}: " + ", ".join(
            f"{view.name(d)} {v:+.{digits}f}" for d, v in y.items()
        ) + f" (the claim: {_bounds_text(bounds)})"


def _datasets(spec, present: list) -> list | None:
    if spec is None:
        return present
    if isinstance(spec, dict):
        return [d for d in present if d not in spec["except"]]
    return list(spec) if set(spec) <= set(present) else None


def _ref_name(ref) -> str:
    return ref if isinstance(ref, str) else f"{ref['method']} {ref['metric']} ({ref['table']})"


@claim_kind
class Trend(ClaimKind):
    """A trend across the data sets ordered by a Table 1 column (``along``, e.g. m): ``value``
    (``{rank_of: A, among: [...]}``: A's rank among those methods on each data set; or ``{column: A}``)
    is ``increasing`` or ``decreasing`` (``direction``) by Spearman's ρ, one-sided at ``alpha``; or
    ``none``: "no pattern", no two-sided trend at ``alpha``."""

    name = "trend"
    required = ("along", "value", "direction")
    optional = ("alpha",)

    def check(self, spec, paper=None):
        if spec["direction"] not in ("increasing", "decreasing", "none"):
            return f"direction must be increasing, decreasing or none, got {spec['direction']!r}"
        value = spec["value"]
        if not isinstance(value, dict) or not ({"rank_of", "among"} <= set(value) or "column" in value):
            return "value must be {rank_of: A, among: [...]} or {column: A}"
        return None

    def read(self, spec, view, metric):
        if view.table1 is None or spec["along"] not in view.table1:
            return Read(None, f"needs Table 1's {spec['along']}")
        value = spec["value"]
        if "rank_of" in value:
            pool = _pool({"among": value["among"]}, view, metric)
            if pool.data is None:
                return pool
            ranks = stats.rank_rows(pool.data.to_numpy(), higher_is_better=view.higher(metric))
            y = pd.Series(ranks[:, value["among"].index(value["rank_of"])], index=pool.data.index)
        else:
            y = view.column(value["column"], metric)
            if y is None:
                return Read(None, f"needs {_ref_name(value['column'])}")
        x = view.table1.set_index("dataset")[spec["along"]].reindex(y.index)
        if x.isna().any():
            return Read(None, f"needs Table 1's {spec['along']} of " + ", ".join(map(str, x.index[x.isna()])))
        return Read(pd.DataFrame({"x": x.astype(float), "y": y.astype(float)}))

    def holds(self, spec, data, view, metric):
        value = spec["value"]
        if "rank_of" in value:
            what = f"{value['rank_of']}'s rank among {', '.join(value['among'])}"
        else:
            what = _ref_name(value["column"])
        direction = spec["direction"]
        if data["x"].nunique() < 2 or data["y"].nunique() < 2:  # ρ is not defined: no trend to see
            return (
                direction == "none",
                f"{what} against {spec['along']} over {len(data)} data sets: one of them is constant, no trend",
            )
        alternative = {"increasing": "greater", "decreasing": "less", "none": "two-sided"}[direction]
        res = _st.spearmanr(data["x"], data["y"], alternative=alternative)
        rho, p = float(res.statistic), float(res.pvalue)
        ok = bool(p < spec.get("alpha", 0.05)) != (direction == "none")
        sided = "two-sided" if direction == "none" else "one-sided"
        return (
            ok,
            f"{what} against {spec['along']} over {len(data)} data sets: Spearman ρ = {rho:.3f}, {sided} p = {p:.3g}",
        )
