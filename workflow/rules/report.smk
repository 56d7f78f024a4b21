rule figure:
    conda:
        "../../environment.yml"
    input:
        table=paths.results(name=paths.table("{table}")),
    params:
        stem=lambda wildcards: paths.figures(wildcards.paper, paths.reproduced_vs_published(wildcards.table)),
    output:
        png=report(paths.figures(name=paths.reproduced_vs_published("{table}"), ext="png"),
                   caption="../report/reproduced_vs_published.rst", category="{paper}", subcategory="figures"),
        svg=paths.figures(name=paths.reproduced_vs_published("{table}"), ext="svg"),
    log:
        "logs/report/{paper}/{table}_figure.log",
    shell:
        "nbrepro figure --table {input.table:q} --out {params.stem:q} 2> {log:q}"


rule report:
    conda:
        "../../environment.yml"
    input:
        paper_tables,
        paper_figures,
        paper_report_extras,
        seed_report_inputs,   # the seed bands and stability, with --config seeds=K
        reading_report_inputs,   # what fits and what survives, with --config readings=…
        lambda wildcards: out_of_sample_outputs(wildcards.paper),   # with --config out_of_sample=…
        paths.results(name=paths.TIMINGS),
        paper=paper_config,
    params:
        registry=config["registry"],
        datasets=registry_entries_of_paper,  # the data sets' origin and licence it shows: a rerun trigger
        results=lambda wildcards: paths.results(wildcards.paper),
        figures=lambda wildcards: paths.figures(wildcards.paper),
        readings=lambda wildcards: "--readings" if READINGS[wildcards.paper] else "",
        out_of_sample=lambda wildcards: (f"--out-of-sample {shlex.quote(str(PAPERS[OUT_OF_SAMPLE[wildcards.paper]].path))}"
                                         if out_of_sample_outputs(wildcards.paper) else ""),
    output:
        report(paths.results(name=paths.REPORT), caption="../report/paper_report.rst", category="{paper}"),
        paths.results(name=paths.RUN_PAGE),  # when, on what, time per classifier column: machine-dependent, outside the fingerprint
    log:
        "logs/report/{paper}/report.log",
    shell:
        f"nbrepro report --paper-config {{input.paper:q}} --results {{params.results}} --seeds {SEEDS} "
        "{params.readings} {params.out_of_sample} --figures {params.figures} --registry {params.registry:q} 2> {log:q}"


rule index:
    conda:
        "../../environment.yml"
    input:
        [paths.results(p, paths.REPORT) for p in PAPERS],
        [f for p in PAPERS for f in (seed_band_outputs(p) if SEEDS else [])],   # the claims page's seed stability
        [f for p in PAPERS if READINGS[p] for f in reading_outputs(p)],   # its robustness to readings
        [f for p in OUT_OF_SAMPLE for f in out_of_sample_outputs(p)],   # each claim out of sample
        configs=[str(p.path) for p in PAPERS.values()],
        speed=committed_benchmark("suite_top_jobs.csv"),
        suite_run=committed_benchmark("suite_run.csv"),
    output:
        paths.INDEX,
        f"results/{paths.CLAIMS_PAGE}",   # every claim of every paper (report/claims_page.py)
        f"results/{paths.CLAIMS_CSV}",
    log:
        "logs/report/index.log",
    params:
        speed=lambda wildcards, input: f"--speed {input.speed}" if input.speed else "",
        suite_run=lambda wildcards, input: f"--suite-run {input.suite_run}" if input.suite_run else "",
        results=lambda wildcards, output: str(Path(output[0]).parent),
        readings="--readings" if any(READINGS.values()) else "",
        out_of_sample="--out-of-sample" if OUT_OF_SAMPLE else "",
        # papers an earlier run built (papers=[a], then papers=[b]) stay on the index: their configs' folders
        paper_dirs=lambda wildcards: " ".join(f"--paper-dir {shlex.quote(d)}" for d in (config["paper_dir"],
                                                                                     "resources/papers")),
    shell:
        f"nbrepro index --results {{params.results}} --seeds {SEEDS} {{params.readings}} {{params.out_of_sample}} "
        "{params.paper_dirs} "
        "{params.speed} {params.suite_run} "
        "{input.configs:q} 2> {log:q}"


rule crate:
    conda:
        "../../environment.yml"
    # the run's provenance as an RO-Crate beside the index (nbrepro.report.crate): every result
    # file with its sha256, the configs copied in, the data sets, the software and the commit
    input:
        paths.INDEX,
        [paths.results(p, paths.REPORT) for p in PAPERS],
        configs=[str(p.path) for p in PAPERS.values()],
        sources=[paths.raw_source(d) for d in RUN_DATASETS],
    params:
        registry=config["registry"],
        datasets=lambda wildcards: registry_entries(RUN_DATASETS),  # copied into the crate: a rerun trigger
    output:
        paths.CRATE_METADATA,
        [f"results/{paths.crate_input(n)}" for n in ["config.yaml", "datasets.yaml"] + [f"papers/{p}.yaml" for p in PAPERS]],
    log:
        "logs/report/crate.log",
    shell:
        "nbrepro crate --results results --registry {params.registry:q} {input.configs:q} 2> {log:q}"
