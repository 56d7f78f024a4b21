"""Protocols: how a dataset is split into (training, test) pairs.

Every protocol yields ``Fold(run, fold, train, test)`` with row indices in file order;
``make_folds(protocol_spec, y)`` dispatches on the config's ``name``. New protocols
(2-fold trials, resubstitution, inner CV) are one function added to ``PROTOCOLS``.
"""
from __future__ import annotations

from .weka_cv import Fold, ProtocolError, weka_cv_folds


def small_classes(y, k: int) -> list[tuple[int, int]]:
    """Classes (code, count) present with fewer rows than folds: some test folds will miss them."""
    import numpy as np

    y = np.asarray(y)
    counts = np.bincount(y[y >= 0]) if np.any(y >= 0) else np.zeros(0, int)
    return [(c, int(n)) for c, n in enumerate(counts) if 0 < n < k]


def _weka_cv(spec: dict, y):
    k = int(spec["folds"])
    runs = range(int(spec["runs"]["first"]), int(spec["runs"]["last"]) + 1)
    return weka_cv_folds(y, k, runs, shuffle_train=spec.get("train_order", "weka") == "weka")


def _resubstitution(spec: dict, y):
    """Train and test on the same rows (Orhan et al.'s "training success"): one fold of all rows."""
    import numpy as np

    rows = np.arange(len(y))
    return [Fold(1, 1, rows, rows)]


PROTOCOLS = {"weka_cv": _weka_cv, "resubstitution": _resubstitution}


def make_folds(spec: dict, y):
    name = spec.get("name")
    if name not in PROTOCOLS:
        raise ProtocolError(f"unknown protocol {name!r}; known: {sorted(PROTOCOLS)}")
    return PROTOCOLS[name](spec, y)


__all__ = ["small_classes", "Fold", "weka_cv_folds", "make_folds", "ProtocolError", "PROTOCOLS"]
