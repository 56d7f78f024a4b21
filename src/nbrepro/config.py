# SPDX-License-Identifier: GPL-3.0-or-later
"""Reading a paper config's sections: YAML files, classifier grids, estimators from their specs,
and the checks across sections (``nbrepro.paper.load_paper`` is the loader that uses them)."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import yaml

from .errors import ConfigError
from .spec import Classifier, Paper


def captioned_files(paper) -> list:
    """The committed CSVs a paper's report shows with a caption: benchmarks, then investigations."""
    return [*paper.benchmarks, *paper.investigations]


def load_yaml(path: str | Path) -> dict:
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"config file not found: {path}")
    with open(path) as fh:
        data = yaml.safe_load(fh)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at top level")
    return data


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
    import copy
    import itertools

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


def check_steps(steps: list, where: str) -> None:
    """Preprocessing steps, built as a job would build them and their declared parameter
    constraints checked, as fit checks them (``n_bins: "ten"`` would otherwise pass and fail in
    the prepare job)."""
    from .preprocess.pipeline import build_steps

    try:
        built = build_steps(steps)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    for name, step in built:
        try:
            step._validate_params()
        except ValueError as exc:  # scikit-learn's InvalidParameterError
            raise ConfigError(f"{where}, step {name!r}: {exc}") from None


def imported_classifier(path: str, where: str) -> type:
    """The class an import path names (``sklearn.naive_bayes.GaussianNB``), if it is a scikit-learn
    estimator class (``build_estimator`` checks that an instance is a classifier)."""
    import importlib

    module_name, _, class_name = path.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except ImportError as exc:
        raise ConfigError(f"{where}: estimator {path!r}: module {module_name!r} cannot be imported ({exc})") from None
    except AttributeError:
        raise ConfigError(f"{where}: estimator {path!r}: module {module_name!r} has no {class_name!r}") from None
    if not isinstance(cls, type) or not hasattr(cls, "get_params") or not hasattr(cls, "fit"):
        raise ConfigError(f"{where}: estimator {path!r} is not a scikit-learn estimator class")
    return cls


def _random_state_unset(estimator) -> list[str]:
    """The ``random_state`` parameters (nested ones by their ``__`` path) left None: such an
    estimator draws from fresh entropy, and the same config would not give the same results."""
    return [k for k, v in estimator.get_params(deep=True).items()
            if (k == "random_state" or k.endswith("__random_state")) and v is None]


def build_estimator(spec: dict, where: str, foreign_ok: bool = True):
    """An estimator from ``{estimator: Name, params: {...}}``; a param that is itself such a mapping
    (e.g. the ``estimator`` of a ``Bagging`` or ``Calibrated``) is built the same way, recursively.
    A name with a dot is an import path of any scikit-learn classifier (``sklearn.svm.SVC``): it is
    wrapped in ``OneHotClassifier``, which gives it the paper's attributes as numbers, unless it is
    the base of another such classifier (``foreign_ok`` False: the outer one's input is encoded).
    A classifier's ``steps:`` (preprocessing fitted on each training fold, with the class) put it
    at the end of a scikit-learn Pipeline."""
    import inspect

    from .classifiers import REGISTRY, OneHotClassifier

    if isinstance(spec, Mapping) and not isinstance(spec, Classifier) and "estimator" in spec:
        spec = Classifier.build(spec)   # a nested estimator, written as a mapping in the params
    if not isinstance(spec, Classifier):
        raise ConfigError(f"{where}: expected a mapping with an 'estimator' key, got {spec!r}")
    name = spec.estimator
    imported = "." in name
    if imported:
        cls = imported_classifier(name, where)
    elif name not in REGISTRY:
        raise ConfigError(f"{where}: unknown estimator {name!r} (known: {sorted(REGISTRY)}, or a scikit-learn "
                          "classifier's import path such as sklearn.naive_bayes.GaussianNB)")
    else:
        cls = REGISTRY[name]
    params = dict(spec.params or {})
    accepted = inspect.signature(cls).parameters
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        raise ConfigError(f"{where}: {name} has no parameter(s) {unknown} (it takes {sorted(accepted)})")
    for key, value in params.items():
        if isinstance(value, dict) and "estimator" in value:
            params[key] = build_estimator(value, f"{where} → {key}", foreign_ok=not imported)
        elif key == "estimator" and isinstance(value, str) and value in REGISTRY:
            # a meta-estimator's base written as a bare name would be kept as a string and fail at fit
            raise ConfigError(f"{where}: {name}'s estimator is the string {value!r}; write it as a mapping, "
                              f"estimator: {{estimator: {value}, params: {{...}}}}")
    try:
        estimator = cls(**params)
        if hasattr(estimator, "_parameter_constraints"):
            # scikit-learn's own check of the declared constraints, as fit would run it, but now
            estimator._validate_params()
    except (TypeError, ValueError) as exc:  # InvalidParameterError is a ValueError
        raise ConfigError(f"{where}: {exc}") from None
    if imported and foreign_ok:
        from sklearn.base import is_classifier

        if not is_classifier(estimator):
            raise ConfigError(f"{where}: estimator {name!r} is not a classifier (scikit-learn's is_classifier)")
        if not hasattr(estimator, "predict_proba"):
            raise ConfigError(f"{where}: {name} gives no class probabilities with these parameters (no predict_proba; "
                              "nbrepro's metrics read them): e.g. SVC needs probability: true")
        unset = _random_state_unset(estimator)
        if unset:
            raise ConfigError(f"{where}: {name} has {', '.join(unset)} = None, so the same config would not give the "
                              "same results: give each a number (random_state: 0) in its estimator's params")
        estimator = OneHotClassifier(estimator)
    if spec.steps:
        from sklearn.pipeline import Pipeline

        from .preprocess.pipeline import build_steps

        try:
            steps = build_steps(spec.steps)
        except ValueError as exc:
            raise ConfigError(f"{where}: {exc}") from None
        estimator = Pipeline([*steps, ("classifier", estimator)])
    return estimator


def make_classifier(label: str, paper: Paper):
    if label not in paper.classifiers:
        raise ConfigError(f"paper {paper.name!r}: no classifier labelled {label!r} (have: {sorted(paper.classifiers)})")
    return build_estimator(paper.classifiers[label], f"paper {paper.name!r}, classifier {label!r}")


def check_paper(paper: Paper, where: str) -> None:
    """What the schema cannot see, checked before any job runs: every estimator and its parameters,
    the protocol, the metrics, and every classifier a table or the reference names."""
    from .metrics import paper_metrics
    from .plugin import check_entry
    from .protocols import PROTOCOLS

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
