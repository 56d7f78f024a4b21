# SPDX-License-Identifier: GPL-3.0-or-later
# Each run's tables and statistics (one rule over every {run}: the main run, a reseeded one, a
# reading), the main run's timings; then what sets the runs beside each other: each paper's seed
# bands (--config seeds=K), its readings summary (readings=…) and its claims out of sample
# (out_of_sample=…).


rule table:
    # one reproduced table of a run, beside the published one, with its summary rows and match counts
    # (a reading's: the classifiers it does not touch read from the run it patches)
    input:
        lambda wildcards: run_of(wildcards).table_inputs(),
        paper=paper_config,
    output:
        table=report(
            paths.results("{run}", paths.table("{table}")),
            caption="../report/table.rst",
            category="{run}",
            subcategory="tables",
        ),
        summary=paths.results("{run}", paths.table_summary("{table}")),
        counts=report(
            paths.results("{run}", paths.match_counts("{table}")),
            caption="../report/match_counts.rst",
            category="{run}",
            subcategory="tables",
        ),
    log:
        "logs/analyse/{run}/{table}.log",
    conda:
        "../../environment.yml"
    params:
        run=lambda wildcards: run_of(wildcards).args,
        registry=config["registry"],
        results=lambda wildcards: run_of(wildcards).folder,
        base=lambda wildcards: run_of(wildcards).base_args,
    shell:
        "nbrepro analyse --paper-config {input.paper:q} {params.run}--results {params.results} {params.base}"
        "--registry {params.registry:q} --table {wildcards.table} 2> {log:q}"


rule timings:
    input:
        lambda wildcards: PLAN.run(wildcards.paper).fold_files(),
        paper=lambda wildcards: PLAN.run(wildcards.paper).config,
    output:
        paths.results(name=paths.TIMINGS),
    log:
        "logs/analyse/{paper}/timings.log",
    conda:
        "../../environment.yml"
    params:
        results=lambda wildcards: paths.results(wildcards.paper),
    shell:
        "nbrepro analyse --paper-config {input.paper:q} --results {params.results} --timings 2> {log:q}"


for _rule in PLAN.stats_rules:

    rule:
        # Table 1 from the raw data, the statistics, figures (the main run's) and claims the paper declares
        name:
            _rule.name
        input:
            lambda wildcards: run_of(wildcards).stats_inputs(),
            paper=paper_config,
        output:
            _rule.outputs,
        log:
            "logs/analyse/{run}/paper_stats.log",
        wildcard_constraints:
            run=_rule.run_pattern,
        conda:
            "../../environment.yml"
        params:
            run=lambda wildcards: run_of(wildcards).args,
            results=lambda wildcards: run_of(wildcards).folder,
            base=lambda wildcards: run_of(wildcards).base_args,
            figures=lambda wildcards: PLAN.figures_args(run_of(wildcards)),
            registry=config["registry"],
        shell:
            "nbrepro paper-stats --paper-config {input.paper:q} {params.run}--results {params.results} {params.base}"
            "--registry {params.registry:q}{params.figures} 2> {log:q}"


for _rule in PLAN.paper_rules("seed_bands"):

    rule:
        # each printed cell's band over the runs, each table's noise floor, each claim's seed stability
        name:
            _rule.name
        input:
            lambda wildcards: PLAN.seed_band_inputs(wildcards.paper),
            paper=lambda wildcards: PLAN.run(wildcards.paper).config,
        output:
            _rule.outputs,
        log:
            "logs/analyse/{paper}/seed_bands.log",
        wildcard_constraints:
            paper=_rule.paper_pattern,
        conda:
            "../../environment.yml"
        params:
            results=lambda wildcards: paths.results(wildcards.paper),
        shell:
            f"nbrepro seed-bands --paper-config {{input.paper:q}} --results {{params.results}} --seeds {SEEDS} "
            "2> {log:q}"


for _rule in PLAN.paper_rules("readings"):

    rule:
        # which reading fits the printed cells best, which claims change with a reading
        name:
            _rule.name
        input:
            lambda wildcards: PLAN.reading_summary_inputs(wildcards.paper),
            paper=lambda wildcards: PLAN.run(wildcards.paper).config,
        output:
            _rule.outputs,
        log:
            "logs/analyse/{paper}/readings.log",
        wildcard_constraints:
            paper=_rule.paper_pattern,
        conda:
            "../../environment.yml"
        params:
            results=lambda wildcards: paths.results(wildcards.paper),
            figures=lambda wildcards: paths.figures(wildcards.paper),
            readings=lambda wildcards: " ".join(f"--reading {r}" for r in PLAN.readings[wildcards.paper]),
        shell:
            f"nbrepro readings --paper-config {{input.paper:q}} --results {{params.results}} --seeds {SEEDS} "
            "--figures {params.figures} {params.readings} 2> {log:q}"


for _rule in PLAN.paper_rules("out_of_sample"):

    rule:
        # each claim's verdict in sample and out of sample (with a table of values: the pool's rows, the ranks)
        name:
            _rule.name
        input:
            unpack(lambda wildcards: PLAN.out_of_sample_inputs(wildcards.paper)),
        output:
            _rule.outputs,
        log:
            "logs/analyse/{paper}/out_of_sample.log",
        wildcard_constraints:
            paper=_rule.paper_pattern,
        conda:
            "../../environment.yml"
        params:
            tables=lambda wildcards, input, output: PLAN.out_of_sample_args(input, output),
        shell:
            "nbrepro out-of-sample --in-sample {input.in_sample:q} --out-of-sample {input.out_of_sample:q} "
            "--out {output[0]:q} {params.tables} 2> {log:q}"
