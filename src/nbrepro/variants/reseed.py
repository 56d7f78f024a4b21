# SPDX-License-Identifier: GPL-3.0-or-later
"""A paper's experiment under other random numbers: every seed its protocol and its classifiers
draw from, shifted together (``reseed``), for the reseeding run's seed bands.

What moves with the shift k (k = 0 is the paper as configured, the main run):
  - the protocol's folds (``protocols.shifted``: Weka's runs 1–10 → 11–20 → 21–30 …, a seed s → s + k);
  - every ``random_state`` of a classifier, written or left at its default (Bagging's bags,
    AWNB's and SBC's trees), s → s + k;
  - every inner cross-validation (``cv``: a calibration's, a model selection's), written or the
    meta-estimator's ``default_cv``, shifted as a protocol.
What stays: the data (a generated data set is data, drawn once), the preprocessing fitted on the
whole set, NBTree's fixed ``Random(1)`` per split (Weka's algorithm, not an option), and the
statistics' own resampling seeds (the claims' bootstrap), so that seed runs differ only in the
experiment's random numbers.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass

from ..paper import thawed


@dataclass(frozen=True)
class Reseeded:
    """``spec``: the paper config under shift k; ``changes``: what moved, one line each (none: the
    paper draws no random number, and every reseeded run would repeat the main run)."""

    spec: dict
    changes: tuple[str, ...]


def _runs_text(spec: dict) -> str:
    if spec.get("name") == "weka_cv":
        return f"runs {spec['runs']['first']}–{spec['runs']['last']}"
    return f"seed {spec.get('seed', 1)}"


def _reseed_estimator(spec: dict, k: int, where: str, changes: list[str]) -> None:
    """Shift, in place, every seed of an estimator mapping ``{estimator: Name, params: {...}}``
    and of the estimators among its params."""
    from ..classifiers import REGISTRY  # here, not with the module: a job reading its paper imports no classifier
    from ..protocols import shifted

    cls = REGISTRY.get(spec.get("estimator"))
    if cls is None:   # nbrepro.checks reports an unknown estimator; nothing to shift here
        return
    params = dict(spec.get("params") or {})
    accepted = inspect.signature(cls).parameters
    for key, value in list(params.items()):
        if isinstance(value, dict) and "estimator" in value:
            _reseed_estimator(value, k, f"{where} → {key}", changes)
    before = params.get("random_state", accepted["random_state"].default) if "random_state" in accepted else None
    if isinstance(before, int):   # None: the estimator draws unseeded; nothing a shift could reproduce
        params["random_state"] = before + k
        changes.append(f"{where}: {cls.__name__} random_state {before} → {params['random_state']}")
    default_cv = getattr(cls, "default_cv", None)
    if "cv" in accepted and (isinstance(params.get("cv"), dict) or (params.get("cv") is None and default_cv)):
        before = params.get("cv") or default_cv
        params["cv"] = shifted(before, k)
        if params["cv"] != before:
            changes.append(f"{where}: {cls.__name__} inner CV {_runs_text(before)} → {_runs_text(params['cv'])}")
    if params:
        spec["params"] = params


def reseed(paper: dict, k: int) -> Reseeded:
    """``paper`` (a loaded paper config, grids expanded) with every seed shifted by ``k``."""
    from ..protocols import shifted  # here, not with the module: it imports numpy and numba

    if k < 0:
        raise ValueError(f"a reseeding shift is 0 or more, got {k}")
    spec = thawed(paper)   # a plain, new dict: the shifts are written into it
    if k == 0:
        return Reseeded(spec, ())
    changes: list[str] = []
    protocol = shifted(spec["protocol"], k)
    if protocol != spec["protocol"]:
        changes.append(f"protocol {spec['protocol']['name']}: {_runs_text(spec['protocol'])} → {_runs_text(protocol)}")
    spec["protocol"] = protocol
    for label, c in spec["classifiers"].items():
        _reseed_estimator(c, k, f"classifier {label!r}", changes)
    return Reseeded(spec, tuple(changes))


def draws_random_numbers(paper: dict) -> bool:
    """Whether any seed of the paper's experiment can move (a reseeding run would differ)."""
    return bool(reseed(paper, 1).changes)


def seeded_runs(paper, seeds: int) -> list[int]:
    """The runs 1..K of the reseeding a paper makes: none when its experiment draws no random number."""
    return list(range(1, seeds + 1)) if seeds > 0 and draws_random_numbers(paper) else []
