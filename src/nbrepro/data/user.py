# SPDX-License-Identifier: GPL-3.0-or-later
"""A user's own data sets, kept outside the package: a registry file with the same entries as
``config/datasets.yaml`` and a ``folder:`` (relative to the file) of their ARFF files, plain or as
``nbrepro ship FILE --to FOLDER`` writes them (``.arff.xz``, with the entry's digests printed).

    folder: my_data
    datasets:
      weather: {file: weather.arff, n_instances: 8, n_attributes: 2, n_classes: 2, sha256: …}

``--config user_datasets=FILE`` adds them to the registry of a run (the workflow passes the file
to its jobs in ``NBREPRO_USER_DATASETS``, so the shipped registry and every job's command stay as
they were) and the folder to the places a data set is fetched from. Each entry is checked before
any job: its name clashes with no shipped one, its file is there, is ARFF (a CSV is converted by
``nbrepro ship FILE.csv --class COLUMN``), and has its class attribute, nominal.
"""
from __future__ import annotations

import os
from pathlib import Path

import yaml

from ..errors import ConfigError

ENV = "NBREPRO_USER_DATASETS"   # the user's registry file, for the jobs of a run


def read_user_registry(path: str | Path) -> tuple[dict, Path]:
    """(the ``datasets:`` entries as written, the folder of their files)."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text())
    except OSError as exc:
        raise ConfigError(f"config user_datasets: {path} cannot be read ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"config user_datasets: {path} is not YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("datasets"), dict) or not raw["datasets"]:
        raise ConfigError(f"{path}: expected a mapping with 'folder' and a non-empty 'datasets' mapping")
    folder = (path.parent / str(raw.get("folder", "."))).resolve()
    if not folder.is_dir():
        raise ConfigError(f"{path}: folder {raw.get('folder')!r} is not a folder ({folder})")
    return raw["datasets"], folder


def user_file(folder: Path, file: str) -> Path | None:
    """The data set's file in the user's folder: as named, or compressed by ``nbrepro ship``."""
    for cand in (folder / file, folder / f"{file}.xz"):
        if cand.is_file():
            return cand
    return None


def check_user_entries(entries: dict, folder: Path, shipped: set[str], where: str) -> None:
    """Each user entry, before any job (one line naming the data set and the file)."""
    from ..errors import ArffError
    from .arff import class_name, read_attributes

    for name, entry in entries.items():
        at = f"{where}: data set {name!r}"
        if name in shipped:
            raise ConfigError(f"{at} has the name of a shipped data set; give yours another name")
        file = (entry or {}).get("file") or f"{name}.arff"
        if not file.endswith(".arff"):
            hint = (f"convert it first: nbrepro ship {file} --class COLUMN --to {folder}"
                    if file.endswith(".csv") else "give an ARFF file")
            raise ConfigError(f"{at}: {file} is not ARFF; {hint}")
        found = user_file(folder, file)
        if found is None:
            raise ConfigError(f"{at}: {file} is not in {folder} (nor {file}.xz)")
        try:
            attrs = read_attributes(found)
        except (ArffError, ValueError, OSError) as exc:
            raise ConfigError(f"{at}: {found}: {str(exc).splitlines()[0]}") from None
        names = [a.name for a in attrs]
        cls = class_name(names, str((entry or {}).get("class_attribute", "last")))
        if cls not in names:
            raise ConfigError(f"{at}: class attribute {cls!r} is not in {found.name} (its attributes: "
                              f"{', '.join(names)})")
        kind = next(a.kind for a in attrs if a.name == cls)
        if kind != "nominal":
            raise ConfigError(f"{at}: the class attribute {cls!r} of {found.name} is {kind}; a classifier needs "
                              "a nominal class (declare its values, or name another class_attribute)")


def csv_to_arff(csv: Path, class_column: str | None, out: Path) -> None:
    """A CSV file as ARFF, its class last: numeric columns numeric, others nominal (their values
    sorted); an empty cell missing. The class column must be named (``--class``), and nominal."""
    import pandas as pd

    if not class_column:
        raise ConfigError(f"{csv}: a CSV file does not say which column is the class; name it with --class COLUMN")
    frame = pd.read_csv(csv, keep_default_na=False, na_values=[""])
    if class_column not in frame.columns:
        raise ConfigError(f"{csv}: no column {class_column!r} (its columns: {', '.join(map(str, frame.columns))})")
    out_frame = {}
    for c in [c for c in frame.columns if c != class_column] + [class_column]:
        col = frame[c]
        if c != class_column and pd.api.types.is_numeric_dtype(col):
            out_frame[c] = col.astype(float)
        else:
            values = sorted(col.dropna().astype(str).unique())
            out_frame[c] = pd.Categorical(col.astype("string"), categories=values)
    from .arff import write_arff

    write_arff(pd.DataFrame(out_frame), out, relation=csv.stem)


def registry_block(name: str, file: str, digests: dict, n_classes: int) -> str:
    """A registry entry ready to paste under ``datasets:`` (origin and licence left to the user)."""
    lines = [f"{name}:", f"  file: {file}"]
    lines += [f"  {k}: {digests[k]}" for k in ("sha256", "data_sha256", "rows_sha256")]
    lines += [f"  n_instances: {digests['n_rows']}", f"  n_attributes: {digests['n_columns'] - 1}",
              f"  n_classes: {n_classes}", "  origin: …   # where the file came from", "  licence: …"]
    return "\n".join(lines)


def user_registry_from_env() -> dict:
    """The user's entries of the run (``NBREPRO_USER_DATASETS``), as written; {} without one."""
    path = os.environ.get(ENV)
    return read_user_registry(path)[0] if path else {}
