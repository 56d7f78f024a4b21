"""Paper-specific statistics beyond the tables (named by the paper config's ``text_stats.module``)."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..data.fetch import load_dataset
from . import lcwnb

MODULES = {"lcwnb": lcwnb}


def dataset_table(paper: dict, raw_dir: str | Path, registry: dict) -> pd.DataFrame:
    """Table 1 from the raw files: rows n, attributes m counting the class (before any
    preprocessing, as Li & Li count them), declared classes r."""
    rows = []
    for ds in paper["datasets"]:
        X, y = load_dataset(registry[ds], Path(raw_dir) / f"{ds}.arff")
        rows.append({"dataset": ds, "n": len(X), "m": X.shape[1] + 1, "r": len(y.cat.categories)})
    return pd.DataFrame(rows)
