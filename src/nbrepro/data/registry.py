# SPDX-License-Identifier: GPL-3.0-or-later
"""The dataset registry (``config/datasets.yaml``): one entry per dataset of every paper."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml


@dataclass(frozen=True)
class DatasetSpec:
    name: str
    file: str
    n_instances: int | None     # None: not known yet (an entry with only an openml_id); not checked
    n_attributes: int | None    # excluding the class
    n_classes: int | None       # declared class values (Weka's numClasses)
    class_attribute: str = "last"   # "last", "first" or an attribute name
    openml_id: int | None = None
    sha256: str | None = None       # the file's bytes (checksums.py)
    data_sha256: str | None = None  # the data as read, in file order
    rows_sha256: str | None = None  # the rows in any order
    notes: str = ""
    extra: dict = field(default_factory=dict)


# what a result depends on; the rest (where the file came from, its licence, notes) does not
_DATA_KEYS = ("n_instances", "n_attributes", "n_classes", "class_attribute", "sha256",
              "generator", "params", "seed")
_DESCRIPTIVE = ("file", "openml_id", "data_sha256", "rows_sha256", "notes", "source", "origin", "licence")
_KNOWN = set(_DATA_KEYS) | set(_DESCRIPTIVE)
_SHAPE = ("n_instances", "n_attributes", "n_classes")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def data_settings(entry: dict | None) -> dict | None:
    """A registry entry as written, without what does not change the data (its origin, licence,
    notes, OpenML id, the digests that follow from sha256): the rerun trigger of the jobs that
    read the data set."""
    return None if entry is None else {k: v for k, v in entry.items() if k in _DATA_KEYS}


def load_registry(path: str | Path) -> dict[str, DatasetSpec]:
    """The registry file's entries, and a user's own of the run (``nbrepro.data.user``), if any."""
    from .user import ENV, user_registry_from_env

    path = Path(path)
    reg = parse_registry(yaml.safe_load(path.read_text()), path)
    user = user_registry_from_env()
    if user:
        reg.update(parse_registry({"datasets": user}, os.environ[ENV]))
    return reg


def parse_registry(raw, path) -> dict[str, DatasetSpec]:
    """The registry file's contents (``raw``, as YAML gave them), checked entry by entry; ``path``
    names the file in errors."""
    if not isinstance(raw, dict) or "datasets" not in raw:
        raise ValueError(f"{path}: expected a mapping with a 'datasets' key")
    out = {}
    for name, entry in raw["datasets"].items():
        # a name and a file become paths (resources/raw/{name}.arff, the shipped folder's {file}):
        # a plain name, and a file name without folders, so neither leaves the data folders
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise ValueError(f"{path}: dataset name {name!r} is not a plain name (letters, digits, '.', '_', "
                             "'-', starting with a letter or digit)")
        file = entry.get("file")
        if file is not None and (not isinstance(file, str) or Path(file).name != file or file.startswith(".")):
            raise ValueError(f"{path}: dataset {name!r}: file {file!r} must be a file name, without folders")
        bad = [k for k in _SHAPE if entry.get(k) is not None and (isinstance(entry[k], bool)
                                                                 or not isinstance(entry[k], int))]
        if bad:
            raise ValueError(f"{path}: dataset {name!r}: {bad[0]} must be a whole number, got {entry[bad[0]]!r}")
        unknown = set(entry) - _KNOWN
        if unknown:
            raise ValueError(f"{path}: dataset {name!r} has unknown keys {sorted(unknown)} (allowed: {sorted(_KNOWN)})")
        if entry.get("generator"):
            from .synthetic import check_generator

            try:
                check_generator(name, entry["generator"], entry.get("params") or {})
            except ValueError as exc:
                raise ValueError(f"{path}: {exc}") from None
        if entry.get("openml_id") is None:
            # a file of our own (shipped, in a mirror or generated) has a known shape
            missing = [k for k in ("file", *_SHAPE) if k not in entry]
            if missing:
                raise ValueError(f"{path}: dataset {name!r} lacks {missing} (an entry without a file "
                                 "needs an openml_id)")
        out[name] = DatasetSpec(
            name=name,
            file=entry.get("file") or f"{name}.arff",
            **{k: None if entry.get(k) is None else int(entry[k]) for k in _SHAPE},
            class_attribute=str(entry.get("class_attribute", "last")),
            openml_id=entry.get("openml_id"),
            sha256=entry.get("sha256"),
            data_sha256=entry.get("data_sha256"),
            rows_sha256=entry.get("rows_sha256"),
            notes=entry.get("notes", ""),
            extra={"source": entry.get("source", ""), "origin": entry.get("origin", ""),
                   "licence": entry.get("licence", ""), "generator": entry.get("generator"),
                   "params": entry.get("params") or {}, "seed": entry.get("seed", 1)},
        )
    return out


def registry_entry(registry_path, dataset) -> DatasetSpec:
    """One dataset's entry, or a ``ConfigError`` that says how to add it."""
    from ..errors import ConfigError

    reg = load_registry(registry_path)
    if dataset not in reg:
        raise ConfigError(f"dataset {dataset!r} is not in the registry {registry_path}; add an entry there "
                          "(file, n_instances, n_attributes, n_classes; or only an openml_id)")
    return reg[dataset]
