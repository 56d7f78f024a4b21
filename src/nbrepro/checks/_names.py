# SPDX-License-Identifier: GPL-3.0-or-later
"""What a paper may name, read from the registries, not kept twice: the schema marks a value
``x-names-of: R`` and gets ``enum:`` the names registry R holds (estimators, metrics, protocols,
preprocessing steps, statistics, figure kinds, claim kinds)."""
from __future__ import annotations

import functools

from ..paper import load_yaml
from ..paper.reader import SCHEMAS, fill_names


@functools.cache
def registry_names() -> dict[str, list[str]]:
    """Registry name (the schema's ``x-names-of``) → the names it holds; timings are recorded, not
    chosen. The registries are imported on first use: a job that only reads its paper loads none of
    the classifiers, numba, scikit-learn or scipy."""
    from ..analysis.claim_kinds import CLAIM_KINDS
    from ..analysis.figures import FIGURE_KINDS
    from ..analysis.statistics import STATISTICS
    from ..classifiers import REGISTRY
    from ..metrics import METRICS
    from ..preprocess.pipeline import STEP_NAMES
    from ..protocols import PROTOCOLS

    return {"estimators": list(REGISTRY), "metrics": [n for n, kind in METRICS.items() if kind.level != "timing"],
            "protocols": list(PROTOCOLS), "steps": list(STEP_NAMES), "statistics": list(STATISTICS),
            "figure_kinds": list(FIGURE_KINDS), "claim_kinds": list(CLAIM_KINDS)}


@functools.cache
def named_schema(name: str = "paper") -> dict:
    """``schemas/{name}.schema.yaml`` with every ``x-names-of`` the names of its registry."""
    return fill_names(load_yaml(SCHEMAS / f"{name}.schema.yaml"), registry_names())
