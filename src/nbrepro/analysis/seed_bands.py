# SPDX-License-Identifier: GPL-3.0-or-later
"""Seed bands: how far a reproduced number moves when the experiment's random numbers change.

The reseeding run repeats a paper's evaluation under K other seeds of its own protocol
(``nbrepro.variants.reseed``; run 0 is the main run, runs 1..K go to ``results/{paper}/seeds/{k}/``). For
each printed cell this module takes the cell's value in every run and gives its band:

    band = [min(v) ∧ (mean(v) − 2 sd(v)),  max(v) ∨ (mean(v) + 2 sd(v))],  v = the K + 1 runs' values

(sd with ddof 1: the mean ± 2 sd of the runs, widened to their min–max where that is wider). The
printed value is inside when it lies in the band widened by half a unit of its printed decimals
(a printed 85.9 stands for 85.85–85.95); a w/t/l count is an integer, with no widening. A cell
outside its band is "a difference to explain", and is named in the paper's ``gaps`` when a gap's
``where`` covers it. Per claim on our numbers, the seed stability is the fraction of the K + 1
runs whose verdict holds; per table, the noise floor is the median band width.

Measured times (a ``fit_seconds`` table) move with the machine, not the seed: they get no band.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..paper import Paper, Where
from .tables import table_metrics

WITHIN = "within seed noise"
OUTSIDE = "outside: a difference to explain"
NO_PRINTED = "no printed value"

# per table kind: the key columns of a cell and each (value, printed value, printed decimals) it carries
_CELLS = {
    "cells": (["dataset", "method", "metric"], [("mean", "published_mean", "mean_decimals")]),
    "pairwise": (["measure", "row_method", "col_method"],
                 [("wins", "published_wins", None), ("losses", "published_losses", None)]),
}


def band(values) -> tuple[float, float, float, float]:
    """(mean, sd, low, high) of one cell's values over the runs (see the module docstring)."""
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    if len(v) == 0:
        return (math.nan,) * 4
    mean = float(np.mean(v))
    sd = float(np.std(v, ddof=1)) if len(v) > 1 else 0.0
    return mean, sd, min(float(v.min()), mean - 2 * sd), max(float(v.max()), mean + 2 * sd)


def _slack(decimals) -> float:
    """Half a unit of the printed decimals (0 for a count, or where the decimals are unknown)."""
    if decimals is None or pd.isna(decimals):
        return 0.0
    return 0.5 * 10.0 ** (-int(decimals))


def _gap_covers(where: Where, table: str, kind: str, row: pd.Series) -> bool:
    if where.table != table:
        return False
    if kind == "pairwise":
        methods_ok = where.methods is None or row["row_method"] in where.methods or row["col_method"] in where.methods
        return methods_ok and (where.metrics is None or row["measure"] in where.metrics)
    return ((where.datasets is None or row["dataset"] in where.datasets)
            and (where.methods is None or row["method"] in where.methods)
            and (where.metrics is None or row["metric"] in where.metrics))


def named_gap(paper: Paper, table: str, kind: str, row: pd.Series) -> int | None:
    """The number (1-based, as the report numbers them) of the first gap whose ``where`` covers the cell."""
    for i, gap in enumerate(paper.gaps):
        if any(_gap_covers(w, table, kind, row) for w in gap.where):
            return i + 1
    return None


def band_tables(paper: Paper) -> dict[str, str]:
    """The paper's tables that get seed bands: name → kind (tables of measured times left out)."""
    out = {}
    for name, spec in paper.tables.items():
        if spec.kind == "cells" and any(m.level == "timing" for m in table_metrics(paper, spec).values()):
            continue
        out[name] = spec.kind
    return out


def seed_bands(paper: Paper, runs: dict[str, list[pd.DataFrame]]) -> pd.DataFrame:
    """One row per (table, cell, value): the value in each run (``runs[table]``: the main run's
    table first, then runs 1..K), its band, the printed value and the status. A paper that draws
    no random number has the main run only: its band is the value itself."""
    rows = []
    for table, frames in runs.items():
        kind = paper.tables[table].kind
        keys, values = _CELLS[kind]
        main = frames[0].reset_index(drop=True)
        for value, printed_col, decimals_col in values:
            stack = np.column_stack([f[value].to_numpy(dtype=float) for f in frames])
            for i, cell in main.iterrows():
                v = stack[i]
                mean, sd, low, high = band(v)
                printed = cell.get(printed_col, math.nan)
                printed = float(printed) if printed is not None and not pd.isna(printed) else math.nan
                slack = _slack(cell.get(decimals_col)) if decimals_col else 0.0
                if math.isnan(printed):
                    status = NO_PRINTED
                else:
                    status = WITHIN if low - slack <= printed <= high + slack else OUTSIDE
                gap = named_gap(paper, table, kind, cell) if status == OUTSIDE else None
                rows.append({"table": table, **{k: cell[k] for k in keys}, "value": value,
                             "main": v[0], "runs": len(v), "seed_min": float(np.nanmin(v)),
                             "seed_max": float(np.nanmax(v)), "seed_mean": mean, "seed_sd": sd,
                             "band_low": low, "band_high": high, "band_width": high - low,
                             "printed": printed, "printed_slack": slack,
                             "status": status,
                             "gap": gap})
    return _with_key_columns(pd.DataFrame(rows))


def _with_key_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """Every kind's key columns present (empty where the kind has none), in one order."""
    keys = ["table", "dataset", "method", "metric", "measure", "row_method", "col_method"]
    for k in keys:
        if k not in frame.columns:
            frame[k] = ""
    rest = [c for c in frame.columns if c not in keys]
    return frame[keys + rest].fillna({k: "" for k in keys[1:]})


def noise_floor(bands: pd.DataFrame) -> pd.DataFrame:
    """Per (table, metric or measure, value): the median band width and sd over its cells, and how
    many printed cells lie inside their bands and how many outside are named in ``gaps``."""
    if bands.empty:
        return pd.DataFrame(columns=["table", "metric", "value", "cells", "median_band_width", "median_sd",
                                     "printed", "inside", "outside_named", "outside_unnamed"])
    b = bands.assign(metric=np.where(bands["metric"] != "", bands["metric"], bands["measure"]))
    rows = []
    for (table, metric, value), g in b.groupby(["table", "metric", "value"], sort=False):
        printed = g[g.status != NO_PRINTED]
        outside = printed[printed.status == OUTSIDE]
        rows.append({"table": table, "metric": metric, "value": value, "cells": len(g),
                     "median_band_width": float(g.band_width.median()), "median_sd": float(g.seed_sd.median()),
                     "printed": len(printed), "inside": int((printed.status != OUTSIDE).sum()),
                     "outside_named": int(outside.gap.notna().sum()), "outside_unnamed": int(outside.gap.isna().sum())})
    return pd.DataFrame(rows)


def seed_stability(claims: list[pd.DataFrame]) -> pd.DataFrame:
    """Per claim and metric, judged on our numbers: its verdict in each run (the main run's
    ``stats/claims.csv`` first), the fraction of runs in which it holds, and whether it changes
    with the seed. A verdict that is not yes or no (not yet computable) counts as not holding."""
    keyed = []
    for k, frame in enumerate(claims):
        ours = frame[frame.source == "ours"].fillna({"metric": ""})
        keyed.append(ours.set_index(["claim_id", "metric"])[["section", "claim", "verdict"]].assign(run=k))
    main = keyed[0]
    rows = []
    for key, first in main.iterrows():
        verdicts = [str(f.loc[key, "verdict"]) if key in f.index else "missing" for f in keyed]
        holds = sum(v == "yes" for v in verdicts)
        rows.append({"claim_id": key[0], "metric": key[1], "section": first.section, "claim": first.claim,
                     "verdicts": " ".join(verdicts), "runs": len(verdicts), "holds_in": holds,
                     "seed_stability": holds / len(verdicts), "changes_with_seed": len(set(verdicts)) > 1})
    return pd.DataFrame(rows)


def compute(paper: Paper, results, runs: list[int]) -> dict[str, pd.DataFrame]:
    """The seed bands, noise floor and seed stability of a paper whose main run is in ``results``
    (``results/{paper}``) and whose reseeded runs ``runs`` (``nbrepro.variants.seeded_runs``) are in its
    ``seeds/{k}/``: the frames to write, by path under ``results``."""
    from pathlib import Path

    from .. import paths
    from ..io import read_csv

    results = Path(results)
    folders = [results] + [results / paths.seed_run(k) for k in runs]
    runs = {name: [read_csv(f / paths.table(name)) for f in folders] for name in band_tables(paper)}
    bands = seed_bands(paper, runs)
    out = {paths.SEED_BANDS: bands, paths.NOISE_FLOOR: noise_floor(bands)}
    if (results / paths.stats("claims")).is_file():
        out[paths.SEED_STABILITY] = seed_stability([read_csv(f / paths.stats("claims")) for f in folders])
    return out
