# SPDX-License-Identifier: GPL-3.0-or-later
"""Classifiers, each a scikit-learn estimator, by family (one subpackage each); the public names
are built here, and ``REGISTRY`` (the names a paper config's ``estimator:`` may give) from the
families' own lists."""
from . import bayes, functions, lazy, local, meta, trees, weighted
from ._nominal import integer_columns
from .bayes import *  # noqa: F403
from .functions import *  # noqa: F403
from .lazy import *  # noqa: F403
from .local import *  # noqa: F403
from .meta import *  # noqa: F403
from .trees import *  # noqa: F403
from .weighted import *  # noqa: F403

FAMILIES = {"bayes": bayes, "trees": trees, "functions": functions, "lazy": lazy, "local": local,
            "weighted": weighted, "meta": meta}


def all_estimators() -> dict[str, type]:
    """Every classifier the families export (their ``__all__``), by name: what a paper config's
    ``estimator:`` may give and what ``tests/classifiers/test_common.py`` checks."""
    return {name: getattr(family, name) for family in FAMILIES.values() for name in family.__all__}


REGISTRY = all_estimators()

__all__ = [*REGISTRY, "REGISTRY", "FAMILIES", "all_estimators", "integer_columns"]
