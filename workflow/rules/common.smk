# Helpers of the rules: paper configs, what each job depends on, and the files derived from them.
import functools
import json
import math
import re
import shlex
from pathlib import Path
from types import SimpleNamespace

from snakemake.utils import validate
import yaml

from nbrepro.config import captioned_files, check_paper, classifier_datasets, evaluate_job_groups, expand_classifiers
from nbrepro.locks import clear_stale_locks
from nbrepro.paper_stats import output_files

clear_stale_locks()

# `--config openml=false` arrives as the string "false": accept what a user types
for _key in ("openml",):
    if isinstance(config.get(_key), str):
        _word = config[_key].strip().lower()
        if _word not in ("true", "false", "yes", "no", "1", "0"):
            raise ValueError(f"config {_key}={config[_key]!r}: expected true or false")
        config[_key] = _word in ("true", "yes", "1")
validate(config, "../../config/schemas/config.schema.yaml")

PAPERS = {}
_queue = list(config["papers"])  # a paper's companions join the list after it
while _queue:
    _name = _queue.pop(0)
    if _name in PAPERS:
        continue
    _path = f"{config['paper_dir']}/{_name}.yaml"
    with open(_path) as _fh:
        _spec = yaml.safe_load(_fh)
    try:
        validate(_spec, "../../config/schemas/paper.schema.yaml")
    except Exception as _exc:
        raise ValueError(f"{_path}: {_exc}") from None
    if _spec["paper"] != _name:
        raise ValueError(f"{_path}: 'paper: {_spec['paper']}' must equal the file name {_name!r}")
    _spec["classifiers"] = expand_classifiers(_spec["classifiers"], _path)
    check_paper(_spec, _path)  # estimators, parameters, protocol, metrics, names: before any job runs
    PAPERS[_name] = dict(spec=_spec, path=_path)
    _queue.extend(_spec.get("companions", []))

with open(config["registry"]) as _fh:
    REGISTRY = yaml.safe_load(_fh)["datasets"]
for _name, _p in PAPERS.items():
    _unknown = [d for d in _p["spec"]["datasets"] if d not in REGISTRY]
    if _unknown:
        raise ValueError(f"{_p['path']}: datasets {_unknown} are not in {config['registry']}")

_mirror = config.get("mirror")
MIRRORS = [] if not _mirror else ([_mirror] if isinstance(_mirror, str) else list(_mirror))

# classifiers that record fitted state get the evaluate rule with a third output (fitted/)
RECORDED = sorted({label for p in PAPERS.values() for label, c in p["spec"]["classifiers"].items() if c.get("record")})
RECORDED_RE = "|".join(re.escape(label) for label in RECORDED) or "(?!)"
# papers whose classifiers run in one job per dataset (evaluate_jobs: per_dataset)
BATCHED = sorted(n for n, p in PAPERS.items() if p["spec"].get("evaluate_jobs") == "per_dataset")
BATCHED_RE = "|".join(re.escape(n) for n in BATCHED) or "(?!)"
# ... of which those with one job per dataset prepare the dataset in that job; with several jobs
# per dataset (classifiers' job: names), rule prepare serves them all first
INLINE_PREPARE = [n for n in BATCHED if len(evaluate_job_groups(PAPERS[n]["spec"])) == 1]
INLINE_PREPARE_RE = "|".join(re.escape(n) for n in INLINE_PREPARE) or "(?!)"


def batched_jobs(paper):
    """The per-dataset evaluation rules of a batched paper: one per job name (the classifiers'
    ``job:``), split further where some of its classifiers run only on some datasets
    (``datasets:``), since a rule's outputs are the same for every dataset it serves. Each:
    (rule name, job name, its classifiers, its datasets)."""
    spec = PAPERS[paper]["spec"]
    groups = evaluate_job_groups(spec)
    rules = []
    for job, labels in groups.items():
        by_labels = {}
        for ds in spec["datasets"]:
            here = tuple(label for label in labels if ds in classifier_datasets(spec, label))
            if here:
                by_labels.setdefault(here, []).append(ds)
        for k, (here, datasets) in enumerate(by_labels.items()):
            name = f"evaluate_dataset_{paper}" + ("" if len(groups) == 1 else f"_{job}") + (f"_{k + 1}" if k else "")
            rules.append(SimpleNamespace(name=re.sub(r"\W", "_", name), job=job, labels=list(here), datasets=datasets,
                                         several=len(groups) > 1))
    return rules


def paper_config(wildcards):
    return PAPERS[wildcards.paper]["path"]


@functools.lru_cache(maxsize=None)
def _measured_jobs(paper):
    """(job name, dataset) → (wall seconds, peak MB) of that evaluation job in the last recorded
    run (benchmarks/results/{paper}_jobs.csv, written by benchmarks/paper_jobs.py), if any. The job
    name is the classifiers' ``job:`` for a batched paper, the classifier for one job per classifier."""
    import csv

    path = Path(workflow.basedir, "benchmarks", "results", f"{paper}_jobs.csv")
    if not path.is_file():
        return {}
    with open(path, newline="") as fh:
        return {(row.get("job") or "all", row["dataset"]): (float(row["wall_seconds"]), float(row["peak_rss_mb"]))
                for row in csv.DictReader(fh)}


def _measured_job_seconds(paper):
    return {key: wall for key, (wall, _) in _measured_jobs(paper).items()}


# What an evaluation job asks a cluster for (profiles/slurm; a local run ignores it): its measured
# peak memory and wall time with headroom, since SLURM kills a job that outgrows its request and
# a cluster node may be slower than the machine that measured it. An unmeasured job asks for the
# defaults, more on a large data set (letter's lazy classifiers ran minutes where others ran seconds).
MEM_HEADROOM, TIME_HEADROOM = 1.5, 3
DEFAULT_MEM_MB, DEFAULT_RUNTIME_MIN, LARGE_DATASET_CELLS = 2000, 30, 100_000


def _dataset_cells(dataset):
    entry = REGISTRY.get(dataset) or {}
    return int(entry.get("n_instances", 0)) * int(entry.get("n_attributes", 0) or 1)


def job_resources(paper=None, job=None):
    """mem_mb and runtime (minutes) as functions of a job's wildcards, for a rule's resources.
    ``paper``/``job`` fixed for a batched paper's rule; else read from the paper and classifier wildcards."""
    def measured(wildcards):
        p = paper or wildcards.paper
        return _measured_jobs(p).get((job or wildcards.classifier, wildcards.dataset))

    def mem_mb(wildcards):
        m = measured(wildcards)
        large = _dataset_cells(wildcards.dataset) > LARGE_DATASET_CELLS
        return max(1000, 100 * math.ceil(m[1] * MEM_HEADROOM / 100)) if m else DEFAULT_MEM_MB * (2 if large else 1)

    def runtime(wildcards):
        m = measured(wildcards)
        large = _dataset_cells(wildcards.dataset) > LARGE_DATASET_CELLS
        return max(10, math.ceil(m[0] * TIME_HEADROOM / 60)) if m else DEFAULT_RUNTIME_MIN * (8 if large else 1)

    return dict(mem_mb=mem_mb, runtime=runtime)


def committed_benchmark(name):
    """Input function: ``benchmarks/results/{name}`` if the workflow has it, for the index's speed
    sections (suite_top_jobs.csv from suite_profile.py, suite_run.csv from suite_run.py); none in
    a copy of the workflow without benchmarks/."""
    path = Path("benchmarks", "results", name)
    return lambda wildcards: [str(path)] if path.is_file() else []


def dataset_priority(paper, job="all"):
    """Scheduling priority of a dataset's evaluation job: longest first. Two cores
    finish soonest when the long jobs start first and the short ones fill in after them, not
    when letter starts last. The order comes from the measured job times; a dataset without a
    measurement starts before all measured ones (its cost is unknown), larger ones first. Priority changes only
    the order in which jobs run, never a result."""
    seconds = _measured_job_seconds(paper)
    top = int(max(seconds.values(), default=0)) + 1

    def priority(wildcards):
        if (job, wildcards.dataset) in seconds:
            return int(seconds[(job, wildcards.dataset)])
        # unmeasured: before every measured job, the larger datasets (rows × attributes) first
        return top + _dataset_cells(wildcards.dataset)

    return priority


# Fetching and preparing come before every evaluation (seconds each): otherwise a small
# dataset's evaluation, ready early, would keep a long one's fetch waiting.
DATA_PRIORITY = 1_000_000


# What each job's output depends on in a paper's config, as params: Snakemake reruns a job when
# its params change, so editing a caption, a note, a table or another classifier reruns only the
# analysis and report, and editing one classifier reruns only that classifier's jobs.
def _settings(**parts):
    return json.dumps(parts, sort_keys=True, ensure_ascii=False)


def _stored(spec):
    """The paper's stored_probabilities when it sets one: a changed setting reruns the
    evaluations (an unset one adds nothing, so earlier runs' settings stay as they were)."""
    return {"stored_probabilities": spec["stored_probabilities"]} if "stored_probabilities" in spec else {}


def prepare_settings(wildcards):
    pre = PAPERS[wildcards.paper]["spec"]["preprocessing"]
    return _settings(scope=pre["scope"], steps=pre["steps"], complete_cases=pre.get("complete_cases", False),
                     per_dataset=pre.get("per_dataset", {}).get(wildcards.dataset),
                     protocol=PAPERS[wildcards.paper]["spec"]["protocol"],
                     registry_entry=REGISTRY.get(wildcards.dataset))


def evaluate_settings(wildcards):
    spec = PAPERS[wildcards.paper]["spec"]
    classifier = {k: v for k, v in spec["classifiers"][wildcards.classifier].items() if k != "note"}
    return _settings(classifier=classifier, metrics=spec.get("metrics"),
                     scope=spec["preprocessing"]["scope"], steps=spec["preprocessing"]["steps"], **_stored(spec))


def dataset_settings(wildcards, labels=None):
    """evaluate_settings of the classifiers of a batched paper that one job runs (default: all)."""
    spec = PAPERS[wildcards.paper]["spec"]
    return _settings(classifiers={label: {k: v for k, v in c.items() if k != "note"}
                                  for label, c in spec["classifiers"].items() if labels is None or label in labels},
                     metrics=spec.get("metrics"), scope=spec["preprocessing"]["scope"],
                     steps=spec["preprocessing"]["steps"], **_stored(spec))


def settings_of(paper, labels=None):
    """dataset_settings bound to one paper and job (a batched paper's rule has no paper wildcard)."""
    return lambda wildcards: dataset_settings(SimpleNamespace(paper=paper, dataset=wildcards.dataset), labels)


def prepare_settings_of(paper):
    """prepare_settings bound to one paper (for a batched paper's evaluate_dataset rule)."""
    return lambda wildcards: prepare_settings(SimpleNamespace(paper=paper, dataset=wildcards.dataset))


def _per_classifier(kind, paper, labels):
    """results/{paper}/{kind}/{dataset}/{classifier}.parquet of each classifier on the datasets it runs on."""
    spec = PAPERS[paper]["spec"]
    return [f"results/{paper}/{kind}/{ds}/{label}.parquet" for ds in spec["datasets"] for label in labels
            if ds in classifier_datasets(spec, label)]


def fold_results(wildcards):
    return _per_classifier("folds", wildcards.paper, list(PAPERS[wildcards.paper]["spec"]["classifiers"]))


def fitted_results(wildcards):
    spec = PAPERS[wildcards.paper]["spec"]
    return _per_classifier("fitted", wildcards.paper, [c for c in spec["classifiers"] if c in RECORDED])


def raw_files(wildcards):
    return expand("resources/raw/{dataset}.arff", dataset=PAPERS[wildcards.paper]["spec"]["datasets"])


def paper_tables(wildcards):
    return [f"results/{wildcards.paper}/{kind}" for t in PAPERS[wildcards.paper]["spec"]["tables"]
            for kind in (f"tables/{t}.csv", f"tables/{t}_summary.csv", f"stats/{t}_match_counts.csv")]


def paper_figures(wildcards):
    spec = PAPERS[wildcards.paper]["spec"]
    return [f"figures/{wildcards.paper}/{t}_reproduced_vs_published.{ext}"
            for t, ts in spec["tables"].items() if ts.get("kind", "cells") == "cells" for ext in ("png", "svg")]


def paper_stats_outputs(paper):
    stats, figures = output_files(PAPERS[paper]["spec"])
    return ([f"results/{paper}/stats/{name}.csv" for name in stats]
            + [f"figures/{paper}/{name}.{ext}" for name in figures for ext in ("png", "svg")])


def paper_report_extras(wildcards):
    spec = PAPERS[wildcards.paper]["spec"]
    sources = [f"resources/raw/{d}.arff.source.json" for d in spec["datasets"]]
    return [b["file"] for b in captioned_files(spec)] + paper_stats_outputs(wildcards.paper) + sources


def dataset_level_predictions(wildcards):
    """The predictions files, for papers whose tables use a metric computed from all runs' predictions."""
    from nbrepro.metrics import paper_metrics

    spec = PAPERS[wildcards.paper]["spec"]
    if not any(m.level == "dataset" for m in paper_metrics(spec).values()):
        return []
    return _per_classifier("predictions", wildcards.paper, list(spec["classifiers"]))


def stats_inputs(paper):
    spec = PAPERS[paper]["spec"]
    wc = SimpleNamespace(paper=paper)
    files = [f"results/{paper}/tables/{t}{s}.csv" for t in spec["tables"] for s in ("", "_summary")]
    if (spec.get("analysis") or {}).get("dataset_table") is not None:
        files += raw_files(wc)
    if any(f.get("kind") == "density" for f in (spec.get("figures") or {}).values()):
        files += fitted_results(wc)
    return files


def plan_on_job_ends_only(workflow):
    """On a local run, let Snakemake plan the next jobs when a job ends, and not also every second.

    Why: with the command line's default job rate limit (``--max-jobs-per-timespan 100/1s``),
    Snakemake 9's scheduler ends every planning round by arming a timer that starts another
    round a second later, so each round begets the next, and every job's end starts one more
    such chain. Each round stats the inputs of every waiting job: with the whole suite waiting
    (~400 jobs) Snakemake's own process took ~45 % of one core of a 2-core machine, beside the
    two jobs it was running. A local run has no submission rate to respect, so the limiter goes,
    as in Snakemake's Python API, where it is off by default; a job's end still starts a round.
    On a cluster (profiles/slurm) the limiter stays. Called from ``onstart`` (after the
    scheduler exists, before it plans). Returns whether it removed the limiter. Changes only
    when jobs start, never a result."""
    scheduler = getattr(workflow, "scheduler", None)
    if scheduler is None or not getattr(workflow, "local_exec", False):
        return False
    if getattr(scheduler, "job_rate_limiter", None) is None:
        return False
    scheduler.job_rate_limiter = None
    return True
