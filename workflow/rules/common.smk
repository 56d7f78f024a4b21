# SPDX-License-Identifier: GPL-3.0-or-later
# The config, validated, and the plan of the run (nbrepro.plan): its papers, their runs (the main
# run, the reseeded runs, the readings: each a {run} folder under results/) and every job's files.
# The rules are wiring over PLAN; what a rule reads is one call of it.
import os
import shlex
import sys
from pathlib import Path

from snakemake.utils import validate

from nbrepro.plan import CONFIG_SCHEMA, DATA_PRIORITY, RUN_PATTERN, Plan, normalised

validate(normalised(config), CONFIG_SCHEMA)
PLAN = Plan(config, warn=logger.warning, root=workflow.basedir)
if "--report" in sys.argv:  # Snakemake tells a Snakefile nothing of --report: its command line does
    if absent := PLAN.built_only():
        logger.warning(
            f"snakemake --report: of the papers only those built ({', '.join(PLAN.papers)}); "
            f"not built: {', '.join(absent)}"
        )
os.environ.update(PLAN.environment)  # where `nbrepro fetch` looks, a user's registry: not rerun triggers
PAPERS, SEEDS = PLAN.papers, PLAN.seeds


wildcard_constraints:
    dataset=r"[A-Za-z0-9._-]+",
    paper=r"[A-Za-z0-9_-]+",
    run=RUN_PATTERN,
    table=r"[A-Za-z][A-Za-z0-9]*",  # no underscore: {table}_summary.csv stays apart


def run_of(wildcards):
    return PLAN.run(wildcards.run)


def paper_config(wildcards):
    return run_of(wildcards).config


def committed_benchmark(name):
    """Input function: ``benchmarks/results/{name}`` if the workflow has it, for the index's speed
    sections; none in a copy of the workflow without benchmarks/."""
    path = Path("benchmarks", "results", name)
    return lambda wildcards: [str(path)] if path.is_file() else []
