# SPDX-License-Identifier: GPL-3.0-or-later
"""A paper against the data-set registry and the data sets' files: every data set and copy in the
registry, a metric's positive class among each data set's classes, and each classifier against the
attribute kinds it takes on each data set it runs on."""
from __future__ import annotations

import pandas as pd

from ..errors import ConfigError
from ..evaluation.builders import build_estimator
from ..paper import Paper


def check_registry(paper: Paper, registry: dict, where: str) -> None:
    """The paper's data sets and copies are the registry's, its tables' filters keep some, and its
    metrics' positive classes are each data set's."""
    from ..analysis.tables import table_datasets

    unknown = [d for d in paper.datasets if d not in registry]
    if unknown:
        raise ConfigError(f"{where}: datasets {unknown} are not in the data-set registry")
    check_copies(paper, registry, where)
    for name, table in paper.tables.items():   # a filter with a typo, or one that keeps nothing
        try:
            table_datasets(paper, table, registry)
        except ConfigError as exc:
            raise ConfigError(f"{where}, tables.{name}: {exc}") from None
    check_positive_classes(paper, registry, where)


def check_copies(paper: Paper, registry: dict, where: str) -> None:
    unknown = {d: c for d, c in paper.dataset_copies.items() if c not in registry}
    if unknown:
        raise ConfigError(f"{where}: dataset_copies {unknown}: the copies are not in the data-set registry")


def check_positive_classes(paper: Paper, registry: dict, where: str) -> None:
    """A metric's ``positive`` class index against each data set's declared classes (the registry's
    n_classes), before any job: otherwise the first evaluation job of that data set stops on it."""
    from ..metrics import paper_metrics

    for column, metric in paper_metrics(paper).items():
        positive = metric.params.get("positive")
        if positive is None:
            continue
        for ds in paper.datasets:
            entry = registry[paper.dataset_entry(ds)]
            n = entry.get("n_classes") if isinstance(entry, dict) else entry.n_classes
            if n is not None and positive >= n:
                raise ConfigError(f"{where}: metric {column!r}: positive={positive} is a class index, but data set "
                                  f"{ds!r} has {n} classes (0 … {n - 1}, the registry's n_classes)")


def check_attribute_kinds(paper: Paper, registry: dict, where: str) -> None:
    """Each classifier against the attribute kinds it takes (its ``attribute_kinds``), on each data set
    it runs on, after the paper's preprocessing and its own steps: a nominal-only classifier on numeric
    data would otherwise fail inside its evaluation job, with the job's other classifiers. Read from the
    data sets' ARFF headers; where a step that removes attributes by their values (``remove_id_like``)
    leaves it open, from the data after the paper's steps. A data set not yet fetched is its job's to check."""
    from ..classifiers._nominal import accepted_kinds
    from ..data.fetch import attribute_kinds
    from ..preprocess.pipeline import kinds_after

    pre = paper.preprocessing
    header, prepared = {}, {}
    for label, spec in paper.classifiers.items():
        takes = accepted_kinds(build_estimator(spec.replaced(steps=[]), f"{where}, classifier {label!r}"))
        for ds in paper.classifier_datasets(label):
            if ds not in header:
                header[ds] = attribute_kinds(registry[paper.dataset_entry(ds)])
            if header[ds] is None:
                continue
            kinds = kinds_after([*pre.rows_of(ds).steps, *pre.steps, *spec.steps], header[ds])
            if any(k.startswith("maybe ") and k[6:] not in takes for k in kinds.values()):
                if ds not in prepared:
                    prepared[ds] = _kinds_after_preprocessing(paper, ds, registry[paper.dataset_entry(ds)])
                kinds = kinds_after(spec.steps, prepared[ds])
            wrong = [c for c, k in kinds.items() if k.removeprefix("maybe ") not in takes]
            if wrong:
                kind = kinds[wrong[0]]
                more = f" and {len(wrong) - 1} more" if len(wrong) > 1 else ""
                raise ConfigError(
                    f"{where}, classifier {label!r}: {spec.estimator} takes {' and '.join(sorted(takes))} attributes "
                    f"only, but data set {ds!r} has the {kind} attribute {wrong[0]!r}{more} after the paper's "
                    f"preprocessing: add a step that makes it {' or '.join(sorted(takes))}, or leave {ds!r} out of "
                    "the classifier's datasets:")


def after_preprocessing(paper: Paper, dataset: str, entry):
    """The data set's attributes after the paper's rows and steps (at the data set's scope), read from
    the shipped or cached file as a prepare job would; None where no copy is here to read."""
    from ..data.fetch import load_local_copy
    from ..evaluation.experiment import paper_rows
    from ..preprocess.pipeline import apply_steps, build_steps

    read = load_local_copy(entry)
    if read is None:
        return None
    X, y = paper_rows(paper, dataset, *read)
    (X,) = apply_steps(build_steps(list(paper.preprocessing.steps)), X, y=y)
    return X


def _kinds_after_preprocessing(paper: Paper, dataset: str, entry) -> dict[str, str]:
    """The attributes' kinds after the paper's rows and steps (``after_preprocessing``)."""
    X = after_preprocessing(paper, dataset, entry)
    return {c: "nominal" if isinstance(X[c].dtype, pd.CategoricalDtype) else "numeric" for c in X.columns}
