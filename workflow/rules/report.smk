rule figure:
    conda:
        "../../environment.yml"
    input:
        table="results/{paper}/tables/{table}.csv",
    output:
        png=report("figures/{paper}/{table}_reproduced_vs_published.png",
                   caption="../report/reproduced_vs_published.rst", category="{paper}", subcategory="figures"),
        svg="figures/{paper}/{table}_reproduced_vs_published.svg",
    log:
        "logs/report/{paper}/{table}_figure.log",
    shell:
        "nbrepro figure --table {input.table:q} "
        "--out figures/{wildcards.paper}/{wildcards.table}_reproduced_vs_published 2> {log:q}"


rule report:
    conda:
        "../../environment.yml"
    input:
        paper_tables,
        paper_figures,
        paper_report_extras,
        "results/{paper}/stats/timings.csv",
        paper=paper_config,
    output:
        report("results/{paper}/report.html", caption="../report/paper_report.rst", category="{paper}"),
        "results/{paper}/run.html",  # when, on what, time per classifier column: machine-dependent, outside the fingerprint
    log:
        "logs/report/{paper}/report.log",
    shell:
        "nbrepro report --paper-config {input.paper} --results results/{wildcards.paper} "
        "--figures figures/{wildcards.paper} 2> {log:q}"


rule index:
    conda:
        "../../environment.yml"
    input:
        expand("results/{paper}/report.html", paper=PAPERS),
        configs=[p["path"] for p in PAPERS.values()],
        speed=committed_benchmark("suite_top_jobs.csv"),
        suite_run=committed_benchmark("suite_run.csv"),
    output:
        "results/index.html",
    log:
        "logs/report/index.log",
    params:
        speed=lambda wildcards, input: f"--speed {input.speed}" if input.speed else "",
        suite_run=lambda wildcards, input: f"--suite-run {input.suite_run}" if input.suite_run else "",
    shell:
        "nbrepro index --results results {params.speed} {params.suite_run} {input.configs} 2> {log:q}"
