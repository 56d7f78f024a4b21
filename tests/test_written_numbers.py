# SPDX-License-Identifier: GPL-3.0-or-later
"""The numbers written about the results, checked against what the code computed at the last
whole-suite run (``benchmarks/results/suite_cells.csv`` and ``suite_counts.csv``, copied from that
run's files by ``benchmarks/suite_cells.py``): each README headline per paper, and every gap's
"ours vs printed" pair (issue 81: hand-written ranges had gone stale)."""
from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from nbrepro.analysis.tables import printed_decimals
from nbrepro.paper import read_paper

ROOT = Path(__file__).resolve().parents[1]
CELLS = ROOT / "benchmarks/results/suite_cells.csv"
COUNTS = ROOT / "benchmarks/results/suite_counts.csv"
PAPERS = ("lcwnb", "lslwnb", "kdebw", "lpmbc", "awnb")
PAIR = re.compile(r"(?<![\d.])(−?-?\d+\.\d+) vs (−?-?\d+\.\d+)")


@pytest.fixture(scope="module")
def cells():
    return pd.read_csv(CELLS)


@pytest.fixture(scope="module")
def counts():
    return pd.read_csv(COUNTS)


def _scope(cells: pd.DataFrame, paper: str, where) -> pd.DataFrame:
    """The cells a gap's ``where:`` names (every cell of the paper when it names none)."""
    mine = cells[cells.paper == paper]
    if not where:
        return mine
    keep = pd.Series(False, index=mine.index)
    for w in where:
        k = mine.table == w.table
        for col, values in (("method", w.methods), ("dataset", w.datasets), ("metric", w.metrics)):
            if values:
                k &= mine[col].isin(values)
        keep |= k
    return mine[keep]


def _matches(scope: pd.DataFrame, ours: str, printed: str) -> bool | None:
    """Whether a cell whose printed value (or the printed method's beside it) is ``printed`` has, at the
    decimals ``ours`` is written with, the mean ``ours``; None when no cell of the scope was printed so
    (a pair of other numbers: a log-likelihood, a setting's result)."""
    d = int(printed_decimals(ours))
    o, p = float(ours.replace("−", "-")), float(printed.replace("−", "-"))
    printed_so = False
    for column in ("published_mean", "beside_mean"):
        hit = scope[(scope[column] - p).abs() < 0.5 * 10.0 ** -int(printed_decimals(printed)) + 1e-9]
        printed_so |= len(hit) > 0
        if ((hit["mean"].round(d) - o).abs() < 1e-9).any():
            return True
    return False if printed_so else None


@pytest.mark.parametrize("paper", PAPERS)
def test_every_gaps_ours_vs_printed_pair_is_the_runs(paper, cells):
    spec = read_paper(ROOT / "config/papers" / f"{paper}.yaml")
    wrong = []
    for gap in spec.gaps:
        scope = _scope(cells, paper, gap.where)
        for text in (gap.cells, gap.explanation):
            for ours, printed in PAIR.findall(text or ""):
                if _matches(scope, ours, printed) is False:
                    wrong.append(f"{gap.cells[:60]!r}: {ours} vs {printed}")
    assert not wrong, wrong


EXACT = re.compile(r"(\d+) of (\d+) (?:[A-Za-z]+ )?(?:cells )?exact")


@pytest.mark.parametrize("paper", PAPERS)
def test_a_gaps_count_of_exact_cells_is_the_runs(paper, counts):
    """"LWNB column (1 of 36 exact, …)": a gap naming one table and one method states its exact cells."""
    spec = read_paper(ROOT / "config/papers" / f"{paper}.yaml")
    for gap in spec.gaps:
        if len(gap.where) != 1 or not gap.where[0].methods or len(gap.where[0].methods) != 1:
            continue
        w = gap.where[0]
        for e, n in EXACT.findall(gap.cells):
            c = counts[(counts.paper == paper) & (counts.table == w.table) & counts.method.isin(w.methods)]
            if w.metrics:
                c = c[c.metric.isin(w.metrics)]
            assert (int(e), int(n)) == (int(c.exact.sum()), int(c.compared.sum())), (gap.cells, e, n)


def _exact(counts, paper, methods=None, metric=None, table=None) -> tuple[int, int]:
    c = counts[counts.paper == paper]
    if methods is not None:
        c = c[c.method.isin(methods)]
    if metric is not None:
        c = c[c.metric == metric]
    if table is not None:
        c = c[c.table == table]
    return int(c.exact.sum()), int(c.compared.sum())


def _readme_line(start: str) -> str:
    """The README's bullet of the paper, its lines joined."""
    bullets = re.split(r"\n(?=- |\n)", (ROOT / "README.md").read_text())
    found = [" ".join(b.split()) for b in bullets if b.startswith(f"- {start}")]
    assert len(found) == 1, start
    return found[0]


def test_the_readme_headlines_are_the_last_runs(counts):
    lcwnb = _readme_line("Li & Li")
    weka = ["LCWNB5", "LCWNB10", "LCWNB20", "NB", "TAN", "AODE", "WAODE", "HNB"]
    e, n = _exact(counts, "lcwnb", weka)
    assert f"{e}/{n}" in lcwnb and "cells of Table 2 exact" in lcwnb
    e, n = _exact(counts, "lslwnb", ["NB"])
    assert f"NB exact on {e} of {n} cells" in _readme_line("Orhan et al.")
    hall = _readme_line("Hall")
    e_rrse, n_rrse = _exact(counts, "awnb", ["NB"], "rrse")
    e_auc, n_auc = _exact(counts, "awnb", ["NB"], "auc")
    assert f"NB {e_rrse} of {n_rrse} RRSE and {e_auc} of {n_auc} AUC cells exact" in hall
    mao = _readme_line("Mao et al.")
    for metric, label in (("accuracy", "accuracy"), ("mse", "MSE")):
        c = counts[(counts.paper == "lpmbc") & (counts.metric == metric)]
        near = int((c.exact + c.within_tolerance_1 + c.within_tolerance_2).sum())
        assert (c.tolerance_2 == 0.01).all() and f"{label} {near} of {int(c.printed.sum())}" in mao
    kdebw = _readme_line("Liu et al.")
    c = counts[(counts.paper == "kdebw") & (counts.table == "table2")]
    within = "; ".join(f"{r.metric} {r.exact + r.within_tolerance_1}/{r.printed}" for r in c.itertuples())
    assert f"w/t/l within ± 3 data sets: {within}" in kdebw
