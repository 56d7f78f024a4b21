# SPDX-License-Identifier: GPL-3.0-or-later
"""A paper's classifier grids: one ``grid:`` entry of ``classifiers:`` is one labelled classifier
per combination of its values (``expand_classifiers``), expanded when the paper is read."""
from __future__ import annotations

import copy
import itertools

from ..errors import ConfigError


def _set_nested(spec: dict, key: str, value) -> None:
    """``estimator__k`` sets params.estimator.params.k (scikit-learn's ``__`` for nested estimators)."""
    *outer, last = key.split("__")
    node = spec
    for part in outer:
        node = node.setdefault("params", {})[part]
        if not isinstance(node, dict) or "estimator" not in node:
            raise ConfigError(f"grid key {key!r}: {part!r} is not a nested estimator spec")
    node.setdefault("params", {})[last] = value


def expand_classifiers(specs: dict, where: str = "paper config") -> dict:
    """Expand each ``grid:`` entry into one labelled classifier per combination of values.

    ``KDE: {estimator: KernelNB, label: "KDE-{bandwidth}", grid: {bandwidth: [sp, nrd]}}`` gives
    ``KDE-sp`` and ``KDE-nrd``; combinations vary the last key fastest, in the order written.
    """
    out = {}
    for label, spec in specs.items():
        if "grid" not in spec:
            out[label] = spec
            continue
        grid = spec["grid"]
        template = spec.get("label")
        if not template:
            raise ConfigError(f"{where}: classifier {label!r} has a grid but no label template")
        keys = list(grid)
        for values in itertools.product(*(grid[k] if isinstance(grid[k], list) else [grid[k]] for k in keys)):
            point = dict(zip(keys, values, strict=True))
            item = copy.deepcopy({k: v for k, v in spec.items() if k not in ("grid", "label")})
            for k, v in point.items():
                _set_nested(item, k, v)
            try:
                name = template.format(**{**{k.replace("__", "_"): v for k, v in point.items()}, **point})
            except KeyError as exc:
                raise ConfigError(f"{where}: classifier {label!r}: label template {template!r} names "
                                  f"{exc.args[0]!r}, which is not a grid key") from None
            if name in out or name in specs:
                raise ConfigError(f"{where}: classifier {label!r}: grid label {name!r} is used twice")
            item["grid_of"] = label
            item["grid_point"] = point
            out[name] = item
    return out
