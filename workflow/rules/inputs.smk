# Input functions (the files a job reads, from nbrepro.paths) and rerun triggers (the parts of
# a paper's config each job's output depends on).
import json
import shlex

from nbrepro.analysis.paper import output_files
from nbrepro.config import captioned_files
from nbrepro.data.registry import data_settings
from nbrepro.metrics import computed_entries, paper_metrics
from nbrepro.spec import thawed


def paper_config(wildcards):
    return str(PAPERS[wildcards.paper].path)


def folder_of(where, paper):
    """``where(paper)`` (``paths.results``, ``paths.figures``) as a params function of a paper's rule."""
    return lambda wildcards: where(paper)


def committed_benchmark(name):
    """Input function: ``benchmarks/results/{name}`` if the workflow has it, for the index's speed
    sections (suite_top_jobs.csv from suite_profile.py, suite_run.csv from suite_run.py); none in
    a copy of the workflow without benchmarks/."""
    path = Path("benchmarks", "results", name)
    return lambda wildcards: [str(path)] if path.is_file() else []


# ---- rerun triggers, as params: Snakemake reruns a job when its params change, so editing a
# caption, a note, a table or another job's classifier reruns only the analysis and report,
# and editing one classifier reruns only its job.


def _settings(**parts):
    return json.dumps(thawed(parts), sort_keys=True, ensure_ascii=False)   # the config's values as written


def _stored(spec):
    """The paper's stored_probabilities when it sets one: a changed setting reruns the
    evaluations (an unset one adds nothing, so earlier runs' settings stay as they were)."""
    return {"stored_probabilities": spec.stored_probabilities} if spec.stored_probabilities is not None else {}


def run_spec(paper, seeded, wildcards, reading=""):
    """The paper's config for a job: as configured, or (``seeded``) under the job's {seed} (nbrepro.reseed),
    under ``reading`` ("choice/reading", nbrepro.readings) where one is given."""
    return reading_paper(paper, reading, int(wildcards.seed) if seeded else 0)


def run_results(paper, seeded, name, reading=""):
    """``name`` in the paper's results folder, or (``seeded``) in its reseeded run's (a {seed} pattern);
    in a reading's run (``reading``) inside that reading's folder."""
    name = paths.seed_run(name=name) if seeded else name
    return paths.results(paper, paths.reading_run(reading, name) if reading else name)


def own_data(paper, reading):
    """Whether a reading's run has prepared data and folds of its own (its patch changes them)."""
    return bool(reading) and TOUCHED[paper][reading].data


def run_prepared(paper, reading=""):
    return paths.reading_prepared(paper, reading) if own_data(paper, reading) else paths.prepared(paper)


def run_folds(paper, seeded, reading=""):
    if own_data(paper, reading):
        return paths.reading_splits(paper, reading, k="{seed}" if seeded else 0)
    return paths.seed_folds(paper) if seeded else paths.splits(paper)


def raw_file(paper=None, reading=""):
    """An input function: the raw file a job prepares {dataset} from, the data set's own or the copy the
    paper (``None``: the {paper} wildcard's), under ``reading``, reads for it (``dataset_copies``)."""
    def raw(wildcards):
        return paths.raw(reading_paper(paper or wildcards.paper, reading).dataset_entry(wildcards.dataset))
    return raw


def prepare_settings_of(paper, seeded=False, reading=""):
    """The preprocessing, protocol and the dataset's registry entry, for a job that prepares it."""
    def settings(wildcards):
        spec = run_spec(paper, seeded, wildcards, reading)
        pre = spec.preprocessing
        return _settings(scope=pre.scope, steps=pre.steps, complete_cases=pre.complete_cases,
                         per_dataset=pre.per_dataset.get(wildcards.dataset), protocol=spec.protocol,
                         registry_entry=data_settings(REGISTRY_AS_WRITTEN.get(spec.dataset_entry(wildcards.dataset))))
    return settings


def registry_entries(datasets):
    """The registry entries of ``datasets``, as written (JSON): what a report or the crate shows of them."""
    return _settings(**{d: REGISTRY_AS_WRITTEN.get(d) for d in datasets})


def registry_entries_of_paper(wildcards):
    """What a paper's report shows of its data sets' entries (origin, licence, generated or not)."""
    return _settings(**{d: {k: (REGISTRY_AS_WRITTEN.get(d) or {}).get(k) for k in ("origin", "licence", "generator")}
                        for d in PAPERS[wildcards.paper].datasets})


def fetch_settings(wildcards):
    """What a fetched file must be: the registry entry's sha256, shape and generator settings (a
    changed generator setting makes the data set anew); not where it is found."""
    return _settings(registry_entry=data_settings(REGISTRY_AS_WRITTEN.get(wildcards.dataset)))


def prepare_settings(wildcards):
    return prepare_settings_of(wildcards.paper)(wildcards)


def evaluate_settings_of(paper, labels, seeded=False, reading=""):
    """The classifiers one evaluation job runs (their notes aside), the metrics and the preprocessing."""
    def settings(wildcards):
        spec = run_spec(paper, seeded, wildcards, reading)
        return _settings(
            classifiers={label: {k: v for k, v in c.as_written().items() if k != "note"}
                         for label, c in spec.classifiers.items() if label in labels},
            metrics=computed_entries(spec.metrics), scope=spec.preprocessing.scope,
            steps=spec.preprocessing.steps, **_stored(spec))
    return settings


def evaluate_outputs(paper, seeded=False, reading=""):
    """The evaluate command's --out-folds, --out-predictions and --out-fitted of a data set's job:
    paths with ``{classifier}`` left for the command to fill in, one file per classifier."""
    def outputs(wildcards):
        def at(name):
            return run_results(paper, seeded, name, reading).replace("{seed}", str(getattr(wildcards, "seed", "")))
        return " ".join(f"--out-{kind} {shlex.quote(at(paths.per_fold(kind, wildcards.dataset, '{classifier}')))}"
                        for kind in paths.FOLD_KINDS)
    return outputs


def evaluate_params(paper, job, seeded, reading=""):
    """What every evaluation rule passes its command, and the settings that rerun it when edited."""
    # which run of the paper (the param keeps its name so that the main run's params stay as they were)
    run = f"--reading {reading} " if reading else ""
    return dict(
        paper=str(PAPERS[paper].path),
        seed=(lambda wildcards: f"{run}--seed {wildcards.seed}") if seeded else run.strip(),
        registry=config["registry"],
        settings=evaluate_settings_of(paper, job.labels, seeded, reading),  # rerun triggers
        prepare_settings=prepare_settings_of(paper, seeded, reading),
        classifiers=" ".join(f"--classifier {shlex.quote(label)}" for label in job.labels),
        outputs=evaluate_outputs(paper, seeded, reading),  # where each classifier's files go (nbrepro.paths)
    )


def evaluate_results(paper, job, seeded, reading=""):
    """An evaluation rule's files: per classifier its folds and predictions, and what it records."""
    def each(kind, labels):
        return [run_results(paper, seeded, paths.per_fold(kind, label=label), reading) for label in labels]
    recording = [label for label in job.labels if PAPERS[paper].classifiers[label].record]
    return dict(folds=each("folds", job.labels), predictions=each("predictions", job.labels),
                fitted=each("fitted", recording))


def _logs(kind, seeded, reading):
    return f"logs/{kind}/" + (f"readings/{reading}/" if reading else "") + ("seeds/{seed}/" if seeded else "")


def evaluate_log(paper, job, seeded, reading=""):
    return (_logs("evaluate", seeded, reading) + f"{paper}/{{dataset}}"
            + (f".{job.job}" if job.several else "") + ".log")


def evaluate_benchmark(paper, job, seeded, reading=""):
    """Wall time and peak memory of each job (benchmarks/paper_jobs.py summarises the main run's)."""
    return (_logs("benchmarks", seeded, reading) + f"{paper}/"
            + (f"{job.job}/" if job.several else "") + "{dataset}.tsv")


# ---- the files a job reads --------------------------------------------------------------------
def _per_fold(kind, paper, labels):
    """results/{paper}/{kind}/{dataset}/{classifier}.parquet of each classifier on the datasets it runs on."""
    spec = PAPERS[paper]
    return [paths.results(paper, paths.per_fold(kind, ds, label)) for ds in spec.datasets for label in labels
            if ds in spec.classifier_datasets(label)]


def fold_results(wildcards):
    return _per_fold("folds", wildcards.paper, list(PAPERS[wildcards.paper].classifiers))


def fitted_results(paper):
    spec = PAPERS[paper]
    return _per_fold("fitted", paper, [label for label, c in spec.classifiers.items() if c.record])


def dataset_level_predictions(wildcards):
    """The predictions files, for papers whose tables use a metric computed from all runs' predictions."""
    spec = PAPERS[wildcards.paper]
    if not any(m.level == "dataset" for m in paper_metrics(spec).values()):
        return []
    return _per_fold("predictions", wildcards.paper, list(spec.classifiers))


def every_file():
    """Every file the run makes, as targets of the run, so that a plain rerun rebuilds a deleted one:
    Snakemake itself makes a missing file again only when a job that reads it has to run. A file
    made again with the same bytes reruns nothing (the workflow profile's max-checksum-file-size)."""
    files = [f for d in RUN_DATASETS for f in (paths.raw(d), paths.raw_source(d))]
    for paper, spec in PAPERS.items():
        labels = list(spec.classifiers)
        files += [f for d in spec.datasets for f in (paths.prepared(paper, d), paths.splits(paper, d))]
        files += _per_fold("folds", paper, labels) + _per_fold("predictions", paper, labels) + fitted_results(paper)
        files += [paths.results(paper, f) for t in spec.tables for f in paths.table_files(t)]
        files += paper_stats_outputs(paper) + [paths.results(paper, paths.TIMINGS)]
    return files + seeded_files() + reading_files()


def paper_tables(wildcards):
    return [paths.results(wildcards.paper, f) for t in PAPERS[wildcards.paper].tables for f in paths.table_files(t)]


def paper_figures(wildcards):
    """Each table's reproduced-vs-published plot, for a table the paper printed (none is drawn empty)."""
    spec = PAPERS[wildcards.paper]
    return [paths.figures(wildcards.paper, paths.reproduced_vs_published(t), ext)
            for t, ts in spec.tables.items() if ts.compared_cells for ext in ("png", "svg")]


def paper_stats_outputs(paper):
    stats, figures = output_files(PAPERS[paper])
    return ([paths.results(paper, paths.stats(name)) for name in stats]
            + [paths.figures(paper, name, ext) for name in figures for ext in ("png", "svg")])


def paper_report_extras(wildcards):
    spec = PAPERS[wildcards.paper]
    return ([b.file for b in captioned_files(spec)] + paper_stats_outputs(wildcards.paper)
            + [paths.raw_source(spec.dataset_entry(d)) for d in spec.datasets])


def stats_inputs(paper, reading=""):
    """What the paper-stats job reads: the tables, the raw files for Table 1 (of the copies a reading
    reads), the recorded state for a density."""
    spec = PAPERS[paper]
    files = [paths.results(paper, f) for t in spec.tables for f in (paths.table(t), paths.table_summary(t))]
    if spec.analysis.dataset_table is not None:
        files += [paths.raw(reading_paper(paper, reading).dataset_entry(d)) for d in spec.datasets]
    if any(f["kind"] == "density" for f in spec.figures.values()):
        files += fitted_results(paper)
    return files


# ---- the reseeding run (seeds.smk) -----------------------------------------------------------------
def seeded_fold_results(paper, k):
    """What a reseeded run's table reads: its per-fold files (and predictions, for a data-set-level metric)."""
    spec = PAPERS[paper]
    kinds = ["folds"] + (["predictions"] if any(m.level == "dataset" for m in paper_metrics(spec).values()) else [])
    return [run_results(paper, True, paths.per_fold(kind, ds, label)).replace("{seed}", str(k))
            for kind in kinds for ds in spec.datasets for label in spec.classifiers
            if ds in spec.classifier_datasets(label)]


def seeded_stats_inputs(paper, k):
    """``stats_inputs`` of a reseeded run: its own tables and recorded state, the same raw files."""
    main = paths.results(paper) + "/"
    run = paths.results(paper, paths.seed_run(k)) + "/"
    return [f.replace(main, run, 1) if f.startswith(main) else f for f in stats_inputs(paper)]


def seeded_stats_inputs_of(paper):
    return lambda wildcards: seeded_stats_inputs(paper, wildcards.seed)


def seeded_folder_of(paper):
    """results/{paper}/seeds/{seed}, as a params function."""
    return lambda wildcards: paths.results(paper, paths.seed_run(wildcards.seed))


def seed_report_inputs(wildcards):
    """What a paper's report shows of the reseeding run, when there is one."""
    return seed_band_outputs(wildcards.paper) if SEEDS else []


def seed_band_inputs(paper):
    """The main run's tables (and claims) and every reseeded run's."""
    spec = PAPERS[paper]
    claims = ["claims"] if "claims" in output_files(spec)[0] else []
    names = [paths.table(t) for t in spec.tables] + [paths.stats(c) for c in claims]
    return [paths.results(paper, n) for n in names] + [
        paths.results(paper, paths.seed_run(k, n)) for k in SEED_RUNS[paper] for n in names]


def seed_band_outputs(paper):
    claims = "claims" in output_files(PAPERS[paper])[0]
    return [paths.results(paper, n) for n in (paths.SEED_BANDS, paths.NOISE_FLOOR)
            + ((paths.SEED_STABILITY,) if claims else ())]


def seeded_files():
    """Every file the reseeding run makes (``every_file``'s part for it)."""
    files = []
    for paper, spec in PAPERS.items():
        if not SEEDS:
            break
        files += seed_band_outputs(paper)
        for k in SEED_RUNS[paper]:
            def at(name, k=k):
                return paths.results(paper, paths.seed_run(k, name))
            files += [paths.seed_folds(paper, k, d) for d in spec.datasets]
            for kind in paths.FOLD_KINDS:
                labels = [l for l, c in spec.classifiers.items() if kind != "fitted" or c.record]
                files += [at(paths.per_fold(kind, d, l)) for d in spec.datasets for l in labels
                          if d in spec.classifier_datasets(l)]
            files += [at(f) for t in spec.tables for f in paths.table_files(t)]
            if "claims" in output_files(spec)[0]:
                files += [at(paths.stats(n)) for n in output_files(spec)[0]]
    return files


# ---- the readings run (readings.smk) ----------------------------------------------------------------
def reading_jobs(paper, reading):
    """A reading's evaluation rules: the paper's (plan.smk), each with only the classifiers the reading touches."""
    labels = set(TOUCHED[paper][reading].classifiers)
    tag = re.sub(r"\W", "_", reading)
    return [SimpleNamespace(**{**vars(job), "name": f"{job.name}_{tag}", "labels": [l for l in job.labels if l in labels]})
            for job in evaluation_jobs(paper) if labels & set(job.labels)]


def reading_runs(paper):
    """(seeded, k pattern) of a reading's runs: its main run, and its reseeded twin when the paper has one."""
    return [(False, 0)] + ([(True, "{seed}")] if SEED_RUNS[paper] else [])


def base_run(paper, seeded):
    """The run a reading patches: the paper's folder, or the same reseeded run of it (a {seed} pattern)."""
    return run_results(paper, seeded, "")


def reading_fold_files(paper, reading, seeded, kinds=("folds",)):
    """Per-fold files a reading's table reads: its own for the classifiers it touches, the patched run's
    for the others (paths.RunFolder decides the same way)."""
    spec, touched = PAPERS[paper], TOUCHED[paper][reading]
    return [run_results(paper, seeded, paths.per_fold(kind, ds, label), reading if touched.owns(label, ds) else "")
            for kind in kinds for ds in spec.datasets for label in spec.classifiers
            if ds in spec.classifier_datasets(label) and (kind != "fitted" or spec.classifiers[label].record)]


def reading_table_inputs(paper, reading, seeded):
    spec = PAPERS[paper]
    kinds = ("folds",) + (("predictions",) if any(m.level == "dataset" for m in paper_metrics(spec).values()) else ())
    return reading_fold_files(paper, reading, seeded, kinds)


def reading_stats_inputs(paper, reading, seeded):
    """``stats_inputs`` of a reading's run: its tables, the raw files, the recorded state through the overlay."""
    main = paths.results(paper) + "/"
    files = [run_results(paper, seeded, f[len(main):], reading) for f in stats_inputs(paper)
             if f.startswith(main) and "/tables/" in f]
    files += [f for f in stats_inputs(paper, reading) if not f.startswith(main)]
    if any(f["kind"] == "density" for f in PAPERS[paper].figures.values()):
        files += reading_fold_files(paper, reading, seeded, ("fitted",))
    return files


def with_seed(files):
    """An input function of ``files`` whose {seed} is the job's."""
    return lambda wildcards: [f.replace("{seed}", str(getattr(wildcards, "seed", ""))) for f in files]


def reading_summary_inputs(paper):
    """What a paper's readings summary reads: every run's tables and claims (main, reseeded, each
    reading and its reseeded runs) and each reading's own per-fold files (their CPU seconds)."""
    spec = PAPERS[paper]
    claims = ["claims"] if "claims" in output_files(spec)[0] else []
    names = [paths.table(t) for t in spec.tables] + [paths.stats(c) for c in claims]
    runs = [0] + SEED_RUNS[paper]
    files = [run_results(paper, bool(k), n).replace("{seed}", str(k)) for k in runs for n in names]
    for r in READINGS[paper]:
        files += [run_results(paper, bool(k), n, r).replace("{seed}", str(k)) for k in runs for n in names]
        files += [f for f in reading_fold_files(paper, r, False) if f"/readings/{r}/" in f]
    return files


def reading_outputs(paper):
    return ([paths.results(paper, n) for n in (paths.READINGS, paths.READING_CLAIMS)]
            + [paths.figures(paper, paths.READINGS_FIGURE, ext) for ext in ("png", "svg")])


def reading_report_inputs(wildcards):
    return reading_outputs(wildcards.paper) if READINGS[wildcards.paper] else []


def reading_files():
    """Every file the readings run makes (``every_file``'s part for it)."""
    files = []
    for paper, spec in PAPERS.items():
        if READINGS[paper]:
            files += reading_outputs(paper)
        for r in READINGS[paper]:
            for k in [0] + SEED_RUNS[paper]:
                seeded = bool(k)
                def at(name):
                    return run_results(paper, seeded, name, r).replace("{seed}", str(k))
                if own_data(paper, r):
                    own = TOUCHED[paper][r].datasets or spec.datasets
                    files += [run_folds(paper, seeded, r).replace("{seed}", str(k)).replace("{dataset}", d)
                              for d in own]
                    files += [] if k else [paths.reading_prepared(paper, r, d) for d in own]
                files += [f.replace("{seed}", str(k)) for f in reading_fold_files(paper, r, seeded, paths.FOLD_KINDS)
                          if f"/readings/{r}/" in f]
                files += [at(f) for t in spec.tables for f in paths.table_files(t)]
                if "claims" in output_files(spec)[0]:
                    files += [at(paths.stats(n)) for n in output_files(spec)[0]]
    return files
