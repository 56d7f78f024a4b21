# nbrepro: `snakemake --cores 2 --config mirror=../shared/datasets`
# Data flow and contracts: see README.md and docs/design.md. All logic lives in src/nbrepro;
# rules only wire files; helpers are in workflow/rules/common.smk.

configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/evaluate.smk"
include: "workflow/rules/analyse.smk"
include: "workflow/rules/report.smk"


# On a cluster (profiles/slurm) these run beside Snakemake, not as jobs: fetching needs the
# internet that compute nodes often lack, and the rest take a second each
localrules: all, fetch, table, timings, figure, report, index


onstart:
    if plan_on_job_ends_only(workflow):
        logger.info("nbrepro: local run, jobs are planned when a job ends (no re-planning every second)")


rule all:
    input:
        "results/index.html",
        expand("results/{paper}/report.html", paper=PAPERS),
