"""Reading the paper configs and turning their labels into estimators."""
from __future__ import annotations

from pathlib import Path

import yaml


class ConfigError(ValueError):
    pass


# The files `nbrepro paper-stats` writes under results/{paper}/stats/ for a paper with text_stats:
# the Snakemake rules and the report read this one list.
PAPER_STATS_FILES = ("table1", "text_stats", "win_loss", "figure2_bounds", "claims")


def captioned_files(paper: dict) -> list[dict]:
    """The committed CSVs a paper's report shows with a caption: benchmarks, then investigations."""
    return paper.get("benchmarks", []) + paper.get("investigations", [])


def load_yaml(path: str | Path) -> dict:
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"config file not found: {path}")
    with open(path) as fh:
        data = yaml.safe_load(fh)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at top level")
    return data


def validate(data: dict, schema_path: str | Path, where: str) -> None:
    """Validate against a JSON schema (YAML); the error names the file and the offending key."""
    import jsonschema

    schema = load_yaml(schema_path)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        msgs = [f"{'/'.join(map(str, e.path)) or '(top level)'}: {e.message}" for e in errors[:5]]
        raise ConfigError(f"{where} does not match {schema_path}:\n  " + "\n  ".join(msgs))


def load_paper(path: str | Path, schema_dir: str | Path | None = None) -> dict:
    data = load_yaml(path)
    if schema_dir is not None:
        validate(data, Path(schema_dir) / "paper.schema.yaml", str(path))
    return data


def make_classifier(label: str, paper: dict):
    from .classifiers import REGISTRY

    specs = paper["classifiers"]
    if label not in specs:
        raise ConfigError(f"paper {paper['paper']!r}: no classifier labelled {label!r} (have: {sorted(specs)})")
    spec = specs[label]
    name = spec["estimator"]
    if name not in REGISTRY:
        raise ConfigError(f"paper {paper['paper']!r}, classifier {label!r}: unknown estimator {name!r} "
                          f"(known: {sorted(REGISTRY)})")
    try:
        return REGISTRY[name](**(spec.get("params") or {}))
    except TypeError as exc:
        raise ConfigError(f"paper {paper['paper']!r}, classifier {label!r}: bad params {spec.get('params')} ({exc})") from None
