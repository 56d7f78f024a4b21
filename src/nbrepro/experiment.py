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

from .config import ConfigError, make_classifier
from .crossval import fold_probabilities
from .data.fetch import fetch, load_dataset, verify_cached
from .data.registry import load_registry, registry_entry
from .io import atomic_path
from .preprocess.pipeline import apply_steps, build_steps
from .metrics import metric_for, paper_metrics
from .protocols import ProtocolError, make_folds

log = logging.getLogger("nbrepro")


def _write_parquet(df: pd.DataFrame, path: str | Path) -> None:
    with atomic_path(path) as tmp:
        df.to_parquet(tmp, index=False, engine="pyarrow", compression="zstd")


def paper_rows(paper: dict, dataset: str, X: pd.DataFrame, y: pd.Series) -> tuple[pd.DataFrame, pd.Series]:
    """The data set as the paper's experiment starts from it: its row filters (complete cases,
    duplicates) and the dataset's own steps (``per_dataset``), before the common steps."""
    pre = paper["preprocessing"]
    extra = pre.get("per_dataset", {}).get(dataset, {})
    keep = np.ones(len(X), dtype=bool)
    if pre.get("complete_cases"):
        keep &= ~X.isna().any(axis=1).to_numpy() & y.notna().to_numpy()
    if extra.get("drop_duplicate_rows"):
        keep &= ~pd.concat([X, y], axis=1).duplicated().to_numpy()
    if not keep.all():
        log.info("dataset %r: %d of %d rows kept (complete cases / duplicates)", dataset, keep.sum(), len(keep))
        X, y = X[keep].reset_index(drop=True), y[keep].reset_index(drop=True)
    if extra.get("steps"):
        (X,) = apply_steps(build_steps(extra["steps"]), X)
    return X, y


def prepare(paper: dict, dataset: str, registry_path, raw_path, out_data, out_folds) -> None:
    """Validate the raw file, preprocess it (when the paper's scope is the whole dataset) and fix the folds."""
    spec = registry_entry(registry_path, dataset)
    verify_cached(spec, Path(raw_path))
    X, y = paper_rows(paper, dataset, *load_dataset(spec, Path(raw_path)))
    pre = paper["preprocessing"]
    if pre["scope"] == "dataset":
        (X,) = apply_steps(build_steps(pre["steps"]), X)
    frame = X.copy()
    frame[y.name] = y  # the class is always the last column of a prepared file
    _write_parquet(frame, out_data)

    try:
        made = make_folds(paper["protocol"], y.cat.codes.to_numpy(), list(y.cat.categories))
    except ProtocolError as exc:
        raise ProtocolError(f"dataset {dataset!r}: {exc}") from None
    rows = [(f.run, f.fold, f.train.astype(np.int32), f.test.astype(np.int32)) for f in made]
    folds = pd.DataFrame(rows, columns=["run", "fold", "train", "test"])
    _write_parquet(folds, out_folds)


def _fold_scope_probabilities(paper, label, X, y, splits, record=()):
    """Preprocessing fitted on each training fold (with its class), then the classifier on the transformed rows."""
    steps = paper["preprocessing"]["steps"]
    for train, test in splits:
        Xtr, Xte = apply_steps(build_steps(steps), X.iloc[train], X.iloc[test], y=y.iloc[train])
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
            return list(zip(keys, arr.astype(np.float64).ravel().tolist(), [""] * arr.size))
        return [row for k, v in zip(keys, np.asarray(value, dtype=object).ravel()) for row in flatten_state(v, k)]
    if isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating)):
        return [(key, float(value), "")]
    return [(key, np.nan, "" if value is None else str(value))]


@functools.lru_cache(maxsize=64)
def _index_keys(shape: tuple) -> tuple:
    return tuple(",".join(str(i) for i in idx) for idx in np.ndindex(shape))


def _predictions_frame(parts: list, classes: list) -> pd.DataFrame:
    """Every fold's predicted rows in one frame: variant, run, fold, row, y, y_pred, p:<class>…
    (built once: a frame per fold cost more than its fit on the small data sets)."""
    names = ["variant", "run", "fold", "row", "y", "y_pred"]
    if not parts:
        columns = {name: np.empty(0, dtype=object if name == "variant" else np.int32) for name in names}
        columns.update({f"p:{c}": np.empty(0) for c in classes})
        return pd.DataFrame(columns)
    columns = {name: np.concatenate([p[i] for p in parts]) for i, name in enumerate(names)}
    proba = np.concatenate([p[6] for p in parts])
    columns.update({f"p:{c}": proba[:, j] for j, c in enumerate(classes)})
    return pd.DataFrame(columns)


def _fitted_columns(value) -> tuple:
    """``flatten_state``'s rows of one recorded attribute as (keys, values, texts); a numeric
    array, such as bandwidths per attribute × class, in one step, not one per element."""
    if isinstance(value, np.ndarray) and value.ndim and value.dtype.kind in "biuf":
        return _index_keys(value.shape), value.astype(np.float64).ravel(), ("",) * value.size
    rows = flatten_state(value)
    if not rows:
        return (), np.empty(0), ()
    keys, values, texts = zip(*rows)
    return keys, np.asarray(values, dtype=np.float64), texts


def read_prepared(path) -> tuple[pd.DataFrame, pd.Series]:
    frame = pd.read_parquet(path)
    return frame.iloc[:, :-1], frame.iloc[:, -1]


FITTED_COLUMNS = ["variant", "run", "fold", "attribute", "key", "value", "text"]


def evaluate(paper: dict, dataset: str, label: str, prepared_path, folds_path, out_folds, out_predictions,
             out_fitted=None) -> pd.DataFrame:
    """Run one classifier over every fold; write per-fold metrics, per-test-row predictions and, when
    the classifier's spec has ``record:``, its fitted attributes per fold."""
    X, y = read_prepared(prepared_path)
    folds = pd.read_parquet(folds_path)
    pre = paper["preprocessing"]
    spec = paper["classifiers"][label]
    record = spec.get("record", [])
    declared = paper_metrics(paper)
    metrics = {c: m for c, m in declared.items() if m.level == "fold"} or \
        {"accuracy": metric_for(paper, "accuracy", declared)}   # a paper with dataset-level metrics only
    classes = list(y.cat.categories)
    ycodes = y.cat.codes.to_numpy()
    fold_rows, pred_parts = [], []  # predictions: arrays per fold, one frame at the end
    fitted = {c: [] for c in FITTED_COLUMNS}  # the recorded state, column by column (one frame at the end)
    splits = [(np.asarray(train, dtype=np.int64), np.asarray(test, dtype=np.int64))
              for train, test in zip(folds["train"], folds["test"])]
    # variants: the classifier once as configured, or once per attribute left out
    if spec.get("variants") == "drop_each_attribute":
        variants = [(str(c), X.drop(columns=[c])) for c in X.columns]
    else:
        variants = [("", X)]
    for variant, Xv in variants:
        if pre["scope"] == "fold":
            results = _fold_scope_probabilities(paper, label, Xv, y, splits, record)
        else:
            results = fold_probabilities(make_classifier(label, paper), Xv, y, splits, record)
        for (run, fold), (train, test), res in zip(zip(folds["run"], folds["fold"]), splits, results):
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
            fold_rows.append(row)
            n = len(test)
            pred_parts.append((np.full(n, variant, dtype=object), np.full(n, run, dtype=np.int32),
                               np.full(n, fold, dtype=np.int32), test.astype(np.int32), truth.astype(np.int32),
                               pred.astype(np.int32), proba))
            for attribute, value in (res.recorded or {}).items():
                keys, values, texts = _fitted_columns(value)
                for column, part in zip(FITTED_COLUMNS, ((variant,) * len(keys), (int(run),) * len(keys),
                                                         (int(fold),) * len(keys), (attribute,) * len(keys), keys)):
                    fitted[column].extend(part)
                fitted["value"].append(values)
                fitted["text"].extend(texts)
    result = pd.DataFrame(fold_rows)
    _write_parquet(result, out_folds)
    _write_parquet(_predictions_frame(pred_parts, classes), out_predictions)
    if out_fitted is not None:
        fitted["value"] = np.concatenate(fitted["value"]) if fitted["value"] else np.empty(0)
        fitted["run"] = np.asarray(fitted["run"], dtype=np.int32)
        fitted["fold"] = np.asarray(fitted["fold"], dtype=np.int32)
        _write_parquet(pd.DataFrame(fitted, columns=FITTED_COLUMNS), out_fitted)
    return result
