# SPDX-License-Identifier: GPL-3.0-or-later
"""Content hashes of a results tree with the timing columns and the pages' machine-dependent stretches
left out, to check reproducibility.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from . import paths
from .errors import ResultChanged
from .io import checked_sha256, is_bookkeeping
from .report.html import MACHINE_STRETCH

# measured seconds, machine details, the provenance crate (dates, software versions, commit)
TIMING_FILES = {Path(paths.TIMINGS).name, paths.RUN_PAGE, paths.CRATE_METADATA_NAME}


CORRUPT = "CORRUPT"  # in place of the digest of a results file that cannot be read or is not what its job wrote


def fingerprint(root) -> list[tuple[str, str]]:
    import pandas as pd

    root = Path(root)
    out = []
    for p in sorted(root.rglob("*")):
        if not p.is_file() or p.name in TIMING_FILES or is_bookkeeping(p):
            continue
        try:
            checked_sha256(p)
        except ResultChanged:  # not the bytes its job wrote (recorded in its sidecar, nbrepro.io)
            out.append((str(p.relative_to(root)), CORRUPT))
            continue
        if p.suffix == ".html":  # a page's machine-dependent stretches (a run's time, its commit) left out
            data = MACHINE_STRETCH.sub(b"", p.read_bytes())
        elif p.suffix == ".parquet":
            try:
                df = pd.read_parquet(p)
            except Exception:  # a file cut short (an interrupted copy, a full disk) or not parquet at all
                out.append((str(p.relative_to(root)), CORRUPT))
                continue
            df = df[[c for c in df.columns if not c.endswith("_seconds")]]
            data = pd.util.hash_pandas_object(df, index=False).to_numpy().tobytes() + ",".join(df.columns).encode()
        else:
            data = p.read_bytes()
        out.append((str(p.relative_to(root)), hashlib.sha256(data).hexdigest()))
    return out


def expected_files(config_path, papers=None, seeds=None, datasets=None) -> list[str]:
    """Every result file (relative to results/) that a run of the workflow config (or of ``papers``;
    of ``seeds`` reseeded runs, default the config's; cut to ``datasets``) should leave: the plan's
    (``nbrepro.plan``)."""
    from .paper import load_yaml
    from .plan import Plan

    config_path = Path(config_path)
    cfg = load_yaml(config_path)
    root = config_path.parent.parent  # config/config.yaml → the project folder
    cfg.update(registry=str(root / cfg["registry"]), paper_dir=str(root / cfg["paper_dir"]))
    if papers:
        cfg["papers"] = list(papers)
    if seeds is not None:
        cfg["seeds"] = seeds
    if datasets:
        cfg["datasets"] = list(datasets)
    return Plan(cfg, warn=lambda message: None, check=False, write=False).result_files()


def missing_files(root, config_path, papers=None, seeds=None, datasets=None) -> tuple[list[str], list[str]]:
    """(the expected files absent from ``root``, the papers left unchecked). Without ``papers``, only
    the config's papers that ``root`` holds a folder of are expected: a run of some papers is
    complete when their files are there (the papers left unchecked are named, to pass as ``papers``)."""
    root = Path(root)
    expected = expected_files(config_path, papers, seeds, datasets)
    unchecked = []
    if not papers:
        folders = sorted({f.split("/", 1)[0] for f in expected if "/" in f} - {paths.CRATE_INPUTS})
        unchecked = [p for p in folders if not (root / p).is_dir()]
        expected = [f for f in expected if f.split("/", 1)[0] not in unchecked]
    return [f for f in expected if not (root / f).is_file()], unchecked
