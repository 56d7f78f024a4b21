"""The work of the pipeline's jobs: fetch, prepare (+ folds), evaluate.

Each function reads files and writes files only, so the results do not depend on how
many jobs run at once. Outputs are written to a temporary name and renamed, so an
interrupted job never leaves a file that looks finished.
"""
from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pandas as pd

from .config import ConfigError, make_classifier
from .crossval import fold_probabilities
from .data.fetch import fetch, load_dataset
from .data.registry import load_registry
from .io import atomic_path
from .preprocess.pipeline import apply_steps, build_steps
from .protocols import ProtocolError, make_folds, small_classes

log = logging.getLogger("nbrepro")


def _write_parquet(df: pd.DataFrame, path: str | Path) -> None:
    with atomic_path(path) as tmp:
        df.to_parquet(tmp, index=False, engine="pyarrow", compression="zstd")


def registry_entry(registry_path, dataset):
    reg = load_registry(registry_path)
    if dataset not in reg:
        raise ConfigError(f"dataset {dataset!r} is not in the registry {registry_path}; add an entry there "
                          "(file, n_instances, n_attributes, n_classes)")
    return reg[dataset]


def fetch_dataset(dataset, registry_path, dest, mirrors=(), openml=True, openml_cache=None) -> str:
    spec = registry_entry(registry_path, dataset)
    return fetch(spec, Path(dest), [m for m in mirrors if m], openml_cache, use_openml=openml)


def prepare(paper: dict, dataset: str, registry_path, raw_path, out_data, out_folds) -> None:
    """Validate the raw file, preprocess it (when the paper's scope is the whole dataset) and fix the folds."""
    spec = registry_entry(registry_path, dataset)
    X, y = load_dataset(spec, Path(raw_path))
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
    if pre["scope"] == "dataset":
        (X,) = apply_steps(build_steps(pre["steps"]), X)
    frame = X.copy()
    frame[y.name] = y  # the class is always the last column of a prepared file
    _write_parquet(frame, out_data)

    proto = paper["protocol"]
    ycodes = y.cat.codes.to_numpy()
    if proto["name"] == "weka_cv":
        small = small_classes(ycodes, int(proto["folds"]))
        if small:
            names = ", ".join(f"{y.cat.categories[c]!r} ({n} rows)" for c, n in small)
            msg = (f"dataset {dataset!r}: class(es) {names} have fewer rows than the {proto['folds']} folds; "
                   "some test folds will not contain them")
            if proto.get("small_classes", "warn") == "error":
                raise ProtocolError(msg + " (protocol.small_classes: error)")
            log.warning(msg)
    rows = [(f.run, f.fold, f.train.astype(np.int32), f.test.astype(np.int32)) for f in make_folds(proto, ycodes)]
    folds = pd.DataFrame(rows, columns=["run", "fold", "train", "test"])
    _write_parquet(folds, out_folds)


def _fold_scope_probabilities(paper, label, X, y, splits):
    """Preprocessing fitted on each training fold, then the classifier on the transformed rows."""
    steps = paper["preprocessing"]["steps"]
    for train, test in splits:
        Xtr, Xte = apply_steps(build_steps(steps), X.iloc[train], X.iloc[test])
        yield from fold_probabilities(make_classifier(label, paper), pd.concat([Xtr, Xte]),
                                      pd.concat([y.iloc[train], y.iloc[test]]),
                                      [(np.arange(len(train)), np.arange(len(train), len(train) + len(test)))])


def read_prepared(path) -> tuple[pd.DataFrame, pd.Series]:
    frame = pd.read_parquet(path)
    return frame.iloc[:, :-1], frame.iloc[:, -1]


def evaluate(paper: dict, dataset: str, label: str, prepared_path, folds_path, out_folds, out_predictions) -> pd.DataFrame:
    """Run one classifier over every fold; write per-fold metrics and per-test-row predictions."""
    X, y = read_prepared(prepared_path)
    folds = pd.read_parquet(folds_path)
    pre = paper["preprocessing"]
    classes = list(y.cat.categories)
    ycodes = y.cat.codes.to_numpy()
    fold_rows, pred_frames = [], []
    splits = [(np.asarray(train, dtype=np.int64), np.asarray(test, dtype=np.int64))
              for train, test in zip(folds["train"], folds["test"])]
    # variants: the classifier once as configured, or once per attribute left out (Orhan et al.'s Table 4)
    if paper["classifiers"][label].get("variants") == "drop_each_attribute":
        variants = [(str(c), X.drop(columns=[c])) for c in X.columns]
    else:
        variants = [("", X)]
    for variant, Xv in variants:
        if pre["scope"] == "fold":
            results = _fold_scope_probabilities(paper, label, Xv, y, splits)
        else:
            results = fold_probabilities(make_classifier(label, paper), Xv, y, splits)
        for (run, fold), (train, test), res in zip(zip(folds["run"], folds["fold"]), splits, results):
            if list(res.classes) != classes:
                raise RuntimeError(f"{label}: classes_ {list(res.classes)} differ from the dataset's {classes}")
            proba = res.proba
            pred = np.argmax(proba, axis=1)  # first maximum, as Weka's classifyInstance
            truth = ycodes[test]
            known = truth >= 0
            acc = 100.0 * np.sum(pred[known] == truth[known]) / max(int(known.sum()), 1)
            fold_rows.append({"variant": variant, "run": int(run), "fold": int(fold), "n_train": len(train),
                              "n_test": len(test), "accuracy": float(acc), "fit_seconds": res.fit_seconds,
                              "predict_seconds": res.predict_seconds})
            pf = pd.DataFrame({"variant": variant, "run": np.int32(run), "fold": np.int32(fold),
                               "row": test.astype(np.int32), "y": truth.astype(np.int32),
                               "y_pred": pred.astype(np.int32)})
            for j, c in enumerate(classes):
                pf[f"p:{c}"] = proba[:, j]
            pred_frames.append(pf)
    result = pd.DataFrame(fold_rows)
    _write_parquet(result, out_folds)
    _write_parquet(pd.concat(pred_frames, ignore_index=True), out_predictions)
    return result
