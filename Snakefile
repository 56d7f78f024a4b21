# nbrepro: `snakemake --cores 2` (the data sets ship with it; see README.md, "Where the data comes from")
# Data flow and contracts: see README.md and docs/design.md. All logic lives in src/nbrepro;
# rules only wire files, whose paths come from nbrepro.paths.
from nbrepro import paths
from nbrepro.errors import ResultChanged
from nbrepro.io import changed_files
from nbrepro.locks import clear_stale_locks

configfile: "config/config.yaml"

# Before Snakemake takes its lock: a run killed with -9 leaves its lock behind (nbrepro/locks.py).
# Only in the main process: a job step (SLURM's, or a group job) reads this file too, on a node
# whose /proc cannot see the run that submitted it, and would take that live run's locks for stale.
if workflow.is_main_process:
    clear_stale_locks()
    # Every file a job writes has its sha256 recorded beside it (nbrepro/io.py); one whose bytes
    # changed since (a copy cut short, a full disk, an edit) stops the run before any job reads it.
    _changed = changed_files(*paths.OUTPUT_ROOTS)
    if _changed:
        raise ResultChanged(_changed[0] + (f" ({len(_changed) - 1} more file(s) too)" if len(_changed) > 1 else ""))


include: "workflow/rules/common.smk"     # the config, validated, and the plan of the run (nbrepro.plan)
include: "workflow/rules/resources.smk"  # what a job asks a cluster for, which runs first
include: "workflow/rules/data.smk"       # fetch, prepare, a reseeded run's folds
include: "workflow/rules/evaluate.smk"   # classifiers over the folds
include: "workflow/rules/analyse.smk"    # each run's tables and statistics; seed bands, readings, out of sample
include: "workflow/rules/report.smk"     # figures of the tables, each paper's report, the index


# On a cluster (profiles/slurm) these run beside Snakemake, not as jobs: fetching needs the
# internet that compute nodes often lack, and the rest take a second each
localrules: all, fetch, table, timings, figure, report, index, crate


WORKER = []  # the warm worker of this run, if one was started (resources.smk)


onstart:
    WORKER.append(start_worker(workflow, config))


onsuccess:
    stop_worker(WORKER.pop() if WORKER else None)


onerror:
    stop_worker(WORKER.pop() if WORKER else None)


rule all:
    input:
        paths.INDEX,
        paths.CRATE_METADATA,
        [paths.results(p, paths.REPORT) for p in PAPERS],
        PLAN.every_file(),   # a deleted intermediate is made again by a plain rerun
