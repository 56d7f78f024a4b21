"""Find a dataset: local cache → mirror folders → OpenML; then read and validate it.

The cache (``resources/raw/{name}.arff``) is what every later step reads, so the
pipeline's other rules never touch the network or the mirror.
"""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pandas as pd

from .arff import read_arff
from .registry import DatasetSpec


class DatasetUnavailable(RuntimeError):
    """No copy of a dataset could be found or fetched."""


class DatasetInvalid(ValueError):
    """A dataset file does not match its registry entry."""


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
        return f"cache:{dest}"
    if spec.extra.get("generator"):
        from .synthetic import generate

        try:
            generate(spec.name, spec.extra["generator"], spec.extra["params"], spec.extra["seed"], dest)
        except ValueError as exc:
            raise DatasetInvalid(str(exc)) from None
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
