# SPDX-License-Identifier: GPL-3.0-or-later
"""The work of the pipeline's jobs: fetch, prepare (+ folds), evaluate.

Each function reads files and writes files only, so the results do not depend on how
many jobs run at once. Outputs are written to a temporary name and renamed, so an
interrupted job never leaves a file that looks finished.
"""
from __future__ import annotations

import functools
import logging
from pathlib import Path

import numpy as np
import pandas as pd

from ..classifiers.trees import shared_tree_depths
from ..data.fetch import load_dataset, verify_cached
from ..data.registry import registry_entry
from ..errors import USER_ERRORS, DatasetInvalid, ProtocolError
from ..io import atomic_path, read_parquet
from ..metrics import metric_for, paper_metrics
from ..paper import Paper
from ..preprocess.pipeline import apply_steps, build_steps
from ..protocols import make_folds
from ..runtime.progress import Progress
from .builders import make_classifier
from .crossval import FoldProba, cpu_seconds, fold_probabilities

log = logging.getLogger("nbrepro")


def _write_parquet(df: pd.DataFrame, path: str | Path) -> None:
    with atomic_path(path) as tmp:
        df.to_parquet(tmp, index=False, engine="pyarrow", compression="zstd")


def paper_rows(paper: Paper, dataset: str, X: pd.DataFrame, y: pd.Series) -> tuple[pd.DataFrame, pd.Series]:
    """The data set as the paper's experiment starts from it: its row filters (complete cases,
    duplicates) and the dataset's own steps (``per_dataset``), before the common steps."""
    pre = paper.preprocessing
    extra = pre.rows_of(dataset)
    keep = np.ones(len(X), dtype=bool)
    if pre.complete_cases:
        keep &= ~X.isna().any(axis=1).to_numpy() & y.notna().to_numpy()
    if extra.drop_duplicate_rows:
        keep &= ~pd.concat([X, y], axis=1).duplicated().to_numpy()
    if not keep.all():
        log.info("dataset %r: %d of %d rows kept (complete cases / duplicates)", dataset, keep.sum(), len(keep))
        X, y = X[keep].reset_index(drop=True), y[keep].reset_index(drop=True)
    if extra.steps:
        (X,) = apply_steps(build_steps(list(extra.steps)), X)
    return X, y


def prepare(paper: Paper, dataset: str, registry_path, raw_path, out_data, out_folds) -> None:
    """Validate the raw file (of the registry entry the paper reads for ``dataset``: itself, or its
    copy), preprocess it (when the paper's scope is the whole dataset) and fix the folds."""
    spec = registry_entry(registry_path, paper.dataset_entry(dataset))
    verify_cached(spec, Path(raw_path))
    pre = paper.preprocessing
    try:
        X, y = paper_rows(paper, dataset, *load_dataset(spec, Path(raw_path)))
        if pre.scope == "dataset":
            (X,) = apply_steps(build_steps(list(pre.steps)), X)
    except (ValueError, TypeError) as exc:
        if isinstance(exc, USER_ERRORS):
            raise
        # a step that cannot take these values (a range that overflows, …): one line naming the data set
        raise DatasetInvalid(f"dataset {dataset!r}: preprocessing failed: {exc}") from None
    frame = X.copy()
    frame[y.name] = y  # the class is always the last column of a prepared file
    _write_parquet(frame, out_data)
    _write_folds(paper, dataset, y, out_folds)


def _write_folds(paper: Paper, dataset: str, y: pd.Series, out_folds) -> None:
    try:
        made = make_folds(paper.protocol, y.cat.codes.to_numpy(), list(y.cat.categories))
    except ProtocolError as exc:
        raise ProtocolError(f"dataset {dataset!r}: {exc}") from None
    rows = [(f.run, f.fold, f.train.astype(np.int32), f.test.astype(np.int32)) for f in made]
    folds = pd.DataFrame(rows, columns=["run", "fold", "train", "test"])
    _write_parquet(folds, out_folds)


def write_folds(paper: Paper, dataset: str, prepared_path, out_folds) -> None:
    """The paper's folds of a data set already prepared (``prepare``'s data file): a reseeded
    run's other folds of the same prepared rows."""
    frame = pd.read_parquet(prepared_path)
    _write_folds(paper, dataset, frame.iloc[:, -1], out_folds)


def _fold_frames(paper, X, y, train, test):
    """(training rows, test rows) of one fold; with ``scope: fold`` the preprocessing fitted on the
    training rows (with their class) and applied to both."""
    if paper.preprocessing.scope != "fold":
        return X.iloc[train], X.iloc[test]
    return apply_steps(build_steps(list(paper.preprocessing.steps)), X.iloc[train], X.iloc[test], y=y.iloc[train])


def _fold_scope_probabilities(paper, label, X, y, splits, record=()):
    """Preprocessing fitted on each training fold (with its class), then the classifier on the transformed rows."""
    for train, test in splits:
        Xtr, Xte = _fold_frames(paper, X, y, train, test)
        yield from fold_probabilities(make_classifier(label, paper), pd.concat([Xtr, Xte]),
                                      pd.concat([y.iloc[train], y.iloc[test]]),
                                      [(np.arange(len(train)), np.arange(len(train), len(train) + len(test)))],
                                      record)


def flatten_state(value, key: str = "") -> list[tuple[str, float, str]]:
    """A recorded attribute as rows (key, number, text): arrays by index ("i,j"), mappings by key."""
    if isinstance(value, dict):
        return [row for k, v in value.items() for row in flatten_state(v, f"{key}.{k}" if key else str(k))]
    if isinstance(value, pd.DataFrame):
        return flatten_state({f"{i},{c}": v for (i, c), v in value.stack().items()}, key)
    if isinstance(value, (np.ndarray, list, tuple, pd.Series)):
        arr = np.asarray(value)
        keys = [",".join([key] * bool(key) + [str(i) for i in idx]) for idx in np.ndindex(arr.shape)]
        if arr.dtype.kind in "biuf":   # numbers (e.g. bandwidths per attribute × class): no recursion per element
            return list(zip(keys, arr.astype(np.float64).ravel().tolist(), [""] * arr.size, strict=True))
        return [
            row
            for k, v in zip(keys, np.asarray(value, dtype=object).ravel(), strict=True)
            for row in flatten_state(v, k)
        ]
    if isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating)):
        return [(key, float(value), "")]
    return [(key, np.nan, "" if value is None else str(value))]


@functools.lru_cache(maxsize=64)
def _index_keys(shape: tuple) -> tuple:
    return tuple(",".join(str(i) for i in idx) for idx in np.ndindex(shape))


def _predictions_frame(parts: list, probas: list | None, classes: list) -> pd.DataFrame:
    """Every fold's predicted rows in one frame: variant, run, fold, row, y, y_pred, p:<class>…
    (built once: a frame per fold cost more than its fit on the small data sets). ``probas``: each
    fold's probabilities in the stored dtype, or None for no ``p:`` columns; the class names stay
    in ``attrs``, which the parquet file keeps."""
    names = ["variant", "run", "fold", "row", "y", "y_pred"]
    if not parts:
        columns = {name: np.empty(0, dtype=object if name == "variant" else np.int32) for name in names}
    else:
        columns = {name: np.concatenate([p[i] for p in parts]) for i, name in enumerate(names)}
    if probas is not None:
        proba = np.concatenate(probas) if probas else np.empty((0, len(classes)))
        columns.update({f"p:{c}": proba[:, j] for j, c in enumerate(classes)})
    frame = pd.DataFrame(columns)
    frame.attrs["classes"] = [str(c) for c in classes]
    return frame


def _fitted_columns(value) -> tuple:
    """``flatten_state``'s rows of one recorded attribute as (keys, values, texts); a numeric
    array, such as bandwidths per attribute × class, in one step, not one per element."""
    if isinstance(value, np.ndarray) and value.ndim and value.dtype.kind in "biuf":
        return _index_keys(value.shape), value.astype(np.float64).ravel(), ("",) * value.size
    rows = flatten_state(value)
    if not rows:
        return (), np.empty(0), ()
    keys, values, texts = zip(*rows, strict=True)
    return keys, np.asarray(values, dtype=np.float64), texts


def read_prepared(path) -> tuple[pd.DataFrame, pd.Series]:
    frame = read_parquet(path)
    return frame.iloc[:, :-1], frame.iloc[:, -1]


FITTED_COLUMNS = ["variant", "run", "fold", "attribute", "key", "value", "text"]


def path_groups(paper: Paper, labels) -> list[list[str]]:
    """The labels in groups fitted once per fold: classifiers of one estimator that differ only
    in parameters it scores from one fit (its ``path_params`` and ``path_proba``, e.g. LPM-BC's
    k and model, as a sweep's grid gives them). A classifier that records state or runs
    variants stays alone. Groups keep the labels' order."""
    groups, seen = [], {}
    for label in labels:
        spec = paper.classifiers[label]
        est = make_classifier(label, paper)
        path = tuple(getattr(est, "path_params", ()))
        if not path or not hasattr(est, "path_proba") or spec.record or spec.variants:
            groups.append([label])
            continue
        rest = sorted((k, repr(v)) for k, v in est.get_params(deep=False).items() if k not in path)
        key = (type(est).__name__, repr(rest))
        if key in seen:
            groups[seen[key]].append(label)
        else:
            seen[key] = len(groups)
            groups.append([label])
    return groups


def _shared_fit_probabilities(paper, labels, X, y, splits):
    """Per fold, one FoldProba per label from one fit of the group's estimator and its
    ``path_proba`` (the same probabilities as a fit per label). Each label reports the shared
    fit's seconds and an equal share of the prediction's."""
    from sklearn.base import clone

    estimators = [make_classifier(label, paper) for label in labels]
    points = [{k: e.get_params(deep=False)[k] for k in e.path_params} for e in estimators]
    for train, test in splits:
        Xtr, Xte = _fold_frames(paper, X, y, train, test)
        model = clone(estimators[0])
        t0 = cpu_seconds()
        model.fit(Xtr, y.iloc[train])
        t1 = cpu_seconds()
        probas = model.path_proba(Xte, points)
        share = (cpu_seconds() - t1) / len(labels)
        yield [FoldProba(p, model.classes_, t1 - t0, share, {}) for p in probas]


PER_ATTRIBUTE = ("drop_each_attribute", "ignore_each_attribute")  # variants: one evaluation per attribute


def _label_probabilities(paper, label, X, y, splits, record, params=None):
    """Per fold, a one-element list: the label's own fit (with ``params`` set on its estimator)."""
    if paper.preprocessing.scope == "fold":
        if params:
            raise ProtocolError(
                f"classifier {label!r}: variants with estimator parameters need preprocessing scope 'dataset'"
            )
        results = _fold_scope_probabilities(paper, label, X, y, splits, record)
    else:
        results = fold_probabilities(make_classifier(label, paper).set_params(**(params or {})), X, y, splits, record)
    for res in results:
        yield [res]


class _Collected:
    """One label's fold rows, predicted rows and recorded state, gathered fold by fold."""

    def __init__(self, stored: str = "float64"):
        self.fold_rows, self.pred_parts = [], []  # predictions: arrays per fold, one frame at the end
        # the probabilities as they will be stored (the paper's stored_probabilities); none kept for "none"
        self.dtype = None if stored == "none" else np.dtype(stored)
        self.probas = None if self.dtype is None else []
        self.fitted = {c: [] for c in FITTED_COLUMNS}  # the recorded state, column by column

    def add(self, label, classes, ycodes, metrics, variant, run, fold, train, test, res):
        if list(res.classes) != classes:
            raise RuntimeError(f"{label}: classes_ {list(res.classes)} differ from the dataset's {classes}")
        proba = res.proba
        pred = np.argmax(proba, axis=1)  # first maximum, as Weka's classifyInstance
        truth = ycodes[test]
        trained = ycodes[train]
        counts = np.bincount(trained[trained >= 0], minlength=len(classes))
        row = {"variant": variant, "run": int(run), "fold": int(fold), "n_train": len(train), "n_test": len(test)}
        row.update({col: float(m(truth, proba, counts)) for col, m in metrics.items()})
        row.update(fit_seconds=res.fit_seconds, predict_seconds=res.predict_seconds)
        self.fold_rows.append(row)
        n = len(test)
        self.pred_parts.append(
            (
                np.full(n, variant, dtype=object),
                np.full(n, run, dtype=np.int32),
                np.full(n, fold, dtype=np.int32),
                test.astype(np.int32),
                truth.astype(np.int32),
                pred.astype(np.int32),
            )
        )
        if self.probas is not None:
            self.probas.append(proba.astype(self.dtype, copy=False))
        fitted = self.fitted
        for attribute, value in (res.recorded or {}).items():
            keys, values, texts = _fitted_columns(value)
            # the first five columns; value and text follow
            for column, part in zip(
                FITTED_COLUMNS[:5],
                (
                    (variant,) * len(keys),
                    (int(run),) * len(keys),
                    (int(fold),) * len(keys),
                    (attribute,) * len(keys),
                    keys,
                ),
                strict=True,
            ):
                fitted[column].extend(part)
            fitted["value"].append(values)
            fitted["text"].extend(texts)

    def write(self, classes, out_folds, out_predictions, out_fitted) -> pd.DataFrame:
        result = pd.DataFrame(self.fold_rows)
        _write_parquet(result, out_folds)
        _write_parquet(_predictions_frame(self.pred_parts, self.probas, classes), out_predictions)
        if out_fitted is not None:
            fitted = self.fitted
            fitted["value"] = np.concatenate(fitted["value"]) if fitted["value"] else np.empty(0)
            fitted["run"] = np.asarray(fitted["run"], dtype=np.int32)
            fitted["fold"] = np.asarray(fitted["fold"], dtype=np.int32)
            _write_parquet(pd.DataFrame(fitted, columns=FITTED_COLUMNS), out_fitted)
        return result


def evaluate(
    paper: Paper, dataset: str, label: str, prepared_path, folds_path, out_folds, out_predictions, out_fitted=None
) -> pd.DataFrame:
    """Run one classifier over every fold; write per-fold metrics, per-test-row predictions and, when
    the classifier's spec has ``record:``, its fitted attributes per fold."""
    return next(
        evaluate_many(
            paper, dataset, [label], prepared_path, folds_path, {label: (out_folds, out_predictions, out_fitted)}
        )
    )[1]


def evaluate_many(paper: Paper, dataset: str, labels, prepared_path, folds_path, outputs: dict):
    """``evaluate`` for several classifiers of one dataset, reading the data once and fitting each
    of ``path_groups`` once per fold. ``outputs``: label → (folds, predictions, fitted or None)
    paths. Yields (label, per-fold frame) as each label's files are written."""
    X, y = read_prepared(prepared_path)
    folds = read_parquet(folds_path)
    declared = paper_metrics(paper)
    metrics = {c: m for c, m in declared.items() if m.level == "fold"} or {
        "accuracy": metric_for(paper, "accuracy", declared)
    }  # a paper with dataset-level metrics only
    classes = list(y.cat.categories)
    ycodes = y.cat.codes.to_numpy()
    splits = [
        (np.asarray(train, dtype=np.int64), np.asarray(test, dtype=np.int64))
        for train, test in zip(folds["train"], folds["test"], strict=True)
    ]
    groups = path_groups(paper, labels)
    n_variants = [X.shape[1] if paper.classifiers[g[0]].variants in PER_ATTRIBUTE else 1 for g in groups]
    progress = Progress(dataset, len(splits) * sum(n_variants))
    with shared_tree_depths():  # a column may read the depths of trees another grew on these folds
        yield from _evaluate_groups(paper, groups, X, y, folds, splits, metrics, classes, ycodes, progress, outputs)


def _evaluate_groups(paper, groups, X, y, folds, splits, metrics, classes, ycodes, progress, outputs):
    for group in groups:
        collected = {label: _Collected(paper.stored_probabilities or "float64") for label in group}
        spec = paper.classifiers[group[0]]
        # variants: the classifier once as configured, or once per attribute, refitted without it
        # (drop_each_attribute) or fitted on all and the attribute left out at prediction
        # (ignore_each_attribute: the estimator's ignored_attribute)
        if spec.variants == "drop_each_attribute":
            variants = [(str(c), X.drop(columns=[c]), {}) for c in X.columns]
        elif spec.variants == "ignore_each_attribute":
            variants = [(str(c), X, {"ignored_attribute": c}) for c in X.columns]
        else:
            variants = [("", X, {})]
        for variant, Xv, params in variants:
            if len(group) > 1:
                results = _shared_fit_probabilities(paper, group, Xv, y, splits)
            else:
                results = _label_probabilities(paper, group[0], Xv, y, splits, list(spec.record), params)
            for (run, fold), (train, test), per_label in zip(
                zip(folds["run"], folds["fold"], strict=True), splits, results, strict=True
            ):
                for label, res in zip(group, per_label, strict=True):
                    collected[label].add(label, classes, ycodes, metrics, variant, run, fold, train, test, res)
                progress.step("/".join(group))
        progress.step("/".join(group), 0, finished=True)
        for label in group:
            out_folds, out_predictions, out_fitted = outputs[label]
            fitted_path = out_fitted if paper.classifiers[label].record else None
            yield label, collected[label].write(classes, out_folds, out_predictions, fitted_path)
