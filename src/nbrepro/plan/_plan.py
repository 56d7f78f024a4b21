# SPDX-License-Identifier: GPL-3.0-or-later
"""The plan of a workflow run: which papers it runs (as configured, cut to some data sets, out of
sample), which runs of each (the main run, the reseeded runs, the readings), the files each job
reads and writes, and the settings whose change reruns a job. The Snakefile's rules are wiring
over it; ``nbrepro fingerprint`` asks it which files a run leaves.
"""
from __future__ import annotations

import functools
import json
import os
import shlex
from pathlib import Path

import yaml

from .. import paths
from ..errors import ConfigError
from ..paper import load_yaml, thawed
from ._jobs import evaluation_rules, paper_rules, stats_rules
from ._resources import JobCosts
from ._run import Run, parse_run, runs_regex

BOOLEAN_WORDS = ("true", "false", "yes", "no", "1", "0")


def normalised(config: dict) -> dict:
    """The config with what a user types on the command line read as meant: ``--config openml=false``
    arrives as the string "false", ``out_of_sample=iris,wine`` as one string (changes ``config`` in place)."""
    for key in ("openml", "out_of_sample", "worker"):
        value = config.get(key)
        if not isinstance(value, str):
            continue
        if key == "out_of_sample" and "," in value:
            config[key] = [n.strip() for n in value.split(",") if n.strip()]
        elif key == "out_of_sample" and value.strip().lower() not in BOOLEAN_WORDS:
            config[key] = [value.strip()]   # one data set's name
        else:
            word = value.strip().lower()
            if word not in BOOLEAN_WORDS:
                raise ValueError(f"config {key}={value!r}: expected true or false")
            config[key] = word in ("true", "yes", "1")
    return config


def _settings(**parts) -> str:
    return json.dumps(thawed(parts), sort_keys=True, ensure_ascii=False)   # the config's values as written


class Plan:
    """The runs a workflow config (validated, defaults filled) makes, and their jobs' files.

    ``warn`` says what the plan leaves out (a companion a cut does not use, a paper without an
    out-of-sample pool). ``write``: derived papers' configs (a cut, out of sample) are written to
    ``resources/papers/`` when their text changes; ``check``: every paper checked against the
    registries and its data files' headers (what planning does once, before any job). ``root``: the
    workflow's folder, whose ``benchmarks/results/`` hold the measured job costs."""

    def __init__(self, config: dict, warn=print, check: bool = True, write: bool = True, root="."):
        from ..data.registry import parse_registry
        from ..data.user import ENV as USER_ENV
        from ..data.user import check_user_entries, read_user_registry

        self.config, self._warn, self._check, self._write = config, warn, check, write
        # asked once per job of a run: cached per plan (the papers are read once)
        self.paper, self.run = functools.cache(self._paper), functools.cache(self._run)
        self.output_files = functools.cache(self._output_files)
        self.dataset_level = functools.cache(self._dataset_level)
        registry = load_yaml(config["registry"])
        self.registry = parse_registry(registry, config["registry"])   # data set → its checked entry
        self.registry_as_written = registry["datasets"]   # the entries as written, for the rerun triggers
        self.costs = JobCosts(root, self.registry)   # what a job asks a cluster for, which runs first
        # A user's own data sets (`--config user_datasets=FILE`, nbrepro.data.user): checked, then added to the
        # registry, their folder to the places a data set is fetched from; the jobs read the file from the environment
        self.user_datasets: tuple[str, ...] = ()
        self.environment: dict[str, str] = {}
        mirror = config.get("mirror")
        self.mirrors = [] if not mirror else ([mirror] if isinstance(mirror, str) else list(mirror))
        if config.get("user_datasets"):
            user, folder = read_user_registry(config["user_datasets"])
            check_user_entries(user, folder, set(self.registry), f"config user_datasets {config['user_datasets']}")
            self.registry.update(parse_registry({"datasets": user}, config["user_datasets"]))
            self.registry_as_written = {**self.registry_as_written, **user}
            self.user_datasets = tuple(user)
            self.environment[USER_ENV] = str(Path(config["user_datasets"]).resolve())
            self.mirrors.append(str(folder))
        # Where `nbrepro fetch` looks beyond the shipped files reaches it through the environment, not a
        # param: params are rerun triggers, and the same bytes from another folder must change nothing.
        self.environment.update(NBREPRO_MIRRORS=os.pathsep.join(str(m) for m in self.mirrors),
                                NBREPRO_OPENML="1" if config.get("openml", True) else "0",
                                NBREPRO_OPENML_TIMEOUT=str(config.get("openml_timeout", 10)))
        # name → nbrepro.paper.Paper (validated, defaults applied; each paper's companions after it)
        self.papers = self._read_papers(config["papers"], config["paper_dir"])
        if config.get("datasets"):
            self._cut(config["datasets"])
        self.out_of_sample: dict[str, str] = {}   # paper → its out-of-sample paper's name
        if config.get("out_of_sample"):
            self._add_out_of_sample(None if config["out_of_sample"] is True else config["out_of_sample"])
        self._runs()
        if check:
            self._check_class_attributes()

    # ---- the papers --------------------------------------------------------------------------------
    def _read(self, path):
        """The paper config at ``path``; checked (``nbrepro.checks``) when the plan checks."""
        from ..checks import check_paper
        from ..paper import read_paper

        paper = read_paper(path)
        if self._check:
            check_paper(paper, self.registry)
        return paper

    def _read_papers(self, names, paper_dir) -> dict:
        """``{paper_dir}/{name}.yaml`` for each name, each followed by its ``companions``; a paper's
        ``paper:`` must equal its file's name."""
        papers = {}
        queue = list(names)
        while queue:
            name = queue.pop(0)
            if name in papers:
                continue
            paper = self._read(Path(paper_dir) / f"{name}.yaml")
            if paper.name != name:
                raise ConfigError(f"{paper.path}: 'paper: {paper.name}' must equal the file name {name!r}")
            papers[name] = paper
            queue.extend(paper.companions)
        return papers

    def _derived(self, name: str, source, module: str, config_of):
        """Paper ``name``, derived from the config file ``source`` as written (``config_of(written)``):
        written to resources/papers/{name}.yaml only when its text changes (so its jobs are not rerun)."""
        if not self._write:   # a plan only asked which files a run makes (fingerprint): a folder of its own
            import tempfile

            self._scratch = getattr(self, "_scratch", None) or tempfile.TemporaryDirectory(prefix="nbrepro-plan-")
        path = Path(self._scratch.name if not self._write else "resources/papers") / f"{name}.yaml"
        text = f"# written by the workflow from {source} (nbrepro.{module}): do not edit\n"
        text += yaml.safe_dump(config_of(load_yaml(source)), sort_keys=False, allow_unicode=True, width=120)
        if not path.is_file() or path.read_text() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return self._read(path)

    def _cut(self, datasets) -> None:
        """A quick look (``datasets=[name, …]``): each paper cut to those of its data sets, as a paper of its
        own, {paper}_cut, in its place (nbrepro.variants.cut); a companion that uses none is left out, said once."""
        from ..variants.cut import cut_config, cut_name, kept_datasets, wanted_names

        if self.config.get("out_of_sample"):
            raise ConfigError("config datasets= and out_of_sample= together: a cut paper has no pool of its own; "
                              "run them one at a time")
        wanted = wanted_names(datasets)
        unused = [d for d in wanted if not any(d in p.datasets for p in self.papers.values())]
        if unused:
            raise ConfigError(f"config datasets={wanted}: {unused} are data sets of none of the papers "
                              f"{sorted(self.papers)}")
        companions = {c for p in self.papers.values() for c in p.companions}
        for name in list(self.papers):
            keep = kept_datasets(load_yaml(self.papers[name].path), wanted)
            if not keep and name in companions:
                self._warn(f"nbrepro: datasets={wanted}: companion {name} uses none of them: left out")
                del self.papers[name]
                continue
            source = self.papers.pop(name).path
            self.papers[cut_name(name)] = self._derived(cut_name(name), source, "variants.cut",
                                                        lambda w, k=keep, s=source: cut_config(w, k, str(s)))

    def _add_out_of_sample(self, wanted) -> None:
        """Each paper's claims asked of data sets it did not use, as a paper of its own derived from it
        (nbrepro.variants.out_of_sample). A paper whose tables name their data sets has no pool with ``true``
        (said once, the rest run); with names it is an error."""
        from ..variants.out_of_sample import derived_config, derived_name, pool

        companions = {c for p in self.papers.values() for c in p.companions}
        for name in [n for n in self.papers if n not in companions]:
            try:
                the_pool = pool(self.papers[name], self.registry, wanted, self.user_datasets)
            except ConfigError as exc:
                if wanted is not None:
                    raise
                self._warn(f"nbrepro: out of sample: {name} skipped: {exc}")
                continue
            self.out_of_sample[name] = derived_name(name)
            self.papers[derived_name(name)] = self._derived(
                derived_name(name), self.papers[name].path, "variants.out_of_sample",
                lambda w, p=the_pool: derived_config(w, p, self.registry))

    def _runs(self) -> None:
        from ..paper.readings import select_readings, touched
        from ..variants import seeded_runs

        # the reseeding (`seeds=K`): each paper's runs 1..K under other seeds (none if it draws no random number)
        self.seeds = int(self.config.get("seeds", 0))
        self.seed_runs = {name: seeded_runs(paper, self.seeds) for name, paper in self.papers.items()}
        # the readings (`readings=all` or choice ids): paper → its readings ("choice/reading"), each a variant
        # of the paper that reruns only what its patch touches
        self.readings = select_readings(self.papers, self.config.get("readings"))
        self.touched = {name: {r: touched(self.papers[name], self.paper(name, 0, r)) for r in rs}
                        for name, rs in self.readings.items()}
        # every registry entry this run reads: the papers' data sets, or the copies a paper or a reading reads
        self.run_datasets = sorted({p.dataset_entry(d) for p in self.papers.values() for d in p.datasets}
                                   | {self.paper(n, 0, r).dataset_entry(d) for n, rs in self.readings.items()
                                      for r in rs for d in self.papers[n].datasets})

    def built_only(self) -> list[str]:
        """Narrow the plan to the papers whose report exists (``snakemake --report`` after a run of some
        of them: Snakemake's report needs every file it marks), and return the papers left out. A
        paper's out-of-sample companion goes with it."""
        absent = [n for n in self.papers if not Path(paths.results(n, paths.REPORT)).is_file()]
        if len(absent) == len(self.papers):
            raise ConfigError(f"snakemake --report: no report of {', '.join(self.papers)} in results/ yet: run "
                              "snakemake first, with the same --config")
        if absent:
            self.papers = {n: s for n, s in self.papers.items() if n not in absent}
            self.out_of_sample = {n: o for n, o in self.out_of_sample.items() if n in self.papers}
            self._runs()
        return absent

    def _check_class_attributes(self) -> None:
        """Each data set's class attribute against its file's header, before any job (a file not here
        yet: its fetch job's)."""
        from ..data.fetch import class_attribute_problem

        for d in self.run_datasets:
            problem = class_attribute_problem(self.registry[d])
            if problem:
                raise ConfigError(f"{self.config['registry']}: {problem}")

    def _paper(self, name: str, seed: int = 0, reading: str = ""):
        """Paper ``name`` under ``reading`` ("choice/reading"; "": as configured) in run ``seed`` of the reseeding."""
        from ..variants import variant

        if not seed and not reading:
            return self.papers[name]
        return variant(self.papers[name].path, seed, reading)

    def _output_files(self, paper: str) -> tuple[list[str], list[str]]:
        """(stats names, figure names) of a paper's paper-stats job (``analysis.paper_stats.output_files``)."""
        from ..analysis.paper_stats import output_files

        return output_files(self.papers[paper])

    def has_claims(self, paper: str) -> bool:
        return "claims" in self.output_files(paper)[0]

    def _dataset_level(self, paper: str) -> bool:
        """Whether a paper's tables use a metric computed from all folds' predictions (its table jobs read them)."""
        from ..metrics import paper_metrics

        return any(m.level == "dataset" for m in paper_metrics(self.papers[paper]).values())

    # ---- the runs ----------------------------------------------------------------------------------
    def runs(self, paper: str | None = None) -> list[Run]:
        """Every run of the plan (of one paper): the main run, its reseeded runs, each reading and its
        reseeded runs."""
        out = []
        for name in [paper] if paper else self.papers:
            seeds = [0] + self.seed_runs[name]
            out += [Run(self, name, k) for k in seeds]
            out += [Run(self, name, k, r) for r in self.readings[name] for k in seeds]
        return out

    def _run(self, run_id: str) -> Run:
        """The run named ``run_id`` (a {run} wildcard's value)."""
        paper, seed, reading = parse_run(run_id)
        return Run(self, paper, seed, reading)

    @functools.cached_property
    def evaluation_rules(self):
        return evaluation_rules(self)

    @functools.cached_property
    def stats_rules(self):
        return stats_rules(self)

    def paper_rules(self, kind: str):
        """The rules over {paper} of ``kind`` (seed_bands, readings, out_of_sample), one per output shape."""
        return paper_rules(self, kind)

    def prepared_runs(self) -> list[Run]:
        """The runs whose data rule prepare makes: the main run of a paper with several jobs per data
        set (one job alone prepares its own), a reading with data of its own."""
        from ._jobs import job_groups

        return [r for r in self.runs() if not r.seed and r.own_data
                and (r.reading or len(job_groups(self.papers[r.paper])) > 1)]

    def seed_fold_runs(self) -> list[Run]:
        """The reseeded runs whose folds rule seed_folds makes (as ``prepared_runs``, reseeded)."""
        from ._jobs import job_groups

        return [r for r in self.runs() if r.seed and r.own_data
                and (r.reading or len(job_groups(self.papers[r.paper])) > 1)]

    def figures_args(self, run: Run) -> str:
        """``--figures`` of the main run's paper-stats job (a space before); empty for another run."""
        return f" --figures {paths.figures(run.paper)}" if run.kind == "main" else ""

    def runs_pattern(self, runs) -> str:
        """A {run} wildcard pattern matching exactly these runs (any seed where a run is reseeded)."""
        return runs_regex(r.pattern_id for r in runs) or "(?!)"

    # ---- rerun triggers: the parts of the config each job's output depends on, as written -----------
    def fetch_settings(self, dataset: str) -> str:
        """What a fetched file must be: the registry entry's sha256, shape and generator settings (a
        changed generator setting makes the data set anew); not where it is found."""
        from ..data.registry import data_settings

        return _settings(registry_entry=data_settings(self.registry_as_written.get(dataset)))

    def prepare_settings(self, run: Run, dataset: str) -> str:
        """The preprocessing, protocol and the data set's registry entry, for a job that prepares it."""
        from ..data.registry import data_settings

        spec = run.spec
        pre = spec.preprocessing
        return _settings(scope=pre.scope, steps=pre.steps, complete_cases=pre.complete_cases,
                         per_dataset=pre.per_dataset.get(dataset), protocol=spec.protocol,
                         registry_entry=data_settings(self.registry_as_written.get(spec.dataset_entry(dataset))))

    def evaluate_settings(self, run: Run, labels) -> str:
        """The classifiers one evaluation job runs (their notes aside), the metrics and the preprocessing."""
        from ..metrics import computed_entries

        spec = run.spec
        stored = {"stored_probabilities": spec.stored_probabilities} if spec.stored_probabilities is not None else {}
        return _settings(
            classifiers={label: {k: v for k, v in c.as_written().items() if k != "note"}
                         for label, c in spec.classifiers.items() if label in labels},
            metrics=computed_entries(spec.metrics), scope=spec.preprocessing.scope,
            steps=spec.preprocessing.steps, **stored)

    def registry_entries(self, datasets) -> str:
        """The registry entries of ``datasets``, as written (JSON): what the crate shows of them."""
        return _settings(**{d: self.registry_as_written.get(d) for d in datasets})

    def registry_entries_of_paper(self, paper: str) -> str:
        """What a paper's report shows of its data sets' entries (origin, licence, generated or not)."""
        return _settings(**{d: {k: (self.registry_as_written.get(d) or {}).get(k)
                                for k in ("origin", "licence", "generator")} for d in self.papers[paper].datasets})

    # ---- what an evaluation job is told -------------------------------------------------------------
    def evaluate_outputs(self, run: Run, dataset: str) -> str:
        """The evaluate command's --out-folds, --out-predictions and --out-fitted of a data set's job:
        paths with ``{classifier}`` left for the command to fill in, one file per classifier."""
        return " ".join(f"--out-{kind} {shlex.quote(run.at(paths.per_fold(kind, dataset, '{classifier}')))}"
                        for kind in paths.FOLD_KINDS)

    def evaluate_params(self, rule) -> dict:
        """What an evaluation rule passes its command (functions of a job's wildcards), and the settings
        that rerun a job when edited (``settings``, ``prepare_settings``)."""
        def of_run(value):
            return lambda wildcards: value(self.run(rule.run_id(wildcards)), wildcards)
        return dict(
            paper=str(self.papers[rule.paper].path),
            seed=of_run(lambda run, w: run.args.strip()),   # which run of the paper (named so since the first)
            registry=self.config["registry"],
            settings=of_run(lambda run, w: self.evaluate_settings(run, rule.labels)),
            prepare_settings=of_run(lambda run, w: self.prepare_settings(run, w.dataset)),
            classifiers=" ".join(f"--classifier {shlex.quote(label)}" for label in rule.labels),
            outputs=of_run(lambda run, w: self.evaluate_outputs(run, w.dataset)),   # one file per classifier
            data=lambda wildcards, input, output: self._evaluate_data(rule.how, input, output),
        )

    def _evaluate_data(self, how: str, input, output) -> str:
        """Where the evaluate command reads its data and folds (or makes them: ``how``)."""
        if how == "inline":
            return (f"--raw {shlex.quote(input.raw)} --registry {shlex.quote(self.config['registry'])} "
                    f"--prepared {shlex.quote(output.prepared)} --folds {shlex.quote(output.splits)}")
        if how == "reseeded":
            return f"--prepared {shlex.quote(input.data)} --folds {shlex.quote(output.splits)} --make-folds"
        return f"--prepared {shlex.quote(input.data)} --folds {shlex.quote(input.folds)}"

    def evaluate_inputs(self, rule):
        """An evaluation rule's input function: the raw file (``inline``), or the prepared data (and folds)."""
        def inputs(wildcards):
            run, dataset = self.run(rule.run_id(wildcards)), wildcards.dataset
            if rule.how == "inline":
                return {"raw": run.raw(dataset)}
            if rule.how == "reseeded":
                return {"data": run.prepared(dataset)}
            return {"data": run.prepared(dataset), "folds": run.folds(dataset)}
        return inputs

    # ---- the runs' derived products ----------------------------------------------------------------
    def seed_band_inputs(self, paper: str) -> list[str]:
        """The main run's tables (and claims) and every reseeded run's."""
        names = [paths.table(t) for t in self.papers[paper].tables]
        names += [paths.stats("claims")] if self.has_claims(paper) else []
        return [Run(self, paper, k).at(n) for k in [0] + self.seed_runs[paper] for n in names]

    def seed_band_outputs(self, paper: str) -> list[str]:
        if not self.seeds:
            return []
        return [paths.results(paper, n) for n in (paths.SEED_BANDS, paths.NOISE_FLOOR)
                + ((paths.SEED_STABILITY,) if self.has_claims(paper) else ())]

    def reading_summary_inputs(self, paper: str) -> list[str]:
        """What a paper's readings summary reads: every run's tables and claims (main, reseeded, each
        reading and its reseeded runs) and each reading's own per-fold files (their CPU seconds)."""
        names = [paths.table(t) for t in self.papers[paper].tables]
        names += [paths.stats("claims")] if self.has_claims(paper) else []
        files = []
        for run in self.runs(paper):
            files += [run.at(n) for n in names]
            if run.reading and not run.seed:
                files += [f for f in run.fold_files() if f.startswith(run.folder + "/")]
        return files

    def reading_outputs(self, paper: str) -> list[str]:
        if not self.readings[paper]:
            return []
        return ([paths.results(paper, n) for n in (paths.READINGS, paths.READING_CLAIMS)]
                + [paths.figures(paper, paths.READINGS_FIGURE, ext) for ext in ("png", "svg")])

    def out_of_sample_outputs(self, paper: str) -> list[str]:
        """What the comparison of a paper with its out-of-sample run writes (none without claims): each
        claim's two verdicts; with a table of values, that table extended by the pool's rows, the mean
        ranks on both sides and their figure."""
        from ..variants.out_of_sample import main_table

        if paper not in self.out_of_sample or not self.has_claims(paper):
            return []
        out = [paths.results(paper, paths.CLAIMS_OUT_OF_SAMPLE)]
        if main_table(self.papers[paper]) is not None:
            out += [paths.results(paper, paths.TABLE_OUT_OF_SAMPLE), paths.results(paper, paths.RANKS_OUT_OF_SAMPLE),
                    *(paths.figures(paper, paths.RANKS_OUT_OF_SAMPLE_FIGURE, ext) for ext in ("png", "svg"))]
        return out

    def out_of_sample_tables(self, paper: str) -> dict[str, str]:
        """The main table's two files, the paper's and its out-of-sample run's (none: no table of values)."""
        from ..variants.out_of_sample import main_table

        name = main_table(self.papers[paper])
        if name is None:
            return {}
        return {"in_table": paths.results(paper, paths.table(name)),
                "out_table": paths.results(self.out_of_sample[paper], paths.table(name))}

    def out_of_sample_inputs(self, paper: str) -> dict[str, str]:
        """Both claims files, both configs, and the main table of each side when there is one."""
        derived = self.out_of_sample[paper]
        return {**self.out_of_sample_tables(paper), "in_sample": paths.results(paper, paths.stats("claims")),
                "out_of_sample": paths.results(derived, paths.stats("claims")),
                "paper": str(self.papers[paper].path), "derived": str(self.papers[derived].path)}

    @staticmethod
    def out_of_sample_args(input, output) -> str:
        """The out-of-sample command's table arguments (none without a table of values)."""
        if len(output) == 1:
            return ""
        return (f"--paper-config {shlex.quote(input.paper)} --derived-config {shlex.quote(input.derived)} "
                f"--in-table {shlex.quote(input.in_table)} --out-table {shlex.quote(input.out_table)} "
                f"--table-out {shlex.quote(output[1])} --ranks-out {shlex.quote(output[2])} "
                f"--figure {shlex.quote(output[3].removesuffix('.png'))}")

    def out_of_sample_report_args(self, paper: str) -> str:
        """``--out-of-sample`` of a paper's report: its out-of-sample paper's config, when compared."""
        if not self.out_of_sample_outputs(paper):
            return ""
        return f"--out-of-sample {shlex.quote(str(self.papers[self.out_of_sample[paper]].path))}"

    def report_inputs(self, paper: str) -> list[str]:
        """What a paper's report shows: its tables and their figures, the committed CSVs it captions, its
        statistics, the data sets' sources, the timings, and the seed bands, readings and out-of-sample
        comparison where the run makes them."""
        spec, main = self.papers[paper], Run(self, paper)
        figures = [paths.figures(paper, paths.reproduced_vs_published(t), ext)
                   for t, ts in spec.tables.items() if ts.compared_cells for ext in ("png", "svg")]
        return (main.table_files() + figures + [b.file for b in spec.captioned_files()] + main.stats_outputs()
                + [paths.raw_source(spec.dataset_entry(d)) for d in spec.datasets]
                + self.seed_band_outputs(paper) + self.reading_outputs(paper) + self.out_of_sample_outputs(paper)
                + [main.at(paths.TIMINGS)])

    def pages_inputs(self) -> list[str]:
        """What the index and the claims page read beyond the reports: each claim's seed stability, its
        robustness to readings, its verdict out of sample."""
        return [f for p in self.papers for f in self.seed_band_outputs(p) + self.reading_outputs(p)
                + self.out_of_sample_outputs(p)]

    # ---- every file ----------------------------------------------------------------------------------
    def run_files(self, run: Run) -> list[str]:
        """Every file one run makes: its data and folds, per-fold files, tables and statistics."""
        files = []
        for d in run.own_datasets():
            if not run.seed:
                files.append(paths.prepared(run.id, d))
            files.append(paths.splits(run.id, d))
        files += run.own_fold_files() + run.table_files()
        files += run.stats_outputs()
        if run.kind == "main":
            files.append(run.at(paths.TIMINGS))
        return files

    def every_file(self) -> list[str]:
        """Every file the run makes but the pages and the crate, as targets of the run, so that a plain
        rerun rebuilds a deleted one: Snakemake itself makes a missing file again only when a job that
        reads it has to run. A file made again with the same bytes reruns nothing (the workflow
        profile's max-checksum-file-size)."""
        files = [f for d in self.run_datasets for f in (paths.raw(d), paths.raw_source(d))]
        for paper in self.papers:
            for run in self.runs(paper):
                files += self.run_files(run)
            files += self.seed_band_outputs(paper) + self.reading_outputs(paper) + self.out_of_sample_outputs(paper)
        return files

    def shown_figures(self, paper: str) -> list[str]:
        """The copies of the figures a paper's report shows, beside it (``nbrepro.report.shown_figures``)."""
        from ..analysis.paper_stats import output_files
        from ..report.shown_figures import shown_figures
        from ..variants.out_of_sample import main_table

        spec = self.papers[paper]
        ranks = bool(self.out_of_sample.get(paper)) and main_table(spec) is not None
        return [paths.shown_figure(paper, n)
                for n in shown_figures(spec, output_files(spec)[1], bool(self.readings[paper]), ranks)]

    def pages(self) -> list[str]:
        """The pages and the provenance: each paper's report, the figures it shows and its run page, the
        index, the claims, the crate."""
        return ([f for p in self.papers
                 for f in (paths.results(p, paths.REPORT), *self.shown_figures(p), paths.results(p, paths.RUN_PAGE))]
                + [paths.INDEX, f"results/{paths.CLAIMS_PAGE}", f"results/{paths.CLAIMS_CSV}", paths.CRATE_METADATA]
                + self.crate_copies())

    def crate_copies(self) -> list[str]:
        return [f"results/{paths.crate_input(n)}"
                for n in ["config.yaml", "datasets.yaml"] + [f"papers/{p}.yaml" for p in self.papers]]

    def result_files(self) -> list[str]:
        """Every file the run leaves in results/ (relative to it): what ``nbrepro fingerprint`` expects."""
        files = self.every_file() + self.pages()
        return sorted({f.removeprefix("results/") for f in files if f.startswith("results/")})
