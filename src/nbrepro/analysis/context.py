# SPDX-License-Identifier: GPL-3.0-or-later
"""What every statistic, figure and claim of a paper reads: one ``Context`` per paper-stats job."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd

from ..paper import Paper
from .tables import label_metric, wide_table


@dataclass
class Context:
    paper: Paper
    table: pd.DataFrame                 # the long reproduced table the analysis reads
    wide: pd.DataFrame                  # dataset × method means at the printed decimals (+ derived columns)
    table1: pd.DataFrame | None
    higher_is_better: bool = True
    statistics: dict = field(default_factory=dict)   # id → value, as computed so far
    frames: dict = field(default_factory=dict)       # stats file name → frame (win/loss rows, figure data)
    tables: dict = field(default_factory=dict)       # every reproduced table of the paper, by name
    results: Path | None = None                      # results/{paper}: the per-fold files, for paper functions
    module: object = None                            # the paper's claims module (``analysis.claims``), if any
    source: str = "ours"                             # "printed": the tables hold the paper's printed numbers

    def has(self, methods) -> bool:
        """Whether every one of ``methods`` is a column computed on every data set."""
        return all(m in self.wide and self.wide[m].notna().all() for m in methods)

    def for_metric(self, metric: str) -> Context:
        """The same table read on another of its metrics (a statistic's ``metric:``); what has
        been computed so far is shared."""
        wide, higher = _read(self.paper, self.table, metric)
        return replace(self, wide=wide, higher_is_better=higher)


def _read(paper: Paper, table: pd.DataFrame, metric: str | None) -> tuple[pd.DataFrame, bool]:
    """The analysis table on ``metric`` as data sets × methods at the printed decimals, and
    whether that metric is better higher."""
    spec = paper.analysis
    wide = wide_table(table, metric, spec.decimals)
    return wide, label_metric(paper, paper.tables[spec.table], metric or "accuracy").higher_is_better


def analysis_context(paper: Paper, table: pd.DataFrame, table1: pd.DataFrame | None, module=None) -> Context:
    """The context of the paper's ``analysis.table`` on its ``analysis.metric``, at the printed
    decimals, with the claims module's ``derived_columns`` added."""
    wide, higher = _read(paper, table, paper.analysis.metric)
    if module is not None and hasattr(module, "derived_columns") and table1 is not None:
        for name, col in module.derived_columns(wide, table1).items():
            wide[name] = col
    return Context(paper, table, wide, table1, higher, module=module)
