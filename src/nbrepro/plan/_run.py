# SPDX-License-Identifier: GPL-3.0-or-later
"""One run of a paper: the main run, run k of its reseeding, a reading of it (and that reading's run
k), each in its own folder under ``results/`` and named by it, the ``{run}`` of the workflow's rules:

    {paper}                          the main run
    {paper}/seeds/{k}                run k of the reseeding (k ≥ 1)
    {paper}/readings/{choice}/{r}    the paper under reading "choice/r"
    {paper}/readings/{choice}/{r}/seeds/{k}

A run knows which files it reads and which it writes; it does not decide which runs a workflow
makes (``Plan`` does).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from .. import paths

# What a {run} wildcard may be (a paper's name, then optionally a reading and a seed)
PATTERN = r"[A-Za-z0-9_-]+(?:/readings/[A-Za-z0-9_-]+/[A-Za-z0-9_-]+)?(?:/seeds/[1-9][0-9]*)?"
_PARTS = re.compile(r"(?P<paper>[A-Za-z0-9_-]+)(?:/readings/(?P<reading>[A-Za-z0-9_-]+/[A-Za-z0-9_-]+))?"
                    r"(?:/seeds/(?P<seed>[1-9][0-9]*))?")


def run_id(paper: str, seed: int = 0, reading: str = "") -> str:
    """The folder name of a run under ``results/`` (and under ``resources/folds/``)."""
    return paper + (f"/{paths.reading_run(reading)}" if reading else "") + (f"/{paths.seed_run(seed)}" if seed else "")


# A run's id with this seed stands for the run under every seed ≥ 1 (one rule serves them all)
ANY_SEED = 10 ** 9


def runs_regex(ids) -> str:
    """A pattern matching exactly these run ids (or paper names), ``ANY_SEED`` widened to every seed."""
    any_seed = re.escape(f"/seeds/{ANY_SEED}")
    return "|".join(re.escape(i).replace(any_seed, "/seeds/[1-9][0-9]*") for i in dict.fromkeys(ids))


def parse_run(text: str) -> tuple[str, int, str]:
    """(paper, seed, reading) of a run's name; a name that is none is a ValueError."""
    m = _PARTS.fullmatch(text)
    if m is None:
        raise ValueError(f"{text!r} names no run (expected {{paper}}[/readings/{{choice}}/{{reading}}][/seeds/{{k}}])")
    return m["paper"], int(m["seed"] or 0), m["reading"] or ""


@dataclass(frozen=True)
class Run:
    """A run of ``paper`` (its folder name) in run ``seed`` of the reseeding (0: the main run), under
    ``reading`` ("choice/reading"; "": as configured). ``plan`` is the plan it belongs to: it holds the
    papers, what each reading touches, and the registry."""

    plan: object
    paper: str
    seed: int = 0
    reading: str = ""

    # ---- what it is -------------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return run_id(self.paper, self.seed, self.reading)

    def __repr__(self) -> str:
        return f"Run({self.id!r})"

    @property
    def pattern_id(self) -> str:
        """The id that stands for this run in a rule's pattern: a reseeded run's seed as ``ANY_SEED``."""
        return run_id(self.paper, ANY_SEED if self.seed else 0, self.reading)

    @property
    def kind(self) -> str:
        """main, seeded, reading or seeded_reading."""
        return ("seeded_" if self.seed else "") + "reading" if self.reading else ("seeded" if self.seed else "main")

    @cached_property
    def spec(self):
        """The paper as this run runs it (``nbrepro.paper.Paper``): reseeded, under its reading."""
        return self.plan.paper(self.paper, self.seed, self.reading)

    @property
    def config(self) -> str:
        """The paper's config file, which every job of the run reads (with --seed and --reading)."""
        return str(self.plan.papers[self.paper].path)

    @property
    def base(self) -> Run | None:
        """The run a reading patches (the paper's folder, or the same reseeded run of it); None otherwise."""
        return Run(self.plan, self.paper, self.seed) if self.reading else None

    @property
    def main(self) -> Run:
        """The run whose prepared data this run's folds are made from (a reseeded run: its unseeded twin)."""
        return Run(self.plan, self.paper, 0, self.reading)

    @cached_property
    def touched(self):
        """What a reading changes (``nbrepro.paper.readings.Touched``); None for a run without one."""
        return self.plan.touched[self.paper][self.reading] if self.reading else None

    @property
    def own_data(self) -> bool:
        """Whether the run has prepared data and folds of its own: the main run, or a reading that
        patches the protocol, the preprocessing or a data set's copy (reseeded runs: folds only)."""
        return not self.reading or self.touched.data

    # ---- its files --------------------------------------------------------------------------------
    @property
    def folder(self) -> str:
        return paths.results(self.id)

    def at(self, name: str) -> str:
        return paths.results(self.id, name)

    def prepared(self, dataset: str = "{dataset}") -> str:
        """The prepared data this run reads (a reseeded run, or a reading of the data as it is: the paper's)."""
        return paths.prepared(self.main.id if self.own_data else self.paper, dataset)

    def folds(self, dataset: str = "{dataset}") -> str:
        """The folds this run's evaluations read (a reading of the data as it is: those of the run it patches)."""
        return paths.splits(self.id if self.own_data else self.base.id, dataset)

    def raw(self, dataset: str) -> str:
        """The raw file the run prepares ``dataset`` from: the data set's own, or the copy it reads for it."""
        return paths.raw(self.spec.dataset_entry(dataset))

    def owns(self, label: str, dataset: str) -> bool:
        """Whether this run makes a classifier's per-fold files on a data set itself (a reading: only
        what it touches; the rest are read from the run it patches)."""
        return not self.reading or self.touched.owns(label, dataset)

    @cached_property
    def results(self) -> paths.RunFolder:
        """The run's folder as its jobs read it (``paths.RunFolder``: a reading's untouched classifiers
        from the run it patches)."""
        if not self.reading:
            return paths.RunFolder(self.folder)
        return paths.RunFolder(self.folder, self.base.folder, self.touched.classifiers, self.touched.datasets)

    def per_fold(self, kind: str, dataset: str, label: str) -> str:
        return str(self.results.per_fold(kind, dataset, label))

    def cells(self, kinds=("folds",)):
        """Each (kind, data set, label) a run's tables read: every classifier on each data set it runs on."""
        paper = self.plan.papers[self.paper]
        for kind in kinds:
            for ds in paper.datasets:
                for label, c in paper.classifiers.items():
                    if ds in paper.classifier_datasets(label) and (kind != "fitted" or c.record):
                        yield kind, ds, label

    def fold_files(self, kinds=("folds",)) -> list[str]:
        return [self.per_fold(*cell) for cell in self.cells(kinds)]

    def own_fold_files(self) -> list[str]:
        """The per-fold files this run makes itself."""
        return [self.per_fold(*cell) for cell in self.cells(paths.FOLD_KINDS) if self.owns(cell[2], cell[1])]

    def own_datasets(self) -> list[str]:
        """The data sets whose prepared data (main runs) or folds this run makes."""
        if not self.own_data:
            return []
        own = self.touched.datasets if self.reading else None
        return list(own or self.plan.papers[self.paper].datasets)

    def table_files(self) -> list[str]:
        return [self.at(f) for t in self.plan.papers[self.paper].tables for f in paths.table_files(t)]

    def table_inputs(self) -> list[str]:
        """What a table job reads: every classifier's folds (and predictions, for a data-set-level metric)."""
        kinds = ("folds",) + (("predictions",) if self.plan.dataset_level(self.paper) else ())
        return self.fold_files(kinds)

    # ---- its statistics ---------------------------------------------------------------------------
    @property
    def stats_names(self) -> list[str]:
        """The stats files the run's paper-stats job writes (a reseeded run or a reading: only with claims)."""
        names = self.plan.output_files(self.paper)[0]
        return names if not (self.seed or self.reading) or "claims" in names else []

    def stats_outputs(self) -> list[str]:
        files = [self.at(paths.stats(n)) for n in self.stats_names]
        if self.kind == "main":
            files += [paths.figures(self.paper, name, ext) for name in self.plan.output_files(self.paper)[1]
                      for ext in ("png", "svg")]
        return files

    def stats_inputs(self) -> list[str]:
        """What the paper-stats job reads: the tables, the raw files for Table 1 (of the copies a reading
        reads), the recorded state for a density."""
        paper = self.plan.papers[self.paper]
        files = [self.at(f) for t in paper.tables for f in (paths.table(t), paths.table_summary(t))]
        if paper.analysis.dataset_table is not None:
            files += [self.raw(d) for d in paper.datasets]
        if any(f["kind"] == "density" for f in paper.figures.values()):
            files += self.fold_files(("fitted",))
        return files

    # ---- what its commands are told --------------------------------------------------------------
    @property
    def args(self) -> str:
        """Which run of the paper a command makes: ``--reading R`` and ``--seed K``, each with a space after."""
        return (f"--reading {self.reading} " if self.reading else "") + (f"--seed {self.seed} " if self.seed else "")

    @property
    def base_args(self) -> str:
        """``--base-results`` of a reading's table and stats jobs (with a space after); empty otherwise."""
        return f"--base-results {self.base.folder} " if self.reading else ""
