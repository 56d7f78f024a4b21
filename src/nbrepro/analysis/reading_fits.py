# SPDX-License-Identifier: GPL-3.0-or-later
"""Readings: which reading of what a paper leaves unstated fits its printed numbers, and which of
its claims change with a reading (``nbrepro.paper.readings`` makes the runs; this module compares them).

For a choice whose readings ran, the cells it touches are the printed cells of every classifier
one of its readings changes (all cells, for a patch of the protocol or the preprocessing). Each
reading r of the choice, the default (the main run) included, is scored on the same cells:

    inside_r  = the touched printed cells within reading r's seed band (``seed_bands``: its own
                main and reseeded runs; without a reseeding run the band is the value itself)
    gap_r     = median over those cells of |m_r − printed|,  m_r the cell's mean over r's runs
    score_r   = Σ_cells ((m_r − printed) / σ)²,  σ = the cell's seed sd under the default reading,
                at least half a unit of its printed decimals (half a count for a w/t/l count)

score is a Gaussian log-likelihood up to constants (−2 log L), with one σ per cell for every reading,
so readings of one choice compare on it: the lowest score fits best (rank 1). A sum of squares is
ruled by its largest gaps, so a reading is called clearly better only when it also comes closer to
the printed value on most of the touched cells (more than half; a reading that moves a few cells
and leaves the rest where they were is not clearly better), leaves no fewer inside their bands and
no larger a median gap.
Per claim judged on our numbers, its verdict under each reading beside the default's says whether
it depends on it.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths
from ..paper import Paper
from ..paper.readings import COMBINED, DEFAULT, Touched, split_id
from .seed_bands import NO_PRINTED, WITHIN, band_tables, seed_bands

READINGS_COLUMNS = ["choice", "reading", "topic", "why", "metric", "cells_touched", "inside", "inside_default",
                    "closer", "further", "median_gap", "score", "rank", "best", "clearly_better", "cpu_seconds"]
CLAIMS_COLUMNS = ["claim_id", "metric", "section", "claim", "choice", "reading", "verdict", "default_verdict",
                  "changed"]


def cell_classifiers(paper: Paper, table: str, row: pd.Series) -> set[str]:
    """The classifiers a cell of a reproduced table is computed from."""
    spec = paper.tables[table]
    if spec.kind == "pairwise":
        return {row["row_method"], row["col_method"]}
    return {c.classifier for c in spec.columns if c.method == row["method"] and c.metric == row["metric"]}


def _sigma(default: pd.DataFrame) -> np.ndarray:
    """Per cell: the default reading's seed sd, at least half a unit of the printed decimals (half a
    count for a w/t/l count, whose printed value has no decimals)."""
    floor = np.where(default["value"].isin(["wins", "losses"]), 0.5, default["printed_slack"].to_numpy(dtype=float))
    sigma = np.maximum(default["seed_sd"].fillna(0).to_numpy(dtype=float), floor)
    return np.where(sigma > 0, sigma, 1e-12)


def fit_rows(bands: dict[str, pd.DataFrame], touched: np.ndarray, sigma: np.ndarray) -> dict:
    """inside / closer / further / median gap / score of each reading (``bands``: reading → its seed
    bands, rows aligned with the default's, the default first) on the touched printed cells; closer
    and further count the cells whose |gap| is below and above the default's (at 1e-9)."""
    out = {}
    base = None
    for reading, b in bands.items():
        printed = touched & (b["status"] != NO_PRINTED).to_numpy()
        gap = (b["seed_mean"] - b["printed"]).to_numpy(dtype=float)
        base = np.abs(gap) if base is None else base
        diff = (np.abs(gap) - base)[printed]
        out[reading] = {"cells_touched": int(printed.sum()),
                        "inside": int((b["status"].to_numpy() == WITHIN)[printed].sum()),
                        "closer": int((diff < -1e-9).sum()), "further": int((diff > 1e-9).sum()),
                        "median_gap": float(np.median(np.abs(gap[printed]))) if printed.any() else math.nan,
                        "score": float(np.sum((gap[printed] / sigma[printed]) ** 2)) if printed.any() else math.nan}
    return out


def _touches(t: Touched, labels: set[str], dataset: str) -> bool:
    """Whether a reading touches a cell: one of the cell's classifiers on its data set (a cell over
    every data set, a count or a mean rank: on any)."""
    return any(t.owns(c, dataset) for c in labels) if dataset else bool(labels & set(t.classifiers))


def _runs(folder: Path, seeds: list[int]) -> list[Path]:
    return [folder] + [folder / paths.seed_run(k) for k in seeds]


def _bands(paper: Paper, folders: list[Path]) -> pd.DataFrame:
    from ..io import read_csv

    runs = {name: [read_csv(f / paths.table(name)) for f in folders] for name in band_tables(paper)}
    return seed_bands(paper, runs)


def _cpu_seconds(folder: Path) -> float:
    """Fitting and predicting in a reading's own per-fold files, over all its runs (the process CPU
    seconds the evaluation records; the jobs' start-up is not in it)."""
    from ..io import read_parquet

    total = 0.0
    for f in sorted(folder.rglob("folds/*/*.parquet")):
        d = read_parquet(f, columns=["fit_seconds", "predict_seconds"])   # every evaluation records both
        total += float(d["fit_seconds"].sum() + d["predict_seconds"].sum())
    return total


def compute(paper: Paper, variants: dict[str, Paper], results, seeds: list[int],
            touched: dict[str, Touched]) -> dict[str, pd.DataFrame]:
    """``stats/readings.csv`` and ``stats/reading_claims.csv`` of a paper whose main run is in
    ``results`` and each reading's run in its ``readings/{choice}/{reading}/`` (``variants``: reading →
    the paper under it; ``touched``: reading → what it changes (``readings.touched``); ``seeds``: the runs 1..K of
    the reseeding, the same for every reading)."""
    from ..io import read_csv

    results = Path(results)
    default = _bands(paper, _runs(results, seeds))
    runs = {r: _bands(v, _runs(results / paths.reading_run(r), seeds)) for r, v in variants.items()}
    keys = ["table", "dataset", "method", "metric", "measure", "row_method", "col_method", "value"]
    for r, b in runs.items():   # the same cells in the same order, or the comparison means nothing
        if not b[keys].equals(default[keys]):
            raise ValueError(f"reading {r}: its tables do not have the main run's cells")
    sigma = _sigma(default)
    metric = np.where(default["metric"] != "", default["metric"], default["measure"])
    # each cell's classifiers, once for every choice
    computed_from = [cell_classifiers(paper, t, row) for t, (_, row) in
                     zip(default["table"], default.iterrows(), strict=True)]
    by_choice: dict[str, list[str]] = {}
    for r in variants:
        by_choice.setdefault(split_id(r)[0], []).append(r)
    rows = []
    for choice_id, readings in by_choice.items():
        if choice_id == COMBINED:   # the combinations, compared with the default on every cell one touches
            topic, default_why = "readings combined", "every choice as configured"
            whys = {c.name: c.why for c in paper.reading_combinations}
        else:
            choice = paper.choice(choice_id)
            topic, default_why, whys = choice.topic, choice.choice, {r.name: r.why for r in choice.readings}
        cells = np.array([any(_touches(touched[r], labels, d) for r in readings)
                          for labels, d in zip(computed_from, default["dataset"].fillna(""), strict=True)])
        names = [DEFAULT] + [split_id(r)[1] for r in readings]
        frames = dict(zip(names, [default] + [runs[r] for r in readings], strict=True))
        why = {DEFAULT: default_why} | whys
        cpu = {DEFAULT: math.nan} | {split_id(r)[1]: _cpu_seconds(results / paths.reading_run(r)) for r in readings}
        for m in ["all", *dict.fromkeys(metric[cells])]:
            where = cells & ((metric == m) if m != "all" else True)
            fits = fit_rows(frames, where, sigma)
            order = sorted(names, key=lambda n: (math.inf if math.isnan(fits[n]["score"]) else fits[n]["score"],
                                                 names.index(n)))
            for n in names:
                f = fits[n]
                d = fits[DEFAULT]
                clearly = (n != DEFAULT and f["score"] < d["score"] and 2 * f["closer"] > f["cells_touched"]
                           and f["inside"] >= d["inside"] and not f["median_gap"] > d["median_gap"])
                rows.append({"choice": choice_id, "reading": n, "topic": topic, "why": why[n], "metric": m,
                             **f, "inside_default": fits[DEFAULT]["inside"], "rank": order.index(n) + 1,
                             "best": order[0] == n, "clearly_better": bool(clearly), "cpu_seconds": cpu[n]})
    table = pd.DataFrame(rows, columns=READINGS_COLUMNS)
    claims = []
    main_claims = results / paths.stats("claims")
    if main_claims.is_file():
        base = _ours(read_csv(main_claims))
        for r in variants:
            other = _ours(read_csv(results / paths.reading_run(r, paths.stats("claims"))))
            choice_id, name = split_id(r)
            for key, row in base.iterrows():
                verdict = str(other.loc[key, "verdict"]) if key in other.index else "missing"
                claims.append({"claim_id": key[0], "metric": key[1], "section": row.section, "claim": row.claim,
                               "choice": choice_id, "reading": name, "verdict": verdict,
                               "default_verdict": str(row.verdict), "changed": verdict != str(row.verdict)})
    return {paths.READINGS: table, paths.READING_CLAIMS: pd.DataFrame(claims, columns=CLAIMS_COLUMNS)}


def _ours(claims: pd.DataFrame) -> pd.DataFrame:
    ours = claims[claims.source == "ours"].fillna({"metric": ""})
    return ours.set_index(["claim_id", "metric"])[["section", "claim", "verdict"]]


def robustness(reading_claims: pd.DataFrame) -> dict[tuple[str, str], str]:
    """(claim_id, metric) → "yes" (no reading run changes its verdict) or "depends on {choices}"."""
    out = {}
    if reading_claims is None or reading_claims.empty:
        return out
    rc = reading_claims.fillna({"metric": ""})
    for key, g in rc.groupby(["claim_id", "metric"], sort=False):
        flips = list(dict.fromkeys(g.loc[g["changed"].astype(str).str.lower() == "true", "choice"]))
        out[key] = "yes" if not flips else "depends on " + ", ".join(flips)
    return out


def draw(table: pd.DataFrame, paper: Paper, stem: Path) -> None:
    """Per choice, each reading's share of the touched printed cells within its seed band (the
    default hollow, the best-scoring filled dark): which reading fits, at a glance."""
    from ..plotting import finish, pyplot

    plt = pyplot()
    t = table[table.metric == "all"].reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.32 * max(len(t), 1)))
    labels, y = [], np.arange(len(t))[::-1]
    for i, row in t.iterrows():
        share = row.inside / row.cells_touched if row.cells_touched else math.nan
        face = "white" if row.reading == DEFAULT else ("#1f4e79" if row.best else "#8fb3d9")
        ax.plot([share], [y[i]], "o", ms=8, mfc=face, mec="#1f4e79")
        ax.annotate(f"{row.inside}/{row.cells_touched}" + (" best" if row.best else ""), (share, y[i]),
                    xytext=(8, -3), textcoords="offset points", fontsize=8)
        labels.append(f"{row.choice}: {row.reading}")
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlim(-0.02, 1.15)
    ax.set_xlabel("touched printed cells within their seed band (share)")
    ax.grid(axis="x", alpha=0.3)
    finish(fig, plt, stem, f"{paper.name}: readings of its choices (hollow: the default; dark: the lowest score)")
