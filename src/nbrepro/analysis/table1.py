# SPDX-License-Identifier: GPL-3.0-or-later
"""A paper's Table 1 (the data sets' sizes), counted from the raw files, beside the printed one."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..data.fetch import load_dataset
from ..evaluation.experiment import paper_rows
from ..paper import DatasetTable, Paper
from ..preprocess.pipeline import apply_steps, build_steps

COLUMNS = ("n", "m", "r", "m_numeric", "m_nominal", "r_present", "pct_missing")


def dataset_table(paper: Paper, raw_dir: str | Path, registry: dict, count_class: bool = True,
                  after_steps: bool = False) -> pd.DataFrame:
    """Table 1 from the raw files: rows n, attributes m (counting the class when ``count_class``),
    declared classes r and the classes that occur (r_present), numeric and nominal attributes
    (the class not counted), and the percentage of missing attribute values, after the paper's
    row filters and per-dataset steps and before the common preprocessing (``experiment.paper_rows``),
    or, with ``after_steps``, after the common steps too (a dataset-scope paper whose Table 1
    counts what its classifiers saw)."""
    rows = []
    for ds in paper.datasets:
        entry = paper.dataset_entry(ds)   # another copy of the data set, when the paper reads one
        X, y = paper_rows(paper, ds, *load_dataset(registry[entry], Path(raw_dir) / f"{entry}.arff"))
        if after_steps and paper.preprocessing.scope == "dataset":
            X = apply_steps(build_steps(list(paper.preprocessing.steps)), X, y=y)[0]
        numeric = sum(not isinstance(t, pd.CategoricalDtype) for t in X.dtypes)
        rows.append({"dataset": ds, "n": len(X), "m": X.shape[1] + int(count_class), "r": len(y.cat.categories),
                     "m_numeric": numeric, "m_nominal": X.shape[1] - numeric,
                     "r_present": int(y.dropna().nunique()),
                     "pct_missing": 100.0 * float(X.isna().to_numpy().sum()) / X.size if X.size else 0.0})
    return pd.DataFrame(rows)


def paper_table1(paper: Paper, raw_dir: str | Path, registry: dict) -> pd.DataFrame:
    """``analysis.dataset_table``: Table 1 counted, with the printed columns beside ours
    (``published_{column}``, read under the paper's names for the data sets)."""
    dt = paper.analysis.dataset_table or DatasetTable.build({})
    count_class = dt.count_class if dt.count_class is not None else True
    table1 = dataset_table(paper, raw_dir, registry, count_class, bool(dt.after_steps))
    if dt.published:
        pub = pd.read_csv(dt.published).set_index("dataset")
        pub = pub.rename(columns={theirs: ours for ours, theirs in (dt.columns or {}).items()})
        printed = table1["dataset"].map(lambda d: paper.published_names.get(d, d))
        for col in COLUMNS:
            if col in pub:
                table1[f"published_{col}"] = printed.map(pub[col])
    return table1
