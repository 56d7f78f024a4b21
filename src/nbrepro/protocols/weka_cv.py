# SPDX-License-Identifier: GPL-3.0-or-later
"""Stratified R×K cross-validation exactly as Weka 3.6's Experimenter builds it.

Per run r (seed = r): copy the data in file order, ``randomize`` with
``new Random(r)``, ``stratify`` (nominal class only), then for each fold f the
training set is ``trainCV`` — the rows outside the test block, *shuffled with the
same Random object* — and the test set is the contiguous block ``testCV``.
See ``shared/docs/weka-cv-semantics.md``.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import ProtocolError
from ..weka.random import JavaRandom, java_shuffled


@dataclass(frozen=True)
class Fold:
    run: int
    fold: int
    train: np.ndarray  # row indices in file order, in the order Weka trains on them
    test: np.ndarray   # row indices, in the order Weka predicts them


def _stratify(rows: np.ndarray, y: Sequence, k: int) -> np.ndarray:
    """Weka's ``Instances.stratify``: selection-swap grouping by class, then stratStep
    (compiled: ``weka._random_kernel.stratified``). ``y``: class codes, a missing class -1."""
    from ..weka._random_kernel import stratified  # numba: imported where first needed

    return stratified(np.asarray(rows, dtype=np.int64), np.asarray(y, dtype=np.int64), k)


def fold_bounds(n: int, k: int, f: int) -> tuple[int, int]:
    base, rem = divmod(n, k)
    size = base + 1 if f < rem else base
    first = f * base + min(f, rem)
    return first, first + size


def weka_cv_folds(
    y: Sequence[int] | None,
    n_folds: int,
    runs: Sequence[int],
    *,
    n: int | None = None,
    stratify: bool = True,
    shuffle_train: bool = True,
) -> Iterator[Fold]:
    """Yield the folds of Weka's ``CrossValidationResultProducer`` for the given runs.

    ``y`` holds integer class codes (-1 for a missing class). With a numeric
    class pass ``stratify=False`` (Weka does not stratify then). ``shuffle_train=False``
    skips the training-set shuffle: the test sets are the same, the training rows come
    in block order, and it is much faster — use it only for order-free learners.
    """
    if y is not None:
        y = np.asarray(y, dtype=np.int64)
        n = len(y)
    if n is None:
        raise ValueError("give y or n")
    if n_folds < 2:
        raise ProtocolError(f"cross-validation needs at least 2 folds, got {n_folds}")
    if n_folds > n:
        raise ProtocolError(
            f"{n_folds}-fold cross-validation needs at least {n_folds} rows, the data has n_samples={n}"
        )
    for r in runs:
        rnd = JavaRandom(int(r))
        rows = java_shuffled(np.arange(n, dtype=np.int64), rnd)
        if stratify and y is not None:
            rows = _stratify(rows, y, n_folds)
        for f in range(n_folds):
            lo, hi = fold_bounds(n, n_folds, f)
            train = np.concatenate((rows[:lo], rows[hi:]))
            if shuffle_train:
                train = java_shuffled(train, rnd)
            yield Fold(int(r), f, train, rows[lo:hi].copy())
