# SPDX-License-Identifier: GPL-3.0-or-later
"""Protocols: how a dataset is split into (training, test) pairs, as scikit-learn splitters.

Each protocol is a splitter object with ``split(X, y)`` and ``get_n_splits()``, so a
meta-estimator can take it as ``cv=`` (an inner cross-validation), and ``folds(y)``, which
yields ``Fold(run, fold, train, test)`` with row positions in file order. ``make_splitter``
builds one from a config mapping (``{"name": "weka_cv", "folds": 10, "runs": {...}}``):

  weka_cv               Weka 3.6's Experimenter: stratified, run r seeded r, training sets
                        shuffled as Weka shuffles them (exact; see ``weka_cv.py``)
  stratified_cv         R repetitions of stratified K-fold with random (not Weka) folds:
                        scikit-learn's RepeatedStratifiedKFold with ``seed``
  two_fold_trials       R trials of 2-fold CV (Kohavi–Wolpert bias/variance): the same with K = 2
  resubstitution        one fold: train and test on every row

Every protocol checks its data first: more folds than rows is an error, and a class with
fewer rows than folds is a warning or, with ``small_classes: error``, an error.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..errors import ConfigError, ProtocolError
from ..paper import Plugin, Protocol, check_entry
from .weka_cv import Fold, weka_cv_folds

log = logging.getLogger("nbrepro")


def small_classes(y, k: int) -> list[tuple[int, int]]:
    """Classes (code, count) present with fewer rows than folds: some test folds will miss them."""
    y = np.asarray(y)
    counts = np.bincount(y[y >= 0]) if np.any(y >= 0) else np.zeros(0, int)
    return [(c, int(n)) for c, n in enumerate(counts) if 0 < n < k]


def class_codes(y) -> np.ndarray:
    """Integer class codes (−1 = missing) of a Categorical Series, codes array or label array."""
    import pandas as pd

    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
        return y.cat.codes.to_numpy().astype(np.int64)
    arr = np.asarray(y)
    if arr.dtype.kind in "iu":
        return arr.astype(np.int64)
    _, codes = np.unique(arr.astype(str), return_inverse=True)
    return codes.astype(np.int64)


_WARNED: set[str] = set()  # small-class warnings already given in this process


@dataclass
class _Splitter:
    """Common part: the data checks, ``split`` and ``get_n_splits`` on top of ``_folds``."""

    small_classes: str = "warn"   # or "error"

    n_splits = 1

    def _check(self, y: np.ndarray, class_names=None) -> None:
        n, k = len(y), self.n_splits
        if k > n:
            raise ProtocolError(f"{k}-fold cross-validation needs at least {k} rows, the data has n_samples={n}")
        small = small_classes(y, k) if k > 1 else []
        if small:
            names = ", ".join(f"{(class_names[c] if class_names is not None else c)!r} ({m} rows)" for c, m in small)
            msg = f"class(es) {names} have fewer rows than the {k} folds; some test folds will not contain them"
            if self.small_classes == "error":
                raise ProtocolError(msg + " (protocol small_classes: error)")
            if msg not in _WARNED:  # once per process: a calibration's inner CV splits every fit's rows again
                _WARNED.add(msg)
                log.warning(msg)

    def folds(self, y, class_names=None) -> list[Fold]:
        y = class_codes(y)
        self._check(y, class_names)
        return list(self._folds(y))

    def split(self, X, y=None, groups=None):
        if y is None:
            raise ProtocolError(f"{type(self).__name__} needs the class to split")
        for f in self.folds(y):
            yield f.train, f.test

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits * self.n_repeats

    n_repeats = 1


@dataclass
class WekaCV(_Splitter):
    """Weka 3.6's stratified R×K CV (runs seeded ``first``..``last``), exactly."""

    n_splits: int = 10
    runs: tuple = (1,)
    train_order: str = "weka"   # "block": test sets unchanged, training rows unshuffled (faster)

    @property
    def n_repeats(self) -> int:
        return len(self.runs)

    def _folds(self, y):
        return weka_cv_folds(y, self.n_splits, list(self.runs), shuffle_train=self.train_order == "weka")


@dataclass
class StratifiedCV(_Splitter):
    """R repetitions of stratified K-fold, random folds from ``seed`` (scikit-learn's RepeatedStratifiedKFold)."""

    n_splits: int = 5
    n_repeats: int = 1
    seed: int = 1

    def _folds(self, y):
        from sklearn.model_selection import RepeatedStratifiedKFold

        known = np.flatnonzero(y >= 0)
        if len(known) < len(y):  # a row without a class is tested in no fold and trained on in none
            log.warning("%d row(s) without a class are left out of the folds", len(y) - len(known))
        largest = int(np.bincount(np.ravel(y)[known]).max()) if len(known) else 0   # y may come as a column
        if largest < self.n_splits:
            # scikit-learn's StratifiedKFold refuses this (Weka's CV does not: weka_cv splits it)
            raise ProtocolError(f"stratified_cv: every class has fewer rows than the {self.n_splits} folds (the "
                                f"largest has {largest}), which scikit-learn's StratifiedKFold cannot split: use at "
                                f"most {largest} folds, or protocol weka_cv")
        splitter = RepeatedStratifiedKFold(n_splits=self.n_splits, n_repeats=self.n_repeats, random_state=self.seed)
        for i, (train, test) in enumerate(splitter.split(np.zeros(len(known)), y[known])):
            yield Fold(i // self.n_splits + 1, i % self.n_splits, known[train], known[test])


@dataclass
class Resubstitution(_Splitter):
    """Train and test on the same rows ("training success"): one fold of all rows."""

    def _folds(self, y):
        rows = np.arange(len(y))
        yield Fold(1, 1, rows, rows)


class ProtocolKind(Plugin):
    """One protocol of the config's ``protocol: {name: ...}`` (or an inner CV's ``cv:``): its keys
    (``nbrepro.paper.plugin``; another key, say ``seed`` under ``weka_cv``, would be silently ignored, so
    it is an error), ``check`` and ``build(entry) → splitter``."""

    common = ("name",)
    types = {"folds": int, "runs": dict, "train_order": str, "small_classes": str, "repeats": int, "seed": int,
             "trials": int}

    def check(self, entry, paper=None):
        if entry.get("small_classes", "warn") not in ("warn", "error"):
            return f"small_classes must be 'warn' or 'error', got {entry['small_classes']!r}"
        for key in ("folds", "repeats", "trials"):
            if key in entry and entry[key] < 1:
                return f"{key} must be at least 1, got {entry[key]!r}"
        return None

    def build(self, entry: Mapping) -> _Splitter:
        raise NotImplementedError


PROTOCOLS: dict[str, ProtocolKind] = {}


def protocol(cls):
    """Register a ``ProtocolKind`` class under its ``name`` (the config's ``protocol: {name: ...}``)."""
    PROTOCOLS[cls.name] = cls()
    return cls


@protocol
class _WekaCVProtocol(ProtocolKind):
    name = "weka_cv"
    required = ("folds", "runs")
    optional = ("train_order", "small_classes")

    def check(self, entry, paper=None):
        runs = entry["runs"]
        if set(runs) != {"first", "last"} or not all(isinstance(v, int) for v in runs.values()):
            return f"runs must be {{first: int, last: int}}, got {runs!r}"
        if runs["last"] < runs["first"]:
            return f"runs: first ({runs['first']}) is after last ({runs['last']}): no runs"
        if entry.get("train_order", "weka") not in ("weka", "block"):
            return f"train_order must be 'weka' or 'block', got {entry['train_order']!r}"
        return super().check(entry, paper)

    def build(self, entry):
        runs = tuple(range(int(entry["runs"]["first"]), int(entry["runs"]["last"]) + 1))
        return WekaCV(n_splits=int(entry["folds"]), runs=runs, train_order=entry.get("train_order", "weka"),
                      small_classes=entry.get("small_classes", "warn"))


@protocol
class _StratifiedCVProtocol(ProtocolKind):
    name = "stratified_cv"
    required = ("folds",)
    optional = ("repeats", "seed", "small_classes")

    def build(self, entry):
        return StratifiedCV(n_splits=int(entry["folds"]), n_repeats=int(entry.get("repeats", 1)),
                            seed=int(entry.get("seed", 1)), small_classes=entry.get("small_classes", "warn"))


@protocol
class _TwoFoldTrialsProtocol(ProtocolKind):
    name = "two_fold_trials"
    required = ("trials",)
    optional = ("seed", "small_classes")

    def build(self, entry):
        return StratifiedCV(n_splits=2, n_repeats=int(entry["trials"]), seed=int(entry.get("seed", 1)),
                            small_classes=entry.get("small_classes", "warn"))


@protocol
class _ResubstitutionProtocol(ProtocolKind):
    name = "resubstitution"

    def build(self, entry):
        return Resubstitution()


def shifted(spec: dict, k: int) -> dict:
    """The same protocol under its k-th other seed (k = 0: itself), for a reseeding run: Weka's
    runs first..last become the next block of as many runs (runs 1–10, shift 1: 11–20), a
    ``seed`` s becomes s + k; resubstitution draws nothing and stays as it is."""
    out = dict(spec)
    name = spec.get("name")
    if k == 0 or name == "resubstitution":
        return out
    if name == "weka_cv":
        first, last = int(spec["runs"]["first"]), int(spec["runs"]["last"])
        width = last - first + 1
        out["runs"] = {"first": first + k * width, "last": last + k * width}
    elif name in ("stratified_cv", "two_fold_trials"):
        out["seed"] = int(spec.get("seed", 1)) + k
    return out


def make_splitter(spec: Protocol | Mapping):
    """The splitter a paper's ``protocol`` describes, or a config mapping of one (an inner CV's
    ``cv: {name: ..., ...}``): both read as the config wrote them."""
    if isinstance(spec, Protocol):
        spec = spec.as_written()
    if not isinstance(spec, Mapping):
        raise ProtocolError(f"a protocol is a mapping with a 'name', got {spec!r}")
    name = spec.get("name")
    if name not in PROTOCOLS:
        raise ProtocolError(f"unknown protocol {name!r}; known: {sorted(PROTOCOLS)}")
    try:
        check_entry(PROTOCOLS[name], spec, None, "protocol")
    except ConfigError as exc:  # an inner CV's protocol is built at fit time too: the splitter's own error
        raise ProtocolError(str(exc)) from None
    return PROTOCOLS[name].build(spec)


def make_folds(spec: Protocol | Mapping, y, class_names=None) -> list[Fold]:
    return make_splitter(spec).folds(y, class_names)


__all__ = ["shifted", "small_classes", "class_codes", "Fold", "weka_cv_folds", "make_folds", "make_splitter",
           "ProtocolError", "PROTOCOLS", "ProtocolKind", "protocol", "WekaCV", "StratifiedCV", "Resubstitution"]
