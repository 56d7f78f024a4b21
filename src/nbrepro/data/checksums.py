# SPDX-License-Identifier: GPL-3.0-or-later
"""What identifies a data set's bytes and its data: three sha256 digests.

  sha256        the file's bytes (what the registry pins; the shipped, mirror and cached copies)
  data_sha256   the data as read: the header (attribute names, kinds, nominal values in declared
                order) and then the rows in file order. Two files that differ only in how values
                are written ("1" and "1.0", quoting, comments, line endings) have the same one, and
                give the same folds and the same results.
  rows_sha256   the same header and the rows sorted: equal for a file that holds the same rows in
                another order. Weka's and scikit-learn's folds depend on the order, so such a copy
                would give other results; this digest is how that is told apart from other values.

Hand-written: no library hashes a table's content with and without its row order (pandas'
``hash_pandas_object`` is not promised stable across versions).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd

from ..io import sha256_of  # noqa: F401  (re-exported: the data cache checks files with it)

_SEP = "\x1f"   # unit separator: in no ARFF value unquoted


def _column_text(col: pd.Series) -> tuple[str, pd.Series]:
    """An attribute's header line and its values as text (nominal: the value's index, -1 missing;
    numeric: Python's shortest round-trip repr, 'nan' missing)."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        head = _SEP.join([str(col.name), "nominal", *map(str, col.cat.categories)])
        return head, pd.Series(col.cat.codes.to_numpy()).astype(str)
    if pd.api.types.is_float_dtype(col.dtype):
        return f"{col.name}{_SEP}numeric", pd.Series(col.to_numpy(np.float64)).map(repr)
    return f"{col.name}{_SEP}{col.dtype}", col.reset_index(drop=True).astype(str)


def data_digests(frame: pd.DataFrame) -> tuple[str, str]:
    """``(data_sha256, rows_sha256)`` of a frame as ``read_arff`` gives it."""
    heads, cols = zip(*(_column_text(frame[c]) for c in frame.columns), strict=True)
    rows = cols[0].str.cat(list(cols[1:]), sep=_SEP) if len(cols) > 1 else cols[0]
    header = "\n".join(heads) + "\n\n"

    def digest(lines) -> str:
        return hashlib.sha256((header + "\n".join(lines)).encode("utf-8")).hexdigest()

    return digest(rows.tolist()), digest(sorted(rows.tolist()))


def file_digests(path: Path) -> dict:
    """The three digests of an ARFF file, with its shape (rows, attributes including the class)."""
    from .arff import read_arff

    frame, _ = read_arff(path)
    data, rows = data_digests(frame)
    return {"sha256": sha256_of(path), "data_sha256": data, "rows_sha256": rows,
            "n_rows": len(frame), "n_columns": frame.shape[1]}
