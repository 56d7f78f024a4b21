"""Find a dataset: local cache → mirror folders → OpenML; then read and validate it.

The cache (``resources/raw/{name}.arff``) is what every later step reads, so the
pipeline's other rules never touch the network or the mirror.
"""
from __future__ import annotations

import datetime
import hashlib
import json
import logging
import shutil
from pathlib import Path

import pandas as pd

from ..errors import DatasetInvalid, DatasetUnavailable
from .arff import read_arff
from .registry import DatasetSpec


log = logging.getLogger("nbrepro")


def source_path(dest: Path) -> Path:
    """The sidecar that records where a cached raw file came from: ``{file}.source.json``."""
    return Path(str(dest) + ".source.json")


def _record_source(dest: Path, source: str) -> None:
    info = {"source": source, "sha256": sha256_of(dest),
            "fetched_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    source_path(dest).write_text(json.dumps(info, indent=1) + "\n")


def read_source(dest: Path) -> dict:
    p = source_path(dest)
    return json.loads(p.read_text()) if p.exists() else {}


def verify_cached(spec: DatasetSpec, path: Path) -> dict:
    """Check a cached raw file against the registry before it is used: its sha256 must be the
    registry's, except for an OpenML copy (recorded as such in its sidecar), which is used with a
    warning. Returns the sidecar's record (source, sha256) with the sha256 of the file as it is now."""
    path = Path(path)
    info = dict(read_source(path))
    got = sha256_of(path)
    info["sha256"] = got
    if spec.sha256 and got != spec.sha256:
        if str(info.get("source", "")).startswith("openml:"):
            log.warning("dataset %r: %s is OpenML's copy (sha256 %s), not the registry's file (%s); its rows "
                        "may be ordered differently, which changes the folds", spec.name, path, got, spec.sha256)
        else:
            raise DatasetInvalid(
                f"dataset {spec.name!r}: the cached file {path} has sha256 {got}, the registry "
                f"(config/datasets.yaml) expects {spec.sha256}: it was edited or is stale. Delete it (and "
                f"{source_path(path).name}) and rerun to fetch it again from the mirror or OpenML")
    return info


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fetch(spec: DatasetSpec, dest: Path, mirrors: list[str | Path] = (), openml_cache: Path | None = None,
          use_openml: bool = True) -> str:
    """Put ``spec``'s ARFF at ``dest``. Returns where it came from."""
    dest = Path(dest)
    tried = []
    if dest.exists():
        verify_cached(spec, dest)
        if not source_path(dest).exists():
            _record_source(dest, f"cache:{dest}")
        return f"cache:{dest}"
    if spec.extra.get("generator"):
        from .synthetic import generate

        try:
            generate(spec.name, spec.extra["generator"], spec.extra["params"], spec.extra["seed"], dest)
        except ValueError as exc:
            raise DatasetInvalid(str(exc)) from None
        _record_source(dest, f"generated:{spec.extra['generator']} seed {spec.extra['seed']}")
        return f"generated:{spec.extra['generator']}"
    for mirror in mirrors:
        cand = Path(mirror) / spec.file
        tried.append(str(cand))
        if cand.exists():
            if spec.sha256:
                got = sha256_of(cand)
                if got != spec.sha256:
                    raise DatasetInvalid(
                        f"dataset {spec.name!r}: checksum mismatch for {cand}: sha256 {got}, "
                        f"registry expects {spec.sha256} (config/datasets.yaml)")
            dest.parent.mkdir(parents=True, exist_ok=True)
            tmp = dest.with_suffix(".part")
            shutil.copyfile(cand, tmp)
            tmp.replace(dest)
            _record_source(dest, f"mirror:{cand}")
            return f"mirror:{cand}"
    if not use_openml:
        tried.append("OpenML switched off" + (f" (it has the set as dataset {spec.openml_id})"
                                              if spec.openml_id is not None else ""))
    elif spec.openml_id is None:
        tried.append("OpenML: the registry gives no openml_id")
    if use_openml and spec.openml_id is not None:
        tried.append(f"OpenML dataset {spec.openml_id}")
        try:
            _fetch_openml(spec, dest, openml_cache)
            _record_source(dest, f"openml:{spec.openml_id}")
            return f"openml:{spec.openml_id}"
        except Exception as exc:  # network down, unknown id, ...
            tried[-1] += f" ({type(exc).__name__}: {exc})"
    hint = ("set a mirror folder, e.g. `snakemake --config mirror=../shared/datasets` "
            "or `nbrepro fetch --mirror ../shared/datasets`")
    raise DatasetUnavailable(
        f"dataset {spec.name!r} ({spec.file}) not found; looked in: "
        + ("" if mirrors else "no mirror configured; ")
        + "; ".join(tried)
        + f". To fix: {hint}.")


def _fetch_openml(spec: DatasetSpec, dest: Path, cache: Path | None) -> None:
    import openml  # heavy and network-bound: imported only when needed

    if cache is not None:
        openml.config.set_root_cache_directory(str(cache))
    ds = openml.datasets.get_dataset(spec.openml_id, download_data=True, download_qualities=False,
                                     download_features_meta_data=False)
    src = Path(ds.data_file)
    if src.suffix != ".arff":
        raise DatasetUnavailable(f"OpenML {spec.openml_id} gave no ARFF file ({src.name})")
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)


def class_column(frame: pd.DataFrame, spec: DatasetSpec) -> str:
    if spec.class_attribute == "last":
        return frame.columns[-1]
    if spec.class_attribute == "first":
        return frame.columns[0]
    if spec.class_attribute not in frame.columns:
        raise DatasetInvalid(f"dataset {spec.name!r}: class attribute {spec.class_attribute!r} not in file")
    return spec.class_attribute


def load_dataset(spec: DatasetSpec, path: Path) -> tuple[pd.DataFrame, pd.Series]:
    """Read and validate a dataset. Returns ``(X, y)``; ``y`` is Categorical."""
    frame, _ = read_arff(path)
    cls = class_column(frame, spec)
    y = frame[cls]
    X = frame.drop(columns=[cls])
    problems = []
    if len(frame) != spec.n_instances:
        problems.append(f"{len(frame)} instances, expected {spec.n_instances}")
    if X.shape[1] != spec.n_attributes:
        problems.append(f"{X.shape[1]} attributes besides the class, expected {spec.n_attributes}")
    if not isinstance(y.dtype, pd.CategoricalDtype):
        problems.append(f"class attribute {cls!r} is not nominal")
    elif len(y.cat.categories) != spec.n_classes:
        problems.append(f"class declares {len(y.cat.categories)} values, expected {spec.n_classes}")
    if problems:
        raise DatasetInvalid(f"dataset {spec.name!r} ({path}) does not match config/datasets.yaml: " + "; ".join(problems))
    return X, y


def fetch_dataset(dataset, registry_path, dest, mirrors=(), openml=True, openml_cache=None) -> str:
    """``fetch`` by dataset name and registry file (what ``nbrepro fetch`` runs)."""
    from .registry import registry_entry

    return fetch(registry_entry(registry_path, dataset), Path(dest), [m for m in mirrors if m], openml_cache,
                 use_openml=openml)
