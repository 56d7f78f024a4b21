# SPDX-License-Identifier: GPL-3.0-or-later
"""A paper config as a typed, frozen object: one dataclass per section, read by attribute.

``nbrepro.paper.read_paper`` validates the YAML's shape against the schema, applies its defaults,
expands the classifier grids and then builds a ``Paper`` here (``nbrepro.checks`` checks every
entry when a run is planned). This module sits low
(beneath the experiment, the analysis and the report) and imports no implementation: it only
gives the config a shape. The sections are frozen; what a plug-in reads (a statistic's, a
figure's or a claim's own keys, a classifier's ``params``, a step's parameters) stays a plain
mapping, a copy of its own, checked by its plug-in's declaration (``nbrepro.paper.plugin``) and by
the estimator's parameters.

``as_written()`` gives a section as the config wrote it (with the schema's defaults): what the
rerun triggers serialise and ``nbrepro.variants.reseed`` patches; ``replaced(**keys)`` a variant of it.
"""
from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any


def _own_copy(value):
    """A free-form YAML value (steps, parameters, a plug-in's entry) as a copy of its own (a list as
    a tuple; mappings plain, as the builders and plug-ins take them): a reader cannot change the
    config's other readers' values."""
    if isinstance(value, list):
        return tuple(copy.deepcopy(v) for v in value)
    return copy.deepcopy(value)


def thawed(value):
    """The plain ``dict``/``list`` form of a value of the spec (what YAML, JSON and the builders take)."""
    if isinstance(value, Section):
        return value.as_written()
    if isinstance(value, Mapping):
        return {k: thawed(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [thawed(v) for v in value]
    return value


_NOT_A_KEY = {"config_key": False}   # a field's metadata: set by the loader, never read from the YAML


@functools.cache
def _field_names(cls) -> frozenset[str]:
    """The fields a config key fills."""
    return frozenset(f.name for f in fields(cls) if f.metadata.get("config_key", True))


@dataclass(frozen=True)
class Section:
    """A section of the config: its fields, read by attribute, and the keys as the config wrote
    them (``written``: for ``as_written``, not for reading)."""

    written: Mapping = field(default_factory=lambda: MappingProxyType({}), repr=False, compare=False,
                             metadata=_NOT_A_KEY)

    @classmethod
    def build(cls, data: Mapping | None):
        if data is None:
            return None
        data = dict(data)
        names = _field_names(cls)
        kwargs = {}
        for key, value in data.items():
            if key in names:
                kwargs[key] = cls._convert(key, value)
        return cls(written=MappingProxyType(copy.deepcopy(data)), **kwargs)

    @classmethod
    def _convert(cls, name: str, value):
        return _own_copy(value)

    def as_written(self) -> dict:
        """The section as the config wrote it (schema defaults applied), as plain dicts and lists."""
        return copy.deepcopy(dict(self.written))

    def replaced(self, **changes):
        """This section with some keys written anew (a variant of the config: a test's, a reading's)."""
        return type(self).build({**self.as_written(), **thawed(changes)})


@dataclass(frozen=True)
class DatasetRows(Section):
    """``preprocessing.per_dataset.{name}``: row filters and extra steps for one data set."""
    drop_duplicate_rows: bool = False
    steps: tuple = ()
    why: str | None = None


@dataclass(frozen=True)
class Preprocessing(Section):
    """Steps fitted on the whole data set (``scope: dataset``) or on each training fold (``fold``)."""
    scope: str = "dataset"
    complete_cases: bool = False
    steps: tuple = ()
    per_dataset: Mapping = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def _convert(cls, name, value):
        if name == "per_dataset":
            return MappingProxyType({k: DatasetRows.build(v or {}) for k, v in value.items()})
        return _own_copy(value)

    def rows_of(self, dataset: str) -> DatasetRows:
        return self.per_dataset.get(dataset) or DatasetRows.build({})


@dataclass(frozen=True)
class Runs(Section):
    first: int = 1
    last: int = 1


@dataclass(frozen=True)
class Protocol(Section):
    """How folds are drawn (``nbrepro.protocols``)."""
    name: str = ""
    folds: int | None = None
    repeats: int | None = None
    trials: int | None = None
    seed: int | None = None
    runs: Runs | None = None
    train_order: str | None = None
    small_classes: str | None = None

    @classmethod
    def _convert(cls, name, value):
        return Runs.build(value) if name == "runs" else _own_copy(value)


@dataclass(frozen=True)
class Classifier(Section):
    """One labelled classifier: an estimator of ``nbrepro.classifiers`` and its parameters."""
    estimator: str = ""
    params: Mapping = field(default_factory=lambda: MappingProxyType({}))
    note: str | None = None
    variants: str | None = None
    steps: tuple = ()
    record: tuple = ()
    datasets: tuple | None = None
    job: str = "all"
    grid_of: str | None = None
    grid_point: Mapping | None = None


@dataclass(frozen=True)
class Column(Section):
    """A cell per data set of a ``cells`` table: the printed method and metric, and what computes it."""
    method: str = ""
    metric: str = ""
    classifier: str = ""
    value: str = "accuracy"
    aggregate: str = "mean"
    beside: str | None = None   # not printed by the paper: shown next to this printed method's cell, never counted


@dataclass(frozen=True)
class Table(Section):
    """A results table: ``cells`` (data set × method) or ``pairwise`` (a method × method w/t/l matrix)."""
    kind: str = "cells"
    caption: str | None = None
    metric: str | None = None
    published: str | None = None
    published_summary: str | None = None
    summary_columns: Mapping | None = None
    markers_printed: tuple | None = None
    datasets: Any = None             # the data sets named, or a filter on the registry's entries
    measures: Mapping | None = None
    tie: Mapping | None = None
    tolerance: int | None = None
    record_test: Mapping | None = None
    methods: tuple = ()

    @property
    def compared_cells(self) -> bool:
        """Whether the table has cells the paper printed to put ours beside (a cells table with a
        published file): what a reproduced-vs-published plot draws."""
        return self.kind == "cells" and self.published is not None

    @functools.cached_property   # built once: the analysis reads a table's columns per data set
    def columns(self) -> tuple[Column, ...]:
        """Each cell per data set (``columns:``, or ``metric`` × ``methods``)."""
        if "columns" in self.written:
            return tuple(Column.build({"value": "accuracy", "aggregate": "mean", **c}) for c in self.written["columns"])
        return tuple(Column.build({"method": m, "metric": self.metric, "classifier": m, "value": self.metric,
                                   "aggregate": "mean"}) for m in self.methods)


@dataclass(frozen=True)
class DatasetTable(Section):
    """``analysis.dataset_table``: Table 1 (n, m, r, …) counted from the files."""
    published: str | None = None
    count_class: bool | None = None
    after_steps: bool | None = None
    columns: Mapping | None = None


@dataclass(frozen=True)
class Analysis(Section):
    """Statistics, Table 1 and claims computed from one reproduced table."""
    table: str | None = None
    metric: str | None = None
    decimals: int | None = None
    dataset_table: DatasetTable | None = None
    published: str | None = None
    claims_module: str | None = None
    claims_on_printed_tables: bool = False
    statistics: tuple = ()

    @classmethod
    def _convert(cls, name, value):
        return DatasetTable.build(value) if name == "dataset_table" else _own_copy(value)


@dataclass(frozen=True)
class Where(Section):
    """The cells a gap names (each key absent: any)."""
    table: str = ""
    datasets: tuple | None = None
    methods: tuple | None = None
    metrics: tuple | None = None


@dataclass(frozen=True)
class Gap(Section):
    """Where the reproduction differs from the paper, and what was found about why."""
    cells: str = ""
    explanation: str = ""
    where: tuple[Where, ...] = ()
    choices: tuple[str, ...] = ()

    @classmethod
    def _convert(cls, name, value):
        return tuple(Where.build(w) for w in value) if name == "where" else _own_copy(value)


@dataclass(frozen=True)
class Reading(Section):
    """Another defensible reading of a choice: its name, why, and the patch of the config it makes
    (``nbrepro.paper.readings``)."""
    name: str = ""
    why: str = ""
    patch: Mapping = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Combination(Section):
    """Readings of several choices run together (``reading_combinations``): the run ``combined/{name}``."""
    name: str = ""
    why: str = ""
    readings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Choice(Section):
    """A reading chosen where the paper is silent, and why; with an ``id``, the other readings run
    beside it (``--config readings=…``)."""
    topic: str = ""
    choice: str = ""
    why: str | None = None
    id: str | None = None
    readings: tuple[Reading, ...] = ()

    @classmethod
    def _convert(cls, name, value):
        return tuple(Reading.build(r) for r in value) if name == "readings" else _own_copy(value)


@dataclass(frozen=True)
class CaptionedFile(Section):
    file: str = ""
    caption: str = ""


@dataclass(frozen=True)
class Significance(Section):
    test: str | None = None
    alpha: float = 0.05


@dataclass(frozen=True)
class OutOfSample(Section):
    """Which data sets the paper did not use its claims may be asked of (``nbrepro.variants.out_of_sample``):
    size limits (``max_instances``, ``max_attributes``; ``max_cells``, instances × attributes),
    data sets left out with a reason (``exclude``), why the pool is smaller than ten, where it
    is (``why_fewer``), and the table its rows extend in the report (``table``)."""
    max_instances: int | None = None
    max_attributes: int | None = None
    max_cells: int | None = None
    exclude: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    why_fewer: str | None = None
    named_as: Mapping[str, object] | None = None   # what a restriction to named data sets keeps of the pool
    table: str | None = None   # the table the pool's rows extend (default: the first that is not pairwise)
    min_numeric_attributes: int = 0   # fewer numeric attributes after the paper's preprocessing: left out
    max_classes: int | None = None   # more classes: left out (a cost the size limits do not see)


_SECTIONS = {"preprocessing": Preprocessing, "protocol": Protocol, "analysis": Analysis, "significance": Significance,
             "out_of_sample": OutOfSample}
_LISTS = {"gaps": Gap, "choices": Choice, "reading_combinations": Combination, "benchmarks": CaptionedFile,
          "investigations": CaptionedFile}
_MAPS = {"classifiers": Classifier, "tables": Table}


@dataclass(frozen=True)
class Paper(Section):
    """A paper's experiment (``config/papers/{paper}.yaml``): validated, defaults applied, grids
    expanded (``classifiers`` maps every label), every entry checked. ``path`` is the file it came
    from, ``seed`` the reseeding's shift (0: the paper as configured), ``reading`` the reading it
    runs (``choice/reading``; "": the default of every choice, the main run)."""
    paper: str = ""
    title: str | None = None
    source: str | None = None
    datasets: tuple[str, ...] = ()
    preprocessing: Preprocessing = field(default_factory=lambda: Preprocessing.build({}))
    protocol: Protocol = field(default_factory=lambda: Protocol.build({}))
    classifiers: Mapping[str, Classifier] = field(default_factory=lambda: MappingProxyType({}))
    companions: tuple[str, ...] = ()
    stored_probabilities: str | None = None
    metrics: tuple = ()
    reference: str | None = None
    published_names: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    dataset_copies: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    significance: Significance = field(default_factory=lambda: Significance.build({}))
    tables: Mapping[str, Table] = field(default_factory=lambda: MappingProxyType({}))
    analysis: Analysis = field(default_factory=lambda: Analysis.build({}))
    figures: Mapping[str, Mapping] = field(default_factory=lambda: MappingProxyType({}))
    claims: tuple[Mapping, ...] = ()
    gaps: tuple[Gap, ...] = ()
    benchmarks: tuple[CaptionedFile, ...] = ()
    investigations: tuple[CaptionedFile, ...] = ()
    choices: tuple[Choice, ...] = ()
    reading_combinations: tuple[Combination, ...] = ()
    out_of_sample: OutOfSample = field(default_factory=lambda: OutOfSample.build({}))
    derived_from: Mapping = field(default_factory=lambda: MappingProxyType({}))   # an out-of-sample run's paper
    path: Path | None = field(default=None, compare=False, metadata=_NOT_A_KEY)
    seed: int = field(default=0, metadata=_NOT_A_KEY)
    reading: str = field(default="", metadata=_NOT_A_KEY)

    @classmethod
    def _convert(cls, name, value):
        if name in _SECTIONS:
            return _SECTIONS[name].build(value)
        if name in _LISTS:
            return tuple(_LISTS[name].build(v) for v in value)
        if name in _MAPS:
            return MappingProxyType({k: _MAPS[name].build(v) for k, v in value.items()})
        return _own_copy(value)

    @classmethod
    def from_config(cls, data: Mapping, path: str | Path | None = None, seed: int = 0, reading: str = "") -> Paper:
        """The typed paper of a validated config (``read_paper`` gives one; a test may build its own)."""
        paper = cls.build(data)
        object.__setattr__(paper, "path", Path(path) if path is not None else None)
        object.__setattr__(paper, "seed", seed)
        object.__setattr__(paper, "reading", reading)
        return paper

    @property
    def name(self) -> str:
        return self.paper

    def replaced(self, **changes) -> Paper:
        return Paper.from_config({**self.as_written(), **thawed(changes)}, self.path, self.seed, self.reading)

    def captioned_files(self) -> list[CaptionedFile]:
        """The committed CSVs the paper's report shows with a caption: benchmarks, then investigations."""
        return [*self.benchmarks, *self.investigations]

    def choice(self, choice_id: str) -> Choice:
        """The choice with this ``id``."""
        return next(c for c in self.choices if c.id == choice_id)

    def dataset_entry(self, dataset: str) -> str:
        """The registry entry whose file a data set of the paper is read from: itself, or the copy
        ``dataset_copies`` names."""
        return self.dataset_copies.get(dataset, dataset)

    def classifier_datasets(self, label: str) -> list[str]:
        """The data sets classifier ``label`` runs on: its ``datasets:`` if given, in the paper's
        order, else all the paper's."""
        only = self.classifiers[label].datasets
        return list(self.datasets) if only is None else [d for d in self.datasets if d in set(only)]

