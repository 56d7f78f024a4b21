"""What the meta-estimators share: their inner cross-validation's splitter, row selection, and class probabilities aligned to a class list."""
from __future__ import annotations

import numpy as np
import pandas as pd



def inner_splitter(cv, default: dict):
    from ...protocols import make_splitter

    if cv is None:
        return make_splitter(default)
    if isinstance(cv, dict):
        return make_splitter(cv)
    return cv


def take_rows(X, idx):
    return X.iloc[idx] if isinstance(X, (pd.DataFrame, pd.Series)) else np.asarray(X)[idx]


def aligned_proba(model, X, classes) -> np.ndarray:
    """``model.predict_proba(X)`` with its columns put in the order of ``classes`` (absent ones 0)."""
    proba = model.predict_proba(X)
    own = list(model.classes_)
    if own == list(classes):
        return proba
    out = np.zeros((proba.shape[0], len(classes)))
    index = {c: j for j, c in enumerate(classes)}
    for j, c in enumerate(own):
        out[:, index[c]] = proba[:, j]
    return out


def codes_and_counts(classes, y) -> tuple[np.ndarray, np.ndarray]:
    """The rows' class codes in ``classes`` (-1: not among them) and the count of each class:
    what an nbrepro metric reads (its baseline is these rows' class distribution)."""
    codes = pd.Index(list(classes)).get_indexer(np.asarray(y, dtype=object))
    return codes, np.bincount(codes[codes >= 0], minlength=len(classes))
