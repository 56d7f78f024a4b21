# SPDX-License-Identifier: GPL-3.0-or-later
rule fetch:
    # cache → the shipped copy → mirror folders → OpenML; the cache is what every later rule reads.
    # Where the bytes come from is not a rerun trigger: the mirrors and the OpenML switch reach the
    # command through the environment (common.smk), so the same file from elsewhere changes nothing.
    output:
        arff=paths.raw(),
        source=paths.raw_source(),  # where it came from, its sha256 and when
    log:
        "logs/fetch/{dataset}.log",
    priority: DATA_PRIORITY
    conda:
        "../../environment.yml"
    params:
        settings=lambda wildcards: PLAN.fetch_settings(wildcards.dataset),  # a rerun trigger
        registry=config["registry"],
    shell:
        "nbrepro fetch --dataset {wildcards.dataset:q} --registry {params.registry:q} "
        "--out {output.arff:q} 2> {log:q}"


rule prepare:
    # validation against the registry, the paper's preprocessing (dataset scope) and the folds, of a
    # run with data of its own (a paper of several jobs; a reading of the protocol or the preprocessing)
    input:
        raw=lambda wildcards: run_of(wildcards).raw(wildcards.dataset),
    output:
        data=paths.prepared("{run}"),
        folds=paths.splits("{run}"),
    log:
        "logs/prepare/{run}/{dataset}.log",
    wildcard_constraints:
        run=PLAN.runs_pattern(PLAN.prepared_runs()),  # a paper with one job per data set prepares in it
    priority: DATA_PRIORITY
    conda:
        "../../environment.yml"
    params:
        paper=paper_config,
        run=lambda wildcards: run_of(wildcards).args,
        registry=config["registry"],
        settings=lambda wildcards: PLAN.prepare_settings(run_of(wildcards), wildcards.dataset),  # a rerun trigger
    shell:
        "nbrepro prepare --paper-config {params.paper:q} {params.run}--dataset {wildcards.dataset:q} "
        "--registry {params.registry:q} --raw {input.raw:q} --out-data {output.data:q} --out-folds {output.folds:q} "
        "2> {log:q}"


rule seed_folds:
    # a reseeded run's folds, for a paper with several jobs per data set (one job alone makes its own)
    input:
        data=lambda wildcards: run_of(wildcards).prepared(wildcards.dataset),
    output:
        paths.splits("{run}"),
    log:
        "logs/prepare/{run}/{dataset}.log",
    wildcard_constraints:
        run=PLAN.runs_pattern(PLAN.seed_fold_runs()),
    priority: DATA_PRIORITY
    conda:
        "../../environment.yml"
    params:
        paper=paper_config,
        run=lambda wildcards: run_of(wildcards).args,
        settings=lambda wildcards: PLAN.prepare_settings(run_of(wildcards), wildcards.dataset),
    shell:
        "nbrepro folds --paper-config {params.paper:q} {params.run}--dataset {wildcards.dataset:q} "
        "--prepared {input.data:q} --out {output:q} 2> {log:q}"
