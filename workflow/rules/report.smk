# SPDX-License-Identifier: GPL-3.0-or-later
rule figure:
    input:
        table=paths.results(name=paths.table("{table}")),
    output:
        png=report(
            paths.figures(name=paths.reproduced_vs_published("{table}"), ext="png"),
            caption="../report/reproduced_vs_published.rst",
            category="{paper}",
            subcategory="figures",
        ),
        svg=paths.figures(name=paths.reproduced_vs_published("{table}"), ext="svg"),
    log:
        "logs/report/{paper}/{table}_figure.log",
    conda:
        "../../environment.yml"
    params:
        stem=lambda wildcards: paths.figures(wildcards.paper, paths.reproduced_vs_published(wildcards.table)),
    shell:
        "nbrepro figure --table {input.table:q} --out {params.stem:q} 2> {log:q}"


rule report:
    input:
        lambda wildcards: PLAN.report_inputs(wildcards.paper),
        paper=lambda wildcards: PLAN.run(wildcards.paper).config,
    output:
        report(
            paths.results(name=paths.REPORT),
            caption="../report/paper_report.rst",
            category="{paper}",
        ),
        paths.results(name=paths.RUN_PAGE),  # when, on what, time per classifier column: machine-dependent, outside the fingerprint
        # the figures the page shows, copied beside it (nbrepro.report.shown_figures): results/ stands alone
        directory(paths.results(name=paths.SHOWN_FIGURES)),
    log:
        "logs/report/{paper}/report.log",
    conda:
        "../../environment.yml"
    params:
        registry=config["registry"],
        datasets=lambda wildcards: PLAN.registry_entries_of_paper(wildcards.paper),  # shown: a rerun trigger
        results=lambda wildcards: paths.results(wildcards.paper),
        figures=lambda wildcards: paths.figures(wildcards.paper),
        readings=lambda wildcards: ("--readings" if PLAN.readings[wildcards.paper] else ""),
        out_of_sample=lambda wildcards: PLAN.out_of_sample_report_args(wildcards.paper),
    shell:
        f"nbrepro report --paper-config {{input.paper:q}} --results {{params.results}} --seeds {SEEDS} "
        "{params.readings} {params.out_of_sample} --figures {params.figures} --registry {params.registry:q} 2> {log:q}"


rule index:
    input:
        [paths.results(p, paths.REPORT) for p in PAPERS],
        PLAN.pages_inputs(),  # the claims page's seed stability, robustness to readings, verdicts out of sample
        configs=[str(p.path) for p in PAPERS.values()],
        speed=committed_benchmark("suite_top_jobs.csv"),
        suite_run=committed_benchmark("suite_run.csv"),
    output:
        paths.INDEX,
        f"results/{paths.CLAIMS_PAGE}",  # every claim of every paper (report/claims_page.py)
        f"results/{paths.CLAIMS_CSV}",
    log:
        "logs/report/index.log",
    conda:
        "../../environment.yml"
    params:
        speed=lambda wildcards, input: f"--speed {input.speed}" if input.speed else "",
        suite_run=lambda wildcards, input: (f"--suite-run {input.suite_run}" if input.suite_run else ""),
        results=lambda wildcards, output: str(Path(output[0]).parent),
        readings="--readings" if any(PLAN.readings.values()) else "",
        out_of_sample="--out-of-sample" if PLAN.out_of_sample else "",
        # papers an earlier run built (papers=[a], then papers=[b]) stay on the index: their configs' folders
        # (a run with paper_dir= included: the configs' own folder is searched too)
        paper_dirs=" ".join(
            f"--paper-dir {shlex.quote(d)}"
            for d in dict.fromkeys((config["paper_dir"], "config/papers", "resources/papers"))
        ),
    shell:
        f"nbrepro index --results {{params.results}} --seeds {SEEDS} {{params.readings}} {{params.out_of_sample}} "
        "{params.paper_dirs} "
        "{params.speed} {params.suite_run} "
        "{input.configs:q} 2> {log:q}"


rule crate:
    # the run's provenance as an RO-Crate beside the index (nbrepro.report.crate): every result
    # file with its sha256, the configs copied in, the data sets, the software and the commit
    input:
        paths.INDEX,
        [paths.results(p, paths.REPORT) for p in PAPERS],
        configs=[str(p.path) for p in PAPERS.values()],
        sources=[paths.raw_source(d) for d in PLAN.run_datasets],
    output:
        paths.CRATE_METADATA,
        PLAN.crate_copies(),
    log:
        "logs/report/crate.log",
    conda:
        "../../environment.yml"
    params:
        registry=config["registry"],
        datasets=lambda wildcards: PLAN.registry_entries(PLAN.run_datasets),  # copied into the crate: a rerun trigger
    shell:
        "nbrepro crate --results results --registry {params.registry:q} {input.configs:q} 2> {log:q}"
