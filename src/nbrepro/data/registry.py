"""The dataset registry (``config/datasets.yaml``): one entry per dataset of every paper."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml


@dataclass(frozen=True)
class DatasetSpec:
    name: str
    file: str
    n_instances: int
    n_attributes: int          # excluding the class
    n_classes: int             # declared class values (Weka's numClasses)
    class_attribute: str = "last"   # "last", "first" or an attribute name
    openml_id: int | None = None
    sha256: str | None = None
    notes: str = ""
    extra: dict = field(default_factory=dict)


_KNOWN = {"file", "n_instances", "n_attributes", "n_classes", "class_attribute", "openml_id", "sha256", "notes", "source",
          "generator", "params", "seed"}


def load_registry(path: str | Path) -> dict[str, DatasetSpec]:
    path = Path(path)
    return parse_registry(yaml.safe_load(path.read_text()), path)


def parse_registry(raw, path) -> dict[str, DatasetSpec]:
    """The registry file's contents (``raw``, as YAML gave them), checked entry by entry; ``path``
    names the file in errors."""
    if not isinstance(raw, dict) or "datasets" not in raw:
        raise ValueError(f"{path}: expected a mapping with a 'datasets' key")
    out = {}
    for name, entry in raw["datasets"].items():
        unknown = set(entry) - _KNOWN
        if unknown:
            raise ValueError(f"{path}: dataset {name!r} has unknown keys {sorted(unknown)} (allowed: {sorted(_KNOWN)})")
        missing = {"file", "n_instances", "n_attributes", "n_classes"} - set(entry)
        if missing:
            raise ValueError(f"{path}: dataset {name!r} lacks {sorted(missing)}")
        out[name] = DatasetSpec(
            name=name,
            file=entry["file"],
            n_instances=int(entry["n_instances"]),
            n_attributes=int(entry["n_attributes"]),
            n_classes=int(entry["n_classes"]),
            class_attribute=str(entry.get("class_attribute", "last")),
            openml_id=entry.get("openml_id"),
            sha256=entry.get("sha256"),
            notes=entry.get("notes", ""),
            extra={"source": entry.get("source", ""), "generator": entry.get("generator"),
                   "params": entry.get("params") or {}, "seed": entry.get("seed", 1)},
        )
    return out


def registry_entry(registry_path, dataset) -> DatasetSpec:
    """One dataset's entry, or a ``ConfigError`` that says how to add it."""
    from ..errors import ConfigError

    reg = load_registry(registry_path)
    if dataset not in reg:
        raise ConfigError(f"dataset {dataset!r} is not in the registry {registry_path}; add an entry there "
                          "(file, n_instances, n_attributes, n_classes)")
    return reg[dataset]
