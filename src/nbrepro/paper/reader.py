# SPDX-License-Identifier: GPL-3.0-or-later
"""The one reader of the paper configs: ``read_paper(path)`` gives the ``Paper`` a config writes, with
the schema's defaults applied and its grids expanded; every job reads its paper so.

The reader checks the shape alone (``schemas/paper.schema.yaml`` with each registry's names left
open) and imports no registry, classifier, numba or scipy: what a paper may name, and everything
across sections, ``nbrepro.checks.check_paper`` checks, once, when a run is planned. A variant of the
paper (a reading, a reseeded run, a cut, out of sample) is read from the config as the variant
writes it (``read_written``, then ``paper_of``): ``nbrepro.variants``.
"""
from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from pathlib import Path

import yaml

from ..errors import ConfigError
from .grids import expand_classifiers
from .spec import Paper

SCHEMAS = Path(__file__).parent.parent / "schemas"


def load_yaml(path: str | Path) -> dict:
    """A YAML file whose top level is a mapping."""
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"config file not found: {path}")
    with open(path) as fh:
        data = yaml.safe_load(fh)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at top level")
    return data


def fill_names(node, names: Mapping[str, list[str]] | None):
    """Each ``x-names-of: R`` node as ``enum:`` the names of registry R (``names``), or (None) as any string."""
    if isinstance(node, dict):
        if "x-names-of" in node:
            rest = {k: v for k, v in node.items() if k != "x-names-of"}
            node = rest | ({"enum": sorted(names[node["x-names-of"]])} if names is not None else {"type": "string"})
        return {k: fill_names(v, names) for k, v in node.items()}
    if isinstance(node, list):
        return [fill_names(v, names) for v in node]
    return node


@functools.cache
def schema(name: str = "paper") -> dict:
    """``schemas/{name}.schema.yaml``, its shape: every ``x-names-of`` any string."""
    return fill_names(load_yaml(SCHEMAS / f"{name}.schema.yaml"), None)


def schema_errors(data: dict, against: dict) -> list[str]:
    """Where ``data`` breaks the schema ``against``: one "path: message" per error, the first five."""
    import jsonschema

    errors = sorted(jsonschema.Draft202012Validator(against).iter_errors(data), key=lambda e: list(e.path))
    return [f"{'/'.join(map(str, e.path)) or '(top level)'}: {_message(e)}" for e in errors[:5]]


def _message(error) -> str:
    """jsonschema's message; for a value that matches none of ``anyOf``'s choices, each choice's own
    message, or its ``description`` where it has one (jsonschema says only "is not valid under any of
    the given schemas")."""
    if error.validator == "anyOf" and error.context:
        return ", nor ".join(dict.fromkeys(sub.schema.get("description") or sub.message for sub in error.context))
    return error.message


def validate(data: dict, name: str, where: str, against: dict | None = None) -> None:
    """Validate against the schema ``name`` (its shape, or ``against``); the error names the file and
    the offending keys."""
    msgs = schema_errors(data, schema(name) if against is None else against)
    if msgs:
        raise ConfigError(f"{where} does not match {name}.schema.yaml:\n  " + "\n  ".join(msgs))


def apply_defaults(data, node: dict) -> None:
    """Set every absent key whose schema has a ``default:`` (objects' properties, and the
    values of a mapping whose ``additionalProperties`` is a schema), recursively."""
    if not isinstance(data, dict):
        return
    for key, sub in (node.get("properties") or {}).items():
        if key not in data and "default" in sub:
            data[key] = copy.deepcopy(sub["default"])
        if key in data:
            apply_defaults(data[key], sub)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        for key, value in data.items():
            if key not in (node.get("properties") or {}):
                apply_defaults(value, extra)


def read_written(path: str | Path) -> dict:
    """The config at ``path`` as written, its shape validated and the schema's defaults applied."""
    written = load_yaml(path)
    validate(written, "paper", str(path))
    apply_defaults(written, schema("paper"))
    return written


def paper_of(data: Mapping, path: str | Path | None, seed: int = 0, reading: str = "",
             where: str | None = None) -> Paper:
    """The ``Paper`` of a config with its defaults applied (``read_written``'s, or a variant's), its
    grids expanded (an error names ``where``, the file by default): ``seed`` and ``reading`` name the
    variant it is."""
    data = copy.deepcopy(dict(data))
    data["classifiers"] = expand_classifiers(data["classifiers"], where or str(path))
    return Paper.from_config(data, path, seed, reading)


def read_paper(path: str | Path) -> Paper:
    """The paper config at ``path`` as written (the main run's paper)."""
    return paper_of(read_written(path), path)
