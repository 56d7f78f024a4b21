# SPDX-License-Identifier: GPL-3.0-or-later
"""How stable a verdict is under resampling of the data sets it was drawn from.

A claim such as "A ranks first" or "A is significantly better than B" is a function of the
data sets × methods table. Its bootstrap stability is the fraction of B resamples of the rows
(data sets drawn with replacement, a fixed seed) in which the claim still holds; a verdict held
in fewer than 80 % of them is called fragile (the threshold of issue 40, a convention, not a test).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

FRAGILE_BELOW = 0.8


@dataclass(frozen=True)
class StabilityResult:
    fraction: float        # of resamples in which the claim holds
    resamples: int
    fragile: bool          # the claim holds on the table but in fewer than 80 % of resamples (or fails, but
                           # holds in more than 20 %)


def resample_rows(n: int, resamples: int = 1000, seed: int = 1) -> np.ndarray:
    """Row indices of ``resamples`` bootstrap resamples of n data sets (resamples × n), from a fixed seed."""
    return np.random.default_rng(seed).integers(0, n, size=(resamples, n))


def stability_of(held, holds_on_table: bool) -> StabilityResult:
    """From whether a claim holds in each resample: the fraction, and whether the verdict on the
    table itself is reached in fewer than 80 % of them."""
    held = np.asarray(held, dtype=bool)
    fraction = float(held.mean())
    agree = fraction if holds_on_table else 1.0 - fraction
    return StabilityResult(fraction, len(held), agree < FRAGILE_BELOW)


def bootstrap_stability(table: pd.DataFrame, holds: Callable[[pd.DataFrame], bool], resamples: int = 1000,
                        seed: int = 1) -> StabilityResult:
    """The fraction of ``resamples`` bootstrap resamples of ``table``'s rows on which ``holds``
    is true; ``fragile`` when the verdict on the table itself is reached in fewer than 80 %."""
    picks = resample_rows(len(table), resamples, seed)
    held = [bool(holds(table.iloc[rows].reset_index(drop=True))) for rows in picks]
    return stability_of(held, bool(holds(table)))


def leave_one_method_out(table: pd.DataFrame, holds: Callable[[pd.DataFrame], bool],
                         keep: list[str]) -> dict[str, bool]:
    """For a claim on mean ranks: whether it holds with each method not in ``keep`` left out of the
    pool in turn (method → verdict), since a mean-rank post-hoc test's verdict on A vs B depends
    on the other methods ranked with them."""
    return {m: bool(holds(table.drop(columns=m))) for m in table.columns if m not in keep}
