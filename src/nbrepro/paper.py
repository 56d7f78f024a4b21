# SPDX-License-Identifier: GPL-3.0-or-later
"""The one loader of the paper configs: ``load_paper`` gives a validated ``Paper`` with its
defaults applied; the Snakefile, the command line, the index and ``fingerprint`` all use it.

What a paper may name is read from the registries, not kept twice: the schema
(``schemas/paper.schema.yaml``) marks a value ``x-names-of: R`` and gets ``enum:`` the names of
registry R of ``NAMES`` (estimators, metrics, protocols, preprocessing steps, statistics, figure
kinds). What the schema cannot see (parameters, names across sections) ``config.check_paper`` checks.
"""
from __future__ import annotations

import copy
import functools
from pathlib import Path

from .config import expand_classifiers, load_yaml
from .errors import ConfigError
from .spec import Paper

SCHEMAS = Path(__file__).parent / "schemas"


@functools.cache
def registry_names() -> dict[str, list[str]]:
    """Registry name (the schema's ``x-names-of``) → the names it holds; timings are recorded, not
    chosen. The registries are imported here, on first use, not with this module: a job that only
    reads its paper (``check=False``) loads none of the classifiers, numba, scikit-learn or scipy."""
    from .analysis.claim_kinds import CLAIM_KINDS
    from .analysis.figures import FIGURE_KINDS
    from .analysis.statistics import STATISTICS
    from .classifiers import REGISTRY
    from .metrics import METRICS
    from .preprocess.pipeline import STEP_NAMES
    from .protocols import PROTOCOLS

    return {"estimators": list(REGISTRY), "metrics": [n for n, kind in METRICS.items() if kind.level != "timing"],
            "protocols": list(PROTOCOLS), "steps": list(STEP_NAMES), "statistics": list(STATISTICS),
            "figure_kinds": list(FIGURE_KINDS), "claim_kinds": list(CLAIM_KINDS)}


def _fill_names(node, filled: bool):
    """Each ``x-names-of: R`` node as ``enum:`` the names of registry R, or (not ``filled``) as any string."""
    if isinstance(node, dict):
        if "x-names-of" in node:
            rest = {k: v for k, v in node.items() if k != "x-names-of"}
            node = rest | ({"enum": sorted(registry_names()[node["x-names-of"]])} if filled else {"type": "string"})
        return {k: _fill_names(v, filled) for k, v in node.items()}
    if isinstance(node, list):
        return [_fill_names(v, filled) for v in node]
    return node


@functools.cache
def schema(name: str = "paper", filled: bool = True) -> dict:
    """``schemas/{name}.schema.yaml`` with every ``x-names-of`` filled from its registry (``filled``)."""
    return _fill_names(load_yaml(SCHEMAS / f"{name}.schema.yaml"), filled)


def schema_errors(data: dict, name: str, filled: bool = True) -> list[str]:
    """Where ``data`` breaks ``schema(name)``: one "path: message" per error, the first five."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema(name, filled))
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.path))
    return [f"{'/'.join(map(str, e.path)) or '(top level)'}: {_message(e)}" for e in errors[:5]]


def _message(error) -> str:
    """jsonschema's message; for a value that matches none of ``anyOf``'s choices, each choice's own
    message, or its ``description`` where it has one (jsonschema says only "is not valid under any of
    the given schemas")."""
    if error.validator == "anyOf" and error.context:
        return ", nor ".join(dict.fromkeys(sub.schema.get("description") or sub.message for sub in error.context))
    return error.message


def validate(data: dict, name: str, where: str, filled: bool = True) -> None:
    """Validate against ``schema(name)``; the error names the file and the offending keys."""
    msgs = schema_errors(data, name, filled)
    if msgs:
        raise ConfigError(f"{where} does not match {name}.schema.yaml:\n  " + "\n  ".join(msgs))


def _apply_defaults(data, node: dict) -> None:
    """Set every absent key whose schema has a ``default:`` (objects' properties, and the
    values of a mapping whose ``additionalProperties`` is a schema), recursively."""
    if not isinstance(data, dict):
        return
    for key, sub in (node.get("properties") or {}).items():
        if key not in data and "default" in sub:
            data[key] = copy.deepcopy(sub["default"])
        if key in data:
            _apply_defaults(data[key], sub)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        for key, value in data.items():
            if key not in (node.get("properties") or {}):
                _apply_defaults(value, extra)


def load_paper(path: str | Path, registry: dict | None = None, seed: int = 0, check: bool = True,
               reading: str = "") -> Paper:
    """The paper config at ``path``; with the data-set ``registry`` (``config/datasets.yaml``'s
    entries), its data sets must be in it. ``seed`` k > 0: the same experiment with every seed
    shifted by k (``nbrepro.reseed``), a run of the reseeding. ``reading`` ("choice/reading"):
    the experiment under that reading of a choice (``nbrepro.readings``), then reseeded.

    ``check`` (the workflow's planning does it, once, before any job): every name against its
    registry, every estimator built with its parameters, the claims, statistics and figures
    against the tables, and every reading's patch the same way. A job reads the paper its
    planning checked with ``check=False``: the schema's shape and defaults only, without
    importing the registries."""
    path = Path(path)
    where = str(path)
    written = load_yaml(path)
    validate(written, "paper", where, filled=check)
    _apply_defaults(written, schema("paper", check))
    if reading:
        from .readings import DEFAULT, split_id

        if split_id(reading)[1] == DEFAULT:   # the main run, named as a choice's default reading
            _patched(written, reading, where, check)
            reading = ""
    data = _patched(written, reading, where, check) if reading else copy.deepcopy(written)
    data["classifiers"] = expand_classifiers(data["classifiers"], where)
    paper = Paper.from_config(data, path, reading=reading)
    if check:
        from .analysis.claim_records import known_methods
        from .analysis.declared import check_declared
        from .config import check_paper

        check_paper(paper, where)  # estimators, parameters, protocol, metrics, names: before any job runs
        _check_plugins(paper, where)
        check_declared(paper, where, known_methods(paper))
        _check_gap_cells(paper, where)
    if registry is not None:
        from .analysis.tables import table_datasets

        unknown = [d for d in paper.datasets if d not in registry]
        if unknown:
            raise ConfigError(f"{where}: datasets {unknown} are not in the data-set registry")
        _check_copies(paper, registry, where)
        for name, table in paper.tables.items():   # a filter with a typo, or one that keeps nothing
            try:
                table_datasets(paper, table, registry)
            except ConfigError as exc:
                raise ConfigError(f"{where}, tables.{name}: {exc}") from None
        _check_positive_classes(paper, registry, where)
        if check:
            _check_attribute_kinds(paper, registry, where)
    if check and not reading:
        _check_readings(written, paper, registry, where)
    if not seed:
        return paper
    from .reseed import reseed

    return Paper.from_config(reseed(data, seed).spec, path, seed, reading)


def _patched(written: dict, reading: str, where: str, filled: bool) -> dict:
    """The config as written under ``reading``, its patch checked against the schema."""
    from .readings import apply_reading, split_id, where_declared

    choice, name = split_id(reading)
    data = apply_reading(written, choice, name, where)
    msgs = schema_errors(data, "paper", filled)
    if msgs:
        raise ConfigError(f"{where_declared(written, choice, name, where)}: the patched config does not "
                          f"match paper.schema.yaml: {msgs[0]}")
    _apply_defaults(data, schema("paper", filled))
    return data


def _check_readings(written: dict, default: Paper, registry: dict | None, where: str) -> None:
    """Every reading of every choice: ids and names once each, its patch a valid config that changes
    something, checked as the paper is (its estimators and parameters, protocol, steps, and the
    attribute kinds its classifiers take), with errors naming the choice and the reading."""
    from .config import check_paper
    from .readings import declared, reading_id, touched, where_declared

    def once(names, what):
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ConfigError(f"{where}, {what.format(twice)}")

    once([c["id"] for c in written.get("choices") or () if "id" in c],
         "choices: id(s) {} are given to more than one choice")
    for i, c in enumerate(written.get("choices") or ()):
        once([r["name"] for r in c.get("readings") or ()], f"choices[{i}] ({c.get('id')}): reading name(s) {{}} "
             "are used twice")
    once([c["name"] for c in written.get("reading_combinations") or ()],
         "reading_combinations: name(s) {} are used twice")
    for choice, name in declared(written):
        at = where_declared(written, choice, name, where)
        data = _patched(written, reading_id(choice, name), where, True)
        data["classifiers"] = expand_classifiers(data["classifiers"], at)
        variant = Paper.from_config(data, default.path, reading=reading_id(choice, name))
        check_paper(variant, at)
        if not touched(default, variant).classifiers:
            raise ConfigError(f"{at}: the patch changes nothing the experiment runs (its classifiers, protocol "
                              "and preprocessing are the default's)")
        if registry is not None:
            _check_copies(variant, registry, at)
            _check_attribute_kinds(variant, registry, at)


def _check_copies(paper: Paper, registry: dict, where: str) -> None:
    unknown = {d: c for d, c in paper.dataset_copies.items() if c not in registry}
    if unknown:
        raise ConfigError(f"{where}: dataset_copies {unknown}: the copies are not in the data-set registry")


def _check_plugins(paper: Paper, where: str) -> None:
    """Every statistic and figure entry against its plug-in's declaration (``nbrepro.plugin``):
    its keys, their types, and what it names in the rest of the paper."""
    from .analysis.figures import FIGURE_KINDS
    from .analysis.statistics import STATISTICS
    from .plugin import check_entry

    for i, entry in enumerate(paper.analysis.statistics):
        check_entry(STATISTICS[entry["test"]], entry, paper, f"{where}, analysis.statistics[{i}] ({entry['id']})")
    for name, fig in paper.figures.items():
        check_entry(FIGURE_KINDS[fig["kind"]], fig, paper, f"{where}, figures.{name}")


def _check_gap_cells(paper: Paper, where: str) -> None:
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


def _check_positive_classes(paper: Paper, registry: dict, where: str) -> None:
    """A metric's ``positive`` class index against each data set's declared classes (the registry's
    n_classes), before any job: otherwise the first evaluation job of that data set stops on it."""
    from .metrics import paper_metrics

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


def _check_attribute_kinds(paper: Paper, registry: dict, where: str) -> None:
    """Each classifier against the attribute kinds it takes (its ``attribute_kinds``), on each data set
    it runs on, after the paper's preprocessing and its own steps: a nominal-only classifier on numeric
    data would otherwise fail inside its evaluation job, with the job's other classifiers. Read from the
    data sets' ARFF headers; where a step that removes attributes by their values (``remove_id_like``)
    leaves it open, from the data after the paper's steps. A data set not yet fetched is its job's to check."""
    from .classifiers._nominal import accepted_kinds
    from .config import build_estimator
    from .data.fetch import attribute_kinds
    from .preprocess.pipeline import kinds_after

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
    from .data.fetch import load_local_copy
    from .experiment import paper_rows
    from .preprocess.pipeline import apply_steps, build_steps

    read = load_local_copy(entry)
    if read is None:
        return None
    X, y = paper_rows(paper, dataset, *read)
    (X,) = apply_steps(build_steps(list(paper.preprocessing.steps)), X, y=y)
    return X


def _kinds_after_preprocessing(paper: Paper, dataset: str, entry) -> dict[str, str]:
    """The attributes' kinds after the paper's rows and steps (``after_preprocessing``)."""
    import pandas as pd

    X = after_preprocessing(paper, dataset, entry)
    return {c: "nominal" if isinstance(X[c].dtype, pd.CategoricalDtype) else "numeric" for c in X.columns}


def load_papers(names, paper_dir: str | Path, registry: dict | None = None, check: bool = True) -> dict[str, Paper]:
    """``{paper_dir}/{name}.yaml`` for each name, each followed by its ``companions``; a paper's
    ``paper:`` must equal its file's name."""
    papers: dict[str, Paper] = {}
    queue = list(names)
    while queue:
        name = queue.pop(0)
        if name in papers:
            continue
        paper = load_paper(Path(paper_dir) / f"{name}.yaml", registry, check=check)
        if paper.name != name:
            raise ConfigError(f"{paper.path}: 'paper: {paper.name}' must equal the file name {name!r}")
        papers[name] = paper
        queue.extend(paper.companions)
    return papers
