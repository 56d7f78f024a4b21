rule table:
    conda:
        "../../environment.yml"
    # one reproduced table of a paper, beside the published one, with its summary rows and match counts
    input:
        fold_results,
        dataset_level_predictions,
        paper=paper_config,
    params:
        registry=config["registry"],
        results=lambda wildcards: paths.results(wildcards.paper),
    output:
        table=report(paths.results(name=paths.table("{table}")), caption="../report/table.rst",
                     category="{paper}", subcategory="tables"),
        summary=paths.results(name=paths.table_summary("{table}")),
        counts=report(paths.results(name=paths.match_counts("{table}")), caption="../report/match_counts.rst",
                      category="{paper}", subcategory="tables"),
    wildcard_constraints:
        table=r"[A-Za-z][A-Za-z0-9]*",  # no underscore: {table}_summary.csv stays apart
    log:
        "logs/analyse/{paper}/{table}.log",
    shell:
        "nbrepro analyse --paper-config {input.paper:q} --results {params.results} "
        "--registry {params.registry:q} --table {wildcards.table} 2> {log:q}"


rule timings:
    conda:
        "../../environment.yml"
    input:
        fold_results,
        paper=paper_config,
    params:
        results=lambda wildcards: paths.results(wildcards.paper),
    output:
        paths.results(name=paths.TIMINGS),
    log:
        "logs/analyse/{paper}/timings.log",
    shell:
        "nbrepro analyse --paper-config {input.paper:q} --results {params.results} --timings 2> {log:q}"


for _paper in PAPERS:
    if not any(paper_stats_outputs(_paper)):
        continue

    rule:
        conda:
            "../../environment.yml"
        # Table 1 from the raw data, the statistics, figures and claims the paper config declares
        name:
            f"paper_stats_{_paper}"
        input:
            stats_inputs(_paper),
            paper=str(PAPERS[_paper].path),
        output:
            paper_stats_outputs(_paper),
        params:
            results=folder_of(paths.results, _paper),  # a function, as the lint asks of a path prefix
            figures=folder_of(paths.figures, _paper),
            registry=config["registry"],
        log:
            f"logs/analyse/{_paper}/paper_stats.log",
        shell:
            "nbrepro paper-stats --paper-config {input.paper:q} --results {params.results} "
            "--registry {params.registry:q} --figures {params.figures} 2> {log:q}"
