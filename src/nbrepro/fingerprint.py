"""Content hashes of a results tree with the timing columns left out, to check reproducibility."""
from __future__ import annotations

import hashlib
from pathlib import Path

TIMING_FILES = {"timings.csv"}


def fingerprint(root) -> list[tuple[str, str]]:
    import pandas as pd

    root = Path(root)
    out = []
    for p in sorted(root.rglob("*")):
        if not p.is_file() or p.name in TIMING_FILES:
            continue
        if p.suffix == ".parquet":
            df = pd.read_parquet(p)
            df = df[[c for c in df.columns if not c.endswith("_seconds")]]
            data = pd.util.hash_pandas_object(df, index=False).to_numpy().tobytes() + ",".join(df.columns).encode()
        else:
            data = p.read_bytes()
        out.append((str(p.relative_to(root)), hashlib.sha256(data).hexdigest()))
    return out
