# SPDX-License-Identifier: GPL-3.0-or-later
"""The evaluation jobs of a plan, grouped into the rules that make them.

A job runs some of a paper's classifiers on one data set in one process (the classifiers' ``job:``
names group them; none: the job ``all``) and writes one file per classifier and kind. Snakemake
gives a rule one fixed list of output patterns, so a rule serves every run whose job writes the
same classifiers' files in the same way: the main run and its reseeded runs share one, a reading
that reruns only some of a job's classifiers has the one of those classifiers.

How a job gets its data (``how``):
  inline     a paper with one job name, main run: the job prepares the data set and makes the folds
             itself (one Python start instead of two)
  reseeded   the same paper in a reseeded run: the job makes that run's folds from the prepared data
  prepared   otherwise: rule prepare (or folds) made them
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import paths
from ._run import runs_regex


@dataclass
class EvaluationRule:
    """One evaluation rule: the job ``job`` of ``paper`` running ``labels`` on ``datasets``, its
    data got ``how``; ``runs``: the runs it serves (their ids)."""

    paper: str
    job: str
    labels: tuple[str, ...]
    recorded: tuple[str, ...]   # the labels whose fitted state is recorded (a file of their own)
    datasets: tuple[str, ...]
    how: str
    several: bool               # whether the paper has more than one job name (it names the job's log)
    whole: bool                 # whether it runs all the job's classifiers (else: a reading's part of it)
    name: str = ""
    runs: list[str] = field(default_factory=list)

    # The rule's files are named by the paper, then a {tail} wildcard: "" (the main run), "/seeds/{k}",
    # "/readings/{choice}/{reading}[/seeds/{k}]", so that Snakemake, which looks a file's rules up by
    # the constant start of their outputs, looks at this paper's rules alone.
    @property
    def tail_pattern(self) -> str:
        """The {tail} wildcard's pattern: exactly the runs this rule serves."""
        return f"(?:{runs_regex(r.removeprefix(self.paper) for r in self.runs)})"   # an empty one would be none

    def run_id(self, wildcards) -> str:
        """The run a job of this rule makes (its {tail} after the paper)."""
        return self.paper + wildcards.tail

    @property
    def dataset_pattern(self) -> str:
        return "|".join(re.escape(d) for d in self.datasets)

    def outputs(self) -> dict[str, list[str]]:
        """Per kind, the files a job writes into its run's folder ({tail}, {dataset} left as patterns)."""
        run = self.paper + "{tail}"

        def each(kind, labels):
            return [paths.results(run, paths.per_fold(kind, label=label)) for label in labels]
        out = {"folds": each("folds", self.labels), "predictions": each("predictions", self.labels),
               "fitted": each("fitted", self.recorded)}
        if self.how == "inline":
            out = {"prepared": paths.prepared(run), "splits": paths.splits(run), **out}
        elif self.how == "reseeded":
            out = {"splits": paths.splits(run), **out}
        return out

    @property
    def log(self) -> str:
        return f"logs/evaluate/{self.paper}{{tail}}/{{dataset}}" + (f".{self.job}" if self.several else "") + ".log"

    @property
    def benchmark(self) -> str:
        """Wall time and peak memory of each job (benchmarks/paper_jobs.py reads the main run's)."""
        return f"logs/benchmarks/{self.paper}{{tail}}/" + (f"{self.job}/" if self.several else "") + "{dataset}.tsv"


def job_groups(paper) -> dict[str, list[str]]:
    """Each evaluation job's classifiers: job name → labels, in the config's order."""
    groups: dict[str, list[str]] = {}
    for label, spec in paper.classifiers.items():
        groups.setdefault(spec.job, []).append(label)
    return groups


def split_by_datasets(paper, labels) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """A job's (labels, data sets) parts: where some of its classifiers run only on some data sets
    (``datasets:``), each set of classifiers is a rule of its own, serving the data sets it runs on."""
    parts: dict[tuple[str, ...], list[str]] = {}
    for ds in paper.datasets:
        here = tuple(label for label in labels if ds in paper.classifier_datasets(label))
        if here:
            parts.setdefault(here, []).append(ds)
    return [(here, tuple(ds)) for here, ds in parts.items()]


def evaluation_rules(plan) -> list[EvaluationRule]:
    """Every evaluation rule of the plan's runs, each with the runs it serves, in a stable order."""
    rules: dict[tuple, EvaluationRule] = {}
    for paper_name, paper in plan.papers.items():
        groups = job_groups(paper)
        several = len(groups) > 1
        for run in plan.runs(paper_name):
            for job, labels in groups.items():
                for k, (here, datasets) in enumerate(split_by_datasets(paper, labels)):
                    mine = tuple(label for label in here if not run.reading or label in run.touched.classifiers)
                    if not mine:
                        continue
                    how = "prepared" if several or run.reading else ("reseeded" if run.seed else "inline")
                    key = (paper_name, job, k, mine, how)
                    if key not in rules:
                        recorded = tuple(label for label in mine if paper.classifiers[label].record)
                        rules[key] = EvaluationRule(paper_name, job, mine, recorded, datasets, how, several,
                                                    mine == here)
                    if run.pattern_id not in rules[key].runs:
                        rules[key].runs.append(run.pattern_id)
    used = set()
    for (paper_name, job, k, mine, how), rule in rules.items():
        base = f"evaluate_dataset_{paper_name}" + (f"_{job}" if rule.several else "") + (f"_{k + 1}" if k else "")
        if how == "reseeded":
            base += "_seeds"
        elif not rule.whole:   # a reading's part of the job: named by its classifiers
            base += "_" + "_".join(mine[:3]) + ("_etc" if len(mine) > 3 else "")
        elif how == "prepared" and not rule.several:   # a reading of a one-job paper's data: prepared apart
            base += "_prepared"
        name = re.sub(r"\W", "_", base)
        rule.name = name if name not in used else f"{name}_{len(used)}"
        used.add(rule.name)
    return list(rules.values())


@dataclass
class OutputsRule:
    """A rule of one output shape over the {run}s (or {paper}s) it serves: the statistics of a run,
    a paper's seed bands, readings summary or out-of-sample comparison."""

    name: str
    outputs: list[str]
    runs: list[str] = field(default_factory=list)

    @property
    def run_pattern(self) -> str:
        return runs_regex(self.runs)

    paper_pattern = run_pattern


def _by_shape(prefix: str, shapes: dict) -> list[OutputsRule]:
    """One rule per output shape (``shapes``: outputs → the runs or papers with them), named ``prefix``,
    ``prefix_2`` … in order."""
    return [OutputsRule(prefix + (f"_{n + 1}" if n else ""), list(outputs), runs)
            for n, (outputs, runs) in enumerate(shapes.items())]


def stats_rules(plan) -> list[OutputsRule]:
    """The paper-stats rules: one per shape of what a run's job writes (its stats files; the main
    run's figures too), each serving every run of that shape."""
    shapes: dict[tuple, list[str]] = {}
    for paper in plan.papers:
        for run in plan.runs(paper):
            outputs = tuple(o.replace(run.folder, paths.results("{run}"), 1).replace(
                paths.figures(run.paper) + "/", paths.figures("{run}") + "/", 1) for o in run.stats_outputs())
            if outputs:
                runs = shapes.setdefault(outputs, [])
                if run.pattern_id not in runs:
                    runs.append(run.pattern_id)
    return _by_shape("paper_stats", shapes)


def paper_rules(plan, kind: str) -> list[OutputsRule]:
    """The rules over {paper} of ``kind``: seed_bands, readings or out_of_sample, one per output shape."""
    outputs_of = {"seed_bands": plan.seed_band_outputs, "readings": plan.reading_outputs,
                  "out_of_sample": plan.out_of_sample_outputs}[kind]
    shapes: dict[tuple, list[str]] = {}
    for paper in plan.papers:
        outputs = tuple(o.replace(f"/{paper}/", "/{paper}/", 1) for o in outputs_of(paper))
        if outputs:
            shapes.setdefault(outputs, []).append(paper)
    return _by_shape(kind, shapes)
