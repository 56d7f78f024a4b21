# SPDX-License-Identifier: GPL-3.0-or-later
"""What the schema cannot see, within a paper: each estimator built with its parameters, the
preprocessing steps, the protocol, the metrics, what the tables, the reference, the plug-ins' entries
and the gaps name across sections."""
from __future__ import annotations

from ..errors import ConfigError
from ..evaluation.builders import build_estimator
from ..paper import Paper, check_entry


def check_steps(steps: list, where: str) -> None:
    """Preprocessing steps, built as a job would build them and their declared parameter
    constraints checked, as fit checks them (``n_bins: "ten"`` would otherwise pass and fail in
    the prepare job)."""
    from ..preprocess.pipeline import build_steps

    try:
        built = build_steps(steps)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    for name, step in built:
        try:
            step._validate_params()
        except ValueError as exc:  # scikit-learn's InvalidParameterError
            raise ConfigError(f"{where}, step {name!r}: {exc}") from None


def check_sections(paper: Paper, where: str) -> None:
    """What the schema cannot see, checked before any job runs: every estimator and its parameters,
    the protocol, the metrics, and every classifier a table or the reference names."""
    from ..metrics import paper_metrics
    from ..protocols import PROTOCOLS

    for label, spec in paper.classifiers.items():
        if spec.steps:   # built into a Pipeline below, whose fit alone would check the steps' parameters
            check_steps(list(spec.steps), f"{where}, classifier {label!r}, steps")
        estimator = build_estimator(spec, f"{where}, classifier {label!r}")
        if spec.variants == "ignore_each_attribute" and "ignored_attribute" not in estimator.get_params():
            raise ConfigError(
                f"{where}, classifier {label!r}: variants ignore_each_attribute needs an estimator with an "
                f"ignored_attribute parameter; {type(estimator).__name__} has none"
            )
    stray = sorted(set(paper.dataset_copies) - set(paper.datasets))
    if stray:
        raise ConfigError(f"{where}, dataset_copies: {stray} are not data sets of the paper (its datasets: name them "
                          "there; a copy is read under the name it replaces)")
    pre = paper.preprocessing
    check_steps(list(pre.steps), f"{where}, preprocessing")
    for dataset, extra in pre.per_dataset.items():
        check_steps(list(extra.steps), f"{where}, preprocessing.per_dataset.{dataset}")
    protocol = paper.protocol.as_written()
    if protocol.get("name") not in PROTOCOLS:
        raise ConfigError(f"{where}, protocol: unknown protocol {protocol.get('name')!r}; known: {sorted(PROTOCOLS)}")
    check_entry(PROTOCOLS[protocol["name"]], protocol, paper, f"{where}, protocol")
    metrics = paper_metrics(paper, where)
    if paper.stored_probabilities == "none":
        reading = [c for c, m in metrics.items() if m.level == "dataset" and m.reads_probabilities]
        if reading:
            raise ConfigError(
                f"{where}, stored_probabilities: none, but the dataset-level metric(s) {reading} "
                f"read the stored probabilities; use float32 or float64"
            )
    labels = set(paper.classifiers)
    for label, spec in paper.classifiers.items():
        unknown = [d for d in spec.datasets or () if d not in paper.datasets]
        if unknown:
            raise ConfigError(f"{where}, classifier {label!r}, datasets: {unknown} are not among the paper's datasets")
    if paper.reference and paper.reference not in labels:
        raise ConfigError(f"{where}, reference: {paper.reference!r} is not a classifier (have: {sorted(labels)})")
    extended = paper.out_of_sample.table
    if extended is not None and (extended not in paper.tables or paper.tables[extended].kind == "pairwise"):
        have = sorted(n for n, t in paper.tables.items() if t.kind != "pairwise")
        raise ConfigError(f"{where}, out_of_sample.table: {extended!r} is not a table of values of the paper "
                          f"(have: {have})")
    for name, table in paper.tables.items():
        if table.kind == "pairwise":
            named, values = list(table.methods), list(table.measures.values())
        else:
            named, values = [c.classifier for c in table.columns], [c.value for c in table.columns]
        unknown = [m for m in named if m not in labels]
        if unknown:
            raise ConfigError(f"{where}, tables.{name}: {unknown} name no classifier (have: {sorted(labels)})")
        rows = table.datasets or paper.datasets
        rows = rows if isinstance(rows, list | tuple) else []  # a filter on the registry: resolved at analysis
        for m in dict.fromkeys(named):
            absent = [d for d in rows if d not in paper.classifier_datasets(m)]
            if absent:
                raise ConfigError(
                    f"{where}, tables.{name}: classifier {m!r} does not run on {absent} "
                    f"(its datasets: key); list them there or leave them out of the table"
                )
        recorded = {"fit_seconds", "predict_seconds"}  # every evaluation records its timings
        missing = [v for v in dict.fromkeys(values) if v not in metrics and v not in recorded]
        if missing:
            raise ConfigError(
                f"{where}, tables.{name}: metric column(s) {missing} are not among the paper's "
                f"metrics {list(metrics)} (or the timings {sorted(recorded)})"
            )
    if paper.analysis.table and paper.analysis.table not in paper.tables:
        raise ConfigError(f"{where}, analysis.table: no table {paper.analysis.table!r}")


def check_plugins(paper: Paper, where: str) -> None:
    """Every statistic and figure entry against its plug-in's declaration (``nbrepro.paper.plugin``):
    its keys, their types, and what it names in the rest of the paper."""
    from ..analysis.figures import FIGURE_KINDS
    from ..analysis.statistics import STATISTICS

    for i, entry in enumerate(paper.analysis.statistics):
        check_entry(STATISTICS[entry["test"]], entry, paper, f"{where}, analysis.statistics[{i}] ({entry['id']})")
    for name, fig in paper.figures.items():
        check_entry(FIGURE_KINDS[fig["kind"]], fig, paper, f"{where}, figures.{name}")


def check_gap_cells(paper: Paper, where: str) -> None:
    """Each gap's ``where`` names a table of the paper, and data sets and methods it has: a typo
    would leave a cell outside its seed band silently unexplained."""
    ids = {c.id for c in paper.choices if c.readings}
    for i, gap in enumerate(paper.gaps):
        unknown = sorted(set(gap.choices) - ids)
        if unknown:
            raise ConfigError(f"{where}, gaps[{i}].choices: {unknown} are not ids of choices with readings "
                              f"(have: {sorted(ids)})")
        for w in gap.where:
            at = f"{where}, gaps[{i}].where"
            if w.table not in paper.tables:
                raise ConfigError(f"{at}: table {w.table!r} is not one of the paper's tables ({sorted(paper.tables)})")
            table = paper.tables[w.table]
            if table.kind == "cells":
                methods = set(table.methods) | {c.method for c in table.columns}
                metrics = {c.metric for c in table.columns}
            else:
                methods, metrics = set(table.methods), set(table.measures)
            for key, known in (("datasets", set(paper.datasets)), ("methods", methods), ("metrics", metrics)):
                unknown = sorted(set(getattr(w, key) or ()) - known)
                if unknown:
                    raise ConfigError(f"{at}: {key} {unknown} are not in table {w.table!r} (known: {sorted(known)})")
