# SPDX-License-Identifier: GPL-3.0-or-later
"""Ranks of methods within each dataset (rank 1 = best), ties averaged."""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import rankdata


def rank_rows(table: pd.DataFrame | np.ndarray, higher_is_better: bool = True):
    """Rank each row (dataset) across columns (methods); ties get the average rank."""
    values = np.asarray(table, dtype=np.float64)
    ranks = rankdata(-values if higher_is_better else values, axis=1, method="average")
    if isinstance(table, pd.DataFrame):
        return pd.DataFrame(ranks, index=table.index, columns=table.columns)
    return ranks


def mean_ranks(table: pd.DataFrame, higher_is_better: bool = True) -> pd.Series:
    return rank_rows(table, higher_is_better).mean(axis=0)


def mean_ranks_from_records(records: pd.DataFrame, methods: list[str], n: int) -> pd.Series:
    """Mean ranks over ``n`` data sets from the pairwise w/t/l records alone (``row``, ``col``,
    ``wins``, ``ties``, ``losses``; each unordered pair once, either way round).

    A method's rank on a data set is 1 + the methods better on it + half those tied with it, so
    its mean rank is 1 + Σ_B (losses against B + ties with B / 2) / n: a paper that prints its
    w/t/l matrix prints its mean ranks too. Equal to ``mean_ranks`` of the underlying table when
    the records count exact ties."""
    lost = pd.Series(0.0, index=methods)
    for r in records.itertuples(index=False):
        if r.row in lost.index and r.col in lost.index:
            lost[r.row] += r.losses + r.ties / 2
            lost[r.col] += r.wins + r.ties / 2
    return 1.0 + lost / n
