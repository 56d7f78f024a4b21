# SPDX-License-Identifier: GPL-3.0-or-later
"""A paper cut to some of its data sets, for a quick look (``--config datasets=[name, …]``).

The cut is a paper of its own, ``{paper}_cut``, derived from the paper's config as written
(``cut_config``): the kept data sets, in the paper's order; every list of data sets a table or a
classifier names narrowed to the kept ones; a gap whose cells all lie on data sets left out
skipped (and listed), the others narrowed; every other entry (classifiers, protocol, statistics,
claims, figures) as the paper has it, but for the readings (a quick look runs none). A claim
about named data sets left out says it is not computable on the run. The printed verdicts are
judged on the paper's full printed tables, not on the cut (``derived_from.config`` names the
paper's own config, which the analysis reads for them): the paper's own numbers do not change
with what this run computes.
"""
from __future__ import annotations

import copy

from ..errors import ConfigError
from ..paper.readings import without_readings

SUFFIX = "_cut"


def cut_name(paper: str) -> str:
    return f"{paper}{SUFFIX}"


def wanted_names(value) -> list[str]:
    """``--config datasets=…`` as a list of names: a YAML list, or one name, or names with commas."""
    if isinstance(value, str):
        value = [n.strip() for n in value.split(",")]
    if not isinstance(value, list | tuple) or not all(isinstance(n, str) for n in value):
        raise ConfigError(f"config datasets={value!r}: expected a list of data set names, e.g. datasets=[iris,labor]")
    return [n for n in dict.fromkeys(value) if n]


def kept_datasets(written: dict, wanted: list[str]) -> list[str]:
    """The paper's data sets among ``wanted``, in the paper's order."""
    return [d for d in written.get("datasets") or () if d in set(wanted)]


def _narrow(spec: dict, keep: list[str], where: str) -> None:
    """A table's or classifier's named ``datasets:`` list narrowed to ``keep``: one that keeps none
    is refused, naming what it names (a registry filter, a mapping, is left as it is)."""
    named = spec.get("datasets")
    if not isinstance(named, list):
        return
    narrowed = [d for d in named if d in keep]
    if not narrowed:
        raise ConfigError(f"config datasets={keep}: {where} names only {named}, none of them kept; add one of "
                          "them to datasets=")
    spec["datasets"] = narrowed


def _narrow_gap(gap: dict, keep: list[str]) -> dict | None:
    """A gap with each of its cells' ``where`` narrowed to the kept data sets; None where every cell
    it names lies on a data set left out (a gap naming no data set is kept whole)."""
    where = gap.get("where")
    if not where:
        return gap
    out = []
    for w in where:
        named = w.get("datasets")
        if named is None:
            out.append(w)
        elif any(d in keep for d in named):
            out.append({**w, "datasets": [d for d in named if d in keep]})
    return {**gap, "where": out} if out else None


def cut_config(written: dict, keep: list[str], config_path: str) -> dict:
    """The config of the cut, from the paper's config as written (``config_path`` is that file)."""
    name = written["paper"]
    if not keep:
        raise ConfigError(f"config datasets=: paper {name!r} uses none of them (its data sets: "
                          f"{', '.join(written.get('datasets') or ())})")
    out = copy.deepcopy(dict(written))
    out["paper"] = cut_name(name)
    out["title"] = f"{out.get('title') or name} — cut to {', '.join(keep)}"
    out["datasets"] = list(keep)
    for section in ("tables", "classifiers"):
        for label, spec in (out.get(section) or {}).items():
            if isinstance(spec, dict):
                _narrow(spec, keep, f"paper {name!r}, {section}.{label}")
    for key in ("dataset_copies", "published_names"):
        if out.get(key):
            out[key] = {d: v for d, v in out[key].items() if d in keep}
    per_dataset = (out.get("preprocessing") or {}).get("per_dataset")
    if per_dataset:
        out["preprocessing"]["per_dataset"] = {d: v for d, v in per_dataset.items() if d in keep}
    gaps, skipped = [], []
    for gap in out.get("gaps") or ():
        narrowed = _narrow_gap(gap, keep)
        (gaps if narrowed is not None else skipped).append(narrowed if narrowed is not None else gap.get("cells", ""))
    if "gaps" in out:
        out["gaps"] = gaps
    # a quick look runs no readings: a reading's patch may name data sets left out (Liu et al.'s anneal copy)
    without_readings(out)
    out.pop("companions", None)   # a companion is cut (or left out) on its own
    out["derived_from"] = {"paper": name, "kind": "cut", "config": str(config_path),
                           "datasets": list(written.get("datasets") or ()), "skipped_gaps": skipped}
    return out
