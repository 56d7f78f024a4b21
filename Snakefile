# SPDX-License-Identifier: GPL-3.0-or-later
# nbrepro: `snakemake --cores 2` (the data sets ship with it; see README.md, "Where the data comes from")
# Data flow and contracts: see README.md and docs/design.md. All logic lives in src/nbrepro;
# rules only wire files, whose paths come from nbrepro.paths.
from nbrepro import paths
from nbrepro import plan


configfile: "config/config.yaml"


# `snakemake --report`'s front page: what the run is, and its config
report: "workflow/report/workflow.rst"


# Before Snakemake takes its lock: a killed run's stale locks cleared, a result whose bytes changed
# since its job wrote them refused (nbrepro.plan.before_run); only in the main process.
if workflow.is_main_process:
    plan.before_run()


include: "workflow/rules/common.smk"  # the config, validated, and the plan of the run (nbrepro.plan)
include: "workflow/rules/resources.smk"  # what a job asks a cluster for, which runs first
include: "workflow/rules/data.smk"  # fetch, prepare, a reseeded run's folds
include: "workflow/rules/evaluate.smk"  # classifiers over the folds
include: "workflow/rules/analyse.smk"  # each run's tables and statistics; seed bands, readings, out of sample
include: "workflow/rules/report.smk"  # figures of the tables, each paper's report, the index


# On a cluster (profiles/slurm) these run beside Snakemake, not as jobs: fetching needs the
# internet that compute nodes often lack, and the rest take a second each
localrules:
    all,
    fetch,
    table,
    timings,
    figure,
    report,
    index,
    crate,


WORKER = []  # the warm worker of this run, if one was started (nbrepro.plan.start_worker)


onstart:
    WORKER.append(plan.start_worker(getattr(workflow, "local_exec", False), config.get("worker", True)))


onsuccess:
    plan.stop_worker(WORKER.pop() if WORKER else None)


onerror:
    plan.stop_worker(WORKER.pop() if WORKER else None)


rule all:
    input:
        paths.INDEX,
        paths.CRATE_METADATA,
        [paths.results(p, paths.REPORT) for p in PAPERS],
        PLAN.every_file(),  # a deleted intermediate is made again by a plain rerun
