# Which evaluation jobs each paper has. Every paper evaluates through one kind of rule: a job
# runs some of the paper's classifiers on one data set, in one process. The classifiers' `job:`
# names group them (none: the job `all`); a classifier that should run alone gets a `job:` of its
# own. Outputs stay one file per classifier and data set (nbrepro.paths.per_fold).
import re
from types import SimpleNamespace

from nbrepro.config import evaluate_job_groups


def evaluation_jobs(paper):
    """The evaluation rules of a paper: one per job name, split further where some of its
    classifiers run only on some datasets (``datasets:``), since a rule's outputs are the same
    for every dataset it serves. Each: name (the rule's), job (the job name), labels (its
    classifiers), datasets, several (whether the paper has more than one job name)."""
    spec = PAPERS[paper]
    groups = evaluate_job_groups(spec)
    rules = []
    for job, labels in groups.items():
        by_labels = {}
        for ds in spec.datasets:
            here = tuple(label for label in labels if ds in spec.classifier_datasets(label))
            if here:
                by_labels.setdefault(here, []).append(ds)
        for k, (here, datasets) in enumerate(by_labels.items()):
            name = f"evaluate_dataset_{paper}" + ("" if len(groups) == 1 else f"_{job}") + (f"_{k + 1}" if k else "")
            rules.append(SimpleNamespace(name=re.sub(r"\W", "_", name), job=job, labels=list(here), datasets=datasets,
                                         several=len(groups) > 1))
    return rules


def evaluation_rules(kind):
    """The evaluation rules of one kind (evaluate.smk), over every paper of the run: ``inline``
    (paper, job) of the main run of a paper with one job name; ``prepared`` (paper, job, seeded)
    of a paper with several, main and reseeded; ``reseeded`` (paper, job) of a paper with one job
    name in the reseeded run."""
    for paper in PAPERS:
        several = len(evaluate_job_groups(PAPERS[paper])) > 1
        for job in evaluation_jobs(paper):
            if kind == "inline" and not several:
                yield paper, job
            elif kind == "prepared" and several:
                yield from [(paper, job, False)] + ([(paper, job, True)] if SEED_RUNS[paper] else [])
            elif kind == "reseeded" and not several and SEED_RUNS[paper]:
                yield paper, job


def datasets_pattern(datasets):
    """The ``{dataset}`` wildcard of a rule that serves these data sets only."""
    return "|".join(re.escape(d) for d in datasets)


# A paper with one job name prepares each data set inside its evaluation job (one Python start
# instead of two); with several, rule prepare serves them all first.
INLINE_PREPARE = [name for name in PAPERS if len(evaluate_job_groups(PAPERS[name])) == 1]
INLINE_PREPARE_RE = "|".join(re.escape(name) for name in INLINE_PREPARE) or "(?!)"
