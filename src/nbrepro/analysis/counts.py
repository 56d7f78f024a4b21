# SPDX-License-Identifier: GPL-3.0-or-later
"""How many cells reproduce: the one derivation of every count a page shows.

Every cell of a results table falls in exactly one class (``classify``):

  not printed     the paper prints no value for it: a data set it did not print, or a column it did not
                  print at all (``beside:`` in the config: shown next to a printed method's cell, never
                  counted as printed)
  not comparable  the paper printed a count over other data sets than this run's (a cut's w/t/l)
  not computed    printed, ours not computed (yet)
  exact           ours equals the printed value at the printed decimals (mean, and sd where printed)
  tolerance_1     else |ours − printed| ≤ the metric's first tolerance, stated in the metric's unit
  tolerance_2     else ≤ its second tolerance
  further off     else

The classes after "not computed" are disjoint, so exact + within tolerance 1 + within tolerance 2 +
further off = the printed cells computed; "within tolerance 2" does not include the cells within
tolerance 1. ``match_counts`` writes them per table, method and metric
(``stats/{table}_match_counts.csv``); ``totals`` sums them for the report, the index and the claims
page, which read nothing else; ``tests/analysis/test_counts.py`` recounts a run's files from the
tables' cells.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

EXACT, TOL1, TOL2, OFF = "exact", "tolerance_1", "tolerance_2", "further_off"
NOT_PRINTED, NOT_COMPARABLE, NOT_COMPUTED = "not_printed", "not_comparable", "not_computed"
COMPARED = (EXACT, TOL1, TOL2, OFF)

# the columns of stats/{table}_match_counts.csv, in order
COLUMNS = ["table", "method", "metric", "unit", "tolerance_1", "tolerance_2", "cells", "printed", "compared",
           "exact", "within_tolerance_1", "within_tolerance_2", "further_off", "not_computed",
           "not_comparable", "computed_not_printed", "max_abs_diff"]

# what a page calls each column of the counts
LABELS = {"table": "table", "method": "method", "metric": "metric", "unit": "unit",
          "tolerance_1": "1st tolerance", "tolerance_2": "2nd tolerance", "cells": "cells",
          "printed": "printed cells", "compared": "printed and computed", "exact": "exact",
          "within_tolerance_1": "else within 1st tolerance", "within_tolerance_2": "else within 2nd tolerance",
          "further_off": "further off", "not_computed": "not computed", "not_comparable": "not comparable",
          "computed_not_printed": "ours, not printed", "max_abs_diff": "largest gap"}


def _round(x: float, decimals: int) -> float:
    return float(np.round(x, decimals))


def classify(mean, std, published_mean, published_std, mean_decimals=2, std_decimals=2,
             tolerances=(0.5, 1.0)) -> str:
    """The class of one cell of a cells table (the module's docstring), "" when neither side has a
    value. The sd takes part in "exact" only where the paper printed one."""
    if pd.isna(published_mean):
        return NOT_PRINTED if pd.notna(mean) else ""
    if pd.isna(mean):
        return NOT_COMPUTED
    md = 2 if pd.isna(mean_decimals) else int(mean_decimals)
    sd = 2 if pd.isna(std_decimals) else int(std_decimals)
    same_std = pd.isna(published_std) or (pd.notna(std) and _round(std, sd) == _round(published_std, sd))
    if _round(mean, md) == _round(published_mean, md) and same_std:
        return EXACT
    gap = abs(mean - published_mean)
    first, second = tolerances
    return TOL1 if gap <= first else TOL2 if gap <= second else OFF


def cell_classes(table: pd.DataFrame, tolerances: dict | None = None) -> pd.Series:
    """``classify`` on every row of a long cells table (``analysis.tables.build_table``), each metric
    at its own tolerances (metric label → (first, second))."""
    tolerances = tolerances or {}
    return pd.Series(
        [classify(r.mean, r.std, r.published_mean, r.published_std, r.mean_decimals, r.std_decimals,
                  tolerances.get(r.metric, (0.5, 1.0)))
         for r in table[["metric", "mean", "std", "published_mean", "published_std", "mean_decimals",
                         "std_decimals"]].itertuples(index=False)],
        index=table.index, dtype=object)


def _row(table_name, method, metric, unit, tolerances, classes: pd.Series, gaps: pd.Series, cells: int) -> dict:
    n = classes.value_counts()
    count = lambda k: int(n.get(k, 0))  # noqa: E731
    compared = sum(count(k) for k in COMPARED)
    return {"table": table_name, "method": method, "metric": metric, "unit": unit,
            "tolerance_1": tolerances[0], "tolerance_2": tolerances[1], "cells": cells,
            "printed": compared + count(NOT_COMPUTED), "compared": compared, "exact": count(EXACT),
            "within_tolerance_1": count(TOL1), "within_tolerance_2": count(TOL2), "further_off": count(OFF),
            "not_computed": count(NOT_COMPUTED), "not_comparable": count(NOT_COMPARABLE),
            "computed_not_printed": count(NOT_PRINTED),
            "max_abs_diff": float(gaps.max()) if len(gaps) else np.nan}


def match_counts(table: pd.DataFrame, table_name: str, tolerances: dict | None = None,
                 units: dict | None = None) -> pd.DataFrame:
    """Per method and metric of a cells table: its cells in each class, and the largest gap between
    a printed cell and ours. ``tolerances`` and ``units``: per metric label."""
    classes = cell_classes(table, tolerances)
    rows = []
    for (method, metric), g in table.groupby(["method", "metric"], sort=False):
        both = g.dropna(subset=["mean", "published_mean"])
        rows.append(_row(table_name, method, metric, (units or {}).get(metric, ""),
                         (tolerances or {}).get(metric, (0.5, 1.0)), classes[g.index],
                         (both["mean"] - both["published_mean"]).abs(), len(g)))
    return pd.DataFrame(rows, columns=COLUMNS)


def record_class(wins, losses, published_wins, published_losses, tolerance: int, comparable: bool = True) -> str:
    """The class of one w/t/l record of a pairwise table: its gap is the larger of the wins' and the
    losses' differences, in data sets (a count); one tolerance."""
    if pd.isna(published_wins):
        return ""
    if not comparable:
        return NOT_COMPARABLE
    if pd.isna(wins):
        return NOT_COMPUTED
    gap = max(abs(wins - published_wins), abs(losses - published_losses))
    return EXACT if gap == 0 else TOL1 if gap <= tolerance else OFF


def pairwise_counts(table: pd.DataFrame, table_name: str, tolerance: int, comparable: bool = True) -> pd.DataFrame:
    """Per measure of a pairwise w/t/l table: its records in each class (``record_class``)."""
    rows = []
    for measure, g in table.groupby("measure", sort=False):
        computed = g["datasets"].gt(0)
        classes = pd.Series([record_class(r.wins if c else np.nan, r.losses, r.published_wins, r.published_losses,
                                          tolerance, comparable)
                             for r, c in zip(g.itertuples(index=False), computed, strict=True)], dtype=object)
        both = g[computed & g["published_wins"].notna()] if comparable else g.iloc[:0]
        gaps = np.maximum((both.wins - both.published_wins).abs(), (both.losses - both.published_losses).abs())
        rows.append(_row(table_name, "all pairs", measure, "count (data sets)", (tolerance, np.nan), classes,
                         pd.Series(gaps, dtype=float), len(g)))
    return pd.DataFrame(rows, columns=COLUMNS)


class Totals(NamedTuple):
    """The counts of a paper, or of one of its tables and metrics, summed (``totals``)."""
    cells: int
    printed: int
    compared: int
    exact: int
    within_tolerance_1: int
    within_tolerance_2: int
    further_off: int
    not_computed: int
    not_comparable: int
    computed_not_printed: int


def totals(counts: pd.DataFrame) -> Totals:
    """Every column of ``Totals`` summed over the rows of match counts (one table's or a paper's)."""
    return Totals(*(int(counts[f].sum()) if f in counts else 0 for f in Totals._fields))


def by_table(counts: pd.DataFrame) -> pd.DataFrame:
    """Per table and metric with printed cells: the counts summed, with the unit and the tolerances
    (the report's table of counts), under the pages' names for the columns."""
    rows = []
    for (table, metric), g in counts.groupby(["table", "metric"], sort=False):
        t = totals(g)
        if not t.printed and not t.not_comparable:   # nothing printed to compare with (a table of ours alone)
            continue
        first = g.iloc[0]
        rows.append({"table": table, "metric": metric, "unit": first["unit"],
                     "tolerance_1": first["tolerance_1"], "tolerance_2": first["tolerance_2"], **t._asdict()})
    out = pd.DataFrame(rows)
    if not len(out):
        return out
    keep = [c for c in out.columns if c not in ("not_comparable", "computed_not_printed", "not_computed")
            or out[c].sum() > 0]
    return out[keep].drop(columns="cells").rename(columns=LABELS)


def by_method(counts: pd.DataFrame) -> dict[str, tuple[int, int]]:
    """method → (exact, printed and computed), over every table (methods with no printed cell left out)."""
    g = counts.groupby("method", sort=False)[["exact", "compared"]].sum()
    return {m: (int(r.exact), int(r.compared)) for m, r in g.iterrows() if r.compared > 0}
