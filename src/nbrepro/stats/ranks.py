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
