"""Content hashes of a results tree with the timing columns and the pages' machine-dependent stretches
left out, to check reproducibility.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from . import paths
from .errors import ResultChanged
from .io import checked_sha256, is_sidecar
from .report.html import MACHINE_STRETCH

# measured seconds, machine details, the provenance crate (dates, software versions, commit)
TIMING_FILES = {Path(paths.TIMINGS).name, paths.RUN_PAGE, paths.CRATE_METADATA_NAME}


CORRUPT = "CORRUPT"  # in place of the digest of a results file that cannot be read or is not what its job wrote


def fingerprint(root) -> list[tuple[str, str]]:
    import pandas as pd

    root = Path(root)
    out = []
    for p in sorted(root.rglob("*")):
        if not p.is_file() or p.name in TIMING_FILES or is_sidecar(p):
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


def expected_files(config_path, papers=None, seeds=None) -> list[str]:
    """Every result file (relative to results/) that a run of the workflow config (or of ``papers``;
    of ``seeds`` reseeded runs, default the config's) should leave."""
    from .analysis.paper import output_files
    from .analysis.seed_bands import seeded_runs
    from .config import load_yaml
    from .paper import load_papers

    config_path = Path(config_path)
    cfg = load_yaml(config_path)
    root = config_path.parent.parent  # config/config.yaml → the project folder
    out = [paths.INDEX_PAGE, paths.CLAIMS_PAGE, paths.CLAIMS_CSV, paths.CRATE_METADATA_NAME]
    loaded = load_papers(papers or cfg["papers"], root / cfg["paper_dir"], check=False)
    out += [paths.crate_input(n) for n in ["config.yaml", "datasets.yaml", *(f"papers/{p}.yaml" for p in loaded)]]
    seeds = int(cfg.get("seeds", 0)) if seeds is None else seeds
    for name, paper in loaded.items():
        stats = [paths.stats(f) for f in output_files(paper)[0]]
        for run in [""] + [paths.seed_run(k) + "/" for k in seeded_runs(paper, seeds)]:  # the main run, the reseeded
            for ds in paper.datasets:
                for label, spec in paper.classifiers.items():
                    if ds not in paper.classifier_datasets(label):
                        continue
                    kinds = ["folds", "predictions"] + (["fitted"] if spec.record else [])
                    out += [f"{name}/{run}{paths.per_fold(kind, ds, label)}" for kind in kinds]
            for t in paper.tables:
                out += [f"{name}/{run}{f}" for f in paths.table_files(t)]
            out += [f"{name}/{run}{f}" for f in stats if run == "" or paths.stats("claims") in stats]
        out += [f"{name}/{f}" for f in (paths.TIMINGS, paths.REPORT, paths.RUN_PAGE)]
        if seeds:
            out += [f"{name}/{f}" for f in (paths.SEED_BANDS, paths.NOISE_FLOOR)]
            out += [f"{name}/{paths.SEED_STABILITY}"] if paths.stats("claims") in stats else []
    return out


def missing_files(root, config_path, papers=None, seeds=None) -> list[str]:
    root = Path(root)
    return [f for f in expected_files(config_path, papers, seeds) if not (root / f).is_file()]
