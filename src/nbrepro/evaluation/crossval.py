# SPDX-License-Identifier: GPL-3.0-or-later
"""Cross-validated class probabilities: data encoded once, and count subtraction for count-based classifiers.

A classifier built on additive counts (``CountedClassifierMixin``: NB, AODE, WAODE, HNB)
is fitted on a fold's training set as (counts of all rows) − (counts of the test rows).
The counts are integers, so this is exactly the model ``fit`` would build on the training
rows — the tests check bit-identical probabilities — while counting k times fewer rows.
It needs every attribute and the class to be ``Categorical``, so that the value sets are
the declared ones and the same in every fold; otherwise each fold is fitted from scratch.
"""
from __future__ import annotations

import copy
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.base import clone

from ..classifiers._mixed import encoded_once, take_rows
from ..classifiers._nominal import ENCODING_ATTRIBUTES, CountedClassifierMixin, NominalClassifierMixin


@dataclass(frozen=True)
class FoldProba:
    proba: np.ndarray  # (test rows × classes), columns in classes_ order
    classes: np.ndarray
    fit_seconds: float
    predict_seconds: float
    recorded: dict | None = None   # attribute path → value, for the paths asked for in ``record``


def recorded_state(model, paths) -> dict:
    """The fitted attributes named by dotted paths (``best_estimator_.bandwidths_``, a Pipeline's
    ``named_steps.classifier.weights_``), read from a fitted model."""
    out = {}
    for path in paths or ():
        value = model
        for part in path.split("."):
            if not hasattr(value, part):
                raise AttributeError(f"{type(model).__name__}: cannot record {path!r}: no attribute {part!r}")
            value = getattr(value, part)
        out[path] = value
    return out


def _all_categorical(X, y) -> bool:
    return (isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
            and isinstance(y.dtype, pd.CategoricalDtype)
            and all(isinstance(t, pd.CategoricalDtype) for t in X.dtypes))


def _fits_from_codes(estimator) -> bool:
    """Whether ``fit`` and ``predict_proba`` are the nominal plumbing's own (encode, then
    ``_fit_codes`` / ``_proba_codes``), so a fold can be fitted from codes encoded once."""
    cls = type(estimator)
    return (isinstance(estimator, NominalClassifierMixin) and cls.fit is NominalClassifierMixin.fit
            and cls.predict_proba is NominalClassifierMixin.predict_proba)


# A fold's fit and predict times are the process's CPU seconds (CLOCK_PROCESS_CPUTIME_ID), not
# wall time: a job is single-threaded, so this is the classifier's own cost, and it does not grow
# when the machine is shared (a timing claim judged on wall time flipped with the load; issue 40).
cpu_seconds = time.process_time


def fold_probabilities(estimator, X: pd.DataFrame, y: pd.Series,
                       folds: Iterable[tuple[np.ndarray, np.ndarray]], record=()) -> Iterator[FoldProba]:
    """For each (train, test) pair of row positions: fit a clone of ``estimator`` on train, predict test.
    ``record`` names fitted attributes to return with each fold (see ``recorded_state``).

    With every column and the class ``Categorical`` (the value sets declared, so the same in every
    fold), a classifier of nominal data is not handed DataFrame slices: the rows are encoded once
    and each fold fits from its rows' codes, as ``fit`` would after encoding them (the same model);
    a count-based one subtracts the test rows' counts from the whole data's."""
    counted = isinstance(estimator, CountedClassifierMixin)
    if not (_all_categorical(X, y) and (counted or _fits_from_codes(estimator))):
        # a classifier that takes an EncodedFrame gets the folds' rows of X encoded once (the same
        # model as from the frame's rows; the encoding is then not in any fold's seconds)
        X = encoded_once(estimator, X)
        for train, test in folds:
            model = clone(estimator)
            t0 = cpu_seconds()
            model.fit(take_rows(X, train), y.iloc[train])
            t1 = cpu_seconds()
            proba = model.predict_proba(take_rows(X, test))
            yield FoldProba(proba, model.classes_, t1 - t0, cpu_seconds() - t1, recorded_state(model, record))
        return

    template = clone(estimator)
    template._fit_encoding(X.iloc[:0], y.iloc[:0])  # value sets and classes: the declared categories
    codes = template._encode(X)
    ycodes = y.cat.codes.to_numpy().astype(np.int64)
    labelled = ycodes >= 0  # rows with a missing class are left out of training, as fit does
    total = template._count(codes[labelled], ycodes[labelled]) if counted else None
    encoding = {a: getattr(template, a) for a in ENCODING_ATTRIBUTES}
    unfitted = clone(estimator)
    for train, test in folds:
        t0 = cpu_seconds()
        # a fresh unfitted model: its parameters are plain values (clone costs more than the fit here)
        model = copy.copy(unfitted)
        model.__dict__.update(encoding)
        partition = len(train) + len(test) == len(X)
        if counted and partition and len(test) < len(train):  # k-fold CV: subtract the (smaller) test fold
            held_out = test[labelled[test]]
            part = model._count(codes[held_out], ycodes[held_out])
            model._fit_counts({k: total[k] - part[k] for k in total})
        else:
            kept = train[labelled[train]]
            model._fit_codes(codes[kept], ycodes[kept])
        t1 = cpu_seconds()
        proba = model._proba_codes(codes[test])
        yield FoldProba(proba, model.classes_, t1 - t0, cpu_seconds() - t1, recorded_state(model, record))
